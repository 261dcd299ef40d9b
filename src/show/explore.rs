//! The Explorer: stateright's web page over a check's model, with the
//! report printed first and a link to each counterexample, and the page's
//! own check started where the model is small.
//!
//! Two models can be served: the lock-step model (the papers' synchronous
//! runs, a slot per action, each state drawn as the network), and with
//! `--engine actor` stateright's own `ActorModel` of the asynchronous
//! semantics (a delivery per action, drawn by stateright as a sequence
//! diagram of messages), told in the paper's words by [`ActorModelPage`].
//! In both, every property is an `always` property, whose discovery is
//! the run that breaks it; one the paper does not claim is named so (`no
//! duplicate receptions (not claimed)`, [`explorer_name`]), and the lines
//! printed call its discovery an observation, never a violation.

use crate::check::plan::Plan;
use crate::check::run::check_with;
use crate::check::{CheckError, Options, Request, Subject};
use crate::engine::actor::{self, Actors, NoTimer, NodeActor, Wire};
use crate::engine::lockstep::{explorer_name, LockStep, RUN_ENDS};
use crate::engine::Engine;
use models::{with_protocol, Protocol, ProtocolExt, Topology};
use properties::{Claims, Holdings, PropertyName};
use stateright::actor::{ActorModelAction, ActorModelState, Id};
use stateright::{Expectation, Model, Path, Property};
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Duration;

/// Largest n the Explorer serves (a picture of 2^n nodes stays readable
/// only so far).
pub const EXPLORER_REACH: u32 = 10;

/// Most states for which `--explore` starts the page's own check by
/// itself (stateright keeps every state in memory, about a kilobyte each).
pub const EXPLORER_AUTO_RUN: u64 = 200_000;

/// Serves the model of `req` in stateright's Explorer on `addr`: the
/// lock-step model, or with `--engine actor` the actor model (the inputs
/// the check would cover); returns only on error.
pub fn serve(req: &Request, addr: &str) -> Result<(), CheckError> {
    let subject = Subject::of(req);
    let machine = &req.options.machine;
    with_protocol!(req.algorithm, req.config.clone(), |p| {
        match machine.perfect() {
            true => serve_protocol(Arc::new(p), &subject, &req.options, addr),
            false => {
                machine.refuse(crate::engine::Engine::Lockstep, subject.family)?;
                serve_protocol(Arc::new(machine.wrap(p)?), &subject, &req.options, addr)
            }
        }
    })
}

/// Serves `protocol`, named and sized by `subject` (a catalogued
/// algorithm's, or [`Subject::own`] for a protocol of the user's own), in
/// stateright's Explorer on `addr`, as `check ALG N --explore` does: the
/// report first, a link to each violation and observation on the page,
/// then the page. `options.engine` picks the model: `Some(Engine::Actor)`
/// the actor model (event-driven protocols), otherwise the lock-step
/// model. Returns only on error (a refusal, or an address taken).
///
/// ```no_run
/// use commcheck::check::{Options, Subject};
/// use commcheck::engine::Engine;
/// use commcheck::show::explore::serve_protocol;
/// use models::catalog::Algorithm;
/// use models::lecture_notes::sbt::Sbt;
/// use std::sync::Arc;
///
/// // SBT on the 3-cube as a protocol of one's own, in every delivery order.
/// let sbt = Sbt::new(Algorithm::Sbt.config(3, None, None).unwrap());
/// let subject = Subject::own("my-sbt", &sbt);
/// let options = Options { engine: Some(Engine::Actor), ..Options::default() };
/// serve_protocol(Arc::new(sbt), &subject, &options, "127.0.0.1:3000").unwrap();
/// ```
pub fn serve_protocol<P: Protocol + 'static>(
    protocol: Arc<P>,
    subject: &Subject,
    options: &Options,
    addr: &str,
) -> Result<(), CheckError> {
    match options.engine {
        Some(Engine::Actor) => serve_actors(protocol, subject, options, addr),
        Some(Engine::Executor) => Err(CheckError::Usage(
            "--explore serves the lock-step model (or with --engine actor the actor model); \
             it does not take --engine executor"
                .into(),
        )),
        _ => serve_lockstep(protocol, subject, options, addr),
    }
}

/// `subject` and `options` with the engine set to `engine` (so the
/// report's reproduce line names it too).
fn with_engine(subject: &Subject, options: &Options, engine: Engine) -> (Subject, Options) {
    let mut subject = subject.clone();
    if let Some(req) = &mut subject.request {
        req.options.engine = Some(engine);
    }
    // The page links every discovery, observations included.
    let options = Options {
        engine: Some(engine),
        observe_all: true,
        ..options.clone()
    };
    (subject, options)
}

