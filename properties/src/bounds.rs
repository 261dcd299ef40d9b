//! The papers' bound formulas, written as the papers state them; the checks
//! compare measured times with these, never the reverse.

use crate::vocabulary::Slot;

/// floor(log2(x)) for x >= 1.
pub fn floor_log2(x: u32) -> u32 {
    assert!(x >= 1, "log2 of a positive number");
    31 - x.leading_zeros()
}

/// Spanning binomial tree: n steps on the n-cube, one-port or all-port
/// (lecture notes, "SBT algorithm works optimally"; Wang-Ku Table I).
pub fn sbt(n: u32) -> Slot {
    n
}

/// Double tree: ceil(n/2) steps on the all-port wormhole n-cube
/// (lecture notes, "DTA ... requires ceil(n/2) rounds"; Wang-Ku section 1).
pub fn double_tree(n: u32) -> Slot {
    n.div_ceil(2)
}

/// Wang-Ku near-optimal broadcast: ceil(n / floor(log2(n+1))) steps
/// (Theorem 3, Table I).
pub fn nob(n: u32) -> Slot {
    n.div_ceil(floor_log2(n + 1))
}

/// The all-port wormhole lower bound: the least a with (n+1)^a >= 2^n,
/// since each informed node can inform at most n others per step
/// (Wang-Ku section 3, footnote 1; lecture notes).
pub fn all_port_wormhole_lower(n: u32) -> Slot {
    assert!(n <= 64, "the bound is computed for n <= 64");
    let target: u128 = 1 << n;
    let mut reach: u128 = 1;
    let mut a = 0;
    while reach < target {
        reach = reach.saturating_mul(n as u128 + 1);
        a += 1;
    }
    a
}

/// The one-port lower bound: the informed set at most doubles per step, so
/// log2(2^n) = n steps (lecture notes, "trivial lower bound").
pub fn one_port_lower(n: u32) -> Slot {
    n
}

/// The store-and-forward lower bound: the diameter n (lecture notes).
pub fn store_and_forward_lower(n: u32) -> Slot {
    n
}

/// Bertsekas et al. 1991, Tables 1 and 2: the optimal times (MLA = all
/// ports, SLA = one port) and transmission counts on the d-cube, store and
/// forward, unit packets. Written as the tables print them.
pub mod bertsekas {
    /// Single node broadcast or accumulation: d slots, MLA and SLA.
    pub fn single_broadcast_time(d: u32) -> u64 {
        d as u64
    }

    /// Single node scatter or gather, and multinode broadcast or
    /// accumulation, under MLA: ceil((2^d - 1) / d).
    pub fn scatter_time_mla(d: u32) -> u64 {
        ((1u64 << d) - 1).div_ceil(d as u64)
    }

    /// Single node scatter or gather, and multinode broadcast or
    /// accumulation, under SLA: 2^d - 1.
    pub fn scatter_time_sla(d: u32) -> u64 {
        (1u64 << d) - 1
    }

    /// Total exchange under MLA: 2^(d-1).
    pub fn total_exchange_time_mla(d: u32) -> u64 {
        1u64 << (d - 1)
    }

    /// Total exchange under SLA: d 2^(d-1).
    pub fn total_exchange_time_sla(d: u32) -> u64 {
        d as u64 * (1u64 << (d - 1))
    }

    /// Single node broadcast or accumulation: 2^d - 1 transmissions.
    pub fn single_broadcast_transmissions(d: u32) -> u64 {
        (1u64 << d) - 1
    }

    /// Single node scatter or gather: d 2^(d-1) transmissions (Eq. 2).
    pub fn scatter_transmissions(d: u32) -> u64 {
        d as u64 * (1u64 << (d - 1))
    }

    /// Multinode broadcast or accumulation: 2^d (2^d - 1) transmissions.
    pub fn multinode_transmissions(d: u32) -> u64 {
        (1u64 << d) * ((1u64 << d) - 1)
    }

    /// Total exchange: d 2^(2d-1) transmissions (Eq. 3).
    pub fn total_exchange_transmissions(d: u32) -> u64 {
        d as u64 * (1u64 << (2 * d - 1))
    }
}

/// Stamoulis and Tsitsiklis, "An efficient algorithm for multiple
/// simultaneous broadcasts in the hypercube" (IPL 46, 1993): K broadcasts
/// on the d-cube.
pub mod stamoulis {
    /// Section 3.1: at least max{d, (2^d - 1) K / (d 2^d)} slots (K
    /// broadcasts need (2^d - 1) K transmissions, d 2^d arcs carry at most
    /// that many per slot, and the diameter is d), rounded up to a slot.
    pub fn lower(d: u32, k: u64) -> u64 {
        let nodes = 1u64 << d;
        ((nodes - 1) * k).div_ceil(d as u64 * nodes).max(d as u64)
    }

