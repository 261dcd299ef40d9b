//! The least number of slots for a task, by SAT: "can the task be done in
//! T slots?" as a formula, solved for T from the instance's lower bound
//! ([`Instance::lower_bound`]) up until satisfiable. The model of the
//! first satisfiable T is the witness. Its certificate is the lower bound
//! where T meets it, else the refutation of T - 1, written by the solver
//! as a DRAT proof and checked by [`super::drat`]. One refutation
//! suffices: a schedule in fewer slots is one in T - 1 slots with idle
//! slots added (holdings persist), so T - 1 impossible means every fewer
//! impossible.
//!
//! The formula, for slots t = 1..T (docs/optimal.md, "The encoding"):
//! * `h(p, v, t)`: node v holds packet p at the end of slot t; at t = 0
//!   only the packet's origin holds it;
//! * `x(p, k, t)`: transmission k (a [`Hop`]) carries p in slot t;
//! * a transmission carries only what its sender held at the end of the
//!   slot before, and only where some receiver did not hold it (a send to
//!   holders only can be dropped from any schedule, so none is lost);
//! * a node holds p at t only if it held it at t - 1 or received it in t,
//!   and keeps what it holds;
//! * no two transmissions of a slot take one resource (at most one of
//!   them: pairwise where few, else a sequential counter); a bus write
//!   carries at most l packets;
//! * every destination of every packet holds it at T;
//! * under `--routes any`, worms are flows: `y(p, a, t)` (arc a carries a
//!   worm with p in slot t), each used arc preceded by the worm's start or
//!   by exactly one arc into its tail, and followed by its end or by
//!   exactly one arc out of its head; a worm starts at a holder and ends
//!   at a node without p. Used arcs so form arc-disjoint walks from starts
//!   to ends (and idle cycles, which inform no one), and every walk holds
//!   a path.
//!
//! Two prunes, each sound: a node cannot hold p before
//! [`Instance::earliest`], and a transmission in slot t none of whose
//! receivers is a destination of p and which are all farther than
//! T - t hops from every destination cannot help.

use super::drat::{self, DratError};
use super::task::{Bound, Hop, Instance};
use super::Stop;
use properties::{NodeId, ResourceId};
use std::collections::{HashMap, HashSet};
use std::time::Instant;
use varisat::{CnfFormula, ExtendFormula, Lit, ProofFormat, Solver};

/// A transmission of a witness: packet `packet` over `hop` in `slot`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    /// Its slot, from 1.
    pub slot: u32,
    /// The packet (the task's chunk).
    pub packet: u32,
    /// The transmission: an instance's [`Hop`], or a worm the flows of
    /// `--routes any` traced.
    pub hop: Hop,
}

/// One formula solved.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    /// The slots asked for.
    pub slots: u32,
    /// The most transmissions allowed, where capped.
    pub cap: Option<u64>,
    /// Satisfiable.
    pub sat: bool,
    /// Variables and clauses of the formula.
    pub vars: u32,
    /// Clauses.
    pub clauses: usize,
    /// The solver's time.
    pub seconds: f64,
    /// Where only worms of at most this many arcs were allowed (a hunt
    /// for a witness: its refutation proves nothing of the whole task).
    pub worms: Option<usize>,
}

/// A refutation, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Certificate {
    /// The slots refuted.
    pub slots: u32,
    /// The transmission cap refuted, where one was.
    pub cap: Option<u64>,
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
    /// The lower bound the search started from.
    pub bound: Bound,
    /// The refutation of one slot fewer, where the optimum is above the
    /// bound (or the refutation of the most slots asked for, where none
    /// was found above the bound).
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
    /// `(variable, slot, packet, hop index)` for every transmission
    /// variable.
    pub sends: Vec<(i32, u32, u32, usize)>,
    /// The flows' variables, to trace worms from (`--routes any`).
    pub flows: FlowVars,
}