/// The line that links a discovery of property `q` on the page: a
/// violated claim, or an observation.
fn link(claims: &Claims, q: PropertyName, addr: &str, path: &str) -> String {
    match claims.claims(q) {
        true => format!(
            "{} is violated: open http://{addr}/#/steps/{path}",
            q.as_str()
        ),
        false => format!(
            "{} is not kept (observed, not claimed): see http://{addr}/#/steps/{path}",
            q.as_str()
        ),
    }
}

/// The report's property `name`, if it is one of [`PropertyName::ALL`].
fn property(name: &str) -> Option<PropertyName> {
    PropertyName::ALL.into_iter().find(|q| q.as_str() == name)
}

/// Says whether the page checks the model by itself (a model of
/// `states` states, counted to the end if `finished`), and starts its
/// check if so.
fn announce_auto_run(addr: &str, states: u64, finished: bool) {
    if finished && states <= EXPLORER_AUTO_RUN {
        eprintln!(
            "The page checks the model itself ({states} states), so its Properties \
             list links each violation."
        );
        run_to_completion(addr.to_string());
    } else {
        eprintln!(
            "The page checks nothing until Run to completion is pressed \
             ({} states; it starts by itself up to {EXPLORER_AUTO_RUN}).",
            match finished {
                true => states.to_string(),
                false => "more than the search's budget".to_string(),
            }
        );
    }
}

/// Serves the lock-step model, after commcheck's own search: its paths
/// are the page's (successor k is stateright's action k).
fn serve_lockstep<P: Protocol + 'static>(
    p: Arc<P>,
    subject: &Subject,
    options: &Options,
    addr: &str,
) -> Result<(), CheckError> {
    let reach = subject.reach.lockstep.min(EXPLORER_REACH);
    let n = subject.config.n;
    if n > reach {
        return Err(CheckError::ExplorerReach {
            model: "lock-step model",
            algorithm: subject.name.clone(),
            n,
            reach,
        });
    }
    let front = super::front::Front::bind(addr)?;
    // What the page will show, found first by commcheck's own search: the
    // report, with a link to each counterexample and observation.
    let (lockstep, options) = with_engine(subject, options, Engine::Lockstep);
    let plan = Plan::new(&lockstep, &options, None)?.cover(&*p, &lockstep, &options)?;
    let inputs = plan.inputs.clone();
    let outcome = check_with(Arc::clone(&p), None, &lockstep, &options, plan)?;
    eprint!("{}", outcome.text());
    let claims = p.claims();
    for r in &outcome.properties {
        if let (Some(path), Some(q)) = (&r.explorer_path, property(r.name)) {
            eprintln!("{}", link(&claims, q, addr, path));
        }
    }
    eprintln!(
        "Explorer for `{}` on http://{addr}/ (Ctrl-C to stop)",
        title(subject)
    );
    let states = outcome.states.unwrap_or(u64::MAX);
    let finished = outcome.search.as_ref().is_some_and(|c| c.cut.is_none());
    announce_auto_run(addr, states, finished);
    LockStep::new(p, inputs)
        .labelled()
        .drawn(crate::show::picture::draw)
        .checker()
        .threads(options.threads)
        .serve(front.open()?);
    Ok(())
}

/// The command the page serves, or the subject's name.
fn title(subject: &Subject) -> String {
    subject
        .command(None)
        .unwrap_or_else(|| subject.name.clone())
}

