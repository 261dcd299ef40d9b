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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn floor_log2_matches_shifts() {
        for x in 1..1000u32 {
            assert!(1 << floor_log2(x) <= x && x < 2 << floor_log2(x));
        }
    }
}
