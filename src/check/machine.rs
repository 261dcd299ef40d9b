//! The machine a check runs on, as the command line describes it: faults
//! (`--fault`, `--faults`, `--node-faults`, `--random-faults`), late
//! deliveries (`--delay`) and skewed starts (`--skew`); turned into the
//! scenarios of `models::Faulty` (docs/architecture.md, "Faults, delays
//! and skew"), and back into the words of a `reproduce with` line.

use super::error::CheckError;
use crate::engine::Engine;
use models::faults::{self, Fault, Faults, Part, Subsets};
use models::{Family, Faulty, Protocol, Sweep, Topology};
use properties::Slot;

/// The most scenarios (fault sets times start offsets) one check lists.
pub const MOST_SCENARIOS: u64 = 1 << 22;

/// How the machine departs from the papers' perfect one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Machine {
    /// `--fault`, as typed: faults present in every run.
    pub faults: Vec<String>,
    /// `--faults F`: every set of at most F failed links.
    pub link_faults: Option<u32>,
    /// `--arc-faults F`: every set of at most F failed arcs.
    pub arc_faults: Option<u32>,
    /// `--node-faults F`: every set of at most F crashed nodes.
    pub node_faults: Option<u32>,
    /// `--random-faults P`: each link fails with probability P.
    pub random_links: Option<f64>,
    /// `--random-node-faults P`: each node crashes with probability P.
    pub random_nodes: Option<f64>,
    /// `--seed`: the draw of the random faults.
    pub seed: u64,
    /// `--delay D`: any transmission may land up to D slots late.
    pub delay: Slot,
    /// `--skew S`: nodes start up to S slots apart.
    pub skew: Slot,
}

impl Machine {
    /// True for the papers' machine: nothing fails, nothing is late.
    pub fn perfect(&self) -> bool {
        *self == Machine::default()
            || *self
                == Machine {
                    seed: self.seed,
                    ..Machine::default()
                }
    }

    /// True if some fault is named or drawn (`--fault`, `--random-faults`):
    /// a particular machine, whose sources are not images of each other.
    pub fn named(&self) -> bool {
        !self.closed()
    }

    /// True if the scenarios are every fault set of a size and every
    /// skew, a set the hypercube's translations map onto itself.
    fn closed(&self) -> bool {
        self.faults.is_empty() && self.random_links.is_none() && self.random_nodes.is_none()
    }

    /// Refuses what the engine cannot cover: the executor makes one run,
    /// so it takes named and random faults but enumerates nothing.
    pub fn refuse(&self, engine: Engine, family: Family) -> Result<(), CheckError> {
        if self.arc_faults.is_some() && matches!(family, Family::MeshBus { .. }) {
            return Err(CheckError::Usage(
                "--arc-faults: a mesh-bus's buses have no direction; --faults F fails whole \
                 buses, --fault bus:R_1 one"
                    .into(),
            ));
        }
        if engine == Engine::Actor {
            return Err(CheckError::Usage(
                "faults, delays and skew are judged in slots: the lock-step model and the \
                 executor run them, not the actor model (which already delivers in every order)"
                    .into(),
            ));
        }
        if engine == Engine::Executor {
            if let Some(flag) = self.every_case() {
                return Err(CheckError::Usage(format!(
                    "{flag} asks for every case, which the executor's one run cannot cover: \
                     use an exhaustive engine (a small size), or --fault and --random-faults \
                     with the executor"
                )));
            }
        }
        Ok(())
    }

