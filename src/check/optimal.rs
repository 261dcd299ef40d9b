//! `check optimal TASK NETWORK`: the least slots a task needs, its
//! witness checked by the ordinary checker, and its certificate
//! (docs/optimal.md).

use super::schedule::{check_schedule, ScheduleRequest};
use super::CheckError;
use crate::import::network::build;
use crate::optimal::least::{least, Least, Refutation};
use crate::optimal::sat::{fewest_transmissions, Attempt, Sent};
use crate::optimal::task::{Instance, Routes, Task, TaskError};
use crate::optimal::witness;
use crate::optimal::Stop;
use models::with_network;
use models::NetworkSpec;
use models::{Ports, Switching};
use serde::Serialize;
use std::fmt::Write;
use std::path::PathBuf;
use std::time::Instant;

/// A `check optimal` as the command line asks for it.
#[derive(Clone, Debug)]
pub struct OptimalRequest {
    /// The task (`broadcast:0`, `allgather`, ...).
    pub task: String,
    /// The network, as `check schedule --network` takes it.
    pub network: NetworkSpec,
    /// The switching technique.
    pub switching: Switching,
    /// The port model.
    pub ports: Ports,
    /// Which paths a worm may take.
    pub routes: Routes,
    /// The most slots tried.
    pub max_slots: u32,
    /// How the optimum is found and certified.
    pub method: Method,
    /// Also the fewest packet transmissions at the optimal time.
    pub fewest_transmissions: bool,
    /// Packets a bus write carries (mesh-bus only; default 1).
    pub ell: Option<u64>,
    /// When to stop counting and answer unknown (`--timeout`; `u64::MAX`
    /// seconds for none).
    pub timeout: Option<std::time::Duration>,
    /// The budget where `timeout` is not given (the command line's
    /// [`crate::check::DEFAULT_TIMEOUT`]), named in the report when it
    /// binds.
    pub default_timeout: Option<std::time::Duration>,
    /// Where to write the witness (else a file in the system's temporary
    /// folder, removed after its check).
    pub write_schedule: Option<PathBuf>,
    /// Where to write the witness as MSCCL-IR.
    pub write_msccl: Option<PathBuf>,
    /// Where to write the witness as an MSCCL++ plan.
    pub write_mscclpp: Option<PathBuf>,
}

pub use crate::optimal::least::Method;

/// What `check optimal` found.
#[derive(Clone, Debug, Serialize)]
pub struct OptimalReport {
    /// The task, as given.
    pub task: String,
    /// The network, as given.
    pub network: String,
    /// `sf` or `wh`.
    pub switching: String,
    /// `all` or `one`.
    pub ports: String,
    /// `network`, `minimal` or `any`.
    pub routes: String,
    /// `sat` or `search`: what found the witness (the method asked for,
    /// where none was found).
    pub method: String,
    /// The lower bound the task's counting arguments give, and why.
    pub bound: String,
    /// That bound's slots (none where the task cannot be done at all).
    pub bound_slots: Option<u32>,
    /// Its argument's name (`growth bound`).
    pub bound_by: String,
    /// With `--fewest-transmissions`: the fewest any schedule makes (a
    /// receipt per new holder; a packet's distance for one destination
    /// under store-and-forward), known whether or not the solver ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transmissions_bound: Option<u64>,
    /// The least slots, if within `max_slots`.
    pub slots: Option<u32>,
    /// The most slots tried.
    pub max_slots: u32,
    /// Transmissions of the witness.
    pub transmissions: Option<usize>,
    /// The ordinary checker's verdict on the witness: "holds" if every
    /// claimed property holds and it completes in `slots`, else what
    /// failed.
    pub witness_check: Option<String>,
    /// Where the witness was written, if kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness_file: Option<String>,
    /// Where the witness was written as MSCCL-IR, if asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub msccl_file: Option<String>,
    /// Where the witness was written as an MSCCL++ plan, if asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mscclpp_file: Option<String>,
    /// How one slot fewer was shown impossible.
    pub certificate: String,
    /// The certificate in a few words (`growth bound`, `DRAT, 1,223
    /// lemmas`, `search, 1,025 sets`; `stopped` where none was found).
    pub certified_by: String,
    /// The most slots shown impossible, where any were.
    pub refuted_slots: Option<u32>,
    /// True if a budget or an interrupt ended the check before it found
    /// the least slots.
    pub stopped: bool,
    /// What stops the check early, in words (`--timeout`, `the default
    /// budget of 60 s (--timeout none lifts it)`, `an interrupt`).
    pub stopped_by: String,
    /// The fewest packet transmissions at the optimal time, where asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fewest: Option<FewestRow>,
    /// Each formula solved: slots, satisfiable, variables, clauses,
    /// seconds.
    pub attempts: Vec<AttemptRow>,
    /// Wall time of the whole command.
    pub seconds: f64,
}

