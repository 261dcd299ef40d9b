//! The least number of slots for a task, by SAT: "can the task be done in
//! T slots?" as a formula, solved for T = 1, 2, ... until satisfiable.
//! The model of the first satisfiable T is the witness; the refutation of
//! T - 1, written by the solver as a DRAT proof and checked by
//! [`super::drat`], is the certificate. One refutation suffices: a
//! schedule in fewer slots is one in T - 1 slots with idle slots added
//! (holdings persist), so T - 1 impossible means every fewer impossible.
//!
//! The formula, for slots t = 1..T (docs/optimal.md, "The encoding"):
//! * `h(p, v, t)`: node v holds packet p at the end of slot t; at t = 0
//!   only the packet's origin holds it;
//! * `x(p, k, t)`: transmission k (a [`Hop`]) carries p in slot t;
//! * a transmission carries only what its sender held at the end of the
//!   slot before, and only to a receiver that did not hold it (a send to
//!   a holder can be dropped from any schedule, so none is lost);
//! * a node holds p at t only if it held it at t - 1 or received it in t,
//!   and keeps what it holds;
//! * no two transmissions of a slot take one resource (at most one of
//!   them: pairwise where few, else a sequential counter);
//! * every destination of every packet holds it at T.
//!
//! Two prunes, each sound: under store-and-forward a node cannot hold p
//! before slot dist(origin, v), and a transmission in slot t whose
//! receiver is no destination of p and is farther than T - t hops from
//! all of them cannot help.

use super::drat;
use super::task::{Instance, Packet};
use properties::{NodeId, ResourceId};
use std::collections::HashMap;
use std::time::Instant;
use varisat::{CnfFormula, ExtendFormula, Lit, ProofFormat, Solver};

/// A transmission of a witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    /// Its slot, from 1.
    pub slot: u32,
    /// The packet (the task's chunk).
    pub packet: u32,
    /// The [`Hop`](super::task::Hop) it takes, by index.
    pub hop: usize,
}

/// One formula solved.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    /// The slots asked for.
    pub slots: u32,
    /// Satisfiable.
    pub sat: bool,
    /// Variables and clauses of the formula.
    pub vars: u32,
    /// Clauses.
    pub clauses: usize,
    /// The solver's time.
    pub seconds: f64,
}

/// A refutation of one slot fewer, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Certificate {
    /// The slots refuted (the optimum minus one).
    pub slots: u32,
    /// The formula's size.
    pub vars: u32,
    /// Clauses.
    pub clauses: usize,
    /// The DRAT proof's size in bytes and lemmas.
    pub proof_bytes: usize,
    /// Lemmas the checker checked.
    pub lemmas: u64,
    /// The checker's time.
    pub check_seconds: f64,
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct Optimum {
    /// The least slots, if at most the most asked for.
    pub slots: Option<u32>,
    /// A schedule in that many slots.
    pub witness: Vec<Sent>,
    /// The refutation of one slot fewer (none where the optimum is 0 or
    /// 1 under wormhole, trivially least, or where no optimum was found).
    pub certificate: Option<Certificate>,
    /// Every formula solved, in order.
    pub attempts: Vec<Attempt>,
}

/// The formula "`inst` in `slots` slots", with the meaning of its
/// transmission variables.
pub struct Formula {
    /// Clauses in DIMACS literals.
    pub clauses: Vec<Vec<i32>>,
    /// Variables.
    pub vars: u32,
    /// `(variable, transmission)` for every transmission variable.
    pub sends: Vec<(i32, Sent)>,
}

/// A literal of the encoding: a constant, or a variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum L {
    True,
    False,
    Var(i32),
}

