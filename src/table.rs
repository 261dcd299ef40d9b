//! Papers' tables reproduced next to the checked values.
//!
//! `check table wang-ku` prints Wang and Ku's Table I (broadcast steps on
//! the all-port wormhole n-cube, n = 1..16): every printed value with the
//! value the checker measures (an executor run from source 0, whose time
//! every source shares by xor symmetry) or, for the row "Optimal", computes
//! (the least a with (n+1)^a >= 2^n). A difference is marked with `*`, a
//! run that breaks a claim with `!`, and each is listed below the table.

use crate::engine::executor;
use models::catalog::{Algorithm, Ports, Switching};
use models::{with_protocol, Protocol};
use properties::{bounds, PropertyName, Slot, Status};
use std::fmt::Write;

/// Names `check table` accepts.
pub const TABLES: [&str; 1] = ["wang-ku"];

/// Wang-Ku Table I as printed, dimensions 1..16.
const PRINTED: [(&str, [Slot; 16]); 4] = [
    (
        "SBT",
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
    ),
    ("DT", [1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]),
    ("NOB", [1, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 4, 4]),
    ("Optimal", [1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4]),
];

/// One cell: printed, checked, and the claims the run broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub printed: Slot,
    pub checked: Slot,
    pub broken: Vec<&'static str>,
}

/// The checked Table I: rows SBT, DT, NOB, Optimal.
pub fn wang_ku() -> Vec<(&'static str, Vec<Cell>)> {
    PRINTED
        .iter()
        .map(|(row, printed)| {
            let cells = (1..=16u32)
                .map(|n| {
                    let printed = printed[n as usize - 1];
                    let algorithm = match *row {
                        "SBT" => Algorithm::Sbt,
                        "DT" => Algorithm::Dt,
                        "NOB" => Algorithm::Nob,
                        _ => {
                            let checked = bounds::all_port_wormhole_lower(n);
                            return Cell {
                                printed,
                                checked,
                                broken: vec![],
                            };
                        }
                    };
                    let cfg = algorithm
                        .config(n as u64, Some(Switching::Wh), Some(Ports::All))
                        .expect("Table I's algorithms run wormhole all-port for n <= 16");
                    let (checked, broken) = with_protocol!(algorithm, cfg, |p| {
                        let run = executor::run(&p, &p.first_input());
                        let claims = p.claims();
                        let broken = run
                            .record
                            .evidence(&claims)
                            .into_iter()
                            .filter(|e| e.claimed && e.status == Status::Violated)
                            .filter(|e| e.property != PropertyName::TimeBound)
                            .map(|e| e.property.as_str())
                            .collect::<Vec<_>>();
                        (run.record.last_delivery, broken)
                    });
                    Cell {
                        printed,
                        checked,
                        broken,
                    }
                })
                .collect();
            (*row, cells)
        })
        .collect()
}

/// Table I as text: `printed/checked` per cell.
pub fn wang_ku_text() -> String {
    let table = wang_ku();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Wang & Ku, ICS'95, Table I: broadcast steps, all-port wormhole n-cube"
    );
    let _ = writeln!(
        s,
        "each cell printed/checked; * marks a difference, ! a broken claim"
    );
    let _ = write!(s, "{:<10}", "dimension");
    for n in 1..=16 {
        let _ = write!(s, "{n:>7}");
    }
    s.push('\n');
    let mut diffs = Vec::new();
    for (row, cells) in &table {
        let _ = write!(s, "{row:<10}");
        for (i, c) in cells.iter().enumerate() {
            let mark = match (c.printed != c.checked, c.broken.is_empty()) {
                (true, _) => "*",
                (false, false) => "!",
                _ => " ",
            };
            let _ = write!(s, "{:>6}{mark}", format!("{}/{}", c.printed, c.checked));
            let n = i + 1;
            if c.printed != c.checked {
                diffs.push(format!(
                    "{row} n={n}: printed {}, checked {}",
                    c.printed, c.checked
                ));
            }
            if !c.broken.is_empty() {
                diffs.push(format!(
                    "{row} n={n}: the run breaks {}",
                    c.broken.join(", ")
                ));
            }
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "checked: SBT, DT, NOB by an executor run from source 0 (all sources agree by xor symmetry); \
         Optimal is the least a with (n+1)^a >= 2^n"
    );
    for d in &diffs {
        let _ = writeln!(s, "difference: {d}");
    }
    for n in 1..=16u32 {
        if bounds::double_tree(n) != PRINTED[1].1[n as usize - 1] {
            let _ = writeln!(
                s,
                "formula: DT's ceil(n/2) = {} at n={n}, where Table I prints {} (docs/errata.md)",
                bounds::double_tree(n),
                PRINTED[1].1[n as usize - 1]
            );
        }
    }
    if diffs.is_empty() {
        let _ = writeln!(
            s,
            "no differences between the printed and the checked values"
        );
    }
    s
}
