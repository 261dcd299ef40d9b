//! Stamoulis and Tsitsiklis (1993): K simultaneous broadcasts on the
//! d-cube. The checks run over every K-set of broadcasters (`--all-k`,
//! or `--k K`), every order of packets waiting for one arc; docs/errata.md
//! items 7 and 8 explain the refutations.

use super::{Claim, Judge, Judging, Verdict};
use properties::bounds::stamoulis as bound;

/// The three-phase algorithm over every K-set of the 3-cube, and of the
/// 4-cube at the K that d divides and one it does not.
const THREE_PHASE: &[&str] = &[
    "kbcast 3 --all-k",
    "kbcast 4 --k 4",
    "kbcast 4 --k 8",
    "kbcast 4 --k 5",
];

/// The claims, in the order of the paper.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "lower-bound",
            section: "3.1",
            words: "any algorithm takes at least max{d, K(2^d - 1)/(d 2^d)} slots: every node \
                    must receive K packets over its d arcs, and the diameter is d",
            judge: Judge::Open(
                "a bound over every algorithm; the checks print it beside each time, and \
                 none measured below it, but no search over all schedules judges it",
            ),
        },
        Claim {
            id: "esbt",
            section: "2.3",
            words: "the d trees T(j) rooted at e_j are arc-disjoint spanning binomial trees, \
                    each spanning by shortest paths in its index order",
            judge: Judge::Runs(&["esbt 2", "esbt 3", "esbt 4", "esbt 5"], &[]),
        },
        Claim {
            id: "prefix-2d",
            section: "2.4",
            words: "the prefix problem can be solved in the d-cube in time 2d; at the end node x \
                    knows the sum of a_y over y >= x",
            judge: Judge::Runs(&["prefix 2", "prefix 3"], &[]),
        },
        Claim {
            id: "fixed-trees",
            section: "3.1",
            words: "with a fixed tree per broadcasting node, an adversary chooses K broadcasters \
                    whose trees share an arc, forcing K slots",
            judge: Judge::Runs(&["fixed-trees 3 --k 3", "fixed-trees 3 --k 5"], &[]),
        },
        Claim {
            id: "three-phase-total",
            section: "3.2",
            words: "its total duration is 2 floor(K/d) + 4d (errata item 8: holds only where d \
                    divides K)",
            judge: Judge::Runs(THREE_PHASE, &["time-bound"]),
        },
        Claim {
            id: "three-phase-correct",
            section: "3.2",
            words: "phases 2 and 3 do not interfere: the d disjoint trees remain disjoint after \
                    reversing their arcs; every node receives every packet",
            judge: Judge::Runs(
                THREE_PHASE,
                &["completeness", "contention-freedom", "causality"],
            ),
        },
        Claim {
            id: "three-phase-deadline",
            section: "3.2, phases 2 and 3",
            words: "phase 2 ends after floor(K/d) + d - 1 slots; then each root broadcasts its \
                    packets on its tree (the text does not say what a root does with a packet \
                    not yet arrived)",
            judge: Judge::Reading {
                literal: "kbcast-no-wait 3 --all-k",
                reading: "kbcast 3 --all-k",
            },
        },
        Claim {
            id: "ratio-remarks",
            section: "3.2",
            words: "the ratio to the lower bound is close to 2 when K >> d^2, close to 4 when \
                    K << d^2, and within a factor of 6 overall",
            judge: Judge::Computed(ratio_remarks),
        },
        Claim {
            id: "multinode-factor-2",
            section: "1, 3.2",
            words: "for the multinode broadcast (K = 2^d) the algorithm is within a factor of 2 \
                    of the optimal",
            judge: Judge::Computed(multinode_factor),
        },
        Claim {
            id: "multinode-time",
            section: "3.2",
            words: "with K = 2^d and ranks known, the three phases take 2 ceil(2^d/d) + 2d \
                    slots (`kbcast-mnb`)",
            judge: Judge::Runs(
                &["kbcast-mnb 2", "kbcast-mnb 3", "kbcast-mnb 4"],
                &["time-bound"],
            ),
        },
        Claim {
            id: "random-chernoff",
            section: "3.2, randomized trees",
            words: "Pr(max_j N_j >= 2CK/d) is at most the Chernoff bound (1)",
            judge: Judge::Runs(&["kbcast-random 3 --k 3", "kbcast-random 3 --k 6"], &[]),
        },
        Claim {
            id: "random-derived",
            section: "3.2, randomized trees",
            words: "failure probability at most 2^-C; completion within 4CK/d + 2d; 4d with high \
                    probability when K is small",
            judge: Judge::Open(
                "each draw's tree load paired with its time, exact at small d and sampled \
                 at large d; only bound (1) is judged today",
            ),
        },
        Claim {
            id: "same-order-trees",
            section: "3.3.1",
            words: "each copy suffers at most K - 1 units of delay; the algorithm terminates \
                    after at most d + K - 1 time units",
            judge: Judge::Runs(&["kbcast-small 3 --all-k", "kbcast-small 4 --k 3"], &[]),
        },
        Claim {
            id: "small-k-faster",
            section: "3.3.1",
            words: "for K <= 3d this is faster than the algorithm of section 3.2",
            judge: Judge::Computed(small_k_faster),
        },
        Claim {
            id: "ranked-d-slots",
            section: "3.3.2",
            words: "at the m-th slot the packet of x may only cross dimension \
                    (r_x + m - 2) mod d + 1; the broadcasts complete in d time units (errata \
                    item 7: one slot early)",
            judge: Judge::Reading {
                literal: "kbcast-ranked 3",
                reading: "kbcast-ranked-shifted 3",
            },
        },
        Claim {
            id: "ranked-one-node",
            section: "3.3.2",
            words: "one node with d packets takes d slots",
            judge: Judge::Open(
                "kbcast-ranked takes distinct broadcasters; a node with d packets needs \
                 --multiset for it",
            ),
        },
    ]
}