/// The fewest transmissions, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct FewestRow {
    /// The fewest packet transmissions in the optimal slots.
    pub transmissions: u64,
    /// The lower bound: a receipt per destination (and a packet's
    /// distance, under store-and-forward, for one destination).
    pub bound: u64,
    /// How one fewer was shown impossible.
    pub certificate: String,
    /// That in a few words.
    pub certified_by: String,
    /// The ordinary checker's verdict on its witness.
    pub witness_check: String,
}

/// One formula solved, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct AttemptRow {
    /// The slots asked for.
    pub slots: u32,
    /// The transmissions allowed, where capped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cap: Option<u64>,
    /// Satisfiable.
    pub sat: bool,
    /// Variables.
    pub vars: u32,
    /// Clauses.
    pub clauses: usize,
    /// The solver's time.
    pub seconds: f64,
    /// Where only worms of at most this many arcs were allowed (a hunt
    /// for a witness, beside the whole formula: unsatisfiable proves
    /// nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worms: Option<usize>,
}

impl From<&Attempt> for AttemptRow {
    fn from(a: &Attempt) -> AttemptRow {
        AttemptRow {
            slots: a.slots,
            cap: a.cap,
            sat: a.sat,
            vars: a.vars,
            clauses: a.clauses,
            seconds: a.seconds,
            worms: a.worms,
        }
    }
}

impl OptimalRequest {
    /// `task` on `network` with `check optimal`'s defaults: the network's
    /// own routes, up to 16 slots, `--method auto`, no timeout.
    pub fn new(task: &str, network: NetworkSpec, switching: Switching, ports: Ports) -> Self {
        OptimalRequest {
            task: task.into(),
            network,
            switching,
            ports,
            routes: Routes::Network,
            max_slots: 16,
            method: Method::Auto,
            fewest_transmissions: false,
            ell: None,
            timeout: None,
            default_timeout: None,
            write_schedule: None,
            write_msccl: None,
            write_mscclpp: None,
        }
    }

    /// The command line that asks for this, with the flags that differ
    /// from the defaults.
    pub fn command(&self) -> String {
        let mut c = format!("check optimal {} {}", self.task, self.network);
        if self.switching == Switching::Wh {
            c += " --switching wh";
        }
        if self.ports == Ports::One {
            c += " --ports one";
        }
        if self.routes != Routes::Network {
            c += &format!(" --routes {}", self.routes.name());
        }
        if self.max_slots != 16 {
            c += &format!(" --max-slots {}", self.max_slots);
        }
        if self.method != Method::Auto {
            c += &format!(" --method {}", self.method.name());
        }
        if let Some(l) = self.ell {
            c += &format!(" --ell {l}");
        }
        if self.fewest_transmissions {
            c += " --fewest-transmissions";
        }
        c
    }
}

