//! `check table fujita`: gossip on the n x n mesh-bus (Fujita), measured
//! steps beside each theorem's bound and both lower bounds, for sides
//! n = 4, 8, ..., 256 and l in the families the theorems speak of.
//!
//! The paper's conclusion is asymptotic: some algorithm is within a factor
//! tending to 1 of the lower bound for every l except l = Theta(n), where
//! Theorem 8 gives a factor of at most 2. A finite table cannot prove a
//! limit; it shows the ratio best/lower for each family of l as n doubles,
//! so a reader sees whether it falls toward 1 or stays put.
//!
//! Sides are powers of two, where PARTITION and CENTRALIZE are complete
//! (docs/errata.md, items 10 and 11), so their corrected variants are not
//! run here.

use super::{Grid, Sheet};
use crate::engine::search::Progress;
use crate::engine::{executor, exhaustive};
use models::catalog::{Algorithm, Params};
use models::{with_protocol, Protocol, ProtocolExt};
use properties::bounds::fujita as fb;
use properties::{PropertyName, Slot, Status};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The sides `check table fujita` sweeps by default.
pub const SIDES: [u32; 7] = [4, 8, 16, 32, 64, 128, 256];

/// Sides up to which a cell is the worst over every writer order the
/// exhaustive checker covers; above, one executor run of the first order.
pub const EXHAUSTIVE_SIDE: u32 = 6;

/// A family of l: its name, the regime it falls in, and its value at n.
#[derive(Clone, Copy, Debug)]
pub struct Family {
    /// The family's name (`n/2`, `sqrt n`).
    pub name: &'static str,
    /// The section of the paper that treats it.
    pub regime: Regime,
    /// Its value of l at side n.
    pub at: fn(u32) -> u32,
}

/// The ranges of l the paper's sections treat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regime {
    /// l = o(n): section 4, SIMPLE and its packed refinement.
    Short,
    /// l = Theta(n): section 6, within twice the lower bound (Theorem 8).
    Linear,
    /// l = omega(n) and o(n^2): section 5.1, PARTITION (Theorem 6).
    Long,
    /// l = Theta(n^2): section 5.2, CENTRALIZE (Theorem 7).
    Square,
}

impl Regime {
    /// The regime as the table's header names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Regime::Short => "o(n)",
            Regime::Linear => "Theta(n)",
            Regime::Long => "omega(n), o(n^2)",
            Regime::Square => "Theta(n^2)",
        }
    }

    /// Where the paper claims asymptotic optimality (every regime but
    /// Theta(n)).
    pub fn claimed_optimal(self) -> bool {
        self != Regime::Linear
    }
}

/// The l families of the table. 3 is the smallest l that divides no power
/// of two, so Theorem 4 applies to it; n sqrt n is taken as n times the
/// largest power of two at most sqrt n, a power of two like n.
pub const FAMILIES: [Family; 9] = [
    Family {
        name: "1",
        regime: Regime::Short,
        at: |_| 1,
    },
    Family {
        name: "3",
        regime: Regime::Short,
        at: |_| 3,
    },
    Family {
        name: "n/4",
        regime: Regime::Linear,
        at: |n| n / 4,
    },
    Family {
        name: "n/2",
        regime: Regime::Linear,
        at: |n| n / 2,
    },
    Family {
        name: "n",
        regime: Regime::Linear,
        at: |n| n,
    },
    Family {
        name: "2n",
        regime: Regime::Linear,
        at: |n| 2 * n,
    },
    Family {
        name: "n sqrt n",
        regime: Regime::Long,
        at: |n| n << (n.ilog2() / 2),
    },
    Family {
        name: "n^2/4",
        regime: Regime::Square,
        at: |n| n * n / 4,
    },
    Family {
        name: "n^2",
        regime: Regime::Square,
        at: |n| n * n,
    },
];

/// The algorithms of the table, each with the families it runs on and the
/// bound its theorem gives at (n, l), if any. SIMPLE runs on every l
/// (Theorem 3 holds for all), the packed refinement where l < n/2 (where it
/// packs), PARTITION wherever its precondition l >= n/2 holds, CENTRALIZE
/// where l = omega(n).
pub struct Column {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The theorem that bounds it.
    pub theorem: &'static str,
    /// The families of l it runs on.
    pub families: &'static [&'static str],
    /// Its theorem's bound at (n, l), where the theorem gives one.
    pub bound: fn(u64, u64) -> Option<u64>,
}