/// Encodes "`inst` in `slots` slots" (the module's formula).
pub fn encode(inst: &Instance, slots: u32) -> Formula {
    let mut f = Formula {
        clauses: Vec::new(),
        vars: 0,
        sends: Vec::new(),
    };
    let fresh = |f: &mut Formula| {
        f.vars += 1;
        f.vars as i32
    };
    let n = inst.nodes as usize;
    // The nearest destination of each packet from each node.
    let near: Vec<Vec<u32>> = inst
        .packets
        .iter()
        .map(|p| {
            (0..n)
                .map(|v| {
                    p.dests
                        .iter()
                        .map(|&d| inst.dist[v][d as usize])
                        .min()
                        .unwrap_or(u32::MAX)
                })
                .collect()
        })
        .collect();
    let earliest = |p: &Packet, v: usize| match (v == p.origin as usize, inst.wormhole) {
        (true, _) => 0,
        (false, true) => 1,
        (false, false) => inst.dist[p.origin as usize][v],
    };
    // h(p, v, t) for t in 0..=slots.
    let mut hold: Vec<Vec<Vec<L>>> = Vec::with_capacity(inst.packets.len());
    for p in &inst.packets {
        let mut per_node = Vec::with_capacity(n);
        for v in 0..n {
            let e = earliest(p, v);
            let lits = (0..=slots)
                .map(|t| match t {
                    0 => match v == p.origin as usize {
                        true => L::True,
                        false => L::False,
                    },
                    t if t < e => L::False,
                    _ => L::Var(fresh(&mut f)),
                })
                .collect();
            per_node.push(lits);
        }
        hold.push(per_node);
    }
    let clause = |f: &mut Formula, lits: &[L]| {
        if lits.contains(&L::True) {
            return;
        }
        f.clauses.push(
            lits.iter()
                .filter_map(|l| match l {
                    L::Var(v) => Some(*v),
                    _ => None,
                })
                .collect(),
        );
    };
    let not = |l: L| match l {
        L::True => L::False,
        L::False => L::True,
        L::Var(v) => L::Var(-v),
    };
    // Per (slot, resource), the transmission variables that take it; per
    // (packet, node, slot), those that bring the packet there.
    let mut taking: HashMap<(u32, ResourceId), Vec<i32>> = HashMap::new();
    let mut into: HashMap<(usize, NodeId, u32), Vec<L>> = HashMap::new();
    for (pi, p) in inst.packets.iter().enumerate() {
        for t in 1..=slots {
            for (k, hop) in inst.hops.iter().enumerate() {
                let (u, v) = (hop.from as usize, hop.to as usize);
                let had = hold[pi][u][t as usize - 1];
                let there = hold[pi][v][t as usize];
                let useful = p.dests.contains(&hop.to)
                    || match inst.wormhole {
                        true => t < slots && near[pi][v] != u32::MAX,
                        false => near[pi][v].saturating_add(t) <= slots,
                    };
                if had == L::False
                    || there == L::False
                    || !useful
                    || hold[pi][v][t as usize - 1] == L::True
                {
                    continue;
                }
                let x = fresh(&mut f);
                f.sends.push((
                    x,
                    Sent {
                        slot: t,
                        packet: pi as u32,
                        hop: k,
                    },
                ));
                // Carried only what the sender held, to a node without it.
                clause(&mut f, &[L::Var(-x), had]);
                clause(&mut f, &[L::Var(-x), not(hold[pi][v][t as usize - 1])]);
                clause(&mut f, &[L::Var(-x), there]);
                for &r in &hop.uses {
                    taking.entry((t, r)).or_default().push(x);
                }
                into.entry((pi, hop.to, t)).or_default().push(L::Var(x));
            }
        }
    }
    for (pi, per_node) in hold.iter().enumerate() {
        for (v, lits) in per_node.iter().enumerate() {
            for t in 1..=slots {
                let (before, now) = (lits[t as usize - 1], lits[t as usize]);
                // Kept, and had or received.
                clause(&mut f, &[not(before), now]);
                let mut why = vec![not(now), before];
                why.extend(
                    into.get(&(pi, v as NodeId, t))
                        .into_iter()
                        .flatten()
                        .copied(),
                );
                clause(&mut f, &why);
            }
        }
    }
    let mut taken: Vec<_> = taking.into_iter().collect();
    taken.sort_unstable_by_key(|(k, _)| *k);
    for (_, xs) in taken {
        at_most_one(&mut f, &xs);
    }
    for (pi, p) in inst.packets.iter().enumerate() {
        for &d in &p.dests {
            clause(&mut f, &[hold[pi][d as usize][slots as usize]]);
        }
    }
    f
}

/// At most one of `xs`: pairwise up to five, else Sinz's sequential
/// counter.
fn at_most_one(f: &mut Formula, xs: &[i32]) {
    if xs.len() <= 5 {
        for (i, &a) in xs.iter().enumerate() {
            for &b in &xs[i + 1..] {
                f.clauses.push(vec![-a, -b]);
            }
        }
        return;
    }
    let mut prev: Option<i32> = None;
    for (i, &x) in xs.iter().enumerate() {
        let last = i + 1 == xs.len();
        if let Some(s) = prev {
            f.clauses.push(vec![-x, -s]);
        }
        if !last {
            f.vars += 1;
            let s = f.vars as i32;
            f.clauses.push(vec![-x, s]);
            if let Some(p) = prev {
                f.clauses.push(vec![-p, s]);
            }
            prev = Some(s);
        }
    }
}