/// Writes `sends` as a schedule and judges it with `check schedule`:
/// "holds" where every claimed property holds and it completes in
/// `slots`, else what failed; and the files asked for, where `keep`.
/// `bus`: the network is a mesh-bus.
fn judge(
    req: &OptimalRequest,
    bus: bool,
    inst: &Instance,
    task: Task,
    sends: &[Sent],
    slots: u32,
    keep: bool,
) -> Result<String, CheckError> {
    let text = witness::schedule(inst, task, sends);
    type Writer = fn(&models::schedule::Schedule) -> Result<String, crate::import::WriteError>;
    let writers: [(&str, &Option<PathBuf>, Writer); 2] = [
        (
            "--write-msccl",
            &req.write_msccl,
            crate::import::msccl::write,
        ),
        (
            "--write-mscclpp",
            &req.write_mscclpp,
            crate::import::mscclpp::write,
        ),
    ];
    for (flag, file, writer) in writers {
        let Some(f) = file.as_ref().filter(|_| keep) else {
            continue;
        };
        let schedule = crate::import::commcheck::read(&text, "the witness")
            .map_err(|e| CheckError::Usage(e.to_string()))?;
        let written = writer(&schedule).map_err(|e| CheckError::Usage(format!("{flag}: {e}")))?;
        crate::import::write_to(f, &written)
            .map_err(|e| CheckError::Usage(format!("{flag} {}: {e}", f.display())))?;
    }
    let is_stdout = |f: &&std::path::PathBuf| crate::import::is_stdout(f);
    let kept = req.write_schedule.as_ref().filter(|_| keep);
    if let Some(f) = kept.filter(is_stdout) {
        crate::import::write_to(f, &text)
            .map_err(|e| CheckError::Usage(format!("--write-schedule -: {e}")))?;
    }
    // The witness is checked from a file: a temporary one where it is not
    // kept in one.
    let file = match kept.filter(|f| !is_stdout(f)) {
        Some(f) => f.clone(),
        None => std::env::temp_dir().join(format!(
            "commcheck-optimal-{}-{slots}-{}.json",
            std::process::id(),
            sends.len()
        )),
    };
    std::fs::write(&file, text)
        .map_err(|e| CheckError::Usage(format!("{}: {e}", file.display())))?;
    let mut sreq = ScheduleRequest::new(&file, req.network.clone());
    sreq.switching = req.switching;
    sreq.ports = req.ports;
    let outcome = check_schedule(&sreq);
    if kept.is_none_or(|f| crate::import::is_stdout(f)) {
        let _ = std::fs::remove_file(&file);
    }
    let outcome = outcome?;
    // On a mesh-bus every node on a bus reads each write (Fujita's
    // eavesdropping), so a reader may get a token it holds: no-duplication
    // is not claimed there, as Fujita's own gossips do not claim it.
    let failed: Vec<String> = outcome
        .properties
        .iter()
        .filter(|p| p.claimed && p.status != properties::Status::Holds)
        .filter(|p| !(bus && p.name == properties::PropertyName::NoDuplication.as_str()))
        .map(|p| format!("{} {}", p.name, p.status.as_str()))
        .collect();
    Ok(match (failed.is_empty(), outcome.time.measured) {
        (true, Some(m)) if m == slots => "holds".into(),
        (true, m) => format!(
            "completes in {} slots, not {slots}",
            m.map_or("?".into(), |m| m.to_string())
        ),
        (false, _) => failed.join(", "),
    })
}

