//! Fujita: gossiping on the n x n mesh-bus with messages of at most l
//! tokens (SIMPLE, its packed refinement, PARTITION, CENTRALIZE). Every
//! order of a bus's writers is an input where there are at most 4096 of
//! them (docs/errata.md item 9); items 10 and 11 explain the refutations.

use super::{Claim, Judge, Judging, Verdict};
use properties::bounds::fujita as bound;

/// The claims, in the order of the paper.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "intro-l-unbounded",
            section: "1",
            words: "[3] takes floor(n/2) + ceil(log2 n) + 2 steps provided each message can \
                    carry any number of tokens: at most 3 more steps than the lower bound",
            judge: Judge::Computed(unbounded_messages),
        },
        Claim {
            id: "theorem-1",
            section: "3, Theorem 1",
            words: "when l is unbounded the gossiping requires at least floor(n/2) + \
                    ceil(log2 n) - 1 steps",
            judge: Judge::Open(
                "a bound over every algorithm; reports print it beside each time, but only a \
                 search over all schedules can judge it",
            ),
        },
        Claim {
            id: "theorem-2",
            section: "3, Theorem 2",
            words: "the gossiping requires at least ceil(n(n+1)/2l) steps: n^2 (n+1) copies of \
                    tokens carried by 2n buses, l tokens a step",
            judge: Judge::Open(
                "a bound over every algorithm, as Theorem 1; the counting argument's n + 1 \
                 buses per token is not yet counted in runs",
            ),
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
            words: "when l divides ceil(n/2), SIMPLE takes n^2/2l - n/2l + n + 1 steps",
            judge: Judge::Runs(
                &["simple 4 --ell 1", "simple 4 --ell 2", "simple 6 --ell 3"],
                &[],
            ),
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
            section: "4.2, after Corollary 2 and Theorem 4",
            words: "the difference from the lower bound of Theorem 2 is n - n/2l + 2",
            judge: Judge::Open(
                "measured time minus Theorem 2's bound over a sweep of n and l; the table \
                 prints both, not their difference",
            ),
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
            judge: Judge::Open(
                "a count of the phase's steps at odd n, where a column carries ceil(n/2) \
                 writers (errata item 11); reports give the total only",
            ),
        },
        Claim {
            id: "section-6-partition",
            section: "6",
            words: "PARTITION modified with m = ceil(2l/n) (2l < mn) takes (1 + 2c) n^2/2l + 2 \
                    steps when l <= cn",
            judge: Judge::Open(
                "the modified PARTITION needs a variant of its own: with m = ceil(2l/n) its \
                 phase-3 sets exceed l tokens, so it is not plain PARTITION",
            ),
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
fn unbounded_messages(j: &Judging) -> Verdict {
    for n in 2..=7u64 {
        let c = format!("centralize-fixed {n} --ell {}", n * n);
        let t = match j.measured(&c) {
            Ok(t) => u64::from(t),
            Err(why) => return Verdict::Unknown { why },
        };
        let claimed = n / 2 + u64::from(u64::BITS - (n - 1).leading_zeros()) + 2;
        if t > claimed {
            return Verdict::Refuted {
                counterexample: format!(
                    "`check {c}`: {t} steps, where floor(n/2) + ceil(log2 n) + 2 = {claimed} \
                     and Theorem 1's bound is {}",
                    bound::theorem1(n)
                ),
            };
        }
    }
    Verdict::Holds {
        scope: "every run of `check centralize-fixed N --ell N^2`, N = 2..7".into(),
    }
}

/// The best of the encoded algorithms at l = n - 1 against Theorem 8's
/// 2 max{n/2, n^2/2l}: the O(1) must stay bounded as n grows.
fn theorem_8(j: &Judging) -> Verdict {
    let mut gaps = Vec::new();
    for n in [8u64, 16, 32] {
        let l = n - 1;
        let mut best = u64::MAX;
        for alg in ["simple", "simple-packed", "partition-fixed"] {
            let c = format!("{alg} {n} --ell {l} --engine executor");
            match j.measured(&c) {
                Ok(t) => best = best.min(u64::from(t)),
                Err(why) => return Verdict::Unknown { why },
            }
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
    match grows {
        true => Verdict::Refuted {
            counterexample: format!(
                "{text}: the excess over 2 max{{n/2, n^2/2l}} doubles with n, no O(1) (an \
                 existence claim: refuted for the paper's algorithms, not for every algorithm)"
            ),
        },
        false => Verdict::Holds { scope: text },
    }
}
