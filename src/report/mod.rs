//! Reports: the outcome of a check as text (one line per property) and as
//! the JSON object of docs/architecture.md ("Reports"), and violations
//! worded in the papers' terms.

use crate::engine::words::{describe, packet_words};
use models::Topology;

use properties::{Slot, Status, Task, Violation};
use serde::Serialize;
use std::fmt::Write;

/// Inputs a report lists by name (a check may cover hundreds of
/// thousands; `inputs_checked` counts them all).
pub const LISTED: usize = 32;

/// Runs one `check` command line (without the leading `check`) and gives
/// its reports; the binary passes its own parser, so the claims ledger and
/// `check table optimal` run exactly the commands they print.
pub type Runner<'a> = &'a dyn Fn(&str) -> Result<Vec<Outcome>, String>;

/// The outcome of one check, engine-independent.
#[derive(Clone, Debug, Serialize, Default)]
pub struct Outcome {
    /// The algorithm checked, by its paper's name.
    pub algorithm: String,
    /// Its size, source, modes and parameters.
    pub params: Params,
    /// The engines that ran, in words.
    pub engine: String,
    /// One verdict per property, in report order.
    pub properties: Vec<PropertyReport>,
    /// Measured time beside the claimed bound and the lower bounds.
    pub time: Time,
    /// The input whose run took the measured (worst) time, where a search
    /// covered several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worst_input: Option<String>,
    /// Most transmissions over the runs checked.
    pub transmissions: Option<u64>,
    /// Fewest transmissions over the runs checked (equal to the most for
    /// deterministic protocols).
    pub transmissions_min: Option<u64>,
    /// Transmissions an optimal run makes (one per needed delivery), where
    /// known (null: a schedule whose messages combine packets).
    pub optimal_transmissions: Option<u64>,
    /// `--distribution`: over the random draws checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distribution: Option<Distribution>,
    /// Control messages (prefix values, termination packets) of the run,
    /// the most over the runs checked; absent where there are none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_messages: Option<u64>,
    /// The most transmissions that took one resource in one slot, over
    /// the runs checked, and where; absent where none took one twice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_load: Option<LinkLoad>,
    /// Transmissions / (last delivery's slot x directed links): the
    /// fraction of directed link-slots busy (1.0 when every link is busy
    /// both ways in every slot). The slots end at the last delivery, not
    /// the last news, since transmissions go on until then. From the
    /// slowest run where a search covers several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_utilization: Option<f64>,
    /// On a mesh-bus: transmissions / (last delivery's step x buses), the
    /// fraction of bus-steps with a writer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bus_utilization: Option<f64>,
    /// Unique states of the lock-step model (exhaustive engines).
    pub states: Option<u64>,
    /// Unique states of the actor model, summed over inputs.
    pub actor_states: Option<u64>,
    /// How far the lock-step search got.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<Coverage>,
    /// How far the actor-model search got.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor_search: Option<Coverage>,
    /// Sources the topology has (the inputs checked may be fewer: one per
    /// symmetry orbit, or the executor's one run).
    pub sources_total: u32,
    /// Inputs the claim quantifies over: the sources, or the variants of a
    /// construction where the algorithm has no single source.
    pub inputs_total: u64,
    /// True if the inputs are source nodes.
    pub sourced: bool,
    /// True if one source stands for all by a declared (and tested)
    /// symmetry; a mesh's one source stands only for itself.
    #[serde(skip)]
    pub symmetric: bool,
    /// Inputs covered.
    pub inputs_checked: usize,
    /// The first [`LISTED`] of the inputs covered, described.
    pub inputs: Vec<String>,
    /// Wall time of the check.
    pub elapsed_ms: u128,
    /// Things a reader must know: what was not checked, and why.
    pub notes: Vec<String>,
    /// A command that reproduces the first violated claim, if any.
    pub reproduce: Option<String>,
    /// The machine, where it is not the papers' perfect one (`--fault`,
    /// `--delay`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine: Option<MachineReport>,
    /// The time under a cost model (`--cost`), beside the slots.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<crate::cost::Cost>,
}

/// An imperfect machine: what it was, and what its faults cost in an
/// executor run.
#[derive(Clone, Debug, Serialize)]
pub struct MachineReport {
    /// The faults, delays and skew in words.
    pub described: Vec<String>,
    /// Deliveries lost to faults (executor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<u64>,
    /// (node, packet) pairs missing that no healthy holder could reach:
    /// excused by completeness (executor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excused: Option<u64>,
    /// (node, packet) pairs missing that were reachable: completeness
    /// fails on each (executor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<u64>,
    /// The share of the (node, packet) pairs within reach of a healthy
    /// holder that the run delivered (executor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub informed: Option<f64>,
}

