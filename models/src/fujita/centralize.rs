//! CENTRALIZE: gossip on the n x n mesh-bus by collecting every token at
//! one node. Fujita, "Gossiping in Mesh-Bus Computers by Packets with
//! Bounded Length", section 5.2 (Theorem 7), for l = Theta(n^2).
//!
//! # The algorithm
//! * Phase 1: "If i + j is even and i != j, send t(i, j) to node (i, i)
//!   through row-bus R_i. If i + j is odd, send t(i, j) to node (j, j)
//!   through column-bus C_j." Diagonal node (x, x) then holds its cross:
//!   row x's even-sum tokens and column x's odd-sum ones.
//! * Phase 2: U = D, the diagonal in order; while |U| > 1, pair U's
//!   members in order, x_1 with x_2, x_3 with x_4, ...; for a pair ((a, b),
//!   (c, d)), (a, b) sends to (a, d) on R_a and (c, d) sends to (a, d) on
//!   C_d, and U becomes the (a, d)s.
//! * Phase 3: the last member of U "broadcasts the set of all tokens to
//!   all nodes".
//!
//! Readings (docs/errata.md, Fujita):
//! * A message carries what its writer collected: the union of the
//!   crosses of the diagonal range it stands for, in token order, in
//!   ceil(size/l) messages of consecutive steps where it exceeds l.
//! * Phase 3 is not spelled out ("O(1) steps"): the holder writes what
//!   it collected (every token, if no member of U was lost) on its row,
//!   then every node of that row writes it on its column, each in
//!   ceil(size/l) steps.
//! * The writers' order in phase 1 is open: an input of the check (every
//!   order up to n = 5, else the order along the bus and seeded shuffles:
//!   `mesh_bus::Orders`).
//! * Step 3 pairs floor(|U|/2) members and step 4 empties U, so where |U|
//!   is odd the last member is dropped with its tokens: the gossip is
//!   incomplete unless n is a power of two. The check shows it;
//!   `centralize-fixed` carries the odd member into the next U.
//! * The proof says phase 1 takes floor(n/2) steps; for odd n a column
//!   of odd index has ceil(n/2) writers of odd i + j.
//!
//! # Bounds
//! Theorem 7 claims n/2 + O(log2 n) steps with no constant: the check
//! reports the exact count and judges no time bound. Lower bounds:
//! Theorems 1 and 2, printed beside.

use crate::config::{Config, Param};
use crate::entry::{Entry, Info};
use crate::fujita::gossip;
use crate::protocol::{Arrival, Choices, Hints, Inputs, Judging, Protocol};
use crate::topology::mesh_bus::{Bus, LineTokens, MeshBus, Orders};
use properties::{Claims, NodeId, PacketId, Slot, Transmission};
use std::collections::HashMap;

/// `--ell` for CENTRALIZE (any l works; Theorem 7 is about l =
/// Theta(n^2)).
const ELL: Param = Param {
    flag: "--ell",
    meaning: "tokens per message, 1..=n^2 (default n^2; Theorem 7 is for l = Theta(n^2))",
    range: |n| (1, n as u64 * n as u64),
    below: "",
};

const INFO: Info = Info {
    name: "centralize",
    summary: "mesh-bus gossip: diagonal collects, pairwise merge to one node, broadcast",
    reference: "Fujita, Gossiping in Mesh-Bus Computers, section 5.2 (Theorem 7)",
    claim: "n/2 + O(log n) steps (no constant: the exact count is reported); complete, \
            one writer per bus, at most l tokens a message (default l = n^2)",
    params: &[ELL],
    ..gossip::INFO
};

/// The registry entry of CENTRALIZE as printed.
pub const ENTRY: Entry<Centralize> = Entry {
    info: INFO,
    build: |cfg| Centralize::new(cfg, false),
};