/// The variables of the flows, by what they mean.
#[derive(Default)]
pub struct FlowVars {
    /// `(variable, slot, packet, arc)`: a worm with p starts on the arc.
    starts: Vec<(i32, u32, u32, usize)>,
    /// `(variable, slot, packet, arc)`: a worm with p ends over the arc.
    ends: Vec<(i32, u32, u32, usize)>,
    /// `(variable, slot, packet, arc in, arc out)`: a worm goes on.
    turns: Vec<(i32, u32, u32, usize, usize)>,
}

/// A literal of the encoding: a constant, or a variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum L {
    True,
    False,
    Var(i32),
}

fn not(l: L) -> L {
    match l {
        L::True => L::False,
        L::False => L::True,
        L::Var(v) => L::Var(-v),
    }
}

impl Formula {
    fn fresh(&mut self) -> i32 {
        self.vars += 1;
        self.vars as i32
    }

    fn clause(&mut self, lits: &[L]) {
        if lits.contains(&L::True) {
            return;
        }
        self.clauses.push(
            lits.iter()
                .filter_map(|l| match l {
                    L::Var(v) => Some(*v),
                    _ => None,
                })
                .collect(),
        );
    }

    /// At most `k` of `xs`: pairwise for one of up to five, else Sinz's
    /// sequential counter.
    fn at_most(&mut self, xs: &[i32], k: usize) {
        if xs.len() <= k {
            return;
        }
        if k == 0 {
            for &x in xs {
                self.clauses.push(vec![-x]);
            }
            return;
        }
        if k == 1 && xs.len() <= 5 {
            for (i, &a) in xs.iter().enumerate() {
                for &b in &xs[i + 1..] {
                    self.clauses.push(vec![-a, -b]);
                }
            }
            return;
        }
        // s[j]: at least j + 1 of the xs so far are true.
        let mut prev: Vec<i32> = Vec::new();
        for (i, &x) in xs.iter().enumerate() {
            let last = i + 1 == xs.len();
            if let Some(&full) = prev.get(k - 1) {
                self.clauses.push(vec![-x, -full]);
            }
            if last {
                break;
            }
            let s: Vec<i32> = (0..k.min(i + 1)).map(|_| self.fresh()).collect();
            for (j, &sj) in s.iter().enumerate() {
                if let Some(&p) = prev.get(j) {
                    self.clauses.push(vec![-p, sj]);
                }
                match j {
                    0 => self.clauses.push(vec![-x, sj]),
                    _ => self.clauses.push(vec![-x, -prev[j - 1], sj]),
                }
            }
            prev = s;
        }
    }

    /// Exactly one of `xs` when `y`, none when not.
    fn one_if(&mut self, y: i32, xs: &[i32]) {
        let mut some = vec![-y];
        some.extend(xs);
        self.clauses.push(some);
        for &x in xs {
            self.clauses.push(vec![-x, y]);
        }
        self.at_most(xs, 1);
    }
}

/// Encodes "`inst` in `slots` slots" (the module's formula).
pub fn encode(inst: &Instance, slots: u32) -> Formula {
    encode_within(inst, slots, None, &Stop::default()).expect("a default stop never ends")
}

