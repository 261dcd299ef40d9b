//! What the K-broadcast algorithms (Stamoulis and Tsitsiklis 1993) share:
//! their input is a set of broadcasting nodes, and the claims quantify over
//! every K-set. An algorithm holds the sets it checks ([`Sets`]), takes
//! `--k` and `--broadcasters`, and writes its `Protocol`'s inputs with
//! [`Broadcasters`].

use crate::config::{Config, Param, Ports::All, Switching::Sf};
use crate::entry::{Info, Reach};
use crate::protocol::{Inputs, Symmetry};
use crate::topology::hypercube::Hypercube;
use crate::topology::Family;
use crate::topology::Topology;
use properties::bounds::stamoulis;
use properties::{Claims, NodeId, PacketId, PropertyName, Slot, Task};

/// What the K-broadcast entries say alike: the paper's model
/// (store-and-forward, all-port), the lock-step model to d = 4, a bit of
/// holdings per node and packet, on the cube. Each entry fills in its
/// name, summary, reference, claim and parameters (`..broadcasters::INFO`).
pub const INFO: Info = Info::family(
    &[(Sf, All)],
    Reach::lockstep_only(4),
    &[],
    crate::entry::Footprint::ByNode(crate::entry::every_packet_bytes),
    Family::Cube,
);

/// `--k` for algorithms that check every K-set of any size, 1..=2^d;
/// `meaning` says the default and how the sets are covered.
pub const fn k_param(meaning: &'static str) -> Param {
    Param {
        flag: "--k",
        meaning,
        range: |d| (1, 1 << d),
        below: "",
    }
}

/// `--broadcasters` for algorithms that check one given set of any size.
pub const ONE_SET: Param = Param {
    flag: "--broadcasters",
    meaning: "one set of broadcasting nodes, comma-separated (K = its size)",
    range: |d| (1, 1 << d),
    below: "",
};

/// `--multiset`: a node may broadcast several packets (a_x >= 2).
pub const MULTISET: Param = Param {
    flag: "--multiset",
    meaning: "a node may have several packets: listed m times in --broadcasters (a_x = m), \
              or every K-multiset with --k",
    range: |_| (0, 1),
    below: "",
};

/// Sets past this many are not enumerated (the check says so).
pub const MAX_SETS: usize = 1 << 16;

/// The K-subsets of 0..n in lexicographic order (as sorted lists), until
/// `f` returns false.
pub fn subsets(n: u32, k: usize, mut f: impl FnMut(&[NodeId]) -> bool) {
    let mut set: Vec<NodeId> = (0..k as NodeId).collect();
    if k as u32 > n {
        return;
    }
    loop {
        if !f(&set) {
            return;
        }
        // The rightmost element that can still move right.
        let Some(i) = (0..k).rev().find(|&i| set[i] < n - (k - i) as u32) else {
            return;
        };
        set[i] += 1;
        for j in i + 1..k {
            set[j] = set[j - 1] + 1;
        }
    }
}

/// The K-multisets of 0..n (sorted lists, a node repeated once per
/// packet) in lexicographic order, until `f` returns false.
pub fn multisets(n: u32, k: usize, mut f: impl FnMut(&[NodeId]) -> bool) {
    if n == 0 {
        return;
    }
    let mut set: Vec<NodeId> = vec![0; k];
    loop {
        if !f(&set) {
            return;
        }
        let Some(i) = (0..k).rev().find(|&i| set[i] < n - 1) else {
            return;
        };
        set[i] += 1;
        for j in i + 1..k {
            set[j] = set[i];
        }
    }
}

/// True if `set` (sorted) is the least of its xor-translates.
pub fn least_translate(set: &[NodeId], n: u32) -> bool {
    let mut image = Vec::with_capacity(set.len());
    (1..n).all(|t| {
        image.clear();
        image.extend(set.iter().map(|&x| x ^ t));
        image.sort_unstable();
        *image >= *set
    })
}

/// C(n, k), saturating.
pub fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1u64, |a, i| {
        a.checked_mul(n - i).map_or(u64::MAX, |p| p / (i + 1))
    })
}

/// `--broadcasters`, sorted, if given.
pub fn given(cfg: &Config) -> Option<Vec<NodeId>> {
    cfg.params.broadcasters.clone().map(|mut b| {
        b.sort_unstable();
        b
    })
}

