//! A checker of DRAT refutations, written here so that a certificate of
//! `check optimal` does not rest on the solver that made it.
//!
//! A DRAT proof is a list of lemmas (clauses added) and deletions, in
//! DIMACS literals, each line ending in 0, deletions starting with `d`.
//! It refutes a formula if every lemma is implied by the formula and the
//! lemmas before it, and the empty clause is among them. This checker
//! accepts a lemma only if it has the *RUP* property (reverse unit
//! propagation: assuming every literal of the lemma false, unit
//! propagation over the clauses alive reaches a conflict), which implies
//! it; it does not check RAT, the weaker property a solver needs only for
//! inprocessing that varisat does not do, so a proof that needs RAT is
//! rejected, never wrongly accepted. A deletion of a clause that is the
//! reason of a unit already derived is ignored, as drat-trim ignores it:
//! keeping a clause the formula implies cannot make a lemma pass that the
//! formula does not imply.

use std::collections::HashMap;

/// What a successful check saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Lemmas checked (the empty clause among them, unless the formula
    /// and earlier lemmas already propagated to a conflict).
    pub lemmas: u64,
    /// Deletions carried out.
    pub deletions: u64,
}

/// Why a proof does not refute the formula: its first failure, in one
/// line (lines numbered from 1).
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum DratError {
    /// A line that is not UTF-8.
    #[error("proof line {line}: not text")]
    NotText {
        /// The line.
        line: usize,
    },
    /// A word that is not a literal.
    #[error("proof line {line}: '{word}' is not a literal")]
    NotALiteral {
        /// The line.
        line: usize,
        /// The word.
        word: String,
    },
    /// A literal of a variable the formula does not have.
    #[error("proof line {line}: variable {variable} is not the formula's (it has {vars})")]
    UnknownVariable {
        /// The line.
        line: usize,
        /// The variable.
        variable: u32,
        /// The formula's variables.
        vars: usize,
    },
    /// A lemma without the RUP property.
    #[error("proof line {line}: the lemma {lemma} is not implied by unit propagation")]
    NotImplied {
        /// The line.
        line: usize,
        /// The lemma, as the line writes it.
        lemma: String,
    },
    /// A proof that never reaches the empty clause.
    #[error("the proof ends without deriving the empty clause")]
    NoEmptyClause,
}

/// Checks that `proof` (DRAT text) refutes `formula` (clauses of DIMACS
/// literals); the first failure, in one line, otherwise.
pub fn check(formula: &[Vec<i32>], proof: &[u8]) -> Result<Checked, DratError> {
    check_within(formula, proof, &super::Stop::default())
        .map(|done| done.expect("a check without a stop ends"))
}

/// [`check`], ended early by `stop` (every thousand lines): `None` then,
/// a verdict on no part of the proof.
pub fn check_within(
    formula: &[Vec<i32>],
    proof: &[u8],
    stop: &super::Stop,
) -> Result<Option<Checked>, DratError> {
    let vars = formula
        .iter()
        .flatten()
        .map(|l| l.unsigned_abs())
        .max()
        .unwrap_or(0);
    let mut c = Checker::new(vars as usize);
    for clause in formula {
        c.add(clause.clone());
    }
    let mut done = Checked::default();
    for (at, line) in proof.split(|&b| b == b'\n').enumerate() {
        if at % 1024 == 0 && stop.stopped() {
            return Ok(None);
        }
        let line = std::str::from_utf8(line).map_err(|_| DratError::NotText { line: at + 1 })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let (delete, rest) = match line.strip_prefix('d') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let mut lits: Vec<i32> = Vec::new();
        for word in rest.split_whitespace() {
            let l: i32 = word.parse().map_err(|_| DratError::NotALiteral {
                line: at + 1,
                word: word.to_string(),
            })?;
            if l == 0 {
                break;
            }
            if l.unsigned_abs() as usize > c.vars {
                return Err(DratError::UnknownVariable {
                    line: at + 1,
                    variable: l.unsigned_abs(),
                    vars: c.vars,
                });
            }
            lits.push(l);
        }
        if delete {
            done.deletions += u64::from(c.delete(&lits));
            continue;
        }
        done.lemmas += 1;
        if !c.implied(&lits) {
            return Err(DratError::NotImplied {
                line: at + 1,
                lemma: line.to_string(),
            });
        }
        if lits.is_empty() {
            return Ok(Some(done));
        }
        c.add(lits);
    }
    match c.conflict {
        true => Ok(Some(done)),
        false => Err(DratError::NoEmptyClause),
    }
}

/// Clauses with two watched literals, and the assignment unit
/// propagation made at the top level.
struct Checker {
    vars: usize,
    clauses: Vec<Vec<i32>>,
    alive: Vec<bool>,
    /// Clause indices by their sorted literals (for deletions).
    index: HashMap<Vec<i32>, Vec<usize>>,
    /// Per literal code, the clauses watching it.
    watches: Vec<Vec<usize>>,
    /// Per variable: 1 true, -1 false, 0 unassigned.
    value: Vec<i8>,
    /// Per variable, the clause that made it a top-level unit.
    reason: Vec<Option<usize>>,
    trail: Vec<i32>,
    head: usize,
    /// The clauses alive propagate to a conflict at the top level.
    conflict: bool,
    /// A lemma is being checked: units derived now are not top-level
    /// ones and keep no reason.
    checking: bool,
}