/// Encodes "`inst` in `slots` slots with at most `cap` packet
/// transmissions" (none: no cap); `None` where `stop` ended it first (a
/// formula of a large network takes seconds to write).
pub fn encode_within(
    inst: &Instance,
    slots: u32,
    cap: Option<u64>,
    stop: &Stop,
) -> Option<Formula> {
    let mut f = Formula {
        clauses: Vec::new(),
        vars: 0,
        sends: Vec::new(),
        flows: FlowVars::default(),
    };
    let n = inst.nodes as usize;
    let ts = slots as usize;
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
    // h(p, v, t) for t in 0..=slots.
    let mut hold: Vec<Vec<Vec<L>>> = Vec::with_capacity(inst.packets.len());
    for p in &inst.packets {
        let mut per_node = Vec::with_capacity(n);
        for v in 0..n {
            let e = inst.earliest(p, v as NodeId);
            let lits = (0..=slots)
                .map(|t| match t {
                    0 => match v == p.origin as usize {
                        true => L::True,
                        false => L::False,
                    },
                    t if t < e => L::False,
                    _ => L::Var(f.fresh()),
                })
                .collect();
            per_node.push(lits);
        }
        hold.push(per_node);
    }
    // Per (slot, resource), the variables that take it; per (packet,
    // node, slot), those that bring the packet there.
    let mut taking: HashMap<(u32, ResourceId), Vec<i32>> = HashMap::new();
    let mut into: HashMap<(usize, NodeId, u32), Vec<L>> = HashMap::new();
    let mut carried: Vec<i32> = Vec::new();
    // Per (slot, hop), its packet variables (a bus write's l).
    let mut loads: HashMap<(u32, usize), Vec<i32>> = HashMap::new();
    for (pi, p) in inst.packets.iter().enumerate() {
        if stop.stopped() {
            return discard((f, hold, into, loads));
        }
        for t in 1..=slots {
            let ti = t as usize;
            for (k, hop) in inst.hops.iter().enumerate() {
                let had = hold[pi][hop.from as usize][ti - 1];
                let fresh: Vec<usize> = hop
                    .to
                    .iter()
                    .map(|&v| v as usize)
                    .filter(|&v| hold[pi][v][ti - 1] != L::True && hold[pi][v][ti] != L::False)
                    .collect();
                let useful = fresh.iter().any(|&v| {
                    p.dests.contains(&(v as NodeId))
                        || match inst.wormhole {
                            true => t < slots && near[pi][v] != u32::MAX,
                            false => near[pi][v].saturating_add(t) <= slots,
                        }
                });
                if had == L::False || !useful {
                    continue;
                }
                let x = f.fresh();
                f.sends.push((x, t, pi as u32, k));
                carried.push(x);
                // Carried only what the sender held, where some receiver
                // lacked it; every receiver then holds it.
                f.clause(&[L::Var(-x), had]);
                let mut lacked = vec![L::Var(-x)];
                lacked.extend(fresh.iter().map(|&v| not(hold[pi][v][ti - 1])));
                f.clause(&lacked);
                for &v in &hop.to {
                    f.clause(&[L::Var(-x), hold[pi][v as usize][ti]]);
                    into.entry((pi, v, t)).or_default().push(L::Var(x));
                }
                loads.entry((t, k)).or_default().push(x);
            }
        }
    }
    // Resources: with one packet a message, the packet variables
    // themselves; with more, a variable per (slot, hop) in use.
    let mut loaded: Vec<_> = loads.into_iter().collect();
    loaded.sort_unstable_by_key(|(k, _)| *k);
    for ((t, k), xs) in loaded {
        if stop.stopped() {
            return discard((f, hold, into, taking));
        }
        let user = match inst.per_message {
            1 => xs,
            l => {
                f.at_most(&xs, l as usize);
                let w = f.fresh();
                for &x in &xs {
                    f.clauses.push(vec![-x, w]);
                }
                vec![w]
            }
        };
        for &r in &inst.hops[k].uses {
            taking.entry((t, r)).or_default().extend(&user);
        }
    }
    if let Some(flows) = &inst.flows {
        encode_flows(
            &mut f,
            inst,
            flows,
            slots,
            &hold,
            &mut taking,
            &mut into,
            stop,
        );
    }
    for pi in 0..hold.len() {
        if stop.stopped() {
            return discard((f, hold, into, taking));
        }
        let per_node = &hold[pi];
        for (v, lits) in per_node.iter().enumerate() {
            for t in 1..=ts {
                let (before, now) = (lits[t - 1], lits[t]);
                // Kept, and had or received.
                f.clause(&[not(before), now]);
                let mut why = vec![not(now), before];
                why.extend(
                    into.get(&(pi, v as NodeId, t as u32))
                        .into_iter()
                        .flatten()
                        .copied(),
                );
                f.clause(&why);
            }
        }
    }
    let mut taken: Vec<_> = taking.into_iter().collect();
    taken.sort_unstable_by_key(|(k, _)| *k);
    for (_, xs) in taken {
        if stop.stopped() {
            return discard((f, hold));
        }
        f.at_most(&xs, 1);
    }
    for (pi, p) in inst.packets.iter().enumerate() {
        for &d in &p.dests {
            f.clause(&[hold[pi][d as usize][ts]]);
        }
    }
    if let Some(cap) = cap {
        f.at_most(&carried, cap as usize);
    }
    match stop.stopped() {
        true => discard(f),
        false => Some(f),
    }
}

