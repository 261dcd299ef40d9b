//! NOB: near-optimal broadcast in all-port wormhole-routed hypercubes.
//! Wang and Ku, "A Near-Optimal Broadcasting Algorithm in All-Port
//! Wormhole-Routed Hypercubes", ICS'95, section 3 and Appendix.
//!
//! # The algorithm
//! With p = floor(log2(n+1)) the n-cube is a 2^p-ary tree of subcubes: the
//! address bits are cut, left to right, into ceil(n/p) partitions of p bits,
//! the last possibly shorter. In step i every source node of an A-subcube
//! (A = the first i-1 partitions, a bits) sends 2^p - 1 worms, one into
//! each child subcube AP' but its own; each recipient is the source of its
//! child subcube in step i+1.
//!
//! Every source has the form A Z with Z the recursive Hamming syndrome of A
//! (eta(A, p, ..., p, last), [`crate::wang_ku::hamming`]), read as A P R: P is
//! the p-bit syndrome of A, R the recursive syndrome of AP. The child
//! subcubes are covered by three rules (section 3 and Appendix):
//! 1. for every neighbour P' of P: the worm APR -> AP'R => AP'R1 crosses
//!    the P dimension first, then e-cube to R1 = syndrome of AP'.
//! 2. for every neighbour A' of A in one of A's s = 2^p - p - 1 rightmost
//!    bits (if a > 0 and p >= 2): the worm APR -> A'PR => A'PR2 with R2 the
//!    syndrome of A'P. The A'-subcube's child A'P is not covered by A''s own
//!    rules 1 and 3, since P = syn(A') xor (the position of that bit).
//! 3. if a < s and r >= 1: the s - a values P3 = P xor position(k), k = a..s-1
//!    (those that rules 1 and 2 leave uncovered), each over its own R
//!    dimension chosen first: APR -> APR' => AP3R' => AP3R3.
//!
//! Rules 1 and 2 follow e-cube routing already (the crossed P or A bit is
//! the highest differing bit); rule 3 forces its first arc, as the paper
//! says ("could be handled by e-cube routing except the first links").
//!
//! # Readings (docs/errata.md has the evidence)
//! * Levels: ceil(n/p) steps with the last partition n - p*(steps-1) bits,
//!   as section 3 says ("ceil(n/p) p-bit partitions ... the lowest ...
//!   possibly less than p bits") and Table I prints. The Appendix reads
//!   floor(n/p) levels with the last absorbing the remainder; that reading
//!   is `nob-appendix` and the checker refutes it.
//! * Syndrome levels follow the partitions: the recursive syndrome of a
//!   prefix has one level per remaining partition.
//! * Rule 3's "unique R'" is left open by the paper: the exhaustive check
//!   tries every injective choice of R dimensions; the executor takes the
//!   lowest dimensions in order.
//! * E-cube order is highest dimension first ([`crate::topology::hypercube`]).
//! * Source other than 0: compute for source 0, relabel by xor.
//!
//! # The text as printed, each its own variant ([`Literal`])
//! * `nob-rule3-printed`: the section's and the Appendix's rule 3 set,
//!   P_3 ∩ ({P} ∪ P_2) = ∅, taken as written: every p-bit value but P and
//!   rule 2's P_2, so rule 1's neighbours of P as well (Theorem 2's proof
//!   adds them to the set excluded). Each P_3 takes its own R dimension
//!   first while there are dimensions, then they are reused in turn (the
//!   text's "unique R" cannot be had).
//! * `nob-rule2-left`: rule 2's "A' differ from A at bit k - 1", bits
//!   counted from A's left (its highest) end instead of its right.
//! * `nob-ecube-low`: "dimensional order" read as e-cube from the lowest
//!   dimension up.
//! * `nob-sources-retire`: the Appendix routes only the 2^p - 1 worms of a
//!   step; section 3's "2^p destination nodes, including itself" makes the
//!   sender the source of its own child subcube too. Without it, the
//!   sender's child subcube is never informed.
//!
//! # Bounds
//! * steps <= ceil(n / floor(log2(n+1))) (Theorem 3, Table I)
//! * every node receives exactly one copy (Theorem 1), contention-free in
//!   every step (Theorem 2)
//!
//! # Example: Q4 from 0000 (Fig. 5), p = 2, two steps
//! ```text
//! step 1: rule 1  0000 => 01|11, 0000 => 10|00; rule 3  0000 -> 0001 => 11|11
//! step 2 (00-subcube): rule 1  00|00 => 00|01, 00|10; rule 2  01|11 => 00|11
//! ```

