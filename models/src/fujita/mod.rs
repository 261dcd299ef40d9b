//! Fujita, "Gossiping in Mesh-Bus Computers by Packets with Bounded
//! Length": SIMPLE (section 4), PARTITION (sections 5.1 and 6) and
//! CENTRALIZE (section 5.2) on the n x n mesh-bus (`topology::mesh_bus`),
//! and the problem they share (`gossip`).

pub mod centralize;
pub mod gossip;
pub mod partition;
pub mod simple;
