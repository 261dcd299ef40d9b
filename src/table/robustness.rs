//! `check table robustness`: how each algorithm of the catalogue fares on
//! an imperfect machine (docs/faults.md). For every algorithm at a small
//! size (the 3-cube, the 3 x 3 mesh or torus, the smallest mesh-bus) and
//! every property it claims: the largest number of failed links and of
//! crashed nodes under which the property holds for every fault set, and
//! the largest delay and skew under which it holds for every choice; the
//! first counterexample of each kind is listed below, with its command.
//! Every cell comes from exhaustive checks through `check::check`, the
//! same as `check ALG N --faults F`.

use super::{Grid, Sheet};
use crate::check::machine::Machine;
use crate::check::{self, CheckError, Engine, Request};
use crate::report::Outcome;
use models::catalog::Algorithm;
use models::Family;
use properties::Status;

/// One way the machine departs from the perfect one, and the most checked.
#[derive(Clone, Copy, Debug)]
pub struct Dimension {
    /// The column's name.
    pub name: &'static str,
    /// The flag, for the notes.
    pub flag: &'static str,
    /// The largest value checked.
    pub most: u32,
}

/// The columns: links, nodes, delay, skew.
pub const DIMENSIONS: [Dimension; 4] = [
    Dimension {
        name: "link faults",
        flag: "--faults",
        most: 2,
    },
    Dimension {
        name: "node faults",
        flag: "--node-faults",
        most: 2,
    },
    Dimension {
        name: "delay",
        flag: "--delay",
        most: 2,
    },
    Dimension {
        name: "skew",
        flag: "--skew",
        most: 1,
    },
];

/// Generated states a check of the table may make (per check).
pub const STATES: u64 = 400_000;

/// What one dimension did to one claimed property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Holds for every case up to the value, and breaks one above it.
    Upto(u32),
    /// Holds for every case up to the most checked.
    AtLeast(u32),
    /// Holds up to the value; the next was cut by the budget.
    Unknown(u32),
    /// Broken on the perfect machine already (an erratum or a variant).
    Broken,
}

impl Verdict {
    /// The cell.
    pub fn cell(&self) -> String {
        match self {
            Verdict::Upto(v) => v.to_string(),
            Verdict::AtLeast(v) => format!(">={v}"),
            Verdict::Unknown(v) => format!("{v}?"),
            Verdict::Broken => "x".into(),
        }
    }
}

