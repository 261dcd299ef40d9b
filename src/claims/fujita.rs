//! Fujita: gossiping on the n x n mesh-bus with messages of at most l
//! tokens (SIMPLE, its packed refinement, PARTITION, CENTRALIZE). Every
//! order of a bus's writers is an input where there are at most 4096 of
//! them (docs/errata.md item 9); items 10 and 11 explain the refutations.

use super::{Claim, Judge, Judged, Judging, Verdict};
use properties::bounds::fujita as bound;

/// The claims, in the order of the paper.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "intro-l-unbounded",
            section: "1 and footnote 1",
            words: "[3] takes floor(n/2) + ceil(log2 n) + 2 steps provided each message can \
                    carry any number of tokens: at most 3 more steps than the lower bound",
            judge: Judge::Computed(unbounded_messages),
        },
        Claim {
            id: "theorem-1",
            section: "3, Theorem 1",
            words: "when l is unbounded the gossiping requires at least floor(n/2) + \
                    ceil(log2 n) - 1 steps",
            judge: Judge::Computed(theorem_1),
        },
        Claim {
            id: "theorem-2",
            section: "3, Theorem 2",
            words: "the gossiping requires at least n^2/2l + n/2l steps (read: ceil, steps being \
                    whole): n^2 (n+1) copies of tokens carried by 2n buses, l tokens a step",
            judge: Judge::Computed(theorem_2),
        },
        Claim {
            id: "eavesdrop-own",
            section: "2 and 4.1",
            words: "each node (i, j) always eavesdrops on two buses R_i and C_j, so H(i, j) \
                    or V(i, j) holds its own token (errata item 9)",
            judge: Judge::Reading {
                literal: "simple-own-unheard 4",
                reading: "simple 4",
            },
        },
        Claim {
            id: "thm3-phase-1",
            section: "4.1, proof of Theorem 3",
            words: "Phase 1 takes tau = ceil(n/2) steps, since each bus is sequentially \
                    accessed by at most tau nodes",
            judge: Judge::Runs(
                &[
                    "simple 5 --ell 1",
                    "simple 6 --ell 2",
                    "simple 7 --ell 3",
                    "simple 9 --ell 2",
                ],
                &["contention-freedom", "causality"],
            ),
        },
        Claim {
            id: "thm3-phase-2",
            section: "4.1, proof of Theorem 3",
            words: "Phase 2 takes n ceil(tau/l) <= n{((n+1)/2)(1/l) + 1 - 1/l} = n^2/2l - \
                    n/2l + n steps",
            judge: Judge::Computed(thm3_phase_2),
        },
        Claim {
            id: "theorem-3",
            section: "4.1, Theorem 3",
            words: "SIMPLE completes the gossiping correctly in at most n^2/2l - n/2l + \
                    ceil(3n/2) steps",
            judge: Judge::Runs(
                &[
                    "simple 2 --ell 1",
                    "simple 3 --ell 2",
                    "simple 4 --ell 3",
                    "simple 5 --ell 2",
                ],
                &[],
            ),
        },
        Claim {
            id: "corollary-2",
            section: "4.2, Corollary 2",
            words: "if l divides ceil(n/2), algorithm SIMPLE completes the gossiping in \
                    n^2/2l + n/2l + ceil(n/2) steps",
            judge: Judge::Runs(
                &["simple 4 --ell 1", "simple 4 --ell 2", "simple 6 --ell 3"],
                &[],
            ),
        },
        Claim {
            id: "cor2-gap",
            section: "4.2, after Corollary 2",
            words: "the upper bound in the corollary is at most ceil(n/2) more steps than the \
                    lower bound in Theorem 2",
            judge: Judge::Computed(cor2_gap),
        },
        Claim {
            id: "packed-phase1-counts",
            section: "4.2",
            words: "each node can send at most l - 1 other tokens having been received in \
                    previous steps of Phase 1: in the t-th (1 <= t <= l) step of Phase 1, node \
                    u has received |H(u)| = |V(u)| = t - 1 tokens from other nodes on the same \
                    row or column",
            judge: Judge::Runs(
                &[
                    "simple-packed 5 --ell 2",
                    "simple-packed 7 --ell 3",
                    "simple-packed 9 --ell 4",
                    "simple-packed 16 --ell 7",
                ],
                &["causality", "contention-freedom", "message-length"],
            ),
        },
        Claim {
            id: "packed-t-derivation",
            section: "4.2, before Theorem 4",
            words: "the above modification reduces the running time to T <= sum_{i=1..l} \
                    ceil((tau - (i-1))/l) + {(n - tau - l) alpha + tau (alpha + 1)} = n alpha + \
                    beta + tau, where tau = alpha l + beta, beta = tau mod l != 0 (read: T is \
                    phase 2's steps; phase 1's tau come on top, as Theorem 4 adds them)",
            judge: Judge::Computed(packed_t),
        },
        Claim {
            id: "packed-beta-max",
            section: "4.2, before Theorem 4",
            words: "T <= n^2/2l + n/2l + beta(1 - n/l) + ceil(n/2); when l < n, beta = 1 \
                    gives the maximum value to T",
            judge: Judge::Computed(packed_beta),
        },
        Claim {
            id: "theorem-4",
            section: "4.2, Theorem 4",
            words: "when l < ceil(n/2) and l does not divide it, the refinement takes at most \
                    n^2/2l - n/2l + n + 2 steps",
            judge: Judge::Runs(&["simple-packed 5 --ell 2", "simple-packed 7 --ell 3"], &[]),
        },
        Claim {
            id: "gap-remarks",
            section: "4.2, after Theorem 4",
            words: "it [Theorem 4's bound] is at most n - n/2l + 2 more steps than a lower bound \
                    (Theorem 2's)",
            judge: Judge::Computed(gap_remarks),
        },
        Claim {
            id: "sec5-simple-not-tight",
            section: "5",
            words: "when l = omega(n), algorithm SIMPLE is not (asymptotically) tight: it takes \
                    at least n steps, while the lower bound in Theorem 1 is n/2 + o(n)",
            judge: Judge::Computed(simple_long),
        },
        Claim {
            id: "theorem-5",
            section: "5.1, Theorem 5",
            words: "PARTITION completes the gossiping correctly (errata item 10: not where \
                    m = floor(2l/n) does not divide n)",
            judge: Judge::Runs(
                &[
                    "partition 4 --ell 4",
                    "partition 5 --ell 4",
                    "partition 5 --ell 5",
                ],
                &["completeness"],
            ),
        },
        Claim {
            id: "theorem-6",
            section: "5.1, Theorem 6",
            words: "PARTITION takes tau + m + sigma steps: n/2 + o(n) when l = omega(n) and \
                    l = o(n^2)",
            judge: Judge::Runs(
                &["partition 4 --ell 8", "partition-fixed 5 --ell 5"],
                &["time-bound"],
            ),
        },
        Claim {
            id: "thm6-proof-phases",
            section: "5.1, proof of Theorem 6",
            words: "Phase 1 takes tau steps; in Phase 2 each bus is sequentially accessed by m \
                    nodes, each of which sends at most tau tokens (l > tau), so Phase 2 takes \
                    at most m steps; Phase 3 takes at most sigma steps",
            judge: Judge::Runs(
                &[
                    "partition 8 --ell 16",
                    "partition-fixed 7 --ell 7",
                    "partition-fixed 9 --ell 14",
                    "partition-fixed 10 --ell 15",
                    "partition-fixed 33 --ell 66 --engine executor",
                ],
                &["contention-freedom", "message-length", "time-bound"],
            ),
        },
        Claim {
            id: "thm6-proof-mtau",
            section: "5.1, proof of Theorem 6",
            words: "In Phase 3, each bus is sequentially accessed by sigma nodes, each of which \
                    sends at most m tau (<= l) tokens",
            judge: Judge::Computed(thm6_mtau),
        },
        Claim {
            id: "theorem-7",
            section: "5.2, Theorem 7",
            words: "CENTRALIZE completes the gossiping in n/2 + O(log n) steps when l = \
                    Theta(n^2) (errata item 11: incomplete unless n is a power of two)",
            judge: Judge::Runs(
                &["centralize 2", "centralize 4", "centralize 3"],
                &["completeness"],
            ),
        },
        Claim {
            id: "theorem-7-phase-1",
            section: "5.2, proof of Theorem 7",
            words: "phase 1 takes floor(n/2) steps",
            judge: Judge::Computed(centralize_phase_one),
        },
        Claim {
            id: "thm7-proof-no-shared-buses",
            section: "5.2, proof of Theorem 7",
            words: "if nodes in U share no buses, then nodes in new U created in Step 5 share \
                    no buses",
            judge: Judge::Runs(
                &[
                    "centralize 8",
                    "centralize 16 --engine executor",
                    "centralize 32 --engine executor",
                    "centralize 6",
                ],
                &["contention-freedom"],
            ),
        },
        Claim {
            id: "thm7-proof-phases",
            section: "5.2, proof of Theorem 7",
            words: "Phase 2 takes O(log2 n) steps; in Phase 3, node u broadcasts the set to all \
                    nodes in V, which takes O(1) steps",
            judge: Judge::Computed(thm7_phases),
        },
        Claim {
            id: "sec6-simple-chain",
            section: "6",
            words: "when l < n/2, by Theorem 4 the improved SIMPLE completes in at most \
                    n^2/2l - n/2l + n + 2 <= n^2/2l + n + 2 <= (1 + 2c) n^2/2l + 2 steps, \
                    where we use 1/n <= c/l (l <= cn)",
            judge: Judge::Computed(sec6_simple),
        },
        Claim {
            id: "sec6-n-over-l",
            section: "6",
            words: "When l < n/2, since c < 1/2, it is at most n/l + O(1) steps",
            judge: Judge::Computed(sec6_n_over_l),
        },
        Claim {
            id: "sec6-2l-lt-mn",
            section: "6",
            words: "when l > n/2, modify PARTITION in such a way that m = floor(2c) and sigma = \
                    ceil(n/m); note that 2l < mn (i.e. n/m < n^2/2l) since l <= cn",
            judge: Judge::Computed(sec6_m),
        },
        Claim {
            id: "section-6-partition",
            section: "6",
            words: "when l > n/2, we can modify algorithm PARTITION in such a way that m = \
                    floor(2c) and sigma = ceil(n/m) [l <= cn; the least c for which the note \
                    2l < mn holds gives m = ceil(2l/n)]",
            judge: Judge::Reading {
                literal: "partition-sec6 8 --ell 7 --engine executor",
                reading: "partition-fixed 8 --ell 7 --engine executor",
            },
        },
        Claim {
            id: "sec6-partition-bound",
            section: "6",
            words: "the modified PARTITION finishes the gossiping in ceil(n/2) + m + sigma <= \
                    n/2 + n^2/2l + O(1) steps",
            judge: Judge::Computed(sec6_partition),
        },
        Claim {
            id: "sec6-l-le-n-chain",
            section: "6",
            words: "When l <= n, it takes at most (1 + l/n) n^2/2l + O(1) <= 2 x n^2/2l + O(1) \
                    <= 2 x n/2 + O(1) steps",
            judge: Judge::Computed(sec6_chain),
        },
        Claim {
            id: "theorem-8",
            section: "6, Theorem 8",
            words: "when l = Theta(n) the gossiping completes in at most 2 max{n/2, n^2/2l} + \
                    O(1) steps, at most twice a lower bound",
            judge: Judge::Computed(theorem_8),
        },
        Claim {
            id: "asymptotic-optimality",
            section: "abstract, Corollary 1, Theorem 6",
            words: "each algorithm asymptotically achieves a lower bound for its range of l: \
                    gossiping in asymptotically optimal time for every l other than Theta(n)",
            judge: Judge::NotEncodable(
                "a limit; `check table fujita` prints the ratios to the lower bound as n \
                 doubles, which show the trend but cannot decide a limit",
            ),
        },
    ]
}

