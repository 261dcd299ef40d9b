//! `check table lecture-bounds`: the lecture notes' Lemma (lower bounds of
//! OAB, AAB, OAS and AAS in the all-port full-duplex store-and-forward
//! Q_n) beside the checked rounds and transmissions of the algorithms that
//! attain them, and the all-port wormhole OAB of the notes (DTA, HKA) beside
//! NOB and the lower bound ceil(n / log2(n+1)).

use super::executor_run;
use models::catalog::{Algorithm, Ports, Switching};
use properties::bounds;
use std::fmt::Write;

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

/// The table as text: dimensions 1..=`sf` for the Lemma, 1..=`wh` for the
/// wormhole rows.
pub fn text(sf: u32, wh: u32) -> String {
    let mut s = String::new();
    let mut notes = Vec::new();
    let _ = writeln!(
        s,
        "Lecture notes, section 11: the Lemma's lower bounds on Q_n (all-port, full-duplex, \
         store-and-forward), each cell bound/checked; * marks a difference, ! a broken claim"
    );
    let head = |s: &mut String, title: &str, dims: u32| {
        let _ = write!(s, "\n{title:<28}");
        for n in 1..=dims {
            let _ = write!(s, "{:>12}", format!("n={n}"));
        }
        s.push('\n');
    };
    head(&mut s, "rounds", sf);
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
    for (column, label) in [(1usize, "rounds"), (2, "transmissions")] {
        if column == 2 {
            head(&mut s, label, sf);
        }
        for (row, &a) in ATTAINED_BY.iter().enumerate() {
            let name = bounds::lecture::lemma(1)[row].0;
            let _ = write!(s, "{:<28}", format!("{name} ({})", a.name()));
            for n in 1..=sf {
                let formula = bounds::lecture::lemma(n)[row];
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
                    " "
                };
                let _ = write!(s, "{:>11}{mark}", format!("{bound}/{got}"));
            }
            s.push('\n');
        }
    }
    let _ = writeln!(
        s,
        "\nAll-port wormhole OAB on Q_n: steps (lower bound: the least a with (n+1)^a >= 2^n, \
         about n/log2(n+1))"
    );
    head(&mut s, "steps", wh);
    let _ = write!(s, "{:<28}", "lower bound");
    for n in 1..=wh {
        let _ = write!(s, "{:>12}", bounds::all_port_wormhole_lower(n));
    }
    s.push('\n');
    for (a, label) in WORMHOLE {
        let _ = write!(s, "{label:<28}");
        for n in 1..=wh {
            let cfg = a
                .config(n as u64, Some(Switching::Wh), Some(Ports::All))
                .expect("wormhole all-port");
            let (t, _, broken) = executor_run(a, cfg);
            let mark = match broken.is_empty() {
                true => " ",
                false => {
                    notes.push(format!(
                        "{label} n={n}: breaks {} (docs/errata.md{})",
                        broken.join(", "),
                        if a == Algorithm::Dt { ", item 6" } else { "" }
                    ));
                    "!"
                }
            };
            let _ = write!(s, "{:>11}{mark}", t);
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "\nchecked: one executor run of each algorithm from node 0 (every source alike by xor \
         symmetry)"
    );
    if notes.is_empty() {
        let _ = writeln!(
            s,
            "no differences between the bounds and the checked values"
        );
    }
    for n in notes {
        let _ = writeln!(s, "{n}");
    }
    s
}