/// Runs `check optimal`.
pub fn optimal(req: &OptimalRequest) -> Result<OptimalReport, CheckError> {
    let start = Instant::now();
    let net = build(&req.network, req.switching, req.ports)?;
    let wormhole = req.switching == Switching::Wh;
    let bus = matches!(net, models::Network::MeshBus(_));
    if let models::Network::Graph(g) = &net {
        if g.has_lanes() || g.has_parts() {
            return Err(CheckError::Usage(format!(
                "check optimal searches networks of plain nodes and one-lane links; {} has {}",
                net.name(),
                match g.has_lanes() {
                    true => "links of several lanes",
                    false => "switches or endpoints that do not forward",
                }
            )));
        }
    }
    if req.routes != Routes::Network && (!wormhole || bus) {
        return Err(CheckError::Usage(
            "--routes is for worms (--switching wh on links): under store-and-forward a packet \
             crosses one arc a slot, and a bus write reaches its bus, whatever its route"
                .into(),
        ));
    }
    if req.ell.is_some() && !bus {
        return Err(CheckError::Usage(
            "--ell is the tokens a bus write carries: for a mesh-bus network".into(),
        ));
    }
    let ell = match req.ell {
        None => 1,
        Some(l @ 1..=128) => l as u32,
        Some(l) => {
            return Err(CheckError::Usage(format!(
                "--ell {l}: a message carries 1 to 128 tokens (the schedule format's limit)"
            )))
        }
    };
    let (budget, budget_words) = match (req.timeout, req.default_timeout) {
        (Some(t), _) if t.as_secs() == u64::MAX => (None, String::new()),
        (None, None) => (None, String::new()),
        (Some(t), _) => (Some(t), "--timeout".to_string()),
        (None, Some(d)) => (
            Some(d),
            format!(
                "the default budget of {} s (--timeout none lifts it)",
                d.as_secs()
            ),
        ),
    };
    let stop = Stop::at(budget.and_then(|d| start.checked_add(d)));
    let stopped_by =
        || match crate::engine::search::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
            true => "an interrupt".to_string(),
            false => budget_words.clone(),
        };
    let built = with_network!(&net, |t| {
        let task = Task::parse(&req.task, models::Topology::nodes(t))
            .map_err(|e| CheckError::Usage(e.to_string()))?;
        let root = match task {
            Task::Broadcast(r) => Some(r),
            _ => None,
        };
        match Instance::until(t, task, wormhole, req.routes, &stop) {
            Err(TaskError::Stopped) => {
                Ok::<_, CheckError>((task, None, Least::stopped_before_bounds()))
            }
            built => {
                let inst = built
                    .map_err(|e| CheckError::Usage(e.to_string()))?
                    .carrying(ell);
                let found = least(t, &inst, root, req.method, req.max_slots, &stop)
                    .map_err(|e| CheckError::Usage(e.to_string()))?;
                Ok((task, Some(inst), found))
            }
        }
    })?;
    let (task, inst, found) = built;
    let bound = found.bound.clone();
    let refuted = found.refuted.as_ref().map(|r| r.text());
    let refuted_slots = found.refuted.as_ref().map(Refutation::slots);
    let certified_by = match (found.slots, &found.refuted) {
        (Some(0 | 1), None) => "trivial".to_string(),
        (Some(_), Some(r)) => r.brief(),
        (Some(_), None) => "none".into(),
        (None, _) if found.stopped => "stopped".into(),
        (None, _) => "none within --max-slots".into(),
    };
    let certificate = match (found.slots, refuted) {
        (Some(0), _) => "none needed: every packet starts where it must end".into(),
        (Some(1), None) => "none needed: one slot is the least where any packet must move".into(),
        (Some(_), Some(r)) => r,
        (None, r) => format!(
            "none: {}{}",
            match found.stopped {
                true => format!("stopped by {}", stopped_by()),
                false => "no schedule within --max-slots".into(),
            },
            r.map_or(String::new(), |r| format!("; below it, {r}"))
        ),
        (Some(_), None) => "none".into(),
    };
    let (method, slots, witness, attempts) = (
        match found.found_by {
            "" => req.method.name(),
            by => by,
        },
        found.slots,
        found.witness,
        found.attempts,
    );
    let mut report = OptimalReport {
        task: task.arg(),
        network: req.network.to_string(),
        switching: req.switching.to_string(),
        ports: req.ports.to_string(),
        routes: req.routes.name().into(),
        method: method.into(),
        bound: match bound.slots {
            u32::MAX => bound.why.clone(),
            b => format!("{b} ({})", bound.why),
        },
        bound_slots: Some(bound.slots).filter(|&b| b != u32::MAX),
        bound_by: bound.brief(),
        transmissions_bound: inst
            .as_ref()
            .filter(|_| req.fewest_transmissions)
            .map(Instance::fewest_transmissions),
        slots,
        max_slots: req.max_slots,
        transmissions: slots.map(|_| witness.len()),
        witness_check: None,
        witness_file: None,
        msccl_file: None,
        mscclpp_file: None,
        certificate,
        certified_by,
        refuted_slots,
        stopped: found.slots.is_none() && found.stopped,
        stopped_by: String::new(),
        fewest: None,
        attempts: attempts.iter().map(AttemptRow::from).collect(),
        seconds: 0.0,
    };
    if let (Some(slots), Some(inst)) = (slots.filter(|&s| s > 0), inst) {
        report.witness_check = Some(judge(
            req,
            bus,
            &inst,
            task,
            &witness,
            slots,
            !req.fewest_transmissions,
        )?);
        let fewest = match req.fewest_transmissions {
            true => fewest_transmissions(&inst, slots, witness, &stop)
                .map_err(|e| CheckError::Usage(e.to_string()))?,
            false => None,
        };
        if req.fewest_transmissions && fewest.is_none() {
            report.witness_check = Some(format!(
                "{}; the fewest transmissions were stopped by {}",
                report.witness_check.take().unwrap_or_default(),
                stopped_by()
            ));
        }
        if let Some(fewest) = fewest {
            let check = judge(req, bus, &inst, task, &fewest.witness, slots, true)?;
            report.fewest = Some(FewestRow {
                transmissions: fewest.transmissions,
                bound: fewest.bound,
                certified_by: match &fewest.certificate {
                    Some(c) => Refutation::Drat(c.clone()).brief(),
                    None => "receipts bound".into(),
                },
                certificate: match &fewest.certificate {
                    Some(c) => Refutation::Drat(c.clone()).text(),
                    None => format!(
                        "the lower bound: {} receipts (and distances) the task needs",
                        fewest.bound
                    ),
                },
                witness_check: check,
            });
            report
                .attempts
                .extend(fewest.attempts.iter().map(AttemptRow::from));
        }
        if req.write_schedule.is_some() {
            report.witness_file = req.write_schedule.as_ref().map(|f| f.display().to_string());
        }
        report.msccl_file = req.write_msccl.as_ref().map(|f| f.display().to_string());
        report.mscclpp_file = req.write_mscclpp.as_ref().map(|f| f.display().to_string());
    }
    if report.stopped {
        report.stopped_by = stopped_by();
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

impl OptimalReport {
    /// The report in words.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "optimal {} on {} ({} switching, {}-port, routes: {})",
            self.task, self.network, self.switching, self.ports, self.routes
        );
        let _ = match self.slots {
            Some(t) => writeln!(s, "  least slots     {t}"),
            None => match (self.stopped, self.refuted_slots) {
                (false, _) => writeln!(s, "  least slots     more than {}", self.max_slots),
                (true, Some(r)) => writeln!(
                    s,
                    "  least slots     more than {r} (stopped by {})",
                    self.stopped_by
                ),
                (true, None) => writeln!(
                    s,
                    "  least slots     unknown (stopped by {})",
                    self.stopped_by
                ),
            },
        };
        if let Some(n) = self.transmissions {
            let _ = writeln!(
                s,
                "  witness         {n} transmissions, found by {}",
                self.method
            );
        }
        if let Some(c) = &self.witness_check {
            let _ = writeln!(s, "  witness check   {c} (check schedule, every property)");
        }
        if let Some(f) = &self.witness_file {
            let _ = writeln!(s, "  witness file    {f}");
        }
        if let Some(f) = &self.msccl_file {
            let _ = writeln!(s, "  MSCCL-IR file   {f}");
        }
        if let Some(f) = &self.mscclpp_file {
            let _ = writeln!(s, "  MSCCL++ file    {f}");
        }
        let _ = writeln!(s, "  certificate     {}", self.certificate);
        let _ = writeln!(s, "  lower bound     {}", self.bound);
        if let Some(f) = &self.fewest {
            let _ = writeln!(
                s,
                "  fewest          {} transmissions in {} slots (lower bound {})",
                f.transmissions,
                self.slots.unwrap_or(0),
                f.bound
            );
            let _ = writeln!(s, "    certificate   {}", f.certificate);
            let _ = writeln!(s, "    witness check {}", f.witness_check);
        }
        for a in &self.attempts {
            let _ = writeln!(
                s,
                "  T = {:<3}{}{} {}  {} vars, {} clauses, {:.2} s",
                a.slots,
                a.cap
                    .map_or(String::new(), |c| format!(" (at most {c} transmissions)")),
                a.worms.map_or(String::new(), |w| format!(
                    " (worms of at most {w} arcs only)"
                )),
                if a.sat {
                    "satisfiable  "
                } else {
                    "unsatisfiable"
                },
                a.vars,
                a.clauses,
                a.seconds
            );
        }
        let _ = writeln!(s, "elapsed: {:.2} s", self.seconds);
        s
    }

    /// Whether the answer stands: an optimum whose witness the ordinary
    /// checker accepted.
    pub fn stands(&self) -> bool {
        (self.slots == Some(0) || self.witness_check.as_deref() == Some("holds"))
            && self
                .fewest
                .as_ref()
                .is_none_or(|f| f.witness_check == "holds")
    }
}