/// CENTRALIZE with unbounded messages (corrected, so that it completes
/// at every n) against [3]'s count and Theorem 1.
/// Every algorithm with messages of any length (l = n^2 carries every
/// token), n = 2..8.
fn theorem_1(j: &Judging) -> Judged {
    let runs: Vec<(String, u64)> = (2..=8u64)
        .flat_map(|n| {
            ["simple", "centralize-fixed", "partition-fixed"]
                .map(|alg| (format!("{alg} {n} --ell {}", n * n), bound::theorem1(n)))
        })
        .collect();
    super::no_run_below(j, &runs, "floor(n/2) + ceil(log2 n) - 1")
}

/// Every algorithm over a sweep of n and l.
fn theorem_2(j: &Judging) -> Judged {
    let runs: Vec<(String, u64)> = [(4u64, 1u64), (4, 2), (5, 2), (6, 3), (7, 3), (8, 4), (9, 2)]
        .into_iter()
        .flat_map(|(n, l)| {
            [
                "simple",
                "simple-packed",
                "partition-fixed",
                "centralize-fixed",
            ]
            .into_iter()
            // PARTITION takes l >= ceil(n/2) (m = floor(2l/n) >= 1).
            .filter(move |&alg| alg != "partition-fixed" || 2 * l >= n)
            .map(move |alg| (format!("{alg} {n} --ell {l}"), bound::theorem2(n, l)))
        })
        .collect();
    super::no_run_below(j, &runs, "Theorem 2's ceil(n(n+1)/2l)")
}