/// The distribution over random draws (`--distribution`), every input
/// checked weighted alike.
#[derive(Clone, Debug, Serialize)]
pub struct Distribution {
    /// Inputs (draws) it is over.
    pub inputs: u64,
    /// True if they are every draw the claim quantifies over; else a
    /// sample, and the figures estimate.
    pub exact: bool,
    /// The drawn quantity (`max N_j`).
    pub quantity: &'static str,
    /// Per value: how many inputs, Pr(= v), Pr(>= v), the paper's bound on
    /// Pr(>= v).
    pub values: Vec<ValueRow>,
    /// Per completion time (each input's worst over the orders): how many
    /// inputs, Pr(= t), Pr(<= t).
    pub times: Vec<TimeRow>,
}

#[derive(Clone, Debug, Serialize)]
/// One value of the drawn quantity, how often it was drawn, and the paper's bound on its tail.
pub struct ValueRow {
    /// The value.
    pub value: u64,
    /// Inputs (draws) with this value.
    pub inputs: u64,
    /// Their share of all inputs.
    pub p: f64,
    /// The share with this value or more.
    pub p_at_least: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The paper's bound on Pr(quantity >= value), where it gives one.
    pub bound: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
/// One completion time, and how often the draws took it.
pub struct TimeRow {
    /// The completion time, in slots.
    pub slots: Slot,
    /// Inputs (draws) that took it.
    pub inputs: u64,
    /// Their share of all inputs.
    pub p: f64,
    /// The share that took at most this long.
    pub p_at_most: f64,
}

impl Distribution {
    fn text(&self, s: &mut String) {
        let _ = writeln!(
            s,
            "distribution over {} draws ({}):",
            self.inputs,
            match self.exact {
                true => "every draw, each equally likely: exact",
                false => "a sample of the draws: an estimate",
            }
        );
        let _ = writeln!(
            s,
            "  {:>8}  {:>8}  {:>9}  {:>9}  {:>14}",
            self.quantity, "draws", "Pr(=)", "Pr(>=)", "bound (1) >="
        );
        for r in &self.values {
            let bound = r.bound.map_or("-".into(), |b| format!("{b:.4}"));
            let _ = writeln!(
                s,
                "  {:>8}  {:>8}  {:>9.5}  {:>9.5}  {:>14}",
                r.value, r.inputs, r.p, r.p_at_least, bound
            );
        }
        let _ = writeln!(
            s,
            "  {:>8}  {:>8}  {:>9}  {:>9}",
            "slots", "draws", "Pr(=)", "Pr(<=)"
        );
        for r in &self.times {
            let _ = writeln!(
                s,
                "  {:>8}  {:>8}  {:>9.5}  {:>9.5}",
                r.slots, r.inputs, r.p, r.p_at_most
            );
        }
    }
}

/// How far an exhaustive search got.
#[derive(Clone, Debug, Serialize)]
pub struct Coverage {
    /// States generated.
    pub generated: u64,
    /// Distinct states.
    pub unique: u64,
    /// The deepest state reached (slots for the lock-step model,
    /// deliveries for the actor model).
    pub depth: u64,
    /// Inputs whose search finished.
    pub inputs_done: usize,
    /// Inputs the search was given.
    pub inputs_total: usize,
    /// What stopped the search early (`max-states`, `timeout`,
    /// `max-memory`, `interrupted`; `settled`: every claimed property had its
    /// verdict, and observations not yet violated are unknown), absent if
    /// it finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<&'static str>,
}

/// The parameters checked.
#[derive(Clone, Debug, Serialize, Default)]
pub struct Params {
    /// The size: a cube's dimension, a mesh-bus's side, a mesh's largest side.
    pub n: u32,
    /// The one source checked, in the paper's words, if one was given.
    pub source: Option<String>,
    /// The switching technique, in words.
    pub switching: String,
    /// The port model (`all`, `one`).
    pub ports: String,
    /// `--k`, where given (or set by `--all-k`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub k: Option<u64>,
    /// l, tokens per message, on a mesh-bus (given or the default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ell: Option<u64>,
    /// The network where it is not a hypercube (`4x4 mesh-bus`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<String>,
}

/// Time: measured (worst case over everything checked), claimed bound,
/// best possible.
#[derive(Clone, Debug, Serialize, Default)]
pub struct Time {
    /// The worst completion time over everything checked (none if a run
    /// was cut short): the last slot in which a node got something new.
    pub measured: Option<Slot>,
    /// The latest termination time, where later than `measured`: the last
    /// delivery of a copy a node already held (no claim counts it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub termination: Option<Slot>,
    /// True when a search was cut by a budget: `measured` is then the
    /// worst of the runs it finished, and the true worst may be later.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub at_least: bool,
    /// The bound the paper claims, where it is the same for every input
    /// checked.
    pub bound: Option<Slot>,
    /// Where the inputs' claimed bounds differ (a mesh broadcast's, per
    /// source): the least and the most. Each run was judged against its
    /// own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<(Slot, Slot)>,
    /// The largest lower bound for the network model.
    pub lower_bound: Option<Slot>,
    /// The paper's lower bounds by name, where it proves several.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lower_bounds: Vec<NamedBound>,
}

/// The most transmissions on one resource in one slot, and where.
#[derive(Clone, Debug, Serialize)]
pub struct LinkLoad {
    /// How many.
    pub most: u32,
    /// The first slot with that many.
    pub slot: Slot,
    /// The resource (`arc 00->01`, `in-port of 01`).
    pub resource: String,
}

/// A lower bound with the theorem that proves it.
#[derive(Clone, Debug, Serialize)]
pub struct NamedBound {
    /// The theorem (or lemma) that proves it.
    pub name: &'static str,
    /// The bound, in slots.
    pub steps: Slot,
}

/// One property's verdict.
#[derive(Clone, Debug, Serialize)]
pub struct PropertyReport {
    /// The property (`completeness`, ...).
    pub name: &'static str,
    /// True if the paper claims it: a violation fails the check; else it
    /// is an observation.
    pub claimed: bool,
    /// The verdict (`holds`, `violated`, `unknown`, `not judged` in JSON).
    #[serde(serialize_with = "status_name")]
    pub status: Status,
    /// Why a property was not judged, or over what part of the inputs it
    /// was (`no time is claimed`; `judged at 20 of 36 sources`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The run that violates it, in the paper's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<Counterexample>,
    /// The engine that found the counterexample.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found_by: Option<Finder>,
    /// The Explorer's `#/steps/...` path of the counterexample.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explorer_path: Option<String>,
}

/// The engine that found a violation, as reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Finder {
    /// The executor's one run.
    #[serde(rename = "executor")]
    Executor,
    /// The lock-step model's search.
    #[serde(rename = "lock-step")]
    LockStep,
    /// The asynchronous (actor) model's search.
    #[serde(rename = "actor model")]
    ActorModel,
    /// The pass over a schedule's happens-before order, which judges it
    /// at every relative speed.
    #[serde(rename = "happens-before")]
    HappensBefore,
}