    /// Section 3.1's lower bound as printed, max{d, (2^d - 1) K / (d 2^d)},
    /// not rounded: the paper's ratios (remarks of section 3.2) divide by
    /// it as it stands.
    pub fn lower_printed(d: u32, k: u64) -> f64 {
        let nodes = (1u64 << d) as f64;
        ((nodes - 1.0) * k as f64 / (d as f64 * nodes)).max(d as f64)
    }

    /// The lower bound as section 3.2 reprints it for K >> d^2,
    /// max{d, ((2^d - 1)/d^2) K}: d^2 where section 3.1 has d 2^d.
    pub fn lower_reprinted(d: u32, k: u64) -> f64 {
        let nodes = (1u64 << d) as f64;
        ((nodes - 1.0) * k as f64 / (d * d) as f64).max(d as f64)
    }

    /// Section 3.2: the three-phase algorithm takes 2 floor(K/d) + 4d
    /// slots (phase 1 2d + 1, phase 2 floor(K/d) + d - 1, phase 3
    /// floor(K/d) + d with the termination packet).
    pub fn three_phase(d: u32, k: u64) -> u64 {
        2 * (k / d as u64) + 4 * d as u64
    }

    /// [`three_phase`] with the phases' own max_j N_j = ceil(K/d): 2
    /// ceil(K/d) + 4d (the corrected claim, docs/errata.md).
    pub fn three_phase_ceil(d: u32, k: u64) -> u64 {
        2 * k.div_ceil(d as u64) + 4 * d as u64
    }

    /// The right side of (1), section 3.2: Pr(max_j N_j >= C K/d) <= 2d
    /// (e/C)^(C K/d), for K broadcasters drawing their tree uniformly.
    pub fn chernoff(d: u32, k: u64, c: f64) -> f64 {
        let mean = k as f64 / d as f64;
        2.0 * d as f64 * (std::f64::consts::E / c).powf(c * mean)
    }

    /// Section 3.2, K = 2^d without the prefix phase: 2 ceil(2^d/d) + 2d - 1
    /// slots.
    pub fn multinode_three_phase(d: u32) -> u64 {
        2 * (1u64 << d).div_ceil(d as u64) + 2 * d as u64 - 1
    }

    /// Section 3.3.1: every broadcaster on the completely unbalanced tree
    /// of one index order: at most d + K - 1 slots.
    pub fn same_order_trees(d: u32, k: u64) -> u64 {
        d as u64 + k - 1
    }
}

/// Lecture notes, section 11, the Lemma: lower bounds on rounds and
/// transmissions of the four basic operations in the all-port full-duplex
/// store-and-forward non-combining Q_n. The formulas are Bertsekas et
/// al.'s MLA column (the notes add that optimal algorithms match them).
pub mod lecture_notes {
    use super::bertsekas as b;

    /// (operation, rounds, transmissions) for OAB, AAB, OAS and AAS on Q_n:
    /// n and 2^n - 1; ceil((2^n - 1)/n) and 2^n (2^n - 1); ceil((2^n -
    /// 1)/n) and n 2^(n-1); 2^(n-1) and n 2^(2n-1).
    pub fn lemma(n: u32) -> [(&'static str, u64, u64); 4] {
        [
            (
                "OAB",
                b::single_broadcast_time(n),
                b::single_broadcast_transmissions(n),
            ),
            ("AAB", b::scatter_time_mla(n), b::multinode_transmissions(n)),
            ("OAS", b::scatter_time_mla(n), b::scatter_transmissions(n)),
            (
                "AAS",
                b::total_exchange_time_mla(n),
                b::total_exchange_transmissions(n),
            ),
        ]
    }
}

/// Fujita, "Gossiping in Mesh-Bus Computers by Packets with Bounded
/// Length": gossip on the n x n mesh-bus, messages of at most l tokens.
/// The theorems' bounds are real numbers; a count of steps meets a bound
/// b iff it is at most floor(b), and a lower bound b forces ceil(b).
pub mod fujita {
    /// tau = ceil(n/2): the most writers a bus has in phase 1.
    pub fn tau(n: u64) -> u64 {
        n.div_ceil(2)
    }

    /// Theorem 1 (l unbounded): at least floor(n/2) + ceil(log2 n) - 1
    /// steps.
    pub fn theorem1(n: u64) -> u64 {
        let log = 64 - (n - 1).leading_zeros() as u64;
        (n / 2 + log).saturating_sub(1)
    }