use crate::blocks::broadcast::Packet;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Choices, Codes, Hints, Inputs, Protocol, Sources};
use crate::topology::hypercube::Hypercube;
use crate::wang_ku::hamming::{capacity, position, recursive_syndrome};
use crate::wang_ku::subcube_tree::{self, Partition, TreeState};
use properties::{bounds, Claims, NodeId, PacketId, Route, Slot, Transmission};

/// How the levels of the broadcasting tree are cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Levels {
    /// ceil(n/p) levels, the last one shorter (section 3, Table I).
    Text,
    /// floor(n/p) levels, the last one longer (the Appendix, literally).
    Appendix,
}

/// The partition sizes, left to right, for dimension n.
pub fn levels(n: u32, reading: Levels) -> Vec<u32> {
    let p = bounds::floor_log2(n + 1);
    let steps = match reading {
        Levels::Text => n.div_ceil(p),
        Levels::Appendix => n / p,
    };
    let mut sizes = vec![p; steps as usize];
    *sizes.last_mut().expect("n >= 1 gives a level") = n - p * (steps - 1);
    sizes
}

/// A sentence of the text read as printed, where commcheck reads it
/// otherwise (the module header says how).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Literal {
    /// Rule 3 over every value but P and P_2.
    Rule3Set,
    /// Rule 2's bits counted from A's left.
    Rule2FromLeft,
    /// Worms corrected from the lowest dimension up.
    LowestFirst,
    /// Only the Appendix's 2^p - 1 worms: a step's sender is not the
    /// source of its own child subcube in the next step.
    SourcesRetire,
}

/// NOB at one configuration and one reading of its levels.
#[derive(Clone, Debug)]
pub struct Nob {
    cube: Hypercube,
    levels: Vec<u32>,
    literal: Option<Literal>,
}

/// The claim of both readings (Theorems 1-3).
const CLAIM: &str = "ceil(n / floor(log2(n+1))) steps (Theorem 3); one copy per node (Theorem 1), \
                     contention-free (Theorem 2)";