/// A verdict as JSON names it.
fn status_name<S: serde::Serializer>(status: &Status, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(status.as_str())
}

/// A counterexample: the sentence the text report prints, and its parts
/// for scripts (each only where the violation has it; nodes, packets,
/// resources and routes in the paper's words).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Counterexample {
    /// The sentence the text report prints.
    pub text: String,
    /// The input of the run (`source 0000`, a K-set, a writer order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The slot of the violation.
    pub slot: Option<Slot>,
    /// The node that lacks, receives, sends or is reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The packet concerned, in the paper's words.
    pub packet: Option<String>,
    /// The sender of a duplicate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The contended resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// The transmissions that contend for it (the first where known).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub transmissions: Vec<String>,
    /// The claimed bound a late delivery breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<Slot>,
    /// Transmissions counted, and the optimum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The optimum they are held against.
    pub optimum: Option<u64>,
    /// The faults of the run, as `--fault` takes them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<String>,
    /// The run's transmissions that landed late (`--delay`), in words.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub late: Vec<String>,
    /// An execution that shows it, where the order of events is the
    /// point (a race, a rank that ends before others start): operations
    /// in the order they end.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub interleaving: Vec<String>,
    /// The command that checks this run alone (its input, faults, delay
    /// and skew), where the subject has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
    /// A schedule's rank, by its number in the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
    /// The buffer (`i`, `o`, `s`) of the place concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer: Option<String>,
    /// Its offset in the buffer, in chunks (the position where the file
    /// has no buffers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u32>,
    /// What the place must end with, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// What it ends with, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<String>,
    /// The operations concerned, in the file's terms (rank, label or JSON
    /// path, line).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<String>,
}

