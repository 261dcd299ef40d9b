//! MNB-SBT: a seeded flaw the checker must refute. Multinode broadcast by
//! xor translation of the plain spanning binomial tree of Fig. 4 (under
//! MLA, A_i = the links into identities of weight i). Bertsekas et al. 1991,
//! section 2, Fig. 5: "the set A_2 has two links of the same type and the
//! multinode broadcast cannot be executed in 3 time units": two translated
//! trees need one arc in one slot, a contention the check shows.
//!
//! Judged against the claim of `mnb`: ceil((2^d - 1)/d) slots,
//! contention-free.

use crate::bertsekas::mnb::Mnb;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};

/// The registry entry.
pub const ENTRY: Entry<Mnb> = Entry {
    info: Info {
        name: "mnb-sbt",
        summary: "seeded flaw: multinode broadcast on the plain binomial tree (Fig. 5)",
        reference: "Bertsekas et al. 1991, section 2, Fig. 5",
        claim: "claimed as mnb's (the paper shows it contends): ceil((2^d-1)/d) slots, \
                contention-free",
        modes: &[(Sf, All)],
        reach: Reach::lockstep_only(8),
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::every_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Mnb::binomial,
};