/// The registry entry of the text's reading.
pub const TEXT: Entry<Nob> = Entry {
    info: Info {
        name: "nob",
        summary: "near-optimal broadcast with recursive Hamming codes",
        reference: "Wang & Ku, ICS'95, section 3 and Appendix",
        claim: CLAIM,
        modes: &[(Wh, All)],
        reach: Reach {
            lockstep: 8,
            actor: 5,
            actor_auto: 4,
        },
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::one_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: |cfg| Nob::new(cfg, Levels::Text),
};

/// The registry entry of the Appendix's reading (`nob-appendix`).
pub const APPENDIX: Entry<Nob> = Entry {
    info: Info {
        name: "nob-appendix",
        summary: "nob with the Appendix's floor(n/p) levels, read literally",
        reference: "Wang & Ku, ICS'95, Appendix (docs/errata.md)",
        ..TEXT.info
    },
    build: |cfg| Nob::new(cfg, Levels::Appendix),
};

/// The registry entry of rule 3's set as printed (`nob-rule3-printed`).
pub const RULE3_PRINTED: Entry<Nob> = Entry {
    info: Info {
        name: "nob-rule3-printed",
        summary: "nob with rule 3's set as printed: every P_3 but P and P_2",
        reference: "Wang & Ku, ICS'95, section 3 and Appendix, rule 3 (docs/errata.md)",
        ..TEXT.info
    },
    build: |cfg| Nob::literal(cfg, Literal::Rule3Set),
};

/// The registry entry of rule 2's bits from the left (`nob-rule2-left`).
pub const RULE2_LEFT: Entry<Nob> = Entry {
    info: Info {
        name: "nob-rule2-left",
        summary: "nob with rule 2's bit k-1 counted from A's left",
        reference: "Wang & Ku, ICS'95, Appendix, rule 2 (docs/errata.md)",
        ..TEXT.info
    },
    build: |cfg| Nob::literal(cfg, Literal::Rule2FromLeft),
};

/// The registry entry of e-cube from the lowest dimension (`nob-ecube-low`).
pub const ECUBE_LOW: Entry<Nob> = Entry {
    info: Info {
        name: "nob-ecube-low",
        summary: "nob with worms routed lowest dimension first",
        reference: "Wang & Ku, ICS'95, section 3 (docs/errata.md)",
        ..TEXT.info
    },
    build: |cfg| Nob::literal(cfg, Literal::LowestFirst),
};

/// The registry entry of the Appendix's worms alone (`nob-sources-retire`).
pub const SOURCES_RETIRE: Entry<Nob> = Entry {
    info: Info {
        name: "nob-sources-retire",
        summary: "nob whose senders retire: only the 2^p - 1 worms, no own child subcube",
        reference: "Wang & Ku, ICS'95, Appendix (docs/errata.md)",
        ..TEXT.info
    },
    build: |cfg| Nob::literal(cfg, Literal::SourcesRetire),
};

impl Nob {
    /// NOB at `cfg`, its levels cut as `reading` says.
    pub fn new(cfg: Config, reading: Levels) -> Self {
        Nob {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
            levels: levels(cfg.n, reading),
            literal: None,
        }
    }

    /// NOB at `cfg` with the text's levels and one sentence as printed.
    pub fn literal(cfg: Config, literal: Literal) -> Self {
        let nob = Nob::new(cfg, Levels::Text);
        let cube = match literal {
            Literal::LowestFirst => nob.cube.lowest_first(),
            _ => nob.cube,
        };
        Nob {
            cube,
            literal: Some(literal),
            ..nob
        }
    }

    /// Rule 2's bits of A: the k-th from the right for k < min(s, a), or
    /// as printed from the left.
    fn rule2_bits(&self, part: &Partition) -> Few<u32> {
        if part.a == 0 || part.p < 2 {
            return Few::default();
        }
        let k = capacity(part.p).min(part.a);
        match self.literal {
            Some(Literal::Rule2FromLeft) => (0..k).map(|k| part.a - 1 - k).collect(),
            _ => (0..k).collect(),
        }
    }

    /// Rule 3's values of P: P xor position(k) for k = a..s-1 (those
    /// rules 1 and 2 leave), or as printed every value but P and P_2.
    fn rule3_values(&self, part: &Partition) -> Few<u64> {
        if part.r < 1 {
            return Few::default();
        }
        if self.literal != Some(Literal::Rule3Set) {
            let count = capacity(part.p).saturating_sub(part.a);
            return (0..count)
                .map(|j| part.big_p ^ position(part.a + j) as u64)
                .collect();
        }
        let p2: Few<u64> = self
            .rule2_bits(part)
            .iter()
            .map(|&k| part.big_p ^ position(k) as u64)
            .collect();
        (0..1u64 << part.p)
            .filter(|v| *v != part.big_p && !p2.contains(v))
            .collect()
    }

    /// The source of child subcube A'P' in step i+1: A' P' eta-syndrome.
    fn destination(&self, i: u8, part: &Partition, big_a: u64, big_p: u64) -> NodeId {
        let prefix = (big_a << part.p) | big_p;
        let rest = &self.levels[i as usize..];
        let r = recursive_syndrome(prefix, part.a + part.p, rest);
        ((prefix << part.r) | r) as NodeId
    }

    /// How many ways rule 3 may take its first dimensions: each value its
    /// own R dimension while there are enough.
    fn rule3_choices(&self, part: &Partition) -> u32 {
        let count = self.rule3_values(part).len() as u32;
        injections(count.min(part.r), part.r)
    }

    /// Emits the 2^p - 1 worms of step `i` from `node` for `source`.
    fn send_step(
        &self,
        node: NodeId,
        source: NodeId,
        i: u8,
        choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) {
        let x = node ^ source;
        let Some(part) = Partition::of(&self.levels, self.cube.dim(), x, i) else {
            return;
        };
        let msg = Packet {
            source,
            step: i + 1,
        };
        let mut worm = |to_rel: NodeId, first: Option<u8>| {
            out.push(Transmission {
                route: Route::Worm {
                    from: node,
                    to: to_rel ^ source,
                    first,
                },
                msg,
            })
        };
        // Rule 1: the neighbours of P.
        for m in 0..part.p {
            worm(
                self.destination(i, &part, part.big_a, part.big_p ^ (1 << m)),
                None,
            );
        }
        // Rule 2: help the A'-subcubes for A' a neighbour of A in a covered bit.
        for &k in self.rule2_bits(&part).iter() {
            worm(
                self.destination(i, &part, part.big_a ^ (1 << k), part.big_p),
                None,
            );
        }
        // Rule 3: the child subcubes left over, each first over its own R
        // dimension (the set as printed may outnumber them: then in turn).
        let values = self.rule3_values(&part);
        let dims = injection((values.len() as u32).min(part.r), part.r, choice);
        for (j, &p3) in values.iter().enumerate() {
            let d = dims[j % dims.len()];
            worm(self.destination(i, &part, part.big_a, p3), Some(d as u8));
        }
    }
}

/// The `index`-th injective map from m items into r dimensions, listed
/// item by item; index 0 maps item j to dimension j.
pub fn injection(m: u32, r: u32, mut index: u32) -> Few<u32> {
    let mut free: Few<u32> = (0..r).collect();
    (0..m)
        .map(|_| {
            let k = (index % free.len() as u32) as usize;
            index /= free.len() as u32;
            free.remove(k)
        })
        .collect()
}

/// At most 32 items, on the stack: a step's rule sets and dimensions
/// (2^p <= 32 and r < 32 on the cubes commcheck builds) without the
/// allocations per sending node that took a tenth of `check nob 26`.
#[derive(Clone, Copy, Debug)]
pub struct Few<T> {
    items: [T; 32],
    len: usize,
}

impl<T: Copy + Default> Default for Few<T> {
    fn default() -> Self {
        Few {
            items: [T::default(); 32],
            len: 0,
        }
    }
}

impl<T> std::ops::Deref for Few<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T: Copy> Few<T> {
    /// Removes and returns the k-th item, shifting the rest down.
    fn remove(&mut self, k: usize) -> T {
        let item = self[k];
        self.items.copy_within(k + 1..self.len, k);
        self.len -= 1;
        item
    }
}

impl<T: Copy + Default> FromIterator<T> for Few<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut few = Few::default();
        for item in iter {
            few.items[few.len] = item;
            few.len += 1;
        }
        few
    }
}