/// K: the size of `--broadcasters`, else `--k`, else `default_k`.
pub fn k(cfg: &Config, default_k: u64) -> u64 {
    match (&cfg.params.broadcasters, cfg.params.k) {
        (Some(b), _) => b.len() as u64,
        (None, Some(k)) => k,
        (None, None) => default_k,
    }
}

/// Every K-set of the d-cube's nodes (one per xor-translation orbit where
/// `orbits`), the first [`MAX_SETS`] where there are more.
pub fn k_sets(d: u32, k: u64, orbits: bool) -> Vec<Vec<NodeId>> {
    let n = 1u32 << d;
    let mut sets = Vec::new();
    subsets(n, k as usize, |s| {
        if !orbits || least_translate(s, n) {
            sets.push(s.to_vec());
        }
        sets.len() < MAX_SETS
    });
    sets
}

/// The broadcasting sets a K-broadcast check covers: `--broadcasters`,
/// else every K-set of the d-cube (one per xor-translation orbit where
/// `orbits`), up to [`MAX_SETS`].
#[derive(Clone, Debug)]
pub struct Sets {
    /// The dimension.
    pub d: u32,
    /// K.
    pub k: u64,
    /// `--broadcasters`, sorted, if given.
    pub given: Option<Vec<NodeId>>,
    /// One set per xor-translation orbit (where the trees are translates).
    pub orbits: bool,
    /// K-multisets (`--multiset`): a node may have several packets.
    pub multiset: bool,
}

impl Sets {
    /// From the configuration: K is the size of `--broadcasters`, else
    /// `--k`, else `default_k`.
    pub fn new(cfg: &Config, default_k: u64, orbits: bool) -> Sets {
        Sets {
            d: cfg.n,
            k: k(cfg, default_k),
            given: given(cfg),
            orbits,
            multiset: cfg.params.multiset,
        }
    }

    /// The sets, each sorted.
    pub fn all(&self) -> Vec<Vec<NodeId>> {
        match &self.given {
            Some(b) => vec![b.clone()],
            None if self.multiset => {
                let mut sets = Vec::new();
                multisets(1 << self.d, self.k as usize, |s| {
                    sets.push(s.to_vec());
                    sets.len() < MAX_SETS
                });
                sets
            }
            None => k_sets(self.d, self.k, self.orbits),
        }
    }

    /// The executor's one set: the given one, else nodes 0..K.
    pub fn first(&self) -> Vec<NodeId> {
        self.given
            .clone()
            .unwrap_or_else(|| (0..self.k as NodeId).collect())
    }

    /// How many sets the claim quantifies over.
    pub fn total(&self) -> u64 {
        match self.given {
            Some(_) => 1,
            None if self.multiset => binomial((1u64 << self.d) + self.k - 1, self.k),
            None => binomial(1u64 << self.d, self.k),
        }
    }
}

/// The inputs of a K-broadcast: the sets of broadcasting nodes
/// ([`Sets`]), sorted, in the cube's words, covering what `covered` says;
/// every node gets every packet of the set.
pub struct Broadcasters<'a> {
    /// The sets.
    pub sets: &'a Sets,
    /// The cube, whose labels name the nodes.
    pub cube: &'a Hypercube,
    /// Which sets a check covers where it lists fewer than all.
    pub covered: &'static str,
}

impl Inputs<Vec<NodeId>> for Broadcasters<'_> {
    fn task(&self, set: &Vec<NodeId>) -> Task {
        task(self.cube, set)
    }

    fn source_input(&self, _: NodeId) -> Option<Vec<NodeId>> {
        None
    }
    fn all(&self) -> Vec<Vec<NodeId>> {
        self.sets.all()
    }
    fn sourced(&self, _: NodeId) -> Vec<Vec<NodeId>> {
        Vec::new()
    }
    fn first(&self) -> Vec<NodeId> {
        self.sets.first()
    }
    fn total(&self) -> u64 {
        self.sets.total()
    }
    fn covered(&self) -> &'static str {
        self.covered
    }
    fn describe(&self, set: &Vec<NodeId>) -> String {
        describe(self.cube, set)
    }
    fn symmetry(&self) -> Option<Symmetry> {
        None
    }
}

