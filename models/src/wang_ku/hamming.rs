//! The Hamming function of Wang and Ku, section 2, Definitions 2 and 3.
//!
//! eta(A, p) appends to A its p-bit syndrome P. A p-bit syndrome covers
//! s = 2^p - p - 1 source digits (Lemma 1, with equality). The source
//! digits sit at the positions 1..2^p-1 that are not powers of two, A's
//! rightmost digit at the lowest such position (3); if A has more than s
//! digits its leftmost ones are ignored, if fewer it is padded with zeros
//! on the left. The parity check at position 2^j covers the positions with
//! bit j set, and the syndrome is written with the check of position
//! 2^(p-1) leftmost (Fig. 2(a): "parity checks 0, 1 and 0 placed at
//! positions 4, 2 and 1 ... 010"). So the syndrome, read as a number, is
//! the xor of the positions of A's one digits; flipping source digit k
//! flips the syndrome by the position of k, which has two or more one bits
//! (Lemma 2).

/// Number of source digits a p-bit syndrome covers: 2^p - p - 1.
pub fn capacity(p: u32) -> u32 {
    (1u32 << p) - p - 1
}

/// The position (in 1..2^p-1, not a power of two) of source digit `k`,
/// counting digits from the right from 0.
pub fn position(k: u32) -> u32 {
    // The k-th (from 0) integer >= 3 that is not a power of two.
    let mut v = 3 + k;
    // Each power of two at or below v pushes v up by one.
    let mut pow = 4;
    while pow <= v {
        v += 1;
        pow <<= 1;
    }
    v
}

/// The p-bit syndrome of the `len`-digit number `a`.
pub fn syndrome(a: u64, len: u32, p: u32) -> u64 {
    let used = capacity(p).min(len);
    let mut digits = if used == 64 {
        a
    } else {
        a & ((1u64 << used) - 1)
    };
    let mut syn = 0u64;
    while digits != 0 {
        let k = digits.trailing_zeros();
        syn ^= position(k) as u64;
        digits &= digits - 1;
    }
    syn
}

/// The recursive Hamming syndrome P1 P2 ... Pl of the `len`-digit `a` with
/// levels of `ps` bits (Definition 3), as a number of sum(ps) digits.
pub fn recursive_syndrome(a: u64, len: u32, ps: &[u32]) -> u64 {
    let (mut code, mut code_len) = (a, len);
    for &p in ps {
        code = (code << p) | syndrome(code, code_len, p);
        code_len += p;
    }
    let total: u32 = ps.iter().sum();
    if total == 64 {
        code
    } else {
        code & ((1u64 << total) - 1)
    }
}

/// eta(A, p1, ..., pl): A followed by its recursive syndrome.
pub fn eta(a: u64, len: u32, ps: &[u32]) -> u64 {
    let total: u32 = ps.iter().sum();
    (a << total) | recursive_syndrome(a, len, ps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(s: &str) -> u64 {
        u64::from_str_radix(s, 2).unwrap()
    }

    #[test]
    fn fig_2a_encodes_1101_with_a_3_bit_syndrome() {
        assert_eq!(eta(b("1101"), 4, &[3]), b("1101010"));
    }

    #[test]
    fn fig_2b_encodes_101_with_a_2_bit_syndrome() {
        assert_eq!(eta(b("101"), 3, &[2]), b("10111"));
    }

    #[test]
    fn fig_2c_encodes_101_with_two_3_bit_levels() {
        assert_eq!(eta(b("101"), 3, &[3]), b("101101"));
        assert_eq!(eta(b("101"), 3, &[3, 3]), b("101101010"));
    }

    #[test]
    fn fig_2d_encodes_000101_with_levels_of_3_and_2_bits() {
        assert_eq!(eta(b("000101"), 6, &[3, 2]), b("00010110111"));
    }

    #[test]
    fn one_bit_syndrome_is_zero() {
        // "by definition, eta(A, 1) = A0"
        for a in 0..16 {
            assert_eq!(eta(a, 4, &[1]), a << 1);
        }
    }

    #[test]
    fn hamming_codes_are_at_distance_three_or_more() {
        // The property Lemma 2 rests on: for a covered A, codewords AP of
        // distinct A differ in at least 3 bits.
        for p in 2..=4 {
            let s = capacity(p);
            for a in 0..(1u64 << s) {
                for c in 0..a {
                    let d = (eta(a, s, &[p]) ^ eta(c, s, &[p])).count_ones();
                    assert!(d >= 3, "p={p} a={a:b} c={c:b}");
                }
            }
        }
    }

    #[test]
    fn positions_are_the_non_powers_of_two_in_order() {
        assert_eq!(
            (0..11).map(position).collect::<Vec<_>>(),
            [3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15]
        );
    }
}
