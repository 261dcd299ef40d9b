//! The rotation-class construction of Bertsekas, Ozveren, Stamoulis, Tseng
//! and Tsitsiklis, "Optimal Communication Algorithms for Hypercubes" (1991),
//! section 2, "Multinode Broadcast Under the MLA Assumption": a single node
//! broadcast from node 0 given as link sets A_1..A_q, each of at most d links
//! of distinct types, q = ceil((2^d - 1)/d).
//!
//! # The construction
//! N_k, the identities with k one bits, is partitioned into classes under a
//! single-bit left rotation; R_k1 is the class of the identity whose k
//! rightmost bits are one. Identities are numbered n(t) in the order
//! 0, R_11, R_21 .. R_2n2, ..., R_(d-1)1, 1..1, and m(t) = 1 + ((n(t) - 1)
//! mod d). The first element t of each class has a one in position m(t)
//! from the right (for R_k1 also a zero in position m(t) - 1, or d if
//! m(t) = 1); the others follow by left rotation. E_i holds the identities
//! numbered (i-1)d+1 ..= id (E_q the rest), and A_i links each t in E_i to
//! t with bit m(t) cleared.
//!
//! # Choices the paper leaves open
//! * the order of the classes R_k2 .. R_kn_k within N_k (only R_k1 is
//!   placed);
//! * the first element of each class, among those with the required bits
//!   (R_11 and every R_k1 have exactly one).
//!
//! A variant (a number over the open [`Choices`]) fixes both; variants are numbered in mixed radix, 0 being
//! classes in increasing order of their least element and every first
//! element the least candidate. The paper proves the parent of t always
//! lies in an earlier E_k for d >= 5 and "handles d = 3 and d = 4
//! individually"; the checker runs every variant, so a failing one is a
//! causality violation (the parent sends before it holds the packet).
//!
//! # Reading
//! The printed definitions of E_i and q use floor((2^d - 1)/d) where the
//! rest of the section uses the ceiling; with q = ceil((2^d - 1)/d) (the
//! claimed time) E_1 .. E_(q-1) have d elements and E_q the rest, which is
//! the only reading under which the sets cover every identity.

use properties::NodeId;

/// The construction at one variant: numbering, m and the link sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Construction {
    d: u32,
    /// n(t) per identity t.
    pub number: Vec<u32>,
    /// A_1 .. A_q (index 0 is A_1): links (parent, child).
    pub links: Vec<Vec<(NodeId, NodeId)>>,
}

/// One rotation class: its elements, least first.
type Class = Vec<NodeId>;

/// The open choices at dimension d.
#[derive(Clone, Debug)]
pub struct Choices {
    d: u32,
    /// Per k = 1..d-1: R_k1, then the other classes in increasing order of
    /// their least element.
    levels: Vec<Vec<Class>>,
}

/// Left rotation of a d-bit identity by one.
pub fn rotate(t: NodeId, d: u32) -> NodeId {
    let mask = (1u32 << d) - 1;
    ((t << 1) | (t >> (d - 1))) & mask
}

/// n!, saturating.
fn factorial(n: u64) -> u64 {
    (1..=n)
        .try_fold(1u64, |a, b| a.checked_mul(b))
        .unwrap_or(u64::MAX)
}

/// Whether t has a one in position `pos` from the right (1-based).
fn bit(t: NodeId, pos: u32) -> bool {
    t & (1 << (pos - 1)) != 0
}

impl Choices {
    /// The classes R_k1, R_k2, ... of each N_k, k = 1..d-1, in the order
    /// of the numbering (the free classes by their least element).
    pub fn classes(&self) -> &[Vec<Class>] {
        &self.levels
    }