impl Counterexample {
    /// A counterexample known only by its sentence.
    pub fn text(text: String) -> Self {
        Counterexample {
            text,
            ..Default::default()
        }
    }

    /// With the fields of a schedule's violation in the file's terms
    /// ([`models::protocol::Located`]).
    pub fn located(self, at: models::protocol::Located) -> Self {
        Counterexample {
            rank: at.rank,
            buffer: at.buffer,
            offset: at.offset,
            expected: at.expected,
            found: at.found,
            operations: at.operations,
            ..self
        }
    }
}

/// `v` in the run from `input` (`order`: how the engine ran it, if that
/// matters), with its parts.
pub fn counterexample<T: Topology>(
    t: &T,
    task: &Task,
    input: String,
    order: &str,
    v: &Violation,
) -> Counterexample {
    let node = |x: u32| Some(t.node_label(x));
    let packet = |p: u32| Some(packet_words(t, task, p));
    let mut c = Counterexample {
        text: format!("{input}{order}: {}", describe(t, task, v)),
        input: Some(input),
        ..Default::default()
    };
    match *v {
        Violation::Missing { node: x, packet: p } => (c.node, c.packet) = (node(x), packet(p)),
        Violation::WrongResult { node: x, .. } | Violation::Unmatched { node: x, .. } => {
            c.node = node(x)
        }
        Violation::NotTerminated { slot } => c.slot = Some(slot),
        Violation::Duplicate {
            slot,
            node: x,
            packet: p,
            from,
        }
        | Violation::OwnPacket {
            slot,
            node: x,
            packet: p,
            from,
        } => {
            (c.slot, c.node, c.packet, c.from) = (Some(slot), node(x), packet(p), node(from));
        }
        Violation::Conflict {
            slot,
            resource,
            first,
            second,
        } => {
            c.slot = Some(slot);
            c.resource = Some(t.resource_label(resource));
            c.transmissions = first
                .iter()
                .chain([&second])
                .map(|r| t.route_label(r))
                .collect();
        }
        Violation::NotHeld {
            slot,
            node: x,
            packet: p,
        } => (c.slot, c.node, c.packet) = (Some(slot), node(x), packet(p)),
        Violation::Bundled { slot, node: x, .. } | Violation::TooLong { slot, node: x, .. } => {
            (c.slot, c.node) = (Some(slot), node(x))
        }
        Violation::Late {
            slot,
            bound,
            node: x,
        } => (c.slot, c.node, c.bound) = (Some(slot), node(x), Some(bound)),
        Violation::NotOptimal { count, optimum } => {
            (c.count, c.optimum) = (Some(count), Some(optimum))
        }
    }
    c
}

impl Outcome {
    /// True if a claimed property is violated (exit code 1).
    pub fn refuted(&self) -> bool {
        self.properties
            .iter()
            .any(|p| p.claimed && p.status == Status::Violated)
    }

    /// True if a claimed property has no verdict (a budget ran out, or
    /// the engine cannot judge it).
    pub fn undecided(&self) -> bool {
        self.properties
            .iter()
            .any(|p| p.claimed && matches!(p.status, Status::Unknown | Status::NotJudged))
    }