/// Serves stateright's `ActorModel` of `p` from one input (the first the
/// check covers: the model has one initial state), after the check with
/// `--engine actor`. The links are found on the served model itself, by
/// a breadth-first search of at most [`EXPLORER_AUTO_RUN`] states
/// ([`discoveries`]): commcheck's compact asynchronous search numbers its
/// successors otherwise.
fn serve_actors<P: Protocol + 'static>(
    p: Arc<P>,
    subject: &Subject,
    options: &Options,
    addr: &str,
) -> Result<(), CheckError> {
    if !p.event_driven() {
        return Err(CheckError::NotEventDriven {
            algorithm: subject.name.clone(),
        });
    }
    let reach = subject.reach.actor.min(EXPLORER_REACH);
    let n = subject.config.n;
    if n > reach {
        return Err(CheckError::ExplorerReach {
            model: "actor model",
            algorithm: subject.name.clone(),
            n,
            reach,
        });
    }
    let front = super::front::Front::bind(addr)?;
    let (actors, options) = with_engine(subject, options, Engine::Actor);
    let plan = Plan::new(&actors, &options, None)?.cover(&*p, &actors, &options)?;
    let inputs = plan.inputs.clone();
    let outcome = check_with(Arc::clone(&p), None, &actors, &options, plan)?;
    eprint!("{}", outcome.text());
    let input = inputs[0].clone();
    let served = p.describe_input(&input);
    if inputs.len() > 1 {
        eprintln!(
            "The page serves the actor model from {served} (stateright's ActorModel has one \
             initial state; the check covered {} inputs, --source picks another).",
            inputs.len()
        );
    }
    let page = ActorModelPage::new(Arc::clone(&p), input);
    // The served model is searched only where there is something to link
    // (or its size to learn: the check counted several inputs).
    let shown = outcome
        .properties
        .iter()
        .any(|r| r.counterexample.is_some());
    let found = match shown || inputs.len() > 1 {
        true => discoveries(&page, EXPLORER_AUTO_RUN),
        false => Discoveries {
            paths: vec![None; page.properties().len()],
            states: 0,
            finished: false,
        },
    };
    let claims = p.claims();
    for q in PropertyName::ALL {
        let reported = outcome
            .properties
            .iter()
            .find(|r| r.name == q.as_str())
            .is_some_and(|r| r.counterexample.is_some());
        let path = page
            .properties()
            .iter()
            .position(|prop| prop.name == explorer_name(&claims, q))
            .and_then(|i| found.paths[i].as_deref());
        match (path, reported) {
            (Some(path), _) => eprintln!("{}", link(&claims, q, addr, path)),
            (None, true) if found.finished => eprintln!(
                "{}: found from another input; the page's model (from {served}) does not show it",
                q.as_str()
            ),
            (None, true) => eprintln!(
                "{}: not reached within {EXPLORER_AUTO_RUN} states of the page's model; press \
                 Run to completion",
                q.as_str()
            ),
            (None, false) => {}
        }
    }
    eprintln!(
        "Explorer for `{}` on http://{addr}/ (Ctrl-C to stop): the actor model from {served}, \
         a delivery per step, drawn as a sequence diagram; contention-freedom is not listed \
         (no global slot: the actor model does not judge it)",
        title(&actors)
    );
    let (states, finished) = match outcome.actor_search.as_ref() {
        Some(c) if inputs.len() == 1 => (c.unique, c.cut.is_none()),
        _ => (found.states, found.finished),
    };
    announce_auto_run(addr, states, finished);
    page.checker().threads(options.threads).serve(front.open()?);
    Ok(())
}

/// What a breadth-first search of a served model found.
pub struct Discoveries {
    /// For each of the model's properties (in `Model::properties` order),
    /// the path of its shortest discovery, encoded as the Explorer's
    /// `#/steps/...` (the initial state's index, then action indices).
    pub paths: Vec<Option<String>>,
    /// Unique states visited.
    pub states: u64,
    /// True if every reachable state was visited.
    pub finished: bool,
}

/// The shortest discovery of each property of `model` (a state where an
/// `always` property fails, or a `sometimes` property holds), by
/// breadth-first search over at most `cap` unique states, stopping early
/// once every property has one. Paths number actions as the Explorer
/// does, so they open there.
pub fn discoveries<M: Model>(model: &M, cap: u64) -> Discoveries
where
    M::State: Hash,
{
    let props = model.properties();
    let mut paths: Vec<Option<String>> = vec![None; props.len()];
    let fingerprint = |s: &M::State| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        s.hash(&mut h);
        h.finish()
    };
    let judge = |s: &M::State, path: &[usize], paths: &mut [Option<String>]| {
        for (found, prop) in paths.iter_mut().zip(&props) {
            let shows = match prop.expectation {
                Expectation::Always => !(prop.condition)(model, s),
                Expectation::Sometimes => (prop.condition)(model, s),
                Expectation::Eventually => false,
            };
            if found.is_none() && shows {
                let steps: Vec<String> = path.iter().map(usize::to_string).collect();
                *found = Some(steps.join("/"));
            }
        }
    };
    let mut seen = HashSet::new();
    let mut frontier = Vec::new();
    for (i, s) in model.init_states().into_iter().enumerate() {
        if seen.insert(fingerprint(&s)) {
            judge(&s, &[i], &mut paths);
            frontier.push((s, vec![i]));
        }
    }
    let mut actions = Vec::new();
    while !frontier.is_empty() && paths.iter().any(Option::is_none) {
        let mut next = Vec::new();
        for (s, path) in frontier {
            actions.clear();
            model.actions(&s, &mut actions);
            for (k, action) in actions.drain(..).enumerate() {
                let Some(t) = model.next_state(&s, action) else {
                    continue;
                };
                if !seen.insert(fingerprint(&t)) {
                    continue;
                }
                if seen.len() as u64 > cap {
                    return Discoveries {
                        paths,
                        states: cap,
                        finished: false,
                    };
                }
                let mut to = path.clone();
                to.push(k);
                judge(&t, &to, &mut paths);
                next.push((t, to));
            }
        }
        frontier = next;
    }
    Discoveries {
        paths,
        states: seen.len() as u64,
        finished: frontier.is_empty(),
    }
}