/// Solves `formula`; the true transmission variables if satisfiable, and
/// the DRAT proof otherwise (with `proof`).
fn solve(formula: &Formula, proof: bool) -> Result<(Option<Vec<Sent>>, Vec<u8>), String> {
    let mut drat = Vec::new();
    let model = {
        let mut solver = Solver::new();
        if proof {
            solver.write_proof(&mut drat, ProofFormat::Drat);
        }
        let mut cnf = CnfFormula::new();
        cnf.set_var_count(formula.vars as usize);
        for c in &formula.clauses {
            let lits: Vec<Lit> = c.iter().map(|&l| Lit::from_dimacs(l as isize)).collect();
            cnf.add_clause(&lits);
        }
        solver.add_formula(&cnf);
        let sat = solver
            .solve()
            .map_err(|e| format!("the SAT solver failed: {e}"))?;
        let model = solver.model();
        if proof {
            solver
                .close_proof()
                .map_err(|e| format!("the SAT solver's proof failed: {e}"))?;
        }
        sat.then(|| model.unwrap_or_default())
    };
    let sends = model.map(|m| {
        let truth: std::collections::HashSet<isize> = m.iter().map(|l| l.to_dimacs()).collect();
        formula
            .sends
            .iter()
            .filter(|(x, _)| truth.contains(&(*x as isize)))
            .map(|(_, s)| s.clone())
            .collect()
    });
    Ok((sends, drat))
}

/// The least slots for `inst`, trying T = 1 ..= `max_slots`; the witness
/// is pruned of transmissions nothing needs, and the refutation of one
/// slot fewer is checked.
pub fn least_slots(inst: &Instance, max_slots: u32) -> Result<Optimum, String> {
    let mut attempts = Vec::new();
    let mut last_proof: Option<(Formula, Vec<u8>)> = None;
    let trivial = inst
        .packets
        .iter()
        .all(|p| p.dests.iter().all(|&d| d == p.origin));
    if trivial {
        return Ok(Optimum {
            slots: Some(0),
            witness: Vec::new(),
            certificate: None,
            attempts,
        });
    }
    for slots in 1..=max_slots {
        let formula = encode(inst, slots);
        let start = Instant::now();
        let (sends, proof) = solve(&formula, true)?;
        attempts.push(Attempt {
            slots,
            sat: sends.is_some(),
            vars: formula.vars,
            clauses: formula.clauses.len(),
            seconds: start.elapsed().as_secs_f64(),
        });
        match sends {
            None => last_proof = Some((formula, proof)),
            Some(sends) => {
                let certificate = match last_proof {
                    None => None,
                    Some((refuted, proof)) => {
                        let start = Instant::now();
                        let checked = drat::check(&refuted.clauses, &proof).map_err(|e| {
                            format!("the refutation of {} slots does not check: {e}", slots - 1)
                        })?;
                        Some(Certificate {
                            slots: slots - 1,
                            vars: refuted.vars,
                            clauses: refuted.clauses.len(),
                            proof_bytes: proof.len(),
                            lemmas: checked.lemmas,
                            check_seconds: start.elapsed().as_secs_f64(),
                        })
                    }
                };
                return Ok(Optimum {
                    slots: Some(slots),
                    witness: needed(inst, sends),
                    certificate,
                    attempts,
                });
            }
        }
    }
    Ok(Optimum {
        slots: None,
        witness: Vec::new(),
        certificate: None,
        attempts,
    })
}

/// `sends` without the transmissions nothing needs: one whose receiver
/// is no destination of its packet and never sends it on.
fn needed(inst: &Instance, mut sends: Vec<Sent>) -> Vec<Sent> {
    loop {
        let keep: Vec<bool> = sends
            .iter()
            .map(|s| {
                let to = inst.hops[s.hop].to;
                inst.packets[s.packet as usize].dests.contains(&to)
                    || sends.iter().any(|o| {
                        o.packet == s.packet && inst.hops[o.hop].from == to && o.slot > s.slot
                    })
            })
            .collect();
        if keep.iter().all(|&k| k) {
            break;
        }
        let mut k = keep.into_iter();
        sends.retain(|_| k.next().unwrap_or(true));
    }
    sends.sort_by_key(|s| (s.slot, inst.hops[s.hop].from, inst.hops[s.hop].to, s.packet));
    sends
}

/// Whether `formula` is satisfiable (for tests of the certificate check).
pub fn satisfiable(formula: &Formula) -> Result<bool, String> {
    Ok(solve(formula, false)?.0.is_some())
}

/// The refutation of `formula` as DRAT, if it is unsatisfiable (for
/// tests of the certificate check).
pub fn refutation(formula: &Formula) -> Result<Option<Vec<u8>>, String> {
    let (sends, proof) = solve(formula, true)?;
    Ok(sends.is_none().then_some(proof))
}