/// Theorem 4's bound less Theorem 2's, against n - n/2l + 2: as formulas
/// wherever Theorem 4 applies (n = 3..64), and as measured times.
fn gap_remarks(j: &Judging) -> Judged {
    // 2l (t4 - t2) <= 2l (n + 2) - n, in integers.
    let over = |n: u64, l: u64, t4: u64| {
        2 * l * t4.saturating_sub(bound::theorem2(n, l)) > 2 * l * (n + 2) - n
    };
    let mut pairs = 0;
    for n in 3..=64u64 {
        for l in 1..n {
            let Some(t4) = bound::theorem4(n, l) else {
                continue;
            };
            if over(n, l, t4) {
                return Ok(Verdict::measured(
                    false,
                    format!(
                        "n = {n}, l = {l}: Theorem 4's {t4} less Theorem 2's {} is above n - \
                         n/2l + 2",
                        bound::theorem2(n, l)
                    ),
                ));
            }
            pairs += 1;
        }
    }
    let runs = packed_runs(j)?;
    if let Some(&(n, l, t, _)) = runs.iter().find(|r| over(r.0, r.1, r.2)) {
        return Ok(Verdict::measured(
            false,
            format!(
                "`check simple-packed {n} --ell {l}`: {t} steps, more than n - n/2l + 2 above \
                 Theorem 2's {}",
                bound::theorem2(n, l)
            ),
        ));
    }
    let widest = runs
        .iter()
        .map(|r| (r.2 - bound::theorem2(r.0, r.1), r.0, r.1))
        .max()
        .expect("PACKED is not empty");
    Ok(Verdict::measured(
        true,
        format!(
            "as formulas at all {pairs} pairs n = 3..64 where Theorem 4 applies (the gap is n - \
             n/l + 2 before rounding, within the remark's n - n/2l + 2), and as measured: every \
             run of `check simple-packed N --ell L` at {} such pairs, n = 5..16, is within it \
             of Theorem 2's bound (the widest: {} steps at n = {}, l = {})",
            runs.len(),
            widest.0,
            widest.1,
            widest.2
        ),
    ))
}

