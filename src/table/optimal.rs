//! `check table optimal`: every question docs/optimal.md answers, each
//! asked of `check optimal` anew, beside the counting bound and the
//! papers' best algorithm for it, run by the ordinary checker.
//!
//! A row is one `check optimal` request with a per-row `--timeout`; the
//! paper's column is the least time among `check` commands of the papers'
//! algorithms for that task and network (or, for an algorithm too thin to
//! encode, the count its description implies, said so). A paper's
//! algorithm slower than the optimum is marked `*`; a witness the ordinary
//! checker rejects, or a paper run that breaks a claim, `!`.

use super::{Grid, Sheet};
use crate::check::optimal::{optimal, OptimalReport, OptimalRequest};
use crate::optimal::task::Routes;
use crate::report::Runner;
use models::topology::grid::Grid as GridTopology;
use models::{Ports, Switching};
use properties::Status;
use std::time::Duration;

/// The papers' best algorithm for a question.
#[derive(Clone, Debug)]
pub enum Paper {
    /// `check` commands of the papers' algorithms, each run by the
    /// executor; the least time counts.
    Runs(Vec<String>),
    /// An algorithm described too thinly to run: its name and the slots
    /// its description implies.
    Stated(&'static str, u32),
}

/// One row: a `check optimal` request and the papers' algorithm for it.
#[derive(Clone, Debug)]
pub struct Question {
    /// What `check optimal` is asked.
    pub request: OptimalRequest,
    /// What the papers offer for it.
    pub paper: Paper,
}

fn runs(commands: &[String]) -> Paper {
    Paper::Runs(commands.to_vec())
}

/// ceil(log2 z).
fn log2_up(z: u32) -> u32 {
    z.next_power_of_two().trailing_zeros()
}

/// The questions of docs/optimal.md, in its order.
pub fn questions() -> Vec<Question> {
    use Ports::{All, One};
    use Switching::{Sf, Wh};
    let mut q = Vec::new();
    // Wang and Ku's Table I: the all-port wormhole cube, e-cube routes,
    // and at n = 5 any routes.
    for n in 1..=8 {
        q.push(Question {
            request: OptimalRequest::new("broadcast", net(&format!("hypercube:{n}")), Wh, All),
            paper: runs(&[format!("nob {n}")]),
        });
    }
    let mut any = OptimalRequest::new("broadcast", net("hypercube:5"), Wh, All);
    any.routes = Routes::Any;
    q.push(Question {
        request: any,
        paper: runs(&["nob 5".into()]),
    });
    // The lecture notes' tori and meshes.
    for routes in [Routes::Network, Routes::Minimal, Routes::Any] {
        let mut r = OptimalRequest::new("broadcast", net("torus:5x5"), Wh, All);
        r.routes = routes;
        q.push(Question {
            request: r,
            paper: runs(&["dilated-diagonal 5x5".into()]),
        });
    }
    let m16 = GridTopology::new(&[16, 16], false, Wh, All);
    q.push(Question {
        request: OptimalRequest::new(
            &format!("broadcast:{}", m16.node(&[8, 8])),
            net("mesh:16x16"),
            Wh,
            All,
        ),
        paper: Paper::Stated("extended dominating sets (docs/errata.md 17)", 5),
    });
    // One-port wormhole meshes where recursive doubling's sum of
    // ceil(log2 side) misses ceil(log2 N).
    for a in 2..=6u32 {
        for b in a..=6u32 {
            if log2_up(a) + log2_up(b) > log2_up(a * b) {
                q.push(Question {
                    request: OptimalRequest::new(
                        "broadcast",
                        net(&format!("mesh:{a}x{b}")),
                        Wh,
                        One,
                    ),
                    paper: runs(&[format!("recursive-doubling {a}x{b}")]),
                });
            }
        }
    }
    // One-port store-and-forward meshes, at sources where farthest first
    // misses max(ecc, ceil(log2 N)) (docs/errata.md 12).
    for (sides, source) in [
        (vec![5, 7], vec![0, 3]),
        (vec![3, 3, 3], vec![0, 1, 1]),
        (vec![3, 3, 3], vec![1, 1, 1]),
    ] {
        let grid = GridTopology::new(&sides, false, Sf, One);
        let name: Vec<String> = sides.iter().map(u32::to_string).collect();
        let at: Vec<String> = source.iter().map(u32::to_string).collect();
        q.push(Question {
            request: OptimalRequest::new(
                &format!("broadcast:{}", grid.node(&source)),
                net(&format!("mesh:{}", name.join("x"))),
                Sf,
                One,
            ),
            paper: runs(&[format!(
                "mesh-sf-farthest {} --ports one --source {}",
                name.join("x"),
                at.join(",")
            )]),
        });
    }
    // Bertsekas et al.'s Tables 1 and 2 on Q_3 and Q_4, MLA and SLA.
    for d in [3, 4] {
        for ports in [All, One] {
            for (task, algorithm) in [
                ("allgather", "mnb"),
                ("scatter", "scatter"),
                ("alltoall", "total-exchange"),
            ] {
                let mut r = OptimalRequest::new(task, net(&format!("hypercube:{d}")), Sf, ports);
                r.fewest_transmissions = true;
                q.push(Question {
                    request: r,
                    paper: runs(&[format!("{algorithm} {d} --ports {ports}")]),
                });
            }
        }
    }
    // Fujita's gossip on the mesh-bus, l tokens a message.
    for (n, ell) in [(2, 1), (3, 1), (3, 2), (3, 9)] {
        let mut r = OptimalRequest::new("allgather", net(&format!("mesh-bus:{n}")), Sf, All);
        r.ell = Some(ell);
        let algorithms = [
            "simple",
            "simple-packed",
            "partition-fixed",
            "centralize-fixed",
        ];
        q.push(Question {
            request: r,
            paper: runs(
                &algorithms
                    .iter()
                    .map(|a| format!("{a} {n} --ell {ell}"))
                    .collect::<Vec<_>>(),
            ),
        });
    }
    q
}

/// Slots and, where counted, transmissions.
type Timed = (u32, Option<u64>);

/// The papers' best for `paper`: its slots and transmissions, the command
/// that gave them (or what states them), and what its runs broke.
fn paper_best(run: Runner, paper: &Paper) -> (Option<Timed>, String, Vec<String>) {
    match paper {
        Paper::Stated(what, slots) => (Some((*slots, None)), format!("{what}, stated"), vec![]),
        Paper::Runs(commands) => {
            let mut best: Option<(u32, Option<u64>, String)> = None;
            let mut broken = Vec::new();
            for c in commands {
                let outcomes = match run(&format!("{c} --engine executor")) {
                    Ok(o) => o,
                    // An algorithm that does not take this size or l.
                    Err(_) => continue,
                };
                for o in outcomes {
                    let bad: Vec<&str> = o
                        .properties
                        .iter()
                        .filter(|p| p.claimed && p.status == Status::Violated)
                        .map(|p| p.name)
                        .collect();
                    if !bad.is_empty() {
                        broken.push(format!("`check {c}` breaks {}", bad.join(", ")));
                    }
                    let Some(t) = o.time.measured else { continue };
                    if best.as_ref().is_none_or(|b| t < b.0) {
                        best = Some((t, o.transmissions, c.clone()));
                    }
                }
            }
            match best {
                Some((t, tx, c)) => (Some((t, tx)), c, broken),
                None => (None, "no paper algorithm runs here".into(), broken),
            }
        }
    }
}

/// The row's request as `check optimal` arguments.
fn asked(r: &OptimalRequest) -> String {
    let c = r.command();
    c.trim_start_matches("check optimal ").to_string()
}

/// The table over `questions`, each given `timeout`; `run` runs a paper's
/// `check` command as the command line would.
pub fn sheet(
    questions: &[Question],
    timeout: Duration,
    run: Runner,
    progress: &mut dyn FnMut(&str),
) -> Sheet {
    let columns = [
        "check optimal",
        "bound",
        "optimum",
        "certificate",
        "witness by",
        "seconds",
        "papers' best",
        "slots",
    ];
    let mut grid = Grid::new(None, 1, columns.iter().map(|c| c.to_string()).collect());
    let mut notes = vec![format!(
        "each row: `check optimal ARGS --timeout {}` on this machine; papers' best: the least \
         time of the named `check` runs (executor)",
        timeout.as_secs()
    )];
    for (i, q) in questions.iter().enumerate() {
        if super::interrupted(&mut notes, i, questions.len()) {
            break;
        }
        let args = asked(&q.request);
        progress(&format!(
            "[{}/{}] check optimal {args}",
            i + 1,
            questions.len()
        ));
        let mut request = q.request.clone();
        request.timeout = Some(timeout);
        let (paper, by, broken) = paper_best(run, &q.paper);
        notes.extend(broken.iter().map(|b| format!("{args}: {b}")));
        let report = match optimal(&request) {
            Ok(r) => r,
            Err(e) => {
                notes.push(format!("{args}: {e}"));
                grid.rows
                    .push(vec![args, "-".into(), "error!".into(), e.to_string()]);
                continue;
            }
        };
        let (mut optimum, mut certificate) = cells(&report);
        // Stopped, where a paper's run (checked, its claims unbroken)
        // meets the lower bound: the bound is the optimum, that run its
        // witness.
        if let (None, Some((t, tx)), Some(b)) = (report.slots, paper, report.bound_slots) {
            if t == b && broken.is_empty() {
                // And its transmissions, where they meet theirs.
                let fewest = tx.filter(|&tx| report.transmissions_bound == Some(tx));
                optimum = match fewest {
                    Some(tx) => format!("{t} ({tx} tx) (paper's run)"),
                    None => format!("{t} (paper's run)"),
                };
                certificate = format!(
                    "{}{}; witness: `check {}`",
                    report.bound_by,
                    fewest.map_or("", |_| "; receipts bound"),
                    by
                );
            }
        }
        let paper_cell = match paper {
            None => "-".to_string(),
            Some((t, tx)) => {
                let mut cell = match (q.request.fewest_transmissions, tx) {
                    (true, Some(tx)) => format!("{t} ({tx} tx)"),
                    _ => t.to_string(),
                };
                let slower = report.slots.is_some_and(|s| t > s);
                let more = match (&report.fewest, tx) {
                    (Some(f), Some(tx)) => report.slots == Some(t) && tx > f.transmissions,
                    _ => false,
                };
                let what = match &q.paper {
                    Paper::Stated(..) => format!("{by}, implies"),
                    Paper::Runs(_) => format!("`check {by}` takes"),
                };
                if slower || more {
                    notes.push(format!(
                        "{args}: {what} {t} slots{} against the optimum {}",
                        tx.filter(|_| report.fewest.is_some())
                            .map_or(String::new(), |tx| format!(" and {tx} transmissions")),
                        optimum.trim_end_matches('!')
                    ));
                    cell.push('*');
                }
                // A broken claim outranks a slower time (both noted).
                if !broken.is_empty() {
                    cell = format!("{}!", cell.trim_end_matches('*'));
                }
                cell
            }
        };
        grid.rows.push(vec![
            args,
            report.bound_slots.map_or("-".into(), |b| b.to_string()),
            optimum,
            certificate,
            report.method.clone(),
            format!("{:.2}", report.seconds),
            by.clone(),
            paper_cell,
        ]);
    }
    grid.prose = false;
    Sheet {
        title: "The optimum (check optimal) beside the counting bound and the papers' best"
            .to_string(),
        legend: vec![
            "optimum: least slots (and, where asked, fewest transmissions at that time); \
             `> T` where stopped at the timeout with T refuted; `(paper's run)` where stopped \
             but the papers' algorithm, checked, meets the lower bound"
                .to_string(),
            "* the papers' best is slower than the optimum; ! a witness the ordinary checker \
             rejects, or a paper run that breaks a claim (each noted below)"
                .to_string(),
        ],
        grids: vec![grid],
        notes,
    }
}

/// The optimum's cell and the certificate's, from a report.
fn cells(r: &OptimalReport) -> (String, String) {
    let mark = match r.stands() {
        true => "",
        false => "!",
    };
    let optimum = match (r.slots, &r.fewest) {
        (Some(t), Some(f)) => format!("{t} ({} tx){mark}", f.transmissions),
        (Some(t), None) => format!("{t}{mark}"),
        (None, _) => match r.refuted_slots {
            Some(t) => format!("> {t}"),
            None => "?".into(),
        },
    };
    let certificate = match &r.fewest {
        Some(f) => format!("{}; {}", r.certified_by, f.certified_by),
        None => r.certified_by.clone(),
    };
    (optimum, certificate)
}

/// A network the table names (each one a valid `--network`).
fn net(spec: &str) -> models::NetworkSpec {
    spec.parse()
        .expect("the table names networks commcheck knows")
}