/// Number of injective maps from m items into r dimensions: r!/(r-m)!.
pub fn injections(m: u32, r: u32) -> u32 {
    (r - m + 1..=r).product::<u32>().max(1)
}

impl Protocol for Nob {
    // Held to what Wang-Ku require of a broadcasting tree.
    type Topo = Hypercube;
    type Input = NodeId;
    type State = TreeState;
    type Msg = Packet;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    // The logic is computed for source 0 and relabelled by xor.
    fn domain(&self) -> impl Inputs<NodeId> + '_ {
        Sources::xor(&self.cube)
    }

    fn claims(&self) -> Claims {
        subcube_tree::claims(&self.cube)
    }

    fn init(&self, source: &NodeId, node: NodeId) -> TreeState {
        TreeState::new(source, node)
    }

    fn packets(&self, msg: &Packet, mut f: impl FnMut(PacketId)) {
        f(msg.source)
    }

    fn hints(&self) -> Hints {
        Hints::EVENT_DRIVEN
    }

    const PACKS: bool = true;

    fn codes(&self) -> Option<impl Codes<NodeId, TreeState, Packet> + '_> {
        Some(subcube_tree::TreeCodes)
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut TreeState,
        _slot: Slot,
        arrivals: &[Arrival<Packet>],
        choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        // A second task in one slot (already a violation of Theorem 1)
        // takes the first choice.
        let stays = self.literal != Some(Literal::SourcesRetire);
        state.step(arrivals, self.levels.len(), stays, |j, task| {
            let choice = if j == 0 { choice } else { 0 };
            self.send_step(node, task.source, task.step, choice, out);
        })
    }

    fn choices(&self) -> Option<impl Choices<TreeState, Packet> + '_> {
        Some(self)
    }
}