/// The packets of `set` (sorted; a node listed m times has m packets):
/// node x's i-th packet (from 0) has id i x 2^d + x (see [`Task`]).
pub fn packets(cube: &Hypercube, set: &[NodeId]) -> Vec<PacketId> {
    let mut ids = Vec::with_capacity(set.len());
    for (i, &x) in set.iter().enumerate() {
        let before = set[..i].iter().rev().take_while(|&&y| y == x).count() as u32;
        ids.push(before * cube.nodes() + x);
    }
    ids
}

/// Every node gets every packet of `set`.
pub fn task(cube: &Hypercube, set: &[NodeId]) -> Task {
    Task::Broadcast {
        nodes: cube.nodes(),
        sources: packets(cube, set),
    }
}

/// The claims of K broadcasts within `bound` slots: complete, one copy,
/// contention-free (and causality, which guards the model); the lower
/// bound of section 3.1; one transmission per tree arc, K (2^d - 1),
/// claimed where `count_claimed`, else observed.
pub fn claims(cube: &Hypercube, k: u64, bound: Slot, count_claimed: bool) -> Claims {
    use PropertyName::*;
    let d = cube.dim();
    let mut claimed = vec![
        Completeness,
        NoDuplication,
        ContentionFreedom,
        Causality,
        TimeBound,
    ];
    if count_claimed {
        claimed.push(Transmissions);
    }
    Claims {
        claimed,
        bound: Some(bound),
        lower_bound: Some(stamoulis::lower(d, k) as Slot),
        transmissions: Some(k * (cube.nodes() as u64 - 1)),
    }
}

/// `broadcasters {000, 101}`; a set of every node once says so, and a
/// long set is cut to its first and last members (the reproduce line
/// names it in full).
pub fn describe(cube: &Hypercube, set: &[NodeId]) -> String {
    let n = cube.nodes();
    if set.len() as u64 == n as u64 && set.iter().zip(0..).all(|(&x, i)| x == i) {
        return format!("broadcasters: every node ({n})");
    }
    format!("broadcasters {{{}}}", abridge(set, |&x| cube.node_label(x)))
}

/// The items joined by commas; past 16 of them, the first 8, an
/// ellipsis, the last 2 and how many there are.
pub fn abridge<T>(items: &[T], label: impl Fn(&T) -> String) -> String {
    let join = |s: &[T]| s.iter().map(&label).collect::<Vec<_>>().join(", ");
    match items.len() {
        0..=16 => join(items),
        n => format!(
            "{}, ..., {} ({n} in all)",
            join(&items[..8]),
            join(&items[n - 2..])
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Subsets and orbits by hand: C(4, 2) = 6 pairs of the 2-cube, in
    /// two orbits under translation ({0,1},{2,3} and {0,2},{1,3} and
    /// {0,3},{1,2}: three orbits), least members {0,1}, {0,2}, {0,3}.
    /// Long sets are cut, every node is named as such, short sets whole.
    #[test]
    fn descriptions_stay_short() {
        let cube = Hypercube::new(5, crate::config::Switching::Sf, crate::config::Ports::All);
        assert_eq!(describe(&cube, &[0, 5]), "broadcasters {00000, 00101}");
        let all: Vec<NodeId> = (0..32).collect();
        assert_eq!(describe(&cube, &all), "broadcasters: every node (32)");
        let most = describe(&cube, &all[1..]);
        assert!(most.ends_with("11110, 11111 (31 in all)}"), "{most}");
        assert_eq!(most.matches(", ").count(), 10);
    }

    #[test]
    fn one_set_per_translation_orbit() {
        let mut all = Vec::new();
        subsets(4, 2, |s| {
            all.push(s.to_vec());
            true
        });
        assert_eq!(all.len(), 6);
        let least: Vec<Vec<NodeId>> = all.into_iter().filter(|s| least_translate(s, 4)).collect();
        assert_eq!(least, vec![vec![0, 1], vec![0, 2], vec![0, 3]]);
        assert_eq!(binomial(16, 8), 12870);
        // Multisets of size 2 of 3 nodes: C(4, 2) = 6, the repeats first.
        let mut multi = Vec::new();
        multisets(3, 2, |s| {
            multi.push(s.to_vec());
            true
        });
        assert_eq!(
            multi,
            vec![
                vec![0, 0],
                vec![0, 1],
                vec![0, 2],
                vec![1, 1],
                vec![1, 2],
                vec![2, 2]
            ]
        );
    }
}