fn unbounded_messages(j: &Judging) -> Judged {
    for n in 2..=7u64 {
        let c = format!("centralize-fixed {n} --ell {}", n * n);
        let t = u64::from(j.measured(&c)?);
        let claimed = n / 2 + u64::from(u64::BITS - (n - 1).leading_zeros()) + 2;
        if t > claimed {
            return Ok(Verdict::Refuted {
                counterexample: format!(
                    "`check {c}`: {t} steps, where floor(n/2) + ceil(log2 n) + 2 = {claimed} \
                     and Theorem 1's bound is {}",
                    bound::theorem1(n)
                ),
            });
        }
    }
    Ok(Verdict::Holds {
        scope: "every run of `check centralize-fixed N --ell N^2`, N = 2..7".into(),
    })
}

/// The best of the encoded algorithms at l = n - 1 against Theorem 8's
/// 2 max{n/2, n^2/2l}: the O(1) must stay bounded as n grows.
fn theorem_8(j: &Judging) -> Judged {
    let mut gaps = Vec::new();
    for n in [8u64, 16, 32] {
        let l = n - 1;
        let mut best = u64::MAX;
        for alg in ["simple", "simple-packed", "partition-fixed"] {
            let c = format!("{alg} {n} --ell {l} --engine executor");
            best = best.min(u64::from(j.measured(&c)?));
        }
        let twice = 2.0 * f64::max(n as f64 / 2.0, (n * n) as f64 / (2 * l) as f64);
        gaps.push((n, best, twice));
    }
    let words: Vec<String> = gaps
        .iter()
        .map(|(n, best, twice)| format!("n = {n}: {best} against {twice:.1}"))
        .collect();
    let grows = gaps
        .windows(2)
        .all(|w| w[1].1 as f64 - w[1].2 > 2.0 * (w[0].1 as f64 - w[0].2) - 1.0);
    let text = format!(
        "the fastest of `check simple|simple-packed|partition-fixed N --ell N-1 --engine \
         executor` at l = n - 1: {}",
        words.join("; ")
    );
    Ok(match grows {
        true => Verdict::Refuted {
            counterexample: format!(
                "{text}: the excess over 2 max{{n/2, n^2/2l}} doubles with n, no O(1) (an \
                 existence claim: refuted for the paper's algorithms, not for every algorithm)"
            ),
        },
        false => Verdict::Holds { scope: text },
    })
}

/// SIMPLE's phase 2 (the measured time less tau: phase 2 starts at step
/// tau + 1, errata item 9) against n ceil(tau/l), and the paper's chain
/// n ceil(tau/l) <= n^2/2l - n/2l + n (times 2l, in integers).
fn thm3_phase_2(j: &Judging) -> Judged {
    let mut seen = Vec::new();
    for (n, l) in [(5u64, 2u64), (6, 4), (7, 2), (8, 3), (9, 2), (9, 4)] {
        let c = format!("simple {n} --ell {l}");
        let t = u64::from(j.measured(&c)?);
        let tau = bound::tau(n);
        let (phase2, claimed) = (t.saturating_sub(tau), n * tau.div_ceil(l));
        if phase2 > claimed {
            return Ok(Verdict::measured(
                false,
                format!(
                    "`check {c}`: {t} steps, so phase 2 takes {phase2} after phase 1's {tau}, \
                     above n ceil(tau/l) = {claimed}"
                ),
            ));
        }
        seen.push(format!("n = {n}, l = {l}: {phase2} <= {claimed}"));
    }
    let chain = (2..=64u64)
        .flat_map(|n| (1..=n * n).map(move |l| (n, l)))
        .find(|&(n, l)| 2 * l * n * bound::tau(n).div_ceil(l) > n * n - n + 2 * l * n);
    let arithmetic = match chain {
        None => "and n ceil(tau/l) <= n^2/2l - n/2l + n at every n = 2..64, l = 1..n^2".to_string(),
        Some((n, l)) => format!("but n ceil(tau/l) > n^2/2l - n/2l + n at n = {n}, l = {l}"),
    };
    Ok(Verdict::measured(
        chain.is_none(),
        format!(
            "phase 2 (the measured time less tau) against n ceil(tau/l) in `check simple N \
             --ell L`: {}; {arithmetic}",
            seen.join(", ")
        ),
    ))
}