/// Open choices and scheduled sends.
impl Choices<TreeState, Packet> for &Nob {
    fn ways(
        &self,
        node: NodeId,
        state: &TreeState,
        _slot: Slot,
        arrivals: &[Arrival<Packet>],
    ) -> u32 {
        let Some(task) = state.task(arrivals) else {
            return 1;
        };
        match Partition::of(&self.levels, self.cube.dim(), node ^ task.source, task.step) {
            Some(part) => self.rule3_choices(&part),
            None => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Ports, Switching};
    use crate::topology::Topology;

    fn nob(n: u32) -> Nob {
        let cfg = Config {
            n,
            switching: Switching::Wh,
            ports: Ports::All,
            params: Default::default(),
        };
        Nob::new(cfg, Levels::Text)
    }

    fn worms(nob: &Nob, node: NodeId, source: NodeId, step: u8) -> Vec<String> {
        let mut out = vec![];
        nob.send_step(node, source, step, 0, &mut out);
        out.iter().map(|t| nob.cube.route_label(&t.route)).collect()
    }

    #[test]
    fn fig_5_first_step_from_0000() {
        // Fig. 5(b): rule 1 to 01|11 and 10|00, rule 3 to 11|11.
        assert_eq!(
            worms(&nob(4), 0b0000, 0, 1),
            ["0000->0111", "0000->1000", "0000->1111 (first over dim 0)"]
        );
    }

    #[test]
    fn fig_5_second_step_in_the_00_subcube() {
        // Fig. 5(c): 00|00 sends to 00|01 and 00|10 by rule 1 ...
        assert_eq!(
            worms(&nob(4), 0b0000, 0, 2),
            ["0000->0001", "0000->0010", "0000->0100"]
        );
        // ... and 01|11 helps with 00|11 by rule 2.
        assert!(worms(&nob(4), 0b0111, 0, 2).contains(&"0111->0011".to_string()));
    }

    #[test]
    fn levels_follow_the_text_and_the_appendix() {
        assert_eq!(levels(5, Levels::Text), [2, 2, 1]);
        assert_eq!(levels(5, Levels::Appendix), [2, 3]);
        assert_eq!(levels(7, Levels::Text), [3, 3, 1]);
        assert_eq!(levels(15, Levels::Text), [4, 4, 4, 3]);
        for n in 1..=30 {
            assert_eq!(levels(n, Levels::Text).len() as u32, bounds::nob(n));
        }
    }

    #[test]
    fn injections_are_counted_and_distinct() {
        for (m, r) in [(0, 3), (1, 2), (2, 4), (3, 3)] {
            let all: std::collections::BTreeSet<Vec<u32>> = (0..injections(m, r))
                .map(|i| injection(m, r, i).to_vec())
                .collect();
            assert_eq!(all.len() as u32, injections(m, r));
        }
    }
}
