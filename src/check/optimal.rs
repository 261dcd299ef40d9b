//! `check optimal TASK NETWORK`: the least slots a task needs, its
//! witness checked by the ordinary checker, and its certificate
//! (docs/optimal.md).

use super::schedule::{check_schedule, ScheduleRequest};
use super::CheckError;
use crate::import::network::network;
use crate::optimal::sat::{least_slots, Attempt};
use crate::optimal::task::{Instance, Routes, Task};
use crate::optimal::witness;
use crate::with_network;
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
    pub network: String,
    /// The switching technique.
    pub switching: Switching,
    /// The port model.
    pub ports: Ports,
    /// Which paths a worm may take.
    pub routes: Routes,
    /// The most slots tried.
    pub max_slots: u32,
    /// Where to write the witness (else a file in the system's temporary
    /// folder, removed after its check).
    pub write_schedule: Option<PathBuf>,
}

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
    /// `network` or `minimal`.
    pub routes: String,
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
    /// How one slot fewer was shown impossible.
    pub certificate: String,
    /// Each formula solved: slots, satisfiable, variables, clauses,
    /// seconds.
    pub attempts: Vec<AttemptRow>,
    /// Wall time of the whole command.
    pub seconds: f64,
}

/// One formula solved, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct AttemptRow {
    /// The slots asked for.
    pub slots: u32,
    /// Satisfiable.
    pub sat: bool,
    /// Variables.
    pub vars: u32,
    /// Clauses.
    pub clauses: usize,
    /// The solver's time.
    pub seconds: f64,
}

impl From<&Attempt> for AttemptRow {
    fn from(a: &Attempt) -> AttemptRow {
        AttemptRow {
            slots: a.slots,
            sat: a.sat,
            vars: a.vars,
            clauses: a.clauses,
            seconds: a.seconds,
        }
    }
}

impl OptimalRequest {
    /// The command line that asks for this.
    pub fn command(&self) -> String {
        format!(
            "check optimal {} {} --switching {} --ports {} --routes {} --max-slots {}",
            self.task,
            self.network,
            self.switching,
            self.ports,
            self.routes.name(),
            self.max_slots
        )
    }
}

/// Runs `check optimal`.
pub fn optimal(req: &OptimalRequest) -> Result<OptimalReport, CheckError> {
    let start = Instant::now();
    let net = network(&req.network, req.switching, req.ports)?;
    let wormhole = req.switching == Switching::Wh;
    if req.routes == Routes::Minimal && !wormhole {
        return Err(CheckError::Usage(
            "--routes is for wormhole (--switching wh): under store-and-forward a packet \
             crosses one arc a slot, whatever its route"
                .into(),
        ));
    }
    let (task, inst) = with_network!(&net, |t| {
        let task = Task::parse(&req.task, models::Topology::nodes(t)).map_err(CheckError::Usage)?;
        let inst = Instance::new(t, task, wormhole, req.routes).map_err(CheckError::Usage)?;
        Ok::<_, CheckError>((task, inst))
    })?;
    let found = least_slots(&inst, req.max_slots).map_err(CheckError::Usage)?;
    let mut report = OptimalReport {
        task: task.arg(),
        network: req.network.clone(),
        switching: req.switching.to_string(),
        ports: req.ports.to_string(),
        routes: req.routes.name().into(),
        slots: found.slots,
        max_slots: req.max_slots,
        transmissions: found.slots.map(|_| found.witness.len()),
        witness_check: None,
        witness_file: None,
        certificate: String::new(),
        attempts: found.attempts.iter().map(AttemptRow::from).collect(),
        seconds: 0.0,
    };
    report.certificate = match (&found.certificate, found.slots) {
        (_, None) => format!(
            "none: every T up to {} was refuted (raise --max-slots)",
            req.max_slots
        ),
        (_, Some(0)) => "none needed: every packet starts where it must end".into(),
        (None, Some(1)) => "none needed: one slot is the least where any packet must move".into(),
        (None, Some(_)) => "none".into(),
        (Some(c), Some(_)) => format!(
            "DRAT refutation of {} slots ({} variables, {} clauses), {} bytes, {} lemmas, \
             checked by commcheck's own RUP checker in {:.2} s",
            c.slots, c.vars, c.clauses, c.proof_bytes, c.lemmas, c.check_seconds
        ),
    };
    if let Some(slots) = found.slots.filter(|&s| s > 0) {
        let text = witness::schedule(&inst, task, &found.witness);
        let (file, keep) = match &req.write_schedule {
            Some(f) => (f.clone(), true),
            None => (
                std::env::temp_dir().join(format!("commcheck-optimal-{}.json", std::process::id())),
                false,
            ),
        };
        std::fs::write(&file, text)
            .map_err(|e| CheckError::Usage(format!("{}: {e}", file.display())))?;
        let mut sreq = ScheduleRequest::new(&file, &req.network);
        sreq.switching = req.switching;
        sreq.ports = req.ports;
        let outcome = check_schedule(&sreq);
        if !keep {
            let _ = std::fs::remove_file(&file);
        }
        let outcome = outcome?;
        let failed: Vec<String> = outcome
            .properties
            .iter()
            .filter(|p| p.claimed && p.status != properties::Status::Holds)
            .map(|p| format!("{} {}", p.name, p.status.as_str()))
            .collect();
        report.witness_check = Some(match (failed.is_empty(), outcome.time.measured) {
            (true, Some(m)) if m == slots => "holds".into(),
            (true, m) => format!(
                "completes in {} slots, not {slots}",
                m.map_or("?".into(), |m| m.to_string())
            ),
            (false, _) => failed.join(", "),
        });
        if keep {
            report.witness_file = Some(file.display().to_string());
        }
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
            None => writeln!(s, "  least slots     more than {}", self.max_slots),
        };
        if let Some(n) = self.transmissions {
            let _ = writeln!(s, "  witness         {n} transmissions");
        }
        if let Some(c) = &self.witness_check {
            let _ = writeln!(s, "  witness check   {c} (check schedule, every property)");
        }
        if let Some(f) = &self.witness_file {
            let _ = writeln!(s, "  witness file    {f}");
        }
        let _ = writeln!(s, "  certificate     {}", self.certificate);
        for a in &self.attempts {
            let _ = writeln!(
                s,
                "  T = {:<3} {}  {} vars, {} clauses, {:.2} s",
                a.slots,
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
        self.slots == Some(0) || self.witness_check.as_deref() == Some("holds")
    }
}
