//! Wang and Ku, "A Near-Optimal Broadcasting Algorithm in All-Port
//! Wormhole-Routed Hypercubes", ICS'95: the Hamming function of section 2,
//! NOB (section 3 and the Appendix), the naive subcube tree of Fig. 4(a),
//! and the tree of subcubes both walk (`subcube_tree`).
//! SBT and DT, the baselines of Table I, are the lecture notes' (see
//! `lecture_notes`).

pub mod hamming;
pub mod naive_tree;
pub mod nob;
pub mod subcube_tree;