    /// The classes of the d-cube, d >= 2.
    pub fn new(d: u32) -> Self {
        let mut levels = Vec::new();
        for k in 1..d {
            let mut seen = vec![false; 1 << d];
            let mut classes: Vec<Class> = Vec::new();
            for t in 0..(1u32 << d) {
                if t.count_ones() != k || seen[t as usize] {
                    continue;
                }
                let mut class = vec![t];
                seen[t as usize] = true;
                let mut x = rotate(t, d);
                while x != t {
                    seen[x as usize] = true;
                    class.push(x);
                    x = rotate(x, d);
                }
                class.sort_unstable();
                classes.push(class);
            }
            let first = (1u32 << k) - 1;
            let r1 = classes.iter().position(|c| c.contains(&first)).unwrap();
            let r1 = classes.remove(r1);
            classes.insert(0, r1);
            levels.push(classes);
        }
        Choices { d, levels }
    }

    /// The candidates for the first element of `class` when it starts at
    /// number `n` (R_k1 when `first_of_level`), least first.
    fn candidates(&self, class: &Class, n: u32, first_of_level: bool) -> Vec<NodeId> {
        let d = self.d;
        let m = 1 + (n - 1) % d;
        let zero_at = if m > 1 { m - 1 } else { d };
        class
            .iter()
            .copied()
            .filter(|&t| bit(t, m) && (!first_of_level || !bit(t, zero_at)))
            .collect()
    }

    /// The radices of the mixed-radix variant number: per level with more
    /// than one free class, the number of their orders; then per class the
    /// number of first-element candidates (independent of the order: a
    /// class's candidates are its elements with a one at one position).
    fn radices(&self) -> Vec<u64> {
        let mut r = Vec::new();
        for classes in &self.levels {
            let free = classes.len() as u64 - 1;
            r.push(factorial(free));
        }
        let mut n = 1;
        for classes in &self.levels {
            for (j, class) in classes.iter().enumerate() {
                r.push(self.candidates(class, n, j == 0).len() as u64);
                n += class.len() as u32;
            }
        }
        r
    }

    /// How many variants there are (saturating).
    pub fn count(&self) -> u64 {
        self.radices()
            .iter()
            .fold(1u64, |a, &b| a.saturating_mul(b.max(1)))
    }

    /// The construction of variant `index` (< `count()`).
    pub fn construction(&self, index: u64) -> Construction {
        self.construction_read(index, Sets::Ceil)
    }

    /// The construction of variant `index` with the link sets read as
    /// `sets` says.
    pub fn construction_read(&self, mut index: u64, sets: Sets) -> Construction {
        let d = self.d;
        let radices = self.radices();
        let mut digits = Vec::with_capacity(radices.len());
        for &r in radices.iter().rev() {
            let r = r.max(1);
            digits.push(index % r);
            index /= r;
        }
        digits.reverse();
        let (orders, firsts) = digits.split_at(self.levels.len());
        // Class orders: the permutation of the free classes with the
        // digit's rank (factorial number system); first elements by the
        // class's place in the default order.
        let mut first = firsts.iter();
        let ordered: Vec<Vec<(Class, u64)>> = self
            .levels
            .iter()
            .zip(orders)
            .map(|(classes, &rank)| {
                let mut rank = rank;
                let mut free: Vec<(Class, u64)> = classes
                    .iter()
                    .map(|c| (c.clone(), *first.next().unwrap()))
                    .collect();
                let mut order = vec![free.remove(0)];
                while !free.is_empty() {
                    let f = factorial(free.len() as u64 - 1);
                    order.push(free.remove((rank / f) as usize));
                    rank %= f;
                }
                order
            })
            .collect();
        let nodes = 1usize << d;
        let mut number = vec![0u32; nodes];
        let mut order: Vec<NodeId> = vec![0];
        for classes in &ordered {
            for (j, (class, digit)) in classes.iter().enumerate() {
                let n = order.len() as u32;
                let candidates = self.candidates(class, n, j == 0);
                let mut t = candidates[*digit as usize];
                for _ in 0..class.len() {
                    order.push(t);
                    t = rotate(t, d);
                }
            }
        }
        order.push((1 << d) - 1);
        for (n, &t) in order.iter().enumerate() {
            number[t as usize] = n as u32;
        }
        let q = match sets {
            Sets::Ceil => ((nodes as u32) - 1).div_ceil(d),
            Sets::Floor => ((nodes as u32) - 1) / d,
        } as usize;
        let mut links = vec![Vec::new(); q];
        for &t in &order[1..] {
            let n = number[t as usize];
            let m = 1 + (n - 1) % d;
            // E_(i+1); read with floor, E_q is "the rest".
            let i = (((n - 1) / d) as usize).min(q - 1);
            links[i].push((t ^ (1 << (m - 1)), t));
        }
        Construction { d, number, links }
    }
}