/// The three-phase algorithm's worst time over the lower bound, at the
/// sizes the executor checks in seconds.
fn ratio_remarks(j: &Judging) -> Verdict {
    let mut worst = (0.0f64, String::new());
    let mut small = (0.0f64, String::new());
    for (d, k) in [
        (3u32, 1u64),
        (3, 3),
        (3, 8),
        (4, 1),
        (4, 4),
        (4, 16),
        (5, 25),
        (6, 36),
    ] {
        let c = format!("kbcast {d} --k {k} --engine executor");
        let t = match j.measured(&c) {
            Ok(t) => t as f64,
            Err(why) => return Verdict::Unknown { why },
        };
        let r = t / bound::lower(d, k) as f64;
        if r > worst.0 {
            worst = (r, format!("`check {c}`"));
        }
        if k < (d * d) as u64 && r > small.0 {
            small = (r, format!("`check {c}`"));
        }
    }
    let scope = format!(
        "the largest ratio of measured time to the lower bound (rounded up to a slot) is \
         {:.2}, {}; for K < d^2 at most {:.2}, {} (executor, one K-set each)",
        worst.0, worst.1, small.0, small.1
    );
    Verdict::measured(worst.0 <= 6.0, scope)
}

fn multinode_factor(j: &Judging) -> Verdict {
    let mut worst = (0.0f64, String::new());
    for d in 2..=5u32 {
        let c = format!("kbcast-mnb {d}");
        let t = match j.measured(&c) {
            Ok(t) => t as f64,
            Err(why) => return Verdict::Unknown { why },
        };
        let optimum = bound::lower(d, 1u64 << d) as f64;
        if t / optimum > worst.0 {
            worst = (
                t / optimum,
                format!("`check {c}`: {t} slots, optimum {optimum}"),
            );
        }
    }
    let scope = format!("the largest ratio is {:.2}, {}", worst.0, worst.1);
    Verdict::measured(worst.0 <= 2.0, scope)
}

fn small_k_faster(j: &Judging) -> Verdict {
    for k in 1..=8u64 {
        let small = format!("kbcast-small 3 --k {k}");
        let three = format!("kbcast 3 --k {k}");
        let (s, t) = match (j.measured(&small), j.measured(&three)) {
            (Ok(s), Ok(t)) => (s, t),
            (Err(why), _) | (_, Err(why)) => return Verdict::Unknown { why },
        };
        if s >= t {
            return Verdict::Refuted {
                counterexample: format!(
                    "`check {small}` takes {s} slots at worst, `check {three}` {t}"
                ),
            };
        }
    }
    Verdict::Holds {
        scope: "worst times over every K-set, K = 1..8 on the 3-cube (3d = 9 exceeds the 8 nodes): `check kbcast-small 3 \
                --k K` below `check kbcast 3 --k K` at every K"
            .into(),
    }
}