    /// Theorem 2: n^2 (n + 1) token copies on 2n buses of l tokens a step:
    /// at least n^2/2l + n/2l = n(n + 1)/2l steps.
    pub fn theorem2(n: u64, l: u64) -> u64 {
        (n * (n + 1)).div_ceil(2 * l)
    }

    /// Theorem 3, algorithm SIMPLE: at most n^2/2l - n/2l + ceil(3n/2).
    pub fn theorem3(n: u64, l: u64) -> u64 {
        (n * n - n) / (2 * l) + (3 * n).div_ceil(2)
    }

    /// Corollary 2, where l divides ceil(n/2): SIMPLE takes at most
    /// n^2/2l + n/2l + ceil(n/2).
    pub fn corollary2(n: u64, l: u64) -> Option<u64> {
        tau(n)
            .is_multiple_of(l)
            .then(|| (n * n + n) / (2 * l) + tau(n))
    }

    /// Theorem 4, SIMPLE with phase-1 packing, where l < ceil(n/2) and l
    /// does not divide it: at most n^2/2l - n/2l + n + 2.
    pub fn theorem4(n: u64, l: u64) -> Option<u64> {
        (l < tau(n) && !tau(n).is_multiple_of(l)).then(|| (n * n - n) / (2 * l) + n + 2)
    }

    /// Theorem 6 (and section 6 for l = Theta(n)), algorithm PARTITION
    /// with m = floor(2l/n) and sigma = ceil(n/m): at most tau + m + sigma
    /// steps (its proof's phases), where m >= 1, i.e. l >= n/2.
    pub fn theorem6(n: u64, l: u64) -> Option<u64> {
        let m = 2 * l / n;
        (m >= 1).then(|| tau(n) + m + n.div_ceil(m))
    }