/// The registry entry of CENTRALIZE keeping the odd member of U.
pub const FIXED: Entry<Centralize> = Entry {
    info: Info {
        name: "centralize-fixed",
        summary: "CENTRALIZE carrying the odd member of U into the next round",
        claim: "n/2 + O(log n) steps (as Theorem 7; the exact count is reported); complete, \
                one writer per bus, at most l tokens a message (default l = n^2)",
        ..INFO
    },
    build: |cfg| Centralize::new(cfg, true),
};

/// What a message carries.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Msg {
    /// Phase 1: the writer's own token.
    Own(LineTokens),
    /// Phases 2 and 3: of the union of the crosses of diagonal indices
    /// lo..hi in token order (every token when lo..hi is 0..n), `take`
    /// tokens after the first `skip`.
    Crosses {
        /// The first diagonal index of the range.
        lo: u32,
        /// One past its last.
        hi: u32,
        /// The tokens before this message's.
        skip: u32,
        /// The tokens it carries.
        take: u32,
    },
}

/// CENTRALIZE at one side and l.
#[derive(Clone, Debug)]
pub struct Centralize {
    mesh: MeshBus,
    l: u32,
    /// Phase 1's length.
    first: Slot,
    /// Phases 2 and 3: each node's writes (step, bus, message).
    later: HashMap<NodeId, Vec<Turn>>,
    /// The open orders: phase 1's writers on every bus.
    orders: Orders,
}

/// A node's writes: step, bus, message, in step order.
pub type Plan = Vec<Turn>;

/// A node's turn on a bus: from step `at`, `parts` messages of consecutive
/// steps carrying `msg`'s tokens l at a time (one entry per turn, not per
/// message: at l = 1 a turn is thousands of steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Turn {
    /// The step of its first message.
    pub at: Slot,
    /// How many messages.
    pub parts: u32,
    /// The bus written.
    pub bus: Bus,
    /// The tokens, all of the turn's.
    pub msg: Msg,
}

impl Centralize {
    /// CENTRALIZE at `cfg`, as printed or (`fixed`) carrying the odd member of U.
    pub fn new(cfg: Config, fixed: bool) -> Self {
        let mesh = MeshBus::new(cfg.n);
        let n = cfg.n;
        let l = gossip::ell(&cfg, n as u64 * n as u64);
        let mut c = Centralize {
            mesh: mesh.clone(),
            l,
            first: 0,
            later: HashMap::new(),
            orders: Orders::new(&mesh, []),
        };
        c.orders = Orders::new(
            &c.mesh,
            (0..n).flat_map(|x| {
                [Bus::Row(x), Bus::Col(x)].map(|b| (1, b, c.writers(b).len() as u32))
            }),
        );
        c.first = (0..n)
            .flat_map(|x| [c.writers(Bus::Row(x)).len(), c.writers(Bus::Col(x)).len()])
            .max()
            .unwrap_or(0) as Slot;
        // Phase 2: the members of U with the diagonal range each stands
        // for.
        let mut u: Vec<(NodeId, u32, u32)> =
            (0..n).map(|x| (c.mesh.node(x, x), x, x + 1)).collect();
        let mut at = c.first + 1;
        while u.len() > 1 {
            let mut next = Vec::new();
            let mut round = 0;
            for pair in u.chunks(2) {
                let [(ab, lo, mid), (cd, _, hi)] = pair else {
                    if fixed {
                        next.push(pair[0]);
                    }
                    continue;
                };
                let ((a, _), (_, d)) = (c.mesh.at(*ab), c.mesh.at(*cd));
                for (from, bus, lo, hi) in
                    [(*ab, Bus::Row(a), *lo, *mid), (*cd, Bus::Col(d), *mid, *hi)]
                {
                    let size = c.cross_size(lo, hi);
                    let parts = size.div_ceil(l);
                    round = round.max(parts);
                    let msg = Msg::Crosses {
                        lo,
                        hi,
                        skip: 0,
                        take: size,
                    };
                    c.later.entry(from).or_default().push(Turn {
                        at,
                        parts,
                        bus,
                        msg,
                    });
                }
                next.push((c.mesh.node(a, d), *lo, *hi));
            }
            at += round;
            u = next;
        }
        // Phase 3: what the holder collected (every token, unless a
        // member of U was dropped), on its row, then on every column.
        let (holder, lo, hi) = u[0];
        let (a, _) = c.mesh.at(holder);
        let size = c.cross_size(lo, hi);
        let parts = size.div_ceil(l);
        let msg = Msg::Crosses {
            lo,
            hi,
            skip: 0,
            take: size,
        };
        c.later.entry(holder).or_default().push(Turn {
            at,
            parts,
            bus: Bus::Row(a),
            msg,
        });
        for y in 0..n {
            c.later.entry(c.mesh.node(a, y)).or_default().push(Turn {
                at: at + parts,
                parts,
                bus: Bus::Col(y),
                msg,
            });
        }
        c
    }

