//! Bertsekas, Ozveren, Stamoulis, Tseng and Tsitsiklis, "Optimal
//! Communication Algorithms for Hypercubes" (1991): single node and
//! multinode broadcast and accumulation (sections 1-2, with the
//! rotation-class construction), scatter and gather (section 3) and total
//! exchange (section 4), under SLA (`--ports one`) and MLA (`--ports all`).

pub mod gather;
pub mod gather_mnb;
pub mod mna;
pub mod mnb;
pub mod mnb_ring;
pub mod mnb_sbt;
pub mod rotation;
pub mod scatter;
pub mod sna;
pub mod snb;
pub mod total_exchange;