impl Column {
    fn runs_on(&self, f: &Family) -> bool {
        self.families.contains(&f.name)
    }
}

/// The table's columns, in order.
pub const COLUMNS: [Column; 4] = [
    Column {
        algorithm: Algorithm::Simple,
        theorem: "Theorem 3, Corollary 2 where l divides ceil(n/2)",
        families: &[
            "1", "3", "n/4", "n/2", "n", "2n", "n sqrt n", "n^2/4", "n^2",
        ],
        bound: |n, l| {
            let t3 = fb::theorem3(n, l);
            Some(fb::corollary2(n, l).map_or(t3, |c| c.min(t3)))
        },
    },
    Column {
        algorithm: Algorithm::SimplePacked,
        theorem: "Theorem 4 where l < ceil(n/2) does not divide it",
        families: &["1", "3", "n/4"],
        bound: fb::theorem4,
    },
    Column {
        algorithm: Algorithm::Partition,
        theorem: "Theorem 6: tau + m + sigma",
        families: &["n/2", "n", "2n", "n sqrt n", "n^2/4", "n^2"],
        bound: fb::theorem6,
    },
    Column {
        algorithm: Algorithm::Centralize,
        theorem: "Theorem 7: n/2 + O(log n), no constant given",
        families: &["n sqrt n", "n^2/4", "n^2"],
        bound: |_, _| None,
    },
];

/// One measured cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measured {
    /// Completion time (the worst over the orders covered).
    pub steps: Slot,
    /// The claims of the algorithm that the run broke.
    pub broken: Vec<&'static str>,
}

impl Measured {
    fn complete(&self) -> bool {
        !self.broken.contains(&PropertyName::Completeness.as_str())
    }
}

/// Runs `algorithm` at side n with l tokens per message: every writer
/// order (exhaustive, lock-step) at sides up to [`EXHAUSTIVE_SIDE`], else
/// one executor run of the first, which `budget`'s deadline or an
/// interrupt may cut (then none: the cell is not measured).
pub fn measure(
    algorithm: Algorithm,
    n: u32,
    l: u32,
    budget: &Progress,
) -> Result<Option<Measured>, models::ModelError> {
    let cfg = algorithm.config(n as u64, None, None)?;
    let params = Params {
        ell: Some(l as u64),
        ..Default::default()
    };
    let cfg = algorithm.with_params(cfg, params)?;
    Ok(with_protocol!(algorithm, cfg, |p| {
        let claims = p.claims();
        let mut broken = std::collections::BTreeSet::new();
        let steps;
        if n <= EXHAUSTIVE_SIDE {
            let inputs = p.inputs();
            let s = exhaustive::lockstep(Arc::new(p), inputs, exhaustive::Budget::unlimited());
            steps = s.worst_time.unwrap_or(0);
            for f in &s.findings {
                if f.status == Status::Violated && claims.claims(f.property) {
                    broken.insert(f.property.as_str());
                }
            }
        } else {
            let run = executor::run_with(&p, &p.first_input(), budget, executor::cores());
            if run.cut.is_some() {
                return Ok(None);
            }
            steps = run.record.completion;
            for e in run.record.evidence(&claims) {
                if e.claimed && e.status == Status::Violated {
                    broken.insert(e.property.as_str());
                }
            }
        }
        Some(Measured {
            steps,
            broken: broken.into_iter().collect(),
        })
    }))
}