/// stateright's `ActorModel` of a protocol from one input, as the
/// Explorer shows it: the same states, actions and paths (every method
/// that makes them is the `ActorModel`'s, and so is the picture, its
/// sequence diagram of messages), with each delivery labelled and each
/// state told in the paper's words, and the properties registered as
/// claims or observations. Contention-freedom is not among them: without a
/// global slot the actor model does not judge it.
pub struct ActorModelPage<P: Protocol> {
    /// The model served.
    pub model: Actors<P>,
    protocol: Arc<P>,
    /// The input, in the paper's words (`source 000`).
    input: String,
}

/// A state of the actor model of `P`.
pub type ActorState<P> = ActorModelState<NodeActor<P>>;

/// An action of the actor model of `P`: a delivery or a choice.
pub type ActorAction<P> = ActorModelAction<Wire<<P as Protocol>::Msg>, NoTimer, u32>;

impl<P: Protocol + 'static> ActorModelPage<P> {
    /// The actor model of `protocol` from `input`.
    pub fn new(protocol: Arc<P>, input: P::Input) -> Self {
        ActorModelPage {
            input: protocol.describe_input(&input),
            model: actor::model(Arc::clone(&protocol), input),
            protocol,
        }
    }

    /// Node `id` as the paper writes it.
    fn node(&self, id: Id) -> String {
        self.protocol.topology().node_label(usize::from(id) as u32)
    }

    /// `msg` in the paper's words: the packets it carries, or that it is a
    /// control message.
    fn words(&self, msg: &P::Msg) -> String {
        crate::engine::words::message(&*self.protocol, &self.model.cfg.task, msg)
    }

    /// A state in the paper's words (the state pane): what every node
    /// holds, what is in flight, what has been violated (claims) and
    /// observed (the rest) so far, and whether the run has ended.
    pub fn describe(&self, s: &ActorState<P>) -> String {
        let t = self.protocol.topology();
        let task = &self.model.cfg.task;
        let claims = &self.model.cfg.claims;
        let record = actor::verdict(&self.model, s);
        let mut holdings = Holdings::initial(task);
        for a in &s.actor_states {
            holdings.union_with(&a.holdings);
        }
        let mut out = format!(
            "{}, asynchronous (every delivery order)\n\n{}",
            self.input,
            crate::engine::words::holdings(t, &holdings)
        );
        let flying: Vec<String> = s
            .network
            .iter_deliverable()
            .map(|e| {
                format!(
                    "{}->{}: {} (slot {})",
                    self.node(e.src),
                    self.node(e.dst),
                    self.words(&e.msg.msg),
                    e.msg.slot
                )
            })
            .collect();
        out += &format!("\nin flight: {}\n", s.network.len());
        for f in flying.iter().take(16) {
            out += &format!("  {f}\n");
        }
        if flying.len() > 16 {
            out += &format!("  and {} more\n", flying.len() - 16);
        }
        out +=
            &crate::engine::words::record(t, task, claims, &record, &|v| self.protocol.explain(v));
        out += "\n(contention-freedom is not judged here: there is no global slot)";
        out += match record.ended {
            true => "\n\nthe run has ended: nothing in flight",
            false => "\n\nthe run goes on",
        };
        out
    }
}

/// Property `I` of [`PropertyName::ALL`] has not been violated so far (the
/// actor model's own judgement: the nodes' records, merged and judged at
/// the end once nothing is in flight).
fn holds<P: Protocol + 'static, const I: usize>(m: &ActorModelPage<P>, s: &ActorState<P>) -> bool {
    actor::verdict(&m.model, s)
        .violation(PropertyName::ALL[I])
        .is_none()
}