/// One algorithm's rows: per claimed property a verdict per dimension,
/// and the first counterexample of each dimension.
pub struct Robustness {
    /// The size checked (n x n on a grid, [`size_words`]).
    pub size: u64,
    /// (property, a verdict per dimension).
    pub rows: Vec<(&'static str, Vec<Verdict>)>,
    /// The first counterexample of each dimension that broke something.
    pub firsts: Vec<String>,
}

/// The size the table checks `algorithm` at.
pub fn size(algorithm: Algorithm) -> u64 {
    match algorithm.family() {
        Family::MeshBus { min } => min as u64,
        s => s.sizes().0.max(3) as u64,
    }
}

/// The size as the command line writes it (`3`, `3x3`).
pub fn size_words(algorithm: Algorithm, n: u64) -> String {
    match algorithm.family() {
        Family::Grid { .. } => format!("{n}x{n}"),
        _ => n.to_string(),
    }
}

/// The check of `algorithm` at `n` on `machine`, within the table's budget.
fn run(algorithm: Algorithm, n: u64, machine: Machine) -> Result<Outcome, CheckError> {
    let mut req = Request::new(algorithm, n, None, None)?;
    req.options.engine = Some(Engine::Lockstep);
    req.options.max_states = Some(STATES);
    req.options.threads = 1;
    req.options.machine = machine;
    check::check(&req)
}

/// `algorithm` against every dimension, at its table size; or why its
/// check on the perfect machine was not run.
pub fn robustness(algorithm: Algorithm) -> Result<Robustness, CheckError> {
    let n = size(algorithm);
    let perfect = run(algorithm, n, Machine::default())?;
    let claimed: Vec<&'static str> = perfect
        .properties
        .iter()
        .filter(|p| p.claimed)
        .map(|p| p.name)
        .collect();
    let status = |o: &Outcome, name: &str| {
        o.properties
            .iter()
            .find(|p| p.name == name)
            .map_or(Status::Holds, |p| p.status)
    };
    let mut columns: Vec<Vec<Verdict>> = Vec::new();
    let mut firsts = Vec::new();
    for dim in DIMENSIONS {
        let mut verdicts: Vec<Option<Verdict>> = claimed
            .iter()
            .map(|&c| (status(&perfect, c) != Status::Holds).then_some(Verdict::Broken))
            .collect();
        for v in 1..=dim.most {
            if verdicts.iter().all(Option::is_some) {
                break;
            }
            let mut machine = Machine::default();
            match dim.flag {
                "--faults" => machine.link_faults = Some(v),
                "--node-faults" => machine.node_faults = Some(v),
                "--delay" => machine.delay = v,
                _ => machine.skew = v,
            }
            let outcome = match run(algorithm, n, machine) {
                Ok(o) => o,
                Err(why) => {
                    firsts.push(format!(
                        "{} {}, {} {v}: not run: {why}",
                        algorithm.name(),
                        size_words(algorithm, n),
                        dim.flag
                    ));
                    for x in verdicts.iter_mut().filter(|x| x.is_none()) {
                        *x = Some(Verdict::Unknown(v - 1));
                    }
                    break;
                }
            };
            let mut first = None;
            for (i, &c) in claimed.iter().enumerate() {
                if verdicts[i].is_some() {
                    continue;
                }
                match status(&outcome, c) {
                    Status::Holds => {}
                    Status::Violated => {
                        verdicts[i] = Some(Verdict::Upto(v - 1));
                        let found = outcome.properties.iter().find(|p| p.name == c);
                        let x = found
                            .and_then(|p| p.counterexample.clone())
                            .unwrap_or_default();
                        let command = x.reproduce.unwrap_or_default();
                        first.get_or_insert(format!("{c}: {} (`{command}`)", x.text));
                    }
                    Status::Unknown | Status::NotJudged => {
                        verdicts[i] = Some(Verdict::Unknown(v - 1))
                    }
                }
            }
            if let Some(first) = first {
                let size = size_words(algorithm, n);
                firsts.push(format!(
                    "{} {size}, {} {v}: {first}",
                    algorithm.name(),
                    dim.flag
                ));
            }
        }
        columns.push(
            verdicts
                .into_iter()
                .map(|x| x.unwrap_or(Verdict::AtLeast(dim.most)))
                .collect(),
        );
    }
    let rows = claimed
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, columns.iter().map(|col| col[i].clone()).collect()))
        .collect();
    Ok(Robustness {
        size: n,
        rows,
        firsts,
    })
}

/// The table over `algorithms` (the catalogue for `check table
/// robustness`), telling `progress` which algorithm it is on.
pub fn sheet(algorithms: &[Algorithm], progress: &mut dyn FnMut(&str)) -> Sheet {
    let columns = ["algorithm", "n", "property"]
        .into_iter()
        .map(String::from)
        .chain(
            DIMENSIONS
                .iter()
                .map(|d| format!("{} (<={})", d.name, d.most)),
        )
        .collect();
    let mut grid = Grid::new(None, 3, columns);
    let mut notes = Vec::new();
    for (i, &a) in algorithms.iter().enumerate() {
        if super::interrupted(&mut notes, i, algorithms.len()) {
            break;
        }
        progress(a.name());
        match robustness(a) {
            Ok(r) => {
                for (property, verdicts) in &r.rows {
                    let mut row = vec![
                        a.name().to_string(),
                        size_words(a, r.size),
                        property.to_string(),
                    ];
                    row.extend(verdicts.iter().map(Verdict::cell));
                    grid.rows.push(row);
                }
                notes.extend(r.firsts);
            }
            Err(why) => notes.push(format!("{}: not run: {why}", a.name())),
        }
    }
    Sheet {
        title: "Robustness: the largest number of failed links and crashed nodes (every set), \
                and the largest delay and skew (every choice), under which each claimed \
                property holds"
            .into(),
        legend: vec![
            "k: holds for every case up to k, broken at k + 1 (the first counterexample is \
             listed below, with its command); >=k: holds up to the most checked; k?: the \
             search for k + 1 was cut by the budget; x: broken on the perfect machine \
             already"
                .into(),
            format!(
                "exhaustive lock-step checks, one source per symmetry orbit, at most {STATES} \
                 generated states each; faults from the start, a failed link both ways (a \
                 mesh-bus's link is a whole bus)"
            ),
        ],
        grids: vec![grid],
        notes,
    }
}
