//! `check table lecture-bounds`: the lecture notes' Lemma (lower bounds of
//! OAB, AAB, OAS and AAS in the all-port full-duplex store-and-forward
//! Q_n) beside the checked rounds and transmissions of the algorithms that
//! attain them, and the all-port wormhole OAB of the notes (DTA, HKA) beside
//! NOB and the lower bound ceil(n / log2(n+1)).

use super::executor_run;
use super::{Grid, Sheet};
use models::catalog::{Algorithm, Ports, Switching};
use properties::bounds;

/// The Lemma's operations and the algorithm that attains each.
const ATTAINED_BY: [Algorithm; 4] = [
    Algorithm::Sbt,
    Algorithm::Mnb,
    Algorithm::Scatter,
    Algorithm::TotalExchange,
];

/// The wormhole rows: algorithm and its name in the notes.
const WORMHOLE: [(Algorithm, &str); 3] = [
    (Algorithm::Dt, "DTA (dt)"),
    (Algorithm::HoKao, "HKA (ho-kao)"),
    (Algorithm::Nob, "NOB (nob, Wang-Ku)"),
];

/// The table: dimensions 1..=`sf` for the Lemma, 1..=`wh` for the
/// wormhole rows.
pub fn sheet(sf: u32, wh: u32) -> Sheet {
    let mut notes = Vec::new();
    let head = |title: &str, dims: u32| {
        let columns = std::iter::once(title.to_string())
            .chain((1..=dims).map(|n| format!("n={n}")))
            .collect();
        Grid::new(None, 1, columns)
    };
    let runs: Vec<Vec<(u64, u64, Vec<&str>)>> = ATTAINED_BY
        .iter()
        .map(|&a| {
            (1..=sf)
                .map(|n| {
                    let cfg = a
                        .config(n as u64, Some(Switching::Sf), Some(Ports::All))
                        .expect("the Lemma's algorithms run all-port store-and-forward");
                    let (t, tx, broken) = executor_run(a, cfg);
                    (t as u64, tx, broken)
                })
                .collect()
        })
        .collect();
    let mut grids = Vec::new();
    for (column, label) in [(1usize, "rounds"), (2, "transmissions")] {
        let mut grid = head(label, sf);
        for (row, &a) in ATTAINED_BY.iter().enumerate() {
            let name = bounds::lecture_notes::lemma(1)[row].0;
            let mut line = vec![format!("{name} ({})", a.name())];
            for n in 1..=sf {
                let formula = bounds::lecture_notes::lemma(n)[row];
                let bound = if column == 1 { formula.1 } else { formula.2 };
                let (t, tx, broken) = &runs[row][n as usize - 1];
                let got = if column == 1 { *t } else { *tx };
                let mark = if got != bound {
                    notes.push(format!(
                        "{name} {label} n={n}: bound {bound}, checked {got}"
                    ));
                    "*"
                } else if !broken.is_empty() {
                    notes.push(format!("{name} n={n}: breaks {}", broken.join(", ")));
                    "!"
                } else {
                    ""
                };
                line.push(format!("{bound}/{got}{mark}"));
            }
            grid.rows.push(line);
        }
        grids.push(grid);
    }
    let mut grid = head("steps", wh);
    grid.title = Some(
        "All-port wormhole OAB on Q_n: steps (lower bound: the least a with (n+1)^a >= 2^n, \
         about n/log2(n+1))"
            .to_string(),
    );
    grid.rows.push(
        std::iter::once("lower bound".to_string())
            .chain((1..=wh).map(|n| bounds::all_port_wormhole_lower(n).to_string()))
            .collect(),
    );
    let mut ratios = Vec::new();
    for (a, label) in WORMHOLE {
        let mut line = vec![label.to_string()];
        let mut ratio = vec![format!(
            "{} / bound",
            label.split(' ').next().unwrap_or(label)
        )];
        for n in 1..=wh {
            let cfg = a
                .config(n as u64, Some(Switching::Wh), Some(Ports::All))
                .expect("wormhole all-port");
            let (t, _, broken) = executor_run(a, cfg);
            let mark = match broken.is_empty() {
                true => "",
                false => {
                    notes.push(format!(
                        "{label} n={n}: breaks {} (docs/errata.md{})",
                        broken.join(", "),
                        if a == Algorithm::Dt { ", item 6" } else { "" }
                    ));
                    "!"
                }
            };
            line.push(format!("{t}{mark}"));
            ratio.push(format!(
                "{:.2}",
                f64::from(t) / f64::from(bounds::all_port_wormhole_lower(n))
            ));
        }
        grid.rows.push(line);
        ratios.push(ratio);
    }
    // The ratios the notes' remarks speak of (DTA "optimal only for n <=
    // 6", HKA "optimal up to a small multiplicative constant").
    grid.rows.extend(ratios);
    grids.push(grid);
    let mut all = vec![
        "checked: one executor run of each algorithm from node 0 (every source alike by xor \
         symmetry)"
            .to_string(),
    ];
    if notes.is_empty() {
        all.push("no differences between the bounds and the checked values".to_string());
    }
    all.append(&mut notes);
    Sheet {
        title: "Lecture notes, section 11: the Lemma's lower bounds on Q_n (all-port, \
                full-duplex, store-and-forward)"
            .to_string(),
        legend: vec!["each cell bound/checked; * marks a difference, ! a broken claim".to_string()],
        grids,
        notes: all,
    }
}