/// Nothing, once `formula` (a part-written formula and its tables) is
/// handed to a thread of its own to free: millions of clauses take
/// seconds to free, and a stopped encoding must not hold its stop back.
fn discard<T: Send + 'static, F>(formula: T) -> Option<F> {
    std::thread::spawn(move || drop(formula));
    None
}

/// The flows of `--routes any` (the module's last rule).
#[allow(clippy::too_many_arguments)] // the encoder's tables, shared as they are
fn encode_flows(
    f: &mut Formula,
    inst: &Instance,
    flows: &super::task::Flows,
    slots: u32,
    hold: &[Vec<Vec<L>>],
    taking: &mut HashMap<(u32, ResourceId), Vec<i32>>,
    into: &mut HashMap<(usize, NodeId, u32), Vec<L>>,
    stop: &Stop,
) {
    let n = inst.nodes as usize;
    let mut outs: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut ins: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (a, &(u, v, _)) in flows.arcs.iter().enumerate() {
        outs[u as usize].push(a);
        ins[v as usize].push(a);
    }
    // Per (slot, node), the starts and the ends (one-port: at most one).
    let mut starting: HashMap<(u32, usize), Vec<i32>> = HashMap::new();
    let mut ending: HashMap<(u32, usize), Vec<i32>> = HashMap::new();
    for (pi, _) in inst.packets.iter().enumerate() {
        if stop.stopped() {
            return;
        }
        for t in 1..=slots {
            let ti = t as usize;
            let y: Vec<i32> = flows.arcs.iter().map(|_| f.fresh()).collect();
            let mut before: Vec<Vec<i32>> = vec![Vec::new(); flows.arcs.len()];
            let mut after: Vec<Vec<i32>> = vec![Vec::new(); flows.arcs.len()];
            for (a, &(u, v, r)) in flows.arcs.iter().enumerate() {
                taking.entry((t, r)).or_default().push(y[a]);
                let (had, lacked, gets) = (
                    hold[pi][u as usize][ti - 1],
                    hold[pi][v as usize][ti - 1],
                    hold[pi][v as usize][ti],
                );
                if had != L::False {
                    let s = f.fresh();
                    f.clause(&[L::Var(-s), had]);
                    f.flows.starts.push((s, t, pi as u32, a));
                    starting.entry((t, u as usize)).or_default().push(s);
                    before[a].push(s);
                }
                if lacked != L::True && gets != L::False {
                    let e = f.fresh();
                    f.clause(&[L::Var(-e), not(lacked)]);
                    f.clause(&[L::Var(-e), gets]);
                    f.flows.ends.push((e, t, pi as u32, a));
                    ending.entry((t, v as usize)).or_default().push(e);
                    into.entry((pi, v, t)).or_default().push(L::Var(e));
                    after[a].push(e);
                }
                for &b in &outs[v as usize] {
                    if flows.arcs[b].1 == u {
                        continue; // a U-turn never helps
                    }
                    let z = f.fresh();
                    f.flows.turns.push((z, t, pi as u32, a, b));
                    after[a].push(z);
                    before[b].push(z);
                }
            }
            for a in 0..flows.arcs.len() {
                f.one_if(y[a], &before[a]);
                f.one_if(y[a], &after[a]);
            }
        }
    }
    if flows.one_port {
        for xs in starting.values().chain(ending.values()) {
            f.at_most(xs, 1);
        }
    }
}

/// Why the SAT side gave no answer: the solver failed, or its
/// refutation did not check.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum SatError {
    /// The solver failed (its own words).
    #[error("the SAT solver failed: {0}")]
    Solver(String),
    /// The solver's proof could not be written (its own words).
    #[error("the SAT solver's proof failed: {0}")]
    Proof(String),
    /// A refutation that commcheck's checker refuses.
    #[error("the refutation of {slots} slots does not check: {why}")]
    Unchecked {
        /// The slots it refutes.
        slots: u32,
        /// The checker's first failure.
        why: DratError,
    },
}