/// Corollary 2 less Theorem 2 wherever l divides tau (the formulas), and
/// the corollary-2 runs' measured time less Theorem 2.
fn cor2_gap(j: &Judging) -> Judged {
    let (mut pairs, mut exact) = (0, 0);
    for n in 2..=64u64 {
        let tau = bound::tau(n);
        for l in (1..=tau).filter(|l| tau.is_multiple_of(*l)) {
            let (c2, t2) = match bound::corollary2(n, l) {
                Some(c2) => (c2, bound::theorem2(n, l)),
                None => continue,
            };
            let gap = c2.saturating_sub(t2);
            if gap > tau {
                return Ok(Verdict::measured(
                    false,
                    format!(
                        "n = {n}, l = {l}: Corollary 2's {c2} less Theorem 2's {t2} is {gap}, \
                         above ceil(n/2) = {tau}"
                    ),
                ));
            }
            pairs += 1;
            exact += usize::from(gap == tau);
        }
    }
    let formulas = format!(
        "Corollary 2 less Theorem 2 is at most ceil(n/2) wherever l divides ceil(n/2), n = \
         2..64, and exactly ceil(n/2) at {exact} of those {pairs} pairs (n(n+1)/2l is whole \
         there)"
    );
    let mut seen = Vec::new();
    for (n, l) in [(4u64, 1u64), (4, 2), (6, 3)] {
        let c = format!("simple {n} --ell {l}");
        let t = u64::from(j.measured(&c)?);
        let gap = t.saturating_sub(bound::theorem2(n, l));
        if gap > bound::tau(n) {
            return Ok(Verdict::measured(
                false,
                format!(
                    "`check {c}`: {t} steps, {gap} above Theorem 2's {}, more than ceil(n/2)",
                    bound::theorem2(n, l)
                ),
            ));
        }
        seen.push(format!("`check {c}` {gap}"));
    }
    Ok(Verdict::measured(
        true,
        format!("{formulas}; measured less Theorem 2: {}", seen.join(", ")),
    ))
}

/// simple-packed where Theorem 4 applies (l < tau, l does not divide tau).
const PACKED: [(u64, u64); 13] = [
    (5, 2),
    (6, 2),
    (7, 3),
    (8, 3),
    (9, 2),
    (9, 4),
    (10, 4),
    (11, 4),
    (12, 5),
    (13, 5),
    (14, 4),
    (16, 3),
    (16, 7),
];

/// Each PACKED run: n, l, the measured time and phase 2 (the time less
/// tau: phase 2 starts at step tau + 1, errata item 9).
fn packed_runs(j: &Judging) -> Result<Vec<(u64, u64, u64, u64)>, String> {
    PACKED
        .iter()
        .map(|&(n, l)| {
            let t = u64::from(j.measured(&format!("simple-packed {n} --ell {l}"))?);
            Ok((n, l, t, t.saturating_sub(bound::tau(n))))
        })
        .collect()
}

/// Section 4.2's n alpha + beta + tau, tau = alpha l + beta.
fn packed_t_bound(n: u64, l: u64) -> u64 {
    let tau = bound::tau(n);
    n * (tau / l) + tau % l + tau
}

fn packed_t(j: &Judging) -> Judged {
    let runs = packed_runs(j)?;
    if let Some(&(n, l, t, p2)) = runs.iter().find(|r| r.3 > packed_t_bound(r.0, r.1)) {
        return Ok(Verdict::measured(
            false,
            format!(
                "`check simple-packed {n} --ell {l}`: phase 2 takes {p2} steps (the measured {t} \
                 less tau), above n alpha + beta + tau = {}",
                packed_t_bound(n, l)
            ),
        ));
    }
    let equal = runs
        .iter()
        .filter(|r| r.3 == packed_t_bound(r.0, r.1))
        .count();
    let total = runs
        .iter()
        .filter(|r| r.2 > packed_t_bound(r.0, r.1))
        .count();
    let (n, l, t, p2) = runs[0];
    Ok(Verdict::measured(
        true,
        format!(
            "read as phase 2's steps (the sum counts each bus's phase-2 messages; Theorem 4 adds \
             phase 1's tau): phase 2, the measured time less tau, is at most n alpha + beta + tau \
             in all {} runs of `check simple-packed N --ell L` where Theorem 4 applies, n = \
             5..16 (equal in {equal}, every even n among them); as the whole running time it is \
             exceeded \
             in {total} of them, e.g. `check simple-packed {n} --ell {l}`: {t} steps, {p2} after \
             phase 1, against {}",
            runs.len(),
            packed_t_bound(n, l)
        ),
    ))
}

