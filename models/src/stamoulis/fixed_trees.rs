//! FIXED-TREES: the strawman of Stamoulis and Tsitsiklis, "An efficient
//! algorithm for multiple simultaneous broadcasts in the hypercube", IPL 46
//! (1993), section 3.1: "each of the 2^d nodes of the hypercube is confined
//! to broadcast its packet (if it has one) along a prespecified spanning
//! tree".
//!
//! # The adversary
//! "For any fixed node x and for any of the 2^d prespecified trees except
//! for the one rooted at x, there exists exactly one arc of the form
//! (x xor e_j, x) that belongs to the tree. Thus, there exists some arc
//! (x xor e_j*, x) that belongs to at least (2^d - 1)/d of the trees ... an
//! adversary can choose the K broadcasting nodes in such a way that all of
//! the packets will be received by node x through arc (x xor e_j*, x); in
//! such a case the broadcasts last for at least K time units."
//!
//! # The model
//! The prespecified trees are those of section 3.3.1: the `kbcast-small`
//! protocol, run with the adversary's claims instead of its own. Node
//! z's completely unbalanced tree in increasing index order, so node x is
//! reached from z over the arc of the highest dimension of z xor x, which
//! 2^(d-1) of the trees share. Waiting packets cross an arc lowest origin
//! first (one prespecified discipline: one run per set; the adversary's
//! bound rests on an arc's capacity, which no order changes).
//!
//! # What is checked
//! A sometimes claim (`forced-slots`): among every K-set (one per
//! xor-translation orbit: the trees are translates), the checker must find
//! one whose broadcasts take at least K slots. The paper's pigeonhole gives
//! an arc shared by at least (2^d - 1)/d of any 2^d prespecified trees; in
//! these trees 2^(d-1) share one, so the claim applies for K <= 2^(d-1)
//! (above, it is an observation, and fails: no set forces K slots). Default
//! K = 2^(d-1), where K slots exceed the lower bound max{d, (2^d - 1)K/(d
//! 2^d)} for d >= 3. Completeness, one
//! copy and contention-freedom are the trees' and are checked as well.

use crate::config::Config;
use crate::entry::{Entry, Info};
use crate::protocol::Protocol;
use crate::stamoulis::broadcasters;
use crate::stamoulis::kbcast_small::{Judge, KbcastSmall};
use properties::{Claims, PropertyName, Slot};

/// The registry entry.
pub const ENTRY: Entry<KbcastSmall> = Entry {
    info: Info {
        name: "fixed-trees",
        summary: "each node bound to its own prespecified tree: the adversary of section 3.1",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.1",
        claim: "some K-tuple of broadcasters forces at least K slots (found by the checker)",
        params: &[
            broadcasters::k_param(
                "the number of broadcasting nodes, 1..=2^d (default 2^(d-1)); every K-set \
                 is searched, one per xor-translation orbit",
            ),
            broadcasters::ONE_SET,
        ],
        ..broadcasters::INFO
    },
    build: new,
};

/// The prespecified trees at one configuration: kbcast-small's, one order
/// of waiting packets, default K = 2^(d-1), judged by [`claims`] and
/// [`forced`].
pub fn new(cfg: Config) -> KbcastSmall {
    let mut trees = KbcastSmall::new(cfg.clone());
    trees.sets = broadcasters::Sets::new(&cfg, 1 << (cfg.n - 1), true);
    trees.judge = Some(Judge { claims, forced });
    trees
}

/// The trees' properties; no time is claimed: the claim is the
/// adversary's ([`forced`]).
pub fn claims(theirs: Claims) -> Claims {
    use PropertyName::*;
    Claims {
        claimed: vec![Completeness, NoDuplication, ContentionFreedom, Causality],
        bound: None,
        ..theirs
    }
}

/// K slots, claimed while K trees can share one arc into a node: K <=
/// 2^(d-1) for these trees.
pub fn forced(trees: &KbcastSmall) -> (Slot, bool) {
    let (k, d) = (trees.sets.k, trees.topology().dim());
    (k as Slot, k <= 1 << (d - 1))
}