/// How section 2's q and E_i are read. The text prints
/// q = floor((2^d - 1)/d), E_i for i < q of d elements and E_q the rest;
/// the claimed time, the proof and Fig. 6 need q = ceil((2^d - 1)/d).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sets {
    /// q = ceil((2^d - 1)/d): every E_i but the last has d elements.
    Ceil,
    /// q = floor((2^d - 1)/d), as printed: E_q takes d + r elements
    /// (r = (2^d - 1) mod d), so two of its links share a type.
    Floor,
}

impl Construction {
    /// q, the number of link sets.
    pub fn slots(&self) -> u32 {
        self.links.len() as u32
    }

    /// The dimension.
    pub fn dim(&self) -> u32 {
        self.d
    }
}

/// The spanning binomial tree of Fig. 4 as link sets under MLA: A_i links
/// every identity of weight i - 1 to those obtained by setting a bit to the
/// right of its rightmost one. Its A_2 has two links of one type for d >= 3
/// (Fig. 5), the case `mnb-sbt` replicates.
pub fn binomial_links(d: u32) -> Vec<Vec<(NodeId, NodeId)>> {
    let mut links = vec![Vec::new(); d as usize];
    for y in 1u32..(1 << d) {
        let x = y & (y - 1);
        links[y.count_ones() as usize - 1].push((x, y));
    }
    links
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fig. 6 of the paper, d = 4: the numbering of the classes, forced at
    /// this size (one variant).
    #[test]
    fn the_four_cube_numbering_is_the_papers() {
        let c = Choices::new(4);
        assert_eq!(c.count(), 1);
        let k = c.construction(0);
        let by_number: Vec<NodeId> = (0..16)
            .map(|n| (0..16).find(|&t| k.number[t as usize] == n).unwrap())
            .collect();
        assert_eq!(
            by_number,
            [
                0b0000, 0b0001, 0b0010, 0b0100, 0b1000, 0b0011, 0b0110, 0b1100, 0b1001, 0b0101,
                0b1010, 0b1101, 0b1011, 0b0111, 0b1110, 0b1111
            ]
        );
        assert_eq!(k.slots(), 4);
        assert_eq!(k.links[0].len(), 4);
        assert_eq!(k.links[3].len(), 3);
    }

    /// d = 5 by hand: N_2 and N_3 have one free class each, of five
    /// elements with two (three) ones at the required position.
    #[test]
    fn the_open_choices_are_counted() {
        assert_eq!(Choices::new(3).count(), 1);
        assert_eq!(Choices::new(5).count(), 2 * 3);
    }

    #[test]
    fn every_link_set_has_distinct_types() {
        for d in 2..=7 {
            let c = Choices::new(d);
            let k = c.construction(0);
            for set in &k.links {
                let mut types: Vec<u32> =
                    set.iter().map(|(x, y)| (x ^ y).trailing_zeros()).collect();
                types.sort_unstable();
                types.dedup();
                assert_eq!(types.len(), set.len(), "d={d}");
            }
        }
    }

    #[test]
    fn the_binomial_tree_repeats_a_type_in_its_second_set() {
        let links = binomial_links(3);
        assert_eq!(links[1].len(), 3);
        let types: Vec<u32> = links[1].iter().map(|(x, y)| x ^ y).collect();
        assert!(types
            .iter()
            .any(|t| types.iter().filter(|u| *u == t).count() > 1));
    }
}