fn packed_beta(j: &Judging) -> Judged {
    // 2l (n^2/2l + n/2l + beta(1 - n/l) + tau), in integers.
    let scaled = |n: u64, l: u64, b: u64| {
        (n * n + n + 2 * l * b + 2 * l * bound::tau(n)) as i64 - (2 * n * b) as i64
    };
    let larger = (3..=64u64)
        .flat_map(|n| (2..n).flat_map(move |l| (2..l).map(move |b| (n, l, b))))
        .find(|&(n, l, b)| scaled(n, l, b) > scaled(n, l, 1));
    if let Some((n, l, b)) = larger {
        return Ok(Verdict::measured(
            false,
            format!("n = {n}, l = {l}: beta = {b} gives more than beta = 1"),
        ));
    }
    let runs = packed_runs(j)?;
    // beta = 1's value, n^2/2l - n/2l + 1 + tau, against phase 2 (times 2l).
    let over = runs
        .iter()
        .find(|r| 2 * r.1 * r.3 > r.0 * r.0 - r.0 + 2 * r.1 * (1 + bound::tau(r.0)));
    let betas: Vec<String> = runs
        .iter()
        .map(|r| (bound::tau(r.0) % r.1).to_string())
        .collect();
    let text = match over {
        Some(&(n, l, t, p2)) => format!(
            "`check simple-packed {n} --ell {l}`: phase 2 takes {p2} steps (the measured {t} \
             less tau), above beta = 1's n^2/2l - n/2l + 1 + ceil(n/2)"
        ),
        None => format!(
            "beta = 1 maximises n^2/2l + n/2l + beta(1 - n/l) + ceil(n/2) at every n = 3..64, \
             1 <= beta < l < n; and its value bounds phase 2 (the measured time less tau) in \
             all {} runs of `check simple-packed N --ell L` where Theorem 4 applies, n = 5..16, \
             beta = {}",
            runs.len(),
            betas.join(", ")
        ),
    };
    Ok(Verdict::measured(over.is_none(), text))
}

fn simple_long(j: &Judging) -> Judged {
    let mut seen = Vec::new();
    let mut holds = true;
    for n in [8u64, 16, 32] {
        let c = format!("simple {n} --ell {} --engine executor", n * n);
        let t = u64::from(j.measured(&c)?);
        holds &= t >= n;
        seen.push(format!(
            "n = {n}: {t} steps, Theorem 1's bound {}",
            bound::theorem1(n)
        ));
    }
    Ok(Verdict::measured(
        holds,
        format!(
            "`check simple N --ell N^2 --engine executor` (l = n^2, the longest messages), at \
             least n steps (tau + n) against Theorem 1's floor(n/2) + ceil(log2 n) - 1: {}",
            seen.join("; ")
        ),
    ))
}

fn thm6_mtau(j: &Judging) -> Judged {
    let pairs = || (2..=64u64).flat_map(|n| (bound::tau(n)..=n * n).map(move |l| (n, l)));
    let over = |&(n, l): &(u64, u64)| (2 * l / n) * bound::tau(n) > l;
    let Some((n, l)) = pairs().find(over) else {
        return Ok(Verdict::measured(
            true,
            "m tau <= l at every n = 2..64, ceil(n/2) <= l <= n^2 (m = floor(2l/n))".into(),
        ));
    };
    let (count, total) = (pairs().filter(over).count(), pairs().count());
    let odd = match pairs().filter(over).all(|(n, _)| n % 2 == 1) {
        true => "all at odd n",
        false => "at even n too",
    };
    let c = format!("partition-fixed {n} --ell {l}");
    let sets = match j.runs(&[c.as_str()], &["message-length"]) {
        Verdict::Holds { .. } => "yet it keeps message-length: a phase-3 set holds the even-sum \
                                  tokens of m consecutive rows, at most ceil(mn/2) <= l"
            .to_string(),
        Verdict::Refuted { counterexample } => format!("and it breaks: {counterexample}"),
        other => return Ok(other),
    };
    Ok(Verdict::measured(
        false,
        format!(
            "m tau = {} > l = {l} at n = {n} (m = floor(2l/n) = {}, tau = {}); m tau > l at \
             {count} of the {total} pairs n = 2..64, ceil(n/2) <= l <= n^2, {odd}; `check {c}`: \
             {sets}",
            (2 * l / n) * bound::tau(n),
            2 * l / n,
            bound::tau(n)
        ),
    ))
}

fn thm7_phases(j: &Judging) -> Judged {
    let mut rows = Vec::new();
    for n in [4u64, 8, 16, 32, 64] {
        let c = match n {
            4 | 8 => format!("centralize {n}"),
            _ => format!("centralize {n} --engine executor"),
        };
        let t = u64::from(j.measured(&c)?);
        // Phases 2 and 3: the time less phase 1's n/2, beside log2 n.
        rows.push((n, t, t.saturating_sub(n / 2), u64::from(n.trailing_zeros())));
    }
    let extra: Vec<u64> = rows.iter().map(|r| r.2.saturating_sub(r.3)).collect();
    let words: Vec<String> = rows
        .iter()
        .map(|(n, t, rest, log)| format!("n = {n}: {t} = {} + {rest} (log2 n = {log})", n / 2))
        .collect();
    Ok(Verdict::measured(
        extra.iter().all(|&e| e <= extra[0]),
        format!(
            "phases 2 and 3, the measured time less phase 1's n/2, take log2 n + {} steps at \
             every n, no more as n grows, in `check centralize N` (N = 4, 8; 16, 32, 64 with \
             --engine executor): {}",
            extra[0],
            words.join("; ")
        ),
    ))
}