/// Every cell of the table at `sides`: (column, family, side) -> measured,
/// until `budget`'s deadline or an interrupt. `progress` hears each run
/// before it starts.
pub fn measure_all(
    sides: &[u32],
    budget: &Progress,
    progress: &mut dyn FnMut(&str),
) -> BTreeMap<(usize, usize, u32), Measured> {
    let jobs: Vec<(usize, usize, u32)> = (0..COLUMNS.len())
        .flat_map(|c| (0..FAMILIES.len()).map(move |f| (c, f)))
        .filter(|&(c, f)| COLUMNS[c].runs_on(&FAMILIES[f]))
        .flat_map(|(c, f)| sides.iter().map(move |&n| (c, f, n)))
        .collect();
    let mut cells = BTreeMap::new();
    // Families that coincide at a small side share one run.
    let mut seen: BTreeMap<(usize, u32, u32), Measured> = BTreeMap::new();
    for (done, &(c, f, n)) in jobs.iter().enumerate() {
        if budget.stop().is_some() {
            break;
        }
        let l = (FAMILIES[f].at)(n);
        if l == 0 || l as u64 > (n as u64).pow(2) {
            continue;
        }
        let m = match seen.get(&(c, n, l)) {
            Some(m) => m.clone(),
            None => {
                progress(&format!(
                    "table fujita: {} {n} --ell {l} (run {} of {})",
                    COLUMNS[c].algorithm.name(),
                    done + 1,
                    jobs.len()
                ));
                let m = measure(COLUMNS[c].algorithm, n, l, budget)
                    .expect("the table's sides and l are in every algorithm's range");
                let Some(m) = m else { break };
                seen.insert((c, n, l), m.clone());
                m
            }
        };
        cells.insert((c, f, n), m);
    }
    cells
}

/// The larger of Theorem 1 and Theorem 2 at (n, l).
pub fn lower(n: u32, l: u32) -> u64 {
    fb::theorem1(n as u64).max(fb::theorem2(n as u64, l as u64))
}

/// The best complete cell of family f at side n: (steps, algorithm).
pub fn best(
    cells: &BTreeMap<(usize, usize, u32), Measured>,
    f: usize,
    n: u32,
) -> Option<(Slot, Algorithm)> {
    (0..COLUMNS.len())
        .filter_map(|c| {
            let m = cells.get(&(c, f, n))?;
            m.complete().then_some((m.steps, COLUMNS[c].algorithm))
        })
        .min_by_key(|&(steps, _)| steps)
}