impl<P: Protocol + 'static> Model for ActorModelPage<P> {
    type State = ActorState<P>;
    type Action = ActorAction<P>;

    fn init_states(&self) -> Vec<Self::State> {
        self.model.init_states()
    }

    fn actions(&self, state: &Self::State, actions: &mut Vec<Self::Action>) {
        self.model.actions(state, actions)
    }

    fn next_state(&self, state: &Self::State, action: Self::Action) -> Option<Self::State> {
        self.model.next_state(state, action)
    }

    /// A delivery (`000->001: the packet of 000, sent in slot 1`) or a
    /// node's choice, in the paper's words.
    fn format_action(&self, action: &Self::Action) -> String {
        match action {
            ActorModelAction::Deliver { src, dst, msg } => format!(
                "deliver {}->{}: {}, sent in slot {}",
                self.node(*src),
                self.node(*dst),
                self.words(&msg.msg),
                msg.slot
            ),
            ActorModelAction::SelectRandom { actor, random, .. } => {
                format!("{} takes choice {random}", self.node(*actor))
            }
            other => self.model.format_action(other),
        }
    }

    /// The state pane: the state after `action`, in words.
    fn format_step(&self, last: &Self::State, action: Self::Action) -> Option<String> {
        let next = self.model.next_state(last, action)?;
        Some(self.describe(&next))
    }

    /// The `ActorModel`'s own picture: a sequence diagram of the path's
    /// messages, a timeline per node, each delivery labelled in the
    /// paper's words (stateright labels it with the message's Rust debug
    /// text, which is replaced here).
    fn as_svg(&self, path: Path<Self::State, Self::Action>) -> Option<String> {
        let labels: Vec<(String, String)> = path
            .clone()
            .into_actions()
            .into_iter()
            .filter_map(|action| match action {
                ActorModelAction::Deliver { msg, .. } => Some((
                    format!("{msg:?}"),
                    format!("{}, slot {}", self.words(&msg.msg), msg.slot),
                )),
                _ => None,
            })
            .collect();
        let mut svg = self.model.as_svg(path)?;
        for (debug, words) in labels {
            svg = svg.replace(
                &format!("class='svg-event-label'>{debug}</text>"),
                &format!(
                    "class='svg-event-label'>{}</text>",
                    crate::show::picture::escape(&words)
                ),
            );
        }
        Some(svg)
    }

    /// Every property as an `always` property, named as claimed or not
    /// ([`explorer_name`]), in [`PropertyName::ALL`] order without
    /// contention-freedom; then [`RUN_ENDS`].
    fn properties(&self) -> Vec<Property<Self>> {
        let claims = &self.model.cfg.claims;
        let mut properties: Vec<Property<Self>> = crate::engine::per_property!(holds, P)
            .into_iter()
            .zip(PropertyName::ALL)
            .filter(|(_, q)| *q != PropertyName::ContentionFreedom)
            .filter(|(_, q)| *q != PropertyName::Matching || claims.claims(*q))
            .map(|((_, holds), q)| Property::always(explorer_name(claims, q), holds))
            .collect();
        properties.push(Property::sometimes(RUN_ENDS, |m: &Self, s| {
            actor::verdict(&m.model, s).ended
        }));
        properties
    }
}

/// Presses the page's "Run to completion" once the Explorer listens at
/// `addr`.
fn run_to_completion(addr: String) {
    use std::io::Write;
    std::thread::spawn(move || {
        for _ in 0..200 {
            std::thread::sleep(Duration::from_millis(50));
            let Ok(mut s) = std::net::TcpStream::connect(&addr) else {
                continue;
            };
            let post = format!(
                "POST /.runtocompletion HTTP/1.0\r\nHost: {addr}\r\nContent-Length: 0\r\n\r\n"
            );
            if s.write_all(post.as_bytes()).is_ok() {
                let mut reply = String::new();
                let _ = std::io::Read::read_to_string(&mut s, &mut reply);
                if reply.starts_with("HTTP/1.1 200") || reply.starts_with("HTTP/1.0 200") {
                    return;
                }
            }
        }
        eprintln!("could not start the page's check: press Run to completion");
    });
}

/// Serves the schedule `req` names in stateright's Explorer on `addr`
/// (its lock-step model, every execution its order allows), after its
/// check; returns only on error.
pub fn serve_schedule(
    req: &crate::check::schedule::ScheduleRequest,
    addr: &str,
) -> Result<(), CheckError> {
    crate::with_scheduled!(req, |scheduled, subject| serve_protocol(
        Arc::new(scheduled),
        &subject,
        &req.options,
        addr
    ))
}