fn sec6_simple(j: &Judging) -> Judged {
    let mut seen = Vec::new();
    let mut holds = true;
    for (n, l) in [(16u64, 5u64), (16, 7), (32, 13), (32, 15)] {
        let c = match n {
            16 => format!("simple-packed {n} --ell {l}"),
            _ => format!("simple-packed {n} --ell {l} --engine executor"),
        };
        let t = u64::from(j.measured(&c)?) as f64;
        let (nf, lf) = (n as f64, l as f64);
        // c = l/n, the least c with l <= cn.
        let cc = lf / nf;
        let theorem4 = nf * nf / (2.0 * lf) - nf / (2.0 * lf) + nf + 2.0;
        let middle = nf * nf / (2.0 * lf) + nf + 2.0;
        let right = (1.0 + 2.0 * cc) * nf * nf / (2.0 * lf) + 2.0;
        holds &= theorem4 <= middle && middle <= right + 1e-9 && t <= right;
        seen.push(format!("`check {c}` {t}, (1 + 2c) n^2/2l + 2 = {right:.1}"));
    }
    Ok(Verdict::measured(
        holds,
        format!(
            "with c = l/n (the least c with l <= cn), n^2/2l - n/2l + n + 2 <= n^2/2l + n + 2 <= \
             (1 + 2c) n^2/2l + 2, and the measured time is within it: {}",
            seen.join("; ")
        ),
    ))
}

fn sec6_n_over_l(j: &Judging) -> Judged {
    let mut rows = Vec::new();
    for n in [8u64, 16, 32] {
        let l = n / 2 - 1;
        let c = match n {
            32 => format!("simple-packed {n} --ell {l} --engine executor"),
            _ => format!("simple-packed {n} --ell {l}"),
        };
        let t = u64::from(j.measured(&c)?);
        rows.push((n, l, t));
    }
    let excess: Vec<f64> = rows
        .iter()
        .map(|&(n, l, t)| t as f64 - n as f64 / l as f64)
        .collect();
    let grows = excess.windows(2).all(|w| w[1] > 2.0 * w[0] - 1.0);
    let squared = rows
        .iter()
        .all(|&(n, l, t)| t as f64 <= (n * n) as f64 / l as f64 + 2.0);
    let words: Vec<String> = rows
        .iter()
        .zip(&excess)
        .map(|(&(n, l, t), e)| format!("n = {n}, l = {l}: {t} steps, {e:.1} above n/l"))
        .collect();
    let reading = match squared {
        true => "read as n^2/l + O(1) (from (1 + 2c) < 2) it holds: every time is within n^2/l + 2",
        false => "and not even within n^2/l + 2",
    };
    Ok(Verdict::measured(
        !grows,
        format!(
            "`check simple-packed N --ell N/2-1` (l < n/2; executor at 32): {}: {}; {reading}",
            words.join("; "),
            match grows {
                true => "the excess over n/l doubles with n, no O(1) (as printed)",
                false => "the excess over n/l stays bounded",
            }
        ),
    ))
}

fn sec6_m(_: &Judging) -> Judged {
    // c = l/n, the least c with l <= cn: m = floor(2c) = floor(2l/n).
    let pairs: Vec<(u64, u64)> = (4..=64u64)
        .flat_map(|n| (n / 2 + 1..=n).map(move |l| (n, l)))
        .collect();
    let kept = pairs
        .iter()
        .filter(|&&(n, l)| 2 * l < (2 * l / n) * n)
        .count();
    Ok(Verdict::measured(
        kept == pairs.len(),
        format!(
            "with c = l/n (the least c with l <= cn), m = floor(2c) = floor(2l/n), PARTITION's m: \
             2l < mn at {kept} of the {} pairs n = 4..64, n/2 < l <= n (n = 16, l = 15: m = 1, \
             mn = 16, 2l = 30); l <= cn bounds 2l from above, not below",
            pairs.len()
        ),
    ))
}