    /// The scenarios of a check of `p`: the named and random faults in
    /// every one, times every enumerated fault set, times every start
    /// offset vector; refused past [`MOST_SCENARIOS`].
    fn scenarios<P: Protocol>(&self, p: &P) -> Result<Sweep, CheckError> {
        let t = p.topology();
        let named = self
            .faults
            .iter()
            .map(|f| Fault::parse(f, t))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| CheckError::Usage(e.to_string()))?;
        let mut links = 0u64;
        faults::each_link(t, |_| links += 1);
        let sets = |count: Option<u32>, parts: u64| faults::count_sets(parts, count.unwrap_or(0));
        let total = sets(self.link_faults, links)
            .saturating_mul(sets(self.arc_faults, 2 * links))
            .saturating_mul(sets(self.node_faults, t.nodes() as u64))
            .saturating_mul(models::imperfect::offset_vectors(t.nodes(), self.skew));
        if total > MOST_SCENARIOS {
            return Err(CheckError::Usage(format!(
                "{} scenarios (fault sets times start offsets) is more than the {MOST_SCENARIOS} \
                 a check lists: fewer faults, less skew or a smaller network",
                models::catalog::count_words(total)
            )));
        }
        let mut every = named;
        if let Some(q) = self.random_links {
            every.extend_from_slice(faults::random_faults(t, q, false, self.seed).list());
        }
        if let Some(q) = self.random_nodes {
            let salt = self.seed ^ 0x6e6f_6465;
            every.extend_from_slice(faults::random_faults(t, q, true, salt).list());
        }
        // The parts of a family only where it is enumerated.
        let family = |most: Option<u32>, parts: &dyn Fn() -> Vec<Part>| match most {
            Some(f @ 1..) => Subsets::new(parts(), f),
            _ => Subsets::new(Vec::new(), 0),
        };
        let sweep = Sweep {
            every,
            sets: vec![
                family(self.link_faults, &|| faults::links(t)),
                family(self.arc_faults, &|| faults::arcs(t)),
                family(self.node_faults, &|| faults::nodes(t)),
            ],
            nodes: t.nodes(),
            skew: self.skew,
        };
        debug_assert_eq!(sweep.count(), total);
        Ok(sweep)
    }

    /// `p` on this machine.
    pub fn wrap<P: Protocol>(&self, p: P) -> Result<Faulty<P>, CheckError> {
        let sweep = self.scenarios(&p)?;
        Ok(Faulty::sweep(p, sweep, self.delay, self.closed()))
    }

    /// What a `reproduce with` line adds for a run with `faults` (the
    /// counterexample's, where faults were enumerated): each fault named,
    /// or the random draw, then the delay and the skew.
    pub fn reproduce_args(&self, t: &impl Topology, faults: Option<&Faults>) -> String {
        let mut s = String::new();
        let random = self.random_links.is_some() || self.random_nodes.is_some();
        if random {
            s += &self
                .faults
                .iter()
                .map(|f| format!(" --fault {f}"))
                .collect::<String>();
            if let Some(q) = self.random_links {
                s += &format!(" --random-faults {q}");
            }
            if let Some(q) = self.random_nodes {
                s += &format!(" --random-node-faults {q}");
            }
            s += &format!(" --seed {}", self.seed);
        } else if let Some(f) = faults {
            for fault in f.list() {
                s += &format!(" --fault {}", fault.arg(t));
            }
        }
        if self.delay > 0 {
            s += &format!(" --delay {}", self.delay);
        }
        if self.skew > 0 {
            s += &format!(" --skew {}", self.skew);
        }
        s
    }

    /// The first flag given that asks for every case (every fault set,
    /// delay or skew), which one run cannot cover.
    fn every_case(&self) -> Option<&'static str> {
        let many = [
            (self.link_faults.is_some(), "--faults"),
            (self.arc_faults.is_some(), "--arc-faults"),
            (self.node_faults.is_some(), "--node-faults"),
            (self.delay > 0, "--delay"),
            (self.skew > 0, "--skew"),
        ];
        many.iter().find(|(on, _)| *on).map(|(_, flag)| *flag)
    }

    /// Refuses what one run cannot show: exports draw one run, so its
    /// faults must be named (or drawn), and no delay or skew chosen.
    pub fn one_run(&self) -> Result<(), CheckError> {
        match self.every_case() {
            Some(flag) => Err(CheckError::Usage(format!(
                "{flag} asks for every case; --svg, --dot, --svg-load and --trace draw one run: \
                 name its faults with --fault (a check's reproduce line names them)"
            ))),
            None => Ok(()),
        }
    }

    /// The flags as given, for a command line (`--fault X --delay 1`).
    pub fn flags(&self) -> String {
        let mut s: String = self
            .faults
            .iter()
            .map(|f| format!(" --fault {f}"))
            .collect();
        let counts = [
            (self.link_faults, "--faults"),
            (self.arc_faults, "--arc-faults"),
            (self.node_faults, "--node-faults"),
        ];
        for (count, flag) in counts {
            if let Some(f) = count {
                s += &format!(" {flag} {f}");
            }
        }
        if let Some(q) = self.random_links {
            s += &format!(" --random-faults {q} --seed {}", self.seed);
        }
        if let Some(q) = self.random_nodes {
            s += &format!(" --random-node-faults {q} --seed {}", self.seed);
        }
        if self.delay > 0 {
            s += &format!(" --delay {}", self.delay);
        }
        if self.skew > 0 {
            s += &format!(" --skew {}", self.skew);
        }
        s
    }

    /// The machine in words, for the report's notes.
    pub fn words(&self) -> Vec<String> {
        let mut w = Vec::new();
        if !self.faults.is_empty() {
            w.push(format!("faults in every run: {}", self.faults.join(", ")));
        }
        if let Some(f) = self.link_faults {
            w.push(format!("every set of at most {f} failed links"));
        }
        if let Some(f) = self.arc_faults {
            w.push(format!("every set of at most {f} failed arcs"));
        }
        if let Some(f) = self.node_faults {
            w.push(format!("every set of at most {f} crashed nodes"));
        }
        if let Some(q) = self.random_links {
            w.push(format!(
                "each link failed with probability {q} (seed {})",
                self.seed
            ));
        }
        if let Some(q) = self.random_nodes {
            w.push(format!(
                "each node crashed with probability {q} (seed {})",
                self.seed
            ));
        }
        if self.delay > 0 {
            w.push(format!(
                "any transmission up to {} slot{} late, every choice",
                self.delay,
                if self.delay == 1 { "" } else { "s" }
            ));
        }
        if self.skew > 0 {
            w.push(format!(
                "nodes starting up to {} slots apart, every way",
                self.skew
            ));
        }
        w
    }
}