/// The table as text, measured within `timeout` (none: no limit), and
/// whether the budget or an interrupt cut it.
pub fn sheet(
    sides: &[u32],
    timeout: Option<Duration>,
    progress: &mut dyn FnMut(&str),
) -> (Sheet, bool) {
    let budget = Progress {
        deadline: timeout.and_then(|t| Instant::now().checked_add(t)),
        ..Progress::default()
    };
    let cells = measure_all(sides, &budget, progress);
    let mut notes = Vec::new();
    let cut = budget.stop();
    if let Some(cut) = cut {
        let why = match cut {
            crate::engine::search::Cut::Time => format!(
                "the time budget of {} s ran out (--timeout SECS for another, --timeout none \
                 for none)",
                timeout.map_or(0, |t| t.as_secs())
            ),
            _ => "interrupted".into(),
        };
        notes.push(format!(
            "{why}: the cells of the runs not made are left empty"
        ));
    }
    let head = |title: &str| {
        let columns = ["l".to_string(), "regime".to_string()]
            .into_iter()
            .chain(sides.iter().map(|n| format!("n={n}")))
            .collect();
        Grid::new(Some(title.to_string()), 2, columns)
    };
    let label = |f: &Family| vec![f.name.to_string(), f.regime.as_str().to_string()];
    let mut grids = Vec::new();

    let mut lower_bounds =
        head("lower bounds: Theorem 1 (floor(n/2) + ceil(log2 n) - 1) / Theorem 2 (n^2/2l + n/2l)");
    for f in &FAMILIES {
        let mut line = label(f);
        for &n in sides {
            let l = (f.at)(n);
            line.push(format!(
                "{}/{}",
                fb::theorem1(n as u64),
                fb::theorem2(n as u64, l as u64)
            ));
        }
        lower_bounds.rows.push(line);
    }
    grids.push(lower_bounds);

    for (c, column) in COLUMNS.iter().enumerate() {
        let mut grid = head(&format!("{}: {}", column.algorithm.name(), column.theorem));
        for (fi, f) in FAMILIES.iter().enumerate() {
            if !column.runs_on(f) {
                continue;
            }
            let mut line = label(f);
            for &n in sides {
                let Some(m) = cells.get(&(c, fi, n)) else {
                    line.push(String::new());
                    continue;
                };
                let l = (f.at)(n);
                let bound = (column.bound)(n as u64, l as u64);
                let other: Vec<&str> = m
                    .broken
                    .iter()
                    .copied()
                    .filter(|b| *b != PropertyName::TimeBound.as_str())
                    .collect();
                let over = bound.is_some_and(|b| m.steps as u64 > b);
                let mark = match (over, other.is_empty()) {
                    (true, _) => "*",
                    (false, false) => "!",
                    _ => "",
                };
                if over || !other.is_empty() {
                    notes.push(format!(
                        "difference: {} n={n} l={l}: {} steps{}{}",
                        column.algorithm.name(),
                        m.steps,
                        bound.map_or(String::new(), |b| format!(" (bound {b})")),
                        if other.is_empty() {
                            String::new()
                        } else {
                            format!(", breaks {}", other.join(", "))
                        }
                    ));
                }
                let b = bound.map_or("~".to_string(), |b| b.to_string());
                line.push(format!("{b}/{}{mark}", m.steps));
            }
            grid.rows.push(line);
        }
        grids.push(grid);
    }

    let mut ratios = head("best/lower: the fastest complete run over the larger lower bound");
    for (fi, f) in FAMILIES.iter().enumerate() {
        let mut line = label(f);
        for &n in sides {
            line.push(best(&cells, fi, n).map_or(String::new(), |(steps, a)| {
                let ratio = steps as f64 / lower(n, (f.at)(n)) as f64;
                format!("{ratio:.2} {}", initials(a))
            }));
        }
        ratios.rows.push(line);
    }
    ratios.after.push(
        "  S simple, SP simple-packed, P partition, C centralize (the fastest complete run)"
            .to_string(),
    );
    grids.push(ratios);

    let mut all = vec!["the paper's conclusion, against the measured ratios:".to_string()];
    let (&first, &last) = (sides.first().unwrap_or(&0), sides.last().unwrap_or(&0));
    for regime in [Regime::Short, Regime::Linear, Regime::Long, Regime::Square] {
        let families: Vec<usize> = (0..FAMILIES.len())
            .filter(|&f| FAMILIES[f].regime == regime)
            .collect();
        let ratio = |f: usize, n: u32| {
            best(&cells, f, n).map(|(steps, _)| steps as f64 / lower(n, (FAMILIES[f].at)(n)) as f64)
        };
        let trend: Vec<String> = families
            .iter()
            .filter_map(|&f| {
                let (a, b) = (ratio(f, first)?, ratio(f, last)?);
                Some(format!(
                    "l = {}: {a:.2} at n={first} -> {b:.2} at n={last}",
                    FAMILIES[f].name
                ))
            })
            .collect();
        let claim = match regime.claimed_optimal() {
            true => "claimed asymptotically optimal (ratio -> 1)",
            false => "claimed within twice the lower bound (Theorem 8)",
        };
        all.push(format!(
            "  {:<17} {claim}: {}",
            regime.as_str(),
            trend.join("; ")
        ));
    }
    // Theorem 7's O(log n), made visible: CENTRALIZE's steps past n/2.
    let (c, f) = (COLUMNS.len() - 1, FAMILIES.len() - 1);
    let past: Vec<String> = sides
        .iter()
        .filter_map(|&n| {
            let m = cells.get(&(c, f, n))?;
            Some(format!(
                "n={n}: {} (log2 n = {})",
                m.steps as i64 - (n / 2) as i64,
                n.ilog2()
            ))
        })
        .collect();
    if !past.is_empty() {
        all.push(format!(
            "  Theorem 7: CENTRALIZE at l = n^2 takes n/2 + k steps, k = {}",
            past.join(", ")
        ));
    }
    all.push(String::new());
    all.push(format!(
        "measured: sides <= {EXHAUSTIVE_SIDE} the worst over every writer order the \
         exhaustive checker covers; larger sides one executor run of the order along the bus"
    ));
    all.append(&mut notes);
    let sheet = Sheet {
        title: "Fujita, gossip on the n x n mesh-bus with CREW row and column buses, at most l \
                tokens per message: steps"
            .to_string(),
        legend: vec![
            "each cell bound/measured ('~' where the theorem gives no exact bound); * measured \
             above the bound, ! another claim broken; blank: not in the algorithm's range"
                .to_string(),
        ],
        grids,
        notes: all,
    };
    (sheet, cut.is_some())
}

/// A column's short name in the best/lower rows.
fn initials(a: Algorithm) -> &'static str {
    match a {
        Algorithm::Simple => "S",
        Algorithm::SimplePacked => "SP",
        Algorithm::Partition => "P",
        Algorithm::Centralize => "C",
        _ => "?",
    }
}