fn code(l: i32) -> usize {
    2 * (l.unsigned_abs() as usize - 1) + usize::from(l < 0)
}

impl Checker {
    fn new(vars: usize) -> Checker {
        let mut c = Checker {
            vars: 0,
            clauses: Vec::new(),
            alive: Vec::new(),
            index: HashMap::new(),
            watches: Vec::new(),
            value: vec![0],
            reason: vec![None],
            trail: Vec::new(),
            head: 0,
            conflict: false,
            checking: false,
        };
        c.grow(vars);
        c
    }

    fn grow(&mut self, vars: usize) {
        self.vars = vars;
        self.watches.resize(2 * vars, Vec::new());
        self.value.resize(vars + 1, 0);
        self.reason.resize(vars + 1, None);
    }

    fn val(&self, l: i32) -> i8 {
        self.value[l.unsigned_abs() as usize] * if l < 0 { -1 } else { 1 }
    }

    fn assign(&mut self, l: i32, reason: Option<usize>) {
        self.value[l.unsigned_abs() as usize] = if l < 0 { -1 } else { 1 };
        self.reason[l.unsigned_abs() as usize] = reason;
        self.trail.push(l);
    }

    /// Adds a clause of the formula or a checked lemma, and propagates.
    fn add(&mut self, mut lits: Vec<i32>) {
        lits.sort_unstable_by_key(|&l| (l.unsigned_abs(), l));
        lits.dedup();
        if lits.windows(2).any(|w| w[0] == -w[1]) || self.conflict {
            return; // a tautology, or nothing left to derive
        }
        let id = self.clauses.len();
        let mut key = lits.clone();
        key.sort_unstable();
        self.index.entry(key).or_default().push(id);
        // Watch two literals that are not false, where there are.
        lits.sort_by_key(|&l| -self.val(l));
        let open = lits.iter().filter(|&&l| self.val(l) >= 0).count();
        self.clauses.push(lits.clone());
        self.alive.push(true);
        if lits.len() >= 2 {
            self.watches[code(lits[0])].push(id);
            self.watches[code(lits[1])].push(id);
        }
        match (open, lits.first().map(|&l| self.val(l))) {
            (0, _) => self.conflict = true,
            (1, Some(0)) => {
                self.assign(lits[0], Some(id));
                self.conflict = self.propagate();
            }
            _ => {}
        }
    }

    /// Deletes one clause with these literals, unless it is the reason of
    /// a top-level unit; whether it did.
    fn delete(&mut self, lits: &[i32]) -> bool {
        let mut key = lits.to_vec();
        key.sort_unstable();
        key.dedup();
        let reason = |id: usize| {
            key.iter()
                .any(|&l| self.reason[l.unsigned_abs() as usize] == Some(id) && self.val(l) > 0)
        };
        let Some(ids) = self.index.get(&key) else {
            return false;
        };
        let Some(at) = ids.iter().position(|&id| !reason(id)) else {
            return false;
        };
        let id = self
            .index
            .get_mut(&key)
            .expect("found above")
            .swap_remove(at);
        self.alive[id] = false;
        true
    }

    /// Whether assuming every literal of `lemma` false propagates to a
    /// conflict (RUP); the assignment is restored after.
    fn implied(&mut self, lemma: &[i32]) -> bool {
        if self.conflict {
            return true;
        }
        let (trail, head) = (self.trail.len(), self.head);
        self.checking = true;
        let mut conflict = false;
        for &l in lemma {
            match self.val(l) {
                1 => conflict = true,
                0 => self.assign(-l, None),
                _ => {}
            }
        }
        conflict = conflict || self.propagate();
        for l in self.trail.drain(trail..) {
            self.value[l.unsigned_abs() as usize] = 0;
            self.reason[l.unsigned_abs() as usize] = None;
        }
        self.head = head;
        self.checking = false;
        conflict
    }

    /// Unit propagation from the trail's head; whether it met a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let falsified = -self.trail[self.head];
            self.head += 1;
            let mut ws = std::mem::take(&mut self.watches[code(falsified)]);
            let mut i = 0;
            let mut conflict = false;
            while i < ws.len() {
                let id = ws[i];
                if !self.alive[id] {
                    ws.swap_remove(i);
                    continue;
                }
                if self.clauses[id][0] == falsified {
                    self.clauses[id].swap(0, 1);
                }
                let first = self.clauses[id][0];
                if self.val(first) > 0 {
                    i += 1;
                    continue;
                }
                let other =
                    (2..self.clauses[id].len()).find(|&k| self.val(self.clauses[id][k]) >= 0);
                if let Some(k) = other {
                    self.clauses[id].swap(1, k);
                    let w = self.clauses[id][1];
                    self.watches[code(w)].push(id);
                    ws.swap_remove(i);
                    continue;
                }
                if self.val(first) < 0 {
                    conflict = true;
                    break;
                }
                self.assign(first, (!self.checking).then_some(id));
                i += 1;
            }
            self.watches[code(falsified)].extend(ws);
            if conflict {
                return true;
            }
        }
        false
    }
}