/// What the solver answered.
enum Answer<T> {
    /// Satisfiable, with this.
    Sat(T),
    /// Unsatisfiable, with the DRAT proof.
    Unsat(Vec<u8>),
    /// Ended by a [`Stop`].
    Stopped,
}

/// The proof as the solver writes it, refusing more once `stop` says so:
/// the solver then ends with an error, which is how it is stopped.
struct Proof<'s> {
    bytes: Vec<u8>,
    stop: &'s Stop,
}

impl std::io::Write for Proof<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.stop.stopped() {
            return Err(std::io::Error::other(super::STOPPED));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Solves `formula`: the true variables if satisfiable, the DRAT proof if
/// not.
fn solve(formula: &Formula, stop: &Stop) -> Result<Answer<HashSet<i32>>, SatError> {
    let mut proof = Proof {
        bytes: Vec::new(),
        stop,
    };
    let (sat, model) = {
        let mut solver = Solver::new();
        solver.write_proof(&mut proof, ProofFormat::Drat);
        let mut cnf = CnfFormula::new();
        cnf.set_var_count(formula.vars as usize);
        for (i, c) in formula.clauses.iter().enumerate() {
            if i % (1 << 16) == 0 && stop.stopped() {
                return Ok(Answer::Stopped);
            }
            let lits: Vec<Lit> = c.iter().map(|&l| Lit::from_dimacs(l as isize)).collect();
            cnf.add_clause(&lits);
        }
        solver.add_formula(&cnf);
        let sat = match solver.solve() {
            Ok(sat) => sat,
            Err(_) if stop.stopped() => return Ok(Answer::Stopped),
            Err(e) => return Err(SatError::Solver(e.to_string())),
        };
        let model = solver.model();
        match solver.close_proof() {
            Ok(()) => {}
            Err(_) if stop.stopped() => return Ok(Answer::Stopped),
            Err(e) => return Err(SatError::Proof(e.to_string())),
        }
        (sat, model)
    };
    Ok(match sat {
        true => Answer::Sat(
            model
                .unwrap_or_default()
                .iter()
                .map(|l| l.to_dimacs() as i32)
                .filter(|&l| l > 0)
                .collect(),
        ),
        false => Answer::Unsat(proof.bytes),
    })
}

/// The transmissions a model makes: the true transmission variables, and
/// the worms its flows trace.
fn decode(inst: &Instance, formula: &Formula, truth: &HashSet<i32>) -> Vec<Sent> {
    let mut sends: Vec<Sent> = formula
        .sends
        .iter()
        .filter(|(x, ..)| truth.contains(x))
        .map(|&(_, slot, packet, k)| Sent {
            slot,
            packet,
            hop: inst.hops[k].clone(),
        })
        .collect();
    let Some(flows) = &inst.flows else {
        return sends;
    };
    let fv = &formula.flows;
    let next: HashMap<(u32, u32, usize), usize> = fv
        .turns
        .iter()
        .filter(|(z, ..)| truth.contains(z))
        .map(|&(_, t, p, a, b)| ((t, p, a), b))
        .collect();
    let ends: HashSet<(u32, u32, usize)> = fv
        .ends
        .iter()
        .filter(|(e, ..)| truth.contains(e))
        .map(|&(_, t, p, a)| (t, p, a))
        .collect();
    for &(_, t, p, first) in fv.starts.iter().filter(|(s, ..)| truth.contains(s)) {
        // Follow the worm from its first arc to its end, then cut the
        // walk's loops to a path.
        let mut walk = vec![flows.arcs[first].0];
        let mut a = first;
        loop {
            let v = flows.arcs[a].1;
            if let Some(i) = walk.iter().position(|&w| w == v) {
                walk.truncate(i);
            }
            walk.push(v);
            if ends.contains(&(t, p, a)) {
                break;
            }
            match next.get(&(t, p, a)) {
                Some(&b) => a = b,
                None => break, // a model's walk always ends; no worm if not
            }
        }
        if !ends.contains(&(t, p, a)) || walk.len() < 2 {
            continue;
        }
        let uses = walk
            .windows(2)
            .filter_map(|w| {
                flows
                    .arcs
                    .iter()
                    .find(|&&(u, v, _)| (u, v) == (w[0], w[1]))
                    .map(|&(.., r)| r)
            })
            .collect();
        sends.push(Sent {
            slot: t,
            packet: p,
            hop: Hop {
                from: walk[0],
                to: vec![*walk.last().expect("a worm has two ends")],
                path: walk,
                own: false,
                uses,
            },
        });
    }
    sends
}

/// A formula's answer: its witness or its proof; `None` where stopped.
pub(crate) type Solved = Option<Result<Vec<Sent>, Vec<u8>>>;

/// Solves `formula` and keeps the attempt (unless stopped); the
/// transmissions if satisfiable, else the proof.
pub(crate) fn attempt(
    inst: &Instance,
    formula: &Formula,
    slots: u32,
    cap: Option<u64>,
    attempts: &mut Vec<Attempt>,
    stop: &Stop,
) -> Result<Solved, SatError> {
    let start = Instant::now();
    let answer = solve(formula, stop)?;
    let mut keep = |sat| {
        attempts.push(Attempt {
            slots,
            cap,
            sat,
            vars: formula.vars,
            clauses: formula.clauses.len(),
            seconds: start.elapsed().as_secs_f64(),
            worms: None,
        })
    };
    Ok(match answer {
        Answer::Sat(truth) => {
            keep(true);
            Some(Ok(needed(inst, decode(inst, formula, &truth))))
        }
        Answer::Unsat(proof) => {
            keep(false);
            Some(Err(proof))
        }
        Answer::Stopped => None,
    })
}

/// Checks the refutation `proof` of `formula`; `None` where `stop` ended
/// the check first.
pub(crate) fn certify(
    formula: &Formula,
    proof: &[u8],
    slots: u32,
    cap: Option<u64>,
    stop: &Stop,
) -> Result<Option<Certificate>, SatError> {
    let start = Instant::now();
    let Some(checked) = drat::check_within(&formula.clauses, proof, stop)
        .map_err(|why| SatError::Unchecked { slots, why })?
    else {
        return Ok(None);
    };
    Ok(Some(Certificate {
        slots,
        cap,
        vars: formula.vars,
        clauses: formula.clauses.len(),
        proof_bytes: proof.len(),
        lemmas: checked.lemmas,
        check_seconds: start.elapsed().as_secs_f64(),
    }))
}

/// The least slots for `inst`, trying T from its lower bound up to
/// `max_slots`; the witness is pruned of transmissions nothing needs,
/// and the refutation of one slot fewer (above the bound) is checked.
pub fn least_slots(inst: &Instance, max_slots: u32) -> Result<Optimum, SatError> {
    let bound = inst.lower_bound();
    let mut optimum = Optimum {
        slots: None,
        witness: Vec::new(),
        bound: bound.clone(),
        certificate: None,
        attempts: Vec::new(),
    };
    if bound.slots == 0 {
        optimum.slots = Some(0);
        return Ok(optimum);
    }
    let mut refuted: Option<(Formula, Vec<u8>, u32)> = None;
    for slots in bound.slots..=max_slots {
        let formula = encode(inst, slots);
        match attempt(
            inst,
            &formula,
            slots,
            None,
            &mut optimum.attempts,
            &Stop::default(),
        )? {
            None => break,
            Some(Err(proof)) => refuted = Some((formula, proof, slots)),
            Some(Ok(witness)) => {
                if let Some((refuted, proof, t)) = refuted {
                    optimum.certificate = certify(&refuted, &proof, t, None, &Stop::default())?;
                }
                optimum.slots = Some(slots);
                optimum.witness = witness;
                return Ok(optimum);
            }
        }
    }
    if let Some((refuted, proof, t)) = refuted {
        optimum.certificate = certify(&refuted, &proof, t, None, &Stop::default())?;
    }
    Ok(optimum)
}

/// The fewest packet transmissions in `slots` slots, from a witness of
/// that many.
#[derive(Clone, Debug)]
pub struct Fewest {
    /// The fewest transmissions.
    pub transmissions: u64,
    /// A schedule with that many.
    pub witness: Vec<Sent>,
    /// The lower bound ([`Instance::fewest_transmissions`]).
    pub bound: u64,
    /// The refutation of one fewer, where above the bound.
    pub certificate: Option<Certificate>,
    /// Every formula solved, in order.
    pub attempts: Vec<Attempt>,
}

/// The fewest transmissions of a schedule in `slots` slots, starting from
/// `witness`: while above the lower bound, ask for one fewer than the
/// best so far, until refuted (the refutation is checked); `None` where
/// `stop` ended it.
pub fn fewest_transmissions(
    inst: &Instance,
    slots: u32,
    witness: Vec<Sent>,
    stop: &Stop,
) -> Result<Option<Fewest>, SatError> {
    let bound = inst.fewest_transmissions();
    let mut fewest = Fewest {
        transmissions: witness.len() as u64,
        witness,
        bound,
        certificate: None,
        attempts: Vec::new(),
    };
    while fewest.transmissions > bound {
        let cap = fewest.transmissions - 1;
        let Some(formula) = encode_within(inst, slots, Some(cap), stop) else {
            return Ok(None);
        };
        match attempt(inst, &formula, slots, Some(cap), &mut fewest.attempts, stop)? {
            None => return Ok(None),
            Some(Ok(witness)) => {
                fewest.transmissions = witness.len() as u64;
                fewest.witness = witness;
            }
            Some(Err(proof)) => {
                match certify(&formula, &proof, slots, Some(cap), stop)? {
                    Some(c) => fewest.certificate = Some(c),
                    None => return Ok(None),
                }
                break;
            }
        }
    }
    Ok(Some(fewest))
}

/// `sends` without the transmissions nothing needs: one that reaches no
/// node new to its packet (another of the slot, or an earlier one,
/// reached them), or whose receivers are no destinations of its packet
/// and never send it on.
fn needed(inst: &Instance, mut sends: Vec<Sent>) -> Vec<Sent> {
    sends.sort_by(|a, b| {
        (a.slot, a.hop.from, &a.hop.to, a.packet).cmp(&(b.slot, b.hop.from, &b.hop.to, b.packet))
    });
    let mut reached: HashSet<(u32, NodeId)> = inst
        .packets
        .iter()
        .enumerate()
        .map(|(p, packet)| (p as u32, packet.origin))
        .collect();
    sends.retain(|s| {
        let new: Vec<NodeId> = s
            .hop
            .to
            .iter()
            .copied()
            .filter(|&v| !reached.contains(&(s.packet, v)))
            .collect();
        for &v in &new {
            reached.insert((s.packet, v));
        }
        !new.is_empty()
    });
    loop {
        let keep: Vec<bool> = sends
            .iter()
            .map(|s| {
                s.hop.to.iter().any(|to| {
                    inst.packets[s.packet as usize].dests.contains(to)
                        || sends
                            .iter()
                            .any(|o| o.packet == s.packet && o.hop.from == *to && o.slot > s.slot)
                })
            })
            .collect();
        if keep.iter().all(|&k| k) {
            break;
        }
        let mut k = keep.into_iter();
        sends.retain(|_| k.next().unwrap_or(true));
    }
    sends
}

/// Whether `formula` is satisfiable (for tests of the certificate check).
pub fn satisfiable(formula: &Formula) -> Result<bool, SatError> {
    Ok(matches!(solve(formula, &Stop::default())?, Answer::Sat(_)))
}

/// The refutation of `formula` as DRAT, if it is unsatisfiable (for
/// tests of the certificate check).
pub fn refutation(formula: &Formula) -> Result<Option<Vec<u8>>, SatError> {
    Ok(match solve(formula, &Stop::default())? {
        Answer::Unsat(proof) => Some(proof),
        _ => None,
    })
}