    /// Section 6's modified PARTITION with m = floor(2c) for the least c
    /// that makes its "2l < mn" true, m = ceil(2l/n): tau + m + sigma.
    pub fn section6(n: u64, l: u64) -> u64 {
        let m = (2 * l).div_ceil(n);
        tau(n) + m + n.div_ceil(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fujita's bounds by hand. n = 4, l = 1 (tau = 2): Theorem 1 is
    /// 2 + 2 - 1 = 3; Theorem 2 20/2 = 10; Theorem 3 12/2 + 6 = 12;
    /// Corollary 2 20/2 + 2 = 12; Theorem 4 needs l < tau not dividing it,
    /// none at l = 1. n = 5, l = 2 (tau = 3): Theorem 2 is ceil(30/4) = 8,
    /// Theorem 3 floor(20/4) + 8 = 13, Theorem 4 5 + 7 = 12. n = 7:
    /// Theorem 1 is 3 + 3 - 1 = 5.
    #[test]
    fn fujita_bounds_by_hand() {
        use fujita::*;
        assert_eq!((theorem1(4), theorem2(4, 1), theorem3(4, 1)), (3, 10, 12));
        assert_eq!((corollary2(4, 1), theorem4(4, 1)), (Some(12), None));
        assert_eq!(
            (theorem2(5, 2), theorem3(5, 2), theorem4(5, 2)),
            (8, 13, Some(12))
        );
        assert_eq!(corollary2(5, 2), None);
        // Theorem 6, n = 8: l = 3 gives m = 0 (none); l = 4: m = 1, sigma
        // = 8, 4 + 1 + 8 = 13; l = 12: m = 3, sigma = 3, 4 + 3 + 3 = 10.
        assert_eq!((theorem6(8, 3), theorem6(8, 4)), (None, Some(13)));
        assert_eq!(theorem6(8, 12), Some(10));
        assert_eq!((theorem1(7), theorem1(2), theorem1(1)), (5, 1, 0));
    }

    /// Wang-Ku Table I, rows "NOB" and "Optimal", dimensions 1..16: the
    /// formulas must reproduce the paper's printed values.
    #[test]
    fn formulas_reproduce_wang_ku_table_one() {
        let nob_row = [1, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 4, 4];
        let optimal_row = [1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4];
        for n in 1..=16u32 {
            assert_eq!(nob(n), nob_row[n as usize - 1], "NOB n={n}");
            assert_eq!(
                all_port_wormhole_lower(n),
                optimal_row[n as usize - 1],
                "Optimal n={n}"
            );
        }
    }

    #[test]
    fn the_lower_bound_is_the_least_exponent() {
        for n in 1..=40u32 {
            let a = all_port_wormhole_lower(n);
            let pow = |e: u32| (n as f64 + 1.0).powi(e as i32);
            assert!(pow(a) >= 2f64.powi(n as i32));
            assert!(a == 0 || pow(a - 1) < 2f64.powi(n as i32));
        }
    }

    /// Tables 1 and 2 of Bertsekas et al. at d = 1..6, computed by hand
    /// from the printed formulas (not from the functions under test).
    #[test]
    fn formulas_reproduce_bertsekas_tables() {
        use super::bertsekas::*;
        // d: (2^d-1)/d rounded up, 2^d-1, 2^(d-1), d 2^(d-1), 2^d(2^d-1), d 2^(2d-1)
        let rows: [(u32, u64, u64, u64, u64, u64, u64); 6] = [
            (1, 1, 1, 1, 1, 2, 2),
            (2, 2, 3, 2, 4, 12, 16),
            (3, 3, 7, 4, 12, 56, 96),
            (4, 4, 15, 8, 32, 240, 512),
            (5, 7, 31, 16, 80, 992, 2560),
            (6, 11, 63, 32, 192, 4032, 12288),
        ];
        for (d, mla, sla, te_mla, te_sla, mnb_tx, te_tx) in rows {
            assert_eq!(single_broadcast_time(d), d as u64);
            assert_eq!(scatter_time_mla(d), mla, "d={d}");
            assert_eq!(scatter_time_sla(d), sla, "d={d}");
            assert_eq!(total_exchange_time_mla(d), te_mla, "d={d}");
            assert_eq!(total_exchange_time_sla(d), te_sla, "d={d}");
            assert_eq!(single_broadcast_transmissions(d), sla, "d={d}");
            assert_eq!(scatter_transmissions(d), te_sla, "d={d}");
            assert_eq!(multinode_transmissions(d), mnb_tx, "d={d}");
            assert_eq!(total_exchange_transmissions(d), te_tx, "d={d}");
        }
    }

    /// The notes' Lemma by hand at n = 3: OAB 3 rounds, 7 transmissions;
    /// AAB ceil(7/3) = 3 and 8 x 7 = 56; OAS 3 and 3 x 4 = 12; AAS 4 and
    /// 3 x 32 = 96.
    #[test]
    fn the_lecture_lemma_by_hand() {
        let rows = lecture_notes::lemma(3);
        let got: Vec<(u64, u64)> = rows.iter().map(|r| (r.1, r.2)).collect();
        assert_eq!(got, [(3, 7), (3, 56), (3, 12), (4, 96)]);
    }

    #[test]
    fn floor_log2_matches_shifts() {
        for x in 1..1000u32 {
            assert!(1 << floor_log2(x) <= x && x < 2 << floor_log2(x));
        }
    }

    /// Stamoulis-Tsitsiklis section 3, by hand: the lower bound
    /// max{d, ceil((2^d - 1) K / (d 2^d))} and d + K - 1.
    #[test]
    fn formulas_reproduce_stamoulis_tsitsiklis() {
        use super::stamoulis::*;
        // d = 3: 7K/24 -> K = 1: 1, K = 8: 3 (7*8/24 = 2.33 -> 3), so d = 3.
        assert_eq!(lower(3, 1), 3);
        assert_eq!(lower(3, 8), 3);
        // d = 4: 15K/64; K = 16: 240/64 = 3.75 -> 4 = d; d = 2, K = 4:
        // 3*4/8 = 1.5 -> 2 = d.
        assert_eq!(lower(4, 16), 4);
        assert_eq!(lower(2, 4), 2);
        // d = 10, K = 1024: 1023*1024/10240 = 102.3 -> 103 > d.
        assert_eq!(lower(10, 1024), 103);
        assert_eq!(same_order_trees(4, 1), 4);
        assert_eq!(same_order_trees(4, 5), 8);
        // 2 ceil(2^d/d) + 2d - 1: d = 3: 2*3 + 5 = 11; d = 4: 2*4 + 7 = 15;
        // d = 5: 2*7 + 9 = 23.
        assert_eq!(multinode_three_phase(3), 11);
        assert_eq!(multinode_three_phase(4), 15);
        assert_eq!(multinode_three_phase(5), 23);
        // 2 floor(K/d) + 4d: d = 3, K = 7: 2*2 + 12 = 16; K = 2: 12.
        assert_eq!(three_phase(3, 7), 16);
        assert_eq!(three_phase(3, 2), 12);
        assert_eq!(three_phase_ceil(3, 7), 18);
        assert_eq!(three_phase_ceil(3, 6), 16);
        // (1) with d = 2, K = 4, C = 2 (max N_j >= 4): 4 (e/2)^4 = 13.6...
        let b = chernoff(2, 4, 2.0);
        assert!((b - 4.0 * (std::f64::consts::E / 2.0).powi(4)).abs() < 1e-9);
    }
}