    fn n(&self) -> u32 {
        self.mesh.side()
    }

    /// Phase 1's writers of `bus` (positions along it), along the bus.
    fn writers(&self, bus: Bus) -> Vec<u32> {
        let n = self.n();
        match bus {
            Bus::Row(i) => (0..n).filter(|&j| (i + j) % 2 == 0 && j != i).collect(),
            Bus::Col(j) => (0..n).filter(|&i| (i + j) % 2 == 1).collect(),
        }
    }

    /// Whether token (r, c) is in the cross of a diagonal index in lo..hi.
    fn in_crosses(r: u32, c: u32, lo: u32, hi: u32) -> bool {
        match (r + c) % 2 {
            0 => (lo..hi).contains(&r),
            _ => (lo..hi).contains(&c),
        }
    }

    fn cross_size(&self, lo: u32, hi: u32) -> u32 {
        let mut size = 0;
        crosses(self.n(), lo, hi, 0, u32::MAX, |_| size += 1);
        size
    }
}

/// How many c in 0..x have parity p.
fn parity_below(x: u32, p: u32) -> u32 {
    (x + 1 - p) / 2
}

/// The tokens of the union of the crosses of diagonal indices lo..hi, in
/// token order, `take` of them after the first `skip`: row by row, a
/// row's count known without visiting it (what the filter in
/// `in_crosses` selects, in time proportional to n + take).
fn crosses(n: u32, lo: u32, hi: u32, mut skip: u32, mut take: u32, mut f: impl FnMut(PacketId)) {
    for r in 0..n {
        if take == 0 {
            return;
        }
        let odd = (r + 1) % 2;
        let mut count = parity_below(hi, odd) - parity_below(lo, odd);
        if (lo..hi).contains(&r) {
            count += parity_below(n, r % 2);
        }
        if skip >= count {
            skip -= count;
            continue;
        }
        for c in 0..n {
            if take == 0 {
                return;
            }
            if Centralize::in_crosses(r, c, lo, hi) {
                if skip > 0 {
                    skip -= 1;
                } else {
                    f(r * n + c);
                    take -= 1;
                }
            }
        }
    }
}

impl Protocol for Centralize {
    type Topo = MeshBus;
    /// The order of every bus's writers (`mesh_bus::Orders`).
    type Input = u32;

    fn topology(&self) -> &MeshBus {
        &self.mesh
    }