/// Theorem 6's count against n/2 + n^2/2l at l = n - 1, for both m:
/// section 6's m = ceil(2l/n) (`partition-sec6`), whose time fits but whose
/// messages must also keep to l tokens, and PARTITION's m = floor(2l/n),
/// whose messages fit.
fn sec6_partition(j: &Judging) -> Judged {
    let mut rows = Vec::new();
    for n in [8u64, 16, 32] {
        let l = n - 1;
        let plain = format!("partition-fixed {n} --ell {l} --engine executor");
        let modified = format!("partition-sec6 {n} --ell {l} --engine executor");
        let (t, t6) = (j.measured(&plain), j.measured(&modified));
        let (t, t6) = (u64::from(t?), u64::from(t6?));
        let broken = match j.found(&modified, &["message-length"]) {
            super::Found::Broken(why) => Some(why),
            super::Found::Holds => None,
            super::Found::Unknown(why) => return Err(why),
        };
        rows.push((
            n,
            t,
            t6,
            broken,
            n as f64 / 2.0 + (n * n) as f64 / (2 * l) as f64,
        ));
    }
    let grows = rows
        .windows(2)
        .all(|w| w[1].1 as f64 - w[1].4 > 2.0 * (w[0].1 as f64 - w[0].4) - 1.0);
    let fits = rows.iter().all(|r| r.2 as f64 <= r.4 + 2.0);
    let words: Vec<String> = rows
        .iter()
        .map(|(n, t, t6, _, b)| format!("n = {n}: {t6} and {t} against {b:.2}"))
        .collect();
    let first_broken = rows.iter().find_map(|r| r.3.clone());
    let text = format!(
        "`check partition-sec6 N --ell N-1 --engine executor` (m = ceil(2l/n) = 2) and \
         `check partition-fixed N --ell N-1 --engine executor` (m = floor(2l/n) = 1) against \
         n/2 + n^2/2l: {}",
        words.join("; ")
    );
    Ok(match (fits, &first_broken, grows) {
        (true, None, _) => {
            Verdict::measured(true, format!("{text}: within 2, messages of l tokens"))
        }
        (true, Some(why), true) => Verdict::measured(
            false,
            format!(
                "{text}: m = 2 fits the time but not the messages ({why}); with m = 1 \
                 they fit and the excess doubles with n, no O(1)"
            ),
        ),
        _ => Verdict::measured(false, format!("{text}: the excess is not O(1)")),
    })
}

fn sec6_chain(_: &Judging) -> Judged {
    // The first two steps: (1 + l/n) n^2/2l = n^2/2l + n/2 <= 2 n^2/2l iff
    // l <= n (times 2l: n^2 + ln <= 2n^2).
    let first = (2..=256u64).all(|n| (1..=n).all(|l| n * n + l * n <= 2 * n * n));
    // The last, at l = 3n/4: 2 n^2/2l - 2 n/2 = n^2/l - n.
    let rows: Vec<(u64, f64)> = [8u64, 16, 32, 64, 128, 256]
        .iter()
        .map(|&n| (n, (n * n) as f64 / (3 * n / 4) as f64 - n as f64))
        .collect();
    let grows = rows.windows(2).all(|w| w[1].1 > 2.0 * w[0].1 - 1.0);
    let words: Vec<String> = rows
        .iter()
        .map(|(n, e)| format!("n = {n}: {e:.1}"))
        .collect();
    Ok(Verdict::measured(
        first && !grows,
        format!(
            "the first two steps hold for every l <= n ({}); the last needs l >= n: at l = 3n/4, \
             2 x n^2/2l exceeds 2 x n/2 by n^2/l - n = {}{}",
            match first {
                true => "checked at n <= 256",
                false => "but fail somewhere at n <= 256",
            },
            words.join(", "),
            match grows {
                true => ", doubling with n: no O(1)",
                false => "",
            }
        ),
    ))
}

fn centralize_phase_one(j: &Judging) -> Judged {
    let mut seen = Vec::new();
    let mut wrong = Vec::new();
    for n in 2..=8u32 {
        let c = format!("centralize-fixed {n} --ell {}", n * n);
        let lines = j.trace(&c)?;
        let own = |l: &&super::Sent| l.payload == [format!("token t{}", l.from)];
        let first: Vec<&super::Sent> = lines.iter().filter(own).collect();
        let steps = first.iter().map(|l| l.slot).max().unwrap_or(0);
        let after = lines.iter().filter(|l| !own(l)).map(|l| l.slot).min();
        // Every node off the diagonal writes its token once, and phase 2
        // starts after: else phase 1 was not told apart.
        if first.len() as u32 != n * n - n || after.is_some_and(|s| s <= steps) {
            return Err(format!(
                "`check {c} --trace F`: phase 1 not told apart ({} own-token writes, n^2 - n \
                 = {}; the next message in slot {after:?})",
                first.len(),
                n * n - n
            ));
        }
        let mut writers = std::collections::BTreeMap::<&str, u32>::new();
        for l in &first {
            for r in &l.resources {
                *writers.entry(r.trim_start_matches("bus ")).or_default() += 1;
            }
        }
        let (bus, most) = writers
            .iter()
            .max_by_key(|(b, k)| (**k, std::cmp::Reverse(**b)))
            .map(|(b, k)| (*b, *k))
            .unwrap_or(("", 0));
        let said = format!(
            "n = {n}: {steps} (floor(n/2) = {}; {bus} has {most} writers)",
            n / 2
        );
        if steps != n / 2 {
            wrong.push(said.clone());
        }
        seen.push(said);
    }
    let what = "phase 1's steps (the slots in which a node writes its own token alone) in \
                `check centralize-fixed N --ell N*N --trace F`, N = 2..8";
    Ok(match wrong.is_empty() {
        true => Verdict::measured(true, format!("{what}: {}", seen.join("; "))),
        false => Verdict::measured(
            false,
            format!(
                "{what}: {}; a column C_j of even j carries the ceil(n/2) writers of odd i + j \
                 (errata item 11); as claimed at {}",
                wrong.join("; "),
                seen.iter()
                    .filter(|s| !wrong.contains(s))
                    .map(|s| s.split(':').next().unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    })
}