    /// The text report.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} {}{} ({}), {}, engine {}",
            self.algorithm,
            match &self.params.network {
                // A mesh or torus is named by its sides: M(5,7).
                Some(net) if self.params.ell.is_none() => net.clone(),
                _ => format!("n={}", self.params.n),
            },
            self.params.k.map_or(String::new(), |k| format!(" K={k}")),
            match (&self.params.network, self.params.ell) {
                (Some(net), Some(l)) => format!("{net}, l={l}"),
                _ => format!(
                    "{} switching, {}-port",
                    self.params.switching, self.params.ports
                ),
            },
            match self.inputs_checked {
                1 if self.sourced
                    && self.symmetric
                    && self.params.source.is_none()
                    && self.sources_total > 1 =>
                    format!(
                        "{} (for all {} by symmetry)",
                        self.inputs[0], self.sources_total
                    ),
                1 => self.inputs[0].clone(),
                k if self.sourced
                    && k as u64 == self.sources_total as u64
                    && self.inputs_total == self.sources_total as u64 =>
                {
                    format!("all {k} sources")
                }
                k if k as u64 == self.inputs_total => format!("all {k} inputs"),
                k if self.sourced => format!("{k} inputs from {}, ...", self.inputs[0]),
                k if k as u64 == self.inputs_total => format!("all {k} variants"),
                k => format!(
                    "{k} of {} variants",
                    models::catalog::count_words(self.inputs_total)
                ),
            },
            self.engine
        );
        for p in &self.properties {
            match (p.claimed, p.status) {
                // What the paper does not claim is an observation, with
                // its figure: never "VIOLATED", never a counterexample.
                (false, Status::Violated) => {
                    let figure = p.counterexample.as_ref().map_or(String::new(), observation);
                    let _ = writeln!(s, "  {:<20}{:<10}{figure}", p.name, "observed");
                    continue;
                }
                (claimed, status) => {
                    let status = match status {
                        Status::Violated => "VIOLATED",
                        other => other.as_str(),
                    };
                    let kind = if claimed { "claimed" } else { "observed" };
                    let _ = match &p.reason {
                        Some(why) if p.status == Status::NotJudged => {
                            writeln!(s, "  {:<20}{status} ({why})", p.name)
                        }
                        Some(why) => writeln!(s, "  {:<20}{status:<10}{kind} ({why})", p.name),
                        None => writeln!(s, "  {:<20}{status:<10}{kind}", p.name),
                    };
                }
            }
            if let Some(c) = &p.counterexample {
                let _ = writeln!(s, "      {}", c.text);
                if !c.late.is_empty() {
                    let _ = writeln!(s, "      late: {}", c.late.join("; "));
                }
                if let Some((last, earlier)) = c.interleaving.split_last() {
                    let shown = earlier.len().saturating_sub(5);
                    let _ = writeln!(
                        s,
                        "      interleaving: {}{}{last}",
                        match shown {
                            0 => String::new(),
                            1 => "(1 operation ends before, --json lists it); ".into(),
                            k => format!("({k} operations end before, --json lists them); "),
                        },
                        earlier[shown..]
                            .iter()
                            .map(|e| format!("{e}; "))
                            .collect::<String>()
                    );
                }
            }
            if let Some(path) = &p.explorer_path {
                let _ = writeln!(s, "      explorer: #/steps/{path}");
            }
        }
        let opt = |v: Option<Slot>| v.map_or("-".to_string(), |v| v.to_string());
        // A run that leaves nodes without their packets ends early and
        // sends less: its time and count say nothing beside the bounds.
        let incomplete = self
            .properties
            .iter()
            .any(|p| p.name == "completeness" && p.status == Status::Violated);
        let caveat = match incomplete {
            true => " (not comparable: the run is incomplete)",
            false => "",
        };
        let _ = writeln!(
            s,
            "time: measured {}{}{caveat}, bound {}, lower bound {}",
            if self.time.at_least && self.time.measured.is_some() {
                "at least "
            } else {
                ""
            },
            opt(self.time.measured),
            match self.time.bounds {
                Some((lo, hi)) => format!("{lo}..{hi} (each run its input's own)"),
                None => opt(self.time.bound),
            },
            opt(self.time.lower_bound)
        );
        if let Some(c) = &self.cost {
            let _ = writeln!(
                s,
                "time: about {} us under {} ({})",
                micros(c.time_us),
                c.model,
                c.parameters
            );
            if let Some(b) = &c.bounds {
                let bandwidth = match b.bandwidth_us {
                    Some(us) => format!("bandwidth {} us ({})", micros(us), b.bandwidth_why),
                    None => format!("bandwidth - ({})", b.bandwidth_why),
                };
                let ratio = c
                    .ratio
                    .map(|r| format!("; the time is {:.2} x the larger", r))
                    .unwrap_or_default();
                let _ = writeln!(
                    s,
                    "time bounds: {bandwidth}, latency {} us{ratio}",
                    micros(b.latency_us)
                );
            }
        }
        if let Some(t) = self.time.termination {
            let _ = writeln!(
                s,
                "last delivery: step {t} (a copy a node already held; the time is the last \
                 news)"
            );
        }
        if !self.time.lower_bounds.is_empty() {
            let named: Vec<String> = self
                .time
                .lower_bounds
                .iter()
                .map(|b| format!("{} {}", b.name, b.steps))
                .collect();
            let _ = writeln!(s, "lower bounds: {}", named.join(", "));
        }
        if let Some(w) = &self.worst_input {
            // The slowest run; a counterexample names the first run found
            // to break its property, which may be another.
            let _ = writeln!(s, "worst: {w} (the slowest run)");
        }
        let optimum = match self.optimal_transmissions {
            Some(o) => format!(" (optimum {o})"),
            None => " (optimum not known)".into(),
        };
        match (self.transmissions_min, self.transmissions) {
            (Some(lo), Some(hi)) if lo != hi => {
                let _ = writeln!(s, "transmissions: {lo}..{hi}{optimum}{caveat}");
            }
            (_, Some(hi)) => {
                let _ = writeln!(s, "transmissions: {hi}{optimum}{caveat}");
            }
            _ => {}
        }
        if let Some(d) = &self.distribution {
            d.text(&mut s);
        }
        if let Some(c) = self.control_messages {
            let _ = writeln!(s, "control messages: {c} (no data: not transmissions)");
        }
        if let Some(l) = &self.link_load {
            let _ = writeln!(
                s,
                "link load: {} transmissions on {} in slot {} (the most on one resource in \
                 one slot)",
                l.most, l.resource, l.slot
            );
        }
        if let Some(u) = self.bus_utilization {
            let _ = writeln!(s, "bus utilization: {:.1}% of bus-steps", 100.0 * u);
        }
        if let Some(u) = self.link_utilization {
            let _ = writeln!(
                s,
                "link utilization: {:.1}% of directed link-slots",
                100.0 * u
            );
        }
        match (self.states, self.actor_states) {
            (Some(l), Some(a)) => {
                let _ = writeln!(s, "states: {l} lock-step, {a} actor model");
            }
            (Some(l), None) => {
                let _ = writeln!(s, "states: {l} lock-step");
            }
            (None, Some(a)) => {
                let _ = writeln!(s, "states: {a} actor model");
            }
            (None, None) => {}
        }
        let _ = writeln!(s, "elapsed: {} ms", self.elapsed_ms);
        if let Some(m) = &self.machine {
            let _ = writeln!(s, "machine: {}", m.described.join("; "));
            if let (Some(lost), Some(excused), Some(missing), Some(informed)) =
                (m.lost, m.excused, m.missing, m.informed)
            {
                let _ = writeln!(
                    s,
                    "faults: {lost} deliveries lost; {:.2}% of what healthy holders could \
                     reach delivered ({missing} (node, packet) pairs missing); {excused} out of \
                     reach (excused)",
                    100.0 * informed
                );
            }
        }
        for n in &self.notes {
            let _ = writeln!(s, "note: {n}");
        }
        // The runs that show the violations, each with the violations it
        // shows: one line where one run shows them all; else a line a run
        // (another fault set, source or start), naming its violations,
        // since a rerun of one gives the others' verdicts as that run has
        // them.
        let mut runs: Vec<(&String, Vec<&str>)> =
            self.reproduce.iter().map(|r| (r, vec![])).collect();
        for p in &self.properties {
            let Some(r) = p.counterexample.as_ref().and_then(|c| c.reproduce.as_ref()) else {
                continue;
            };
            match runs.iter_mut().find(|(line, _)| *line == r) {
                Some((_, names)) => names.push(p.name),
                None => runs.push((r, vec![p.name])),
            }
        }
        for (r, names) in &runs {
            let _ = match (runs.len(), names.as_slice()) {
                (1, _) | (_, []) => writeln!(s, "note: reproduce with `{r}`"),
                (_, [one]) => writeln!(s, "note: reproduce the {one} violation with `{r}`"),
                (_, [first @ .., last]) => writeln!(
                    s,
                    "note: reproduce the {} and {last} violations with `{r}`",
                    first.join(", ")
                ),
            };
        }
        s
    }
}

/// What an unclaimed property that the run does not keep shows, with its
/// figure (`48 transmissions, optimum 40`; `a duplicate reception, the
/// first: step 2: ...`).
fn observation(c: &Counterexample) -> String {
    match (c.count, c.optimum) {
        // The counterexample's run, which over several inputs may not be
        // the one of the most transmissions (the `transmissions:` line).
        (Some(count), Some(optimum)) => match &c.input {
            Some(input) => format!("{count} transmissions from {input}, optimum {optimum}"),
            None => format!("{count} transmissions, optimum {optimum}"),
        },
        _ => format!("not kept (not claimed here); the first: {}", c.text),
    }
}

/// Microseconds to three decimals (a nanosecond), trailing zeros dropped.
fn micros(us: f64) -> String {
    let text = format!("{us:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_string()
}