    fn domain(&self) -> impl Inputs<u32> + '_ {
        gossip::Writers::of(&self.mesh, &self.orders, self.l)
    }

    fn hints(&self) -> Hints {
        gossip::HINTS
    }
    type State = Plan;
    type Msg = Msg;

    /// Theorem 7's O(log2 n) has no constant: no time is claimed.
    fn claims(&self) -> Claims {
        gossip::claims(self.n(), self.l, None)
    }

    fn init(&self, &variant: &u32, node: NodeId) -> Plan {
        let (i, j) = self.mesh.at(node);
        let mut plan = self.later.get(&node).cloned().unwrap_or_default();
        let (bus, line, me) = match (i + j) % 2 {
            0 if i == j => (None, Bus::Col(j), i),
            0 => (Some(Bus::Row(i)), Bus::Col(j), j),
            _ => (Some(Bus::Col(j)), Bus::Row(i), i),
        };
        if let Some(bus) = bus {
            let writers = self.writers(bus);
            let order = self.orders.order(variant, bus, 1, writers.len() as u32);
            let pos = order
                .iter()
                .position(|&w| writers[w as usize] == me)
                .expect("a writer");
            let mut own = LineTokens::new(line);
            own.add(if line == Bus::Col(j) { i } else { j });
            plan.push(Turn {
                at: pos as Slot + 1,
                parts: 1,
                bus,
                msg: Msg::Own(own),
            });
        }
        plan.sort_by_key(|t| t.at);
        plan
    }

    fn packets(&self, msg: &Msg, f: impl FnMut(PacketId)) {
        let n = self.n();
        match *msg {
            Msg::Own(t) => t.each(n, f),
            Msg::Crosses { lo, hi, skip, take } => crosses(n, lo, hi, skip, take, f),
        }
    }

    fn step(
        &self,
        node: NodeId,
        plan: &mut Plan,
        slot: Slot,
        _: &[Arrival<Msg>],
        _: u32,
        out: &mut Vec<Transmission<Msg>>,
    ) -> bool {
        for t in plan
            .iter()
            .filter(|t| slot >= t.at && slot - t.at < t.parts)
        {
            let msg = match t.msg {
                Msg::Crosses { lo, hi, take, .. } => {
                    let k = (slot - t.at) * self.l;
                    Msg::Crosses {
                        lo,
                        hi,
                        skip: k,
                        take: self.l.min(take - k),
                    }
                }
                own => own,
            };
            out.push(Transmission {
                route: self.mesh.write(node, t.bus),
                msg,
            });
        }
        plan.iter().any(|t| t.at + t.parts - 1 > slot)
    }

    // The rounds' last step may pass the bound (the horizon follows it).
    fn judging(&self) -> Option<impl Judging<u32, Plan, Msg> + '_> {
        let last = self.later.values().flatten().map(|t| t.at + t.parts - 1);
        Some(gossip::Bounds {
            n: self.mesh.side(),
            l: self.l,
            last_step: last.max(),
        })
    }

    fn choices(&self) -> Option<impl Choices<Plan, Msg> + '_> {
        Some(self)
    }
}

/// Open choices and scheduled sends.
impl Choices<Plan, Msg> for &Centralize {
    fn wake(&self, plan: &Plan, slot: Slot) -> Slot {
        plan.iter()
            .filter(|t| slot + 1 < t.at + t.parts)
            .map(|t| t.at.max(slot + 1))
            .min()
            .unwrap_or(slot + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row-skipping enumeration gives what the plain filter gives, for
    /// every range and cut, n = 1..7.
    #[test]
    fn crosses_match_the_filter() {
        for n in 1..=7u32 {
            for lo in 0..n {
                for hi in lo..=n {
                    let all: Vec<u32> = (0..n * n)
                        .filter(|&t| Centralize::in_crosses(t / n, t % n, lo, hi))
                        .collect();
                    for skip in 0..=all.len() as u32 {
                        for take in 0..=3 {
                            let mut got = Vec::new();
                            crosses(n, lo, hi, skip, take, |t| got.push(t));
                            let want: Vec<u32> = all
                                .iter()
                                .copied()
                                .skip(skip as usize)
                                .take(take as usize)
                                .collect();
                            assert_eq!(got, want, "n={n} {lo}..{hi} skip {skip} take {take}");
                        }
                    }
                }
            }
        }
    }
}
