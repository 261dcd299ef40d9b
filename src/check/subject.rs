//! What a check is about: a catalogued algorithm at a configuration, or a
//! protocol of the user's own.

use super::request::Request;
use models::catalog::{Config, Reach};
use models::{Family, Network, Protocol};

/// What a check is about, as plans and reports name it: a catalogued
/// algorithm at a configuration ([`Subject::of`]), or a protocol of the
/// user's own ([`Subject::own`]).
#[derive(Clone, Debug)]
pub struct Subject {
    /// The name in reports (`nob`).
    pub name: String,
    /// How far each engine finishes without a budget: past it a check
    /// asks for one, and the default engine is the executor.
    pub reach: Reach,
    /// The network family and what the size means.
    pub family: Family,
    /// The size, modes and parameters.
    pub config: Config,
    /// The catalogued request, where there is one: it names the command
    /// that reproduces a violation and the cost model that refuses an
    /// executor run before anything is built.
    pub request: Option<Request>,
    /// The command that checks it again, where it is not catalogued (a
    /// schedule's: `check schedule FILE --network NET ...`).
    pub reproduce: Option<String>,
}

impl Subject {
    /// The subject of a catalogued request.
    pub fn of(req: &Request) -> Subject {
        Subject {
            name: req.algorithm.name().to_string(),
            reach: req.algorithm.reach(),
            family: req.algorithm.family(),
            config: req.config.clone(),
            request: Some(req.clone()),
            reproduce: None,
        }
    }

    /// A protocol of the user's own called `name`: its network's family,
    /// size and modes are read from its topology; every engine within
    /// reach (the user picks the engine and the budgets in
    /// [`Options`](crate::check::Options)).
    pub fn own<P: Protocol>(name: &str, protocol: &P) -> Subject
    where
        P::Topo: Clone + Into<Network>,
    {
        let network: Network = protocol.topology().clone().into();
        let config = Config {
            n: network.size(),
            switching: network.switching(),
            ports: network.ports(),
            params: Default::default(),
        };
        Subject::new(name, network.family(), config)
    }

    /// A subject called `name`, on `family` at `config` (parameters
    /// included): a schedule's, or a protocol whose configuration says
    /// more than its topology.
    pub fn new(name: &str, family: Family, config: Config) -> Subject {
        Subject {
            name: name.to_string(),
            reach: Reach {
                lockstep: u32::MAX,
                actor: u32::MAX,
                actor_auto: u32::MAX,
            },
            family,
            config,
            request: None,
            reproduce: None,
        }
    }

    /// The command that reproduces a run from `source`, where the subject
    /// is catalogued or says its command (a schedule's has one run).
    pub fn command(&self, source: Option<u32>) -> Option<String> {
        match &self.request {
            Some(r) => Some(r.command(source)),
            None => self.reproduce.clone(),
        }
    }
}
