//! What a protocol of one's own needs, from the three crates, in one
//! `use commcheck::prelude::*;` (docs/extending.md): the protocol trait
//! and its vocabulary, the networks, and the check with its report.

pub use crate::check::{check_protocol, Options, Subject};
pub use crate::engine::Engine;
pub use crate::report::Outcome;
pub use models::{
    Arrival, Config, Family, Graph, Grid, Hypercube, Inputs, MeshBus, Network, Ports, Protocol,
    ProtocolExt, Sources, Switching, Topology,
};
pub use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Task, Transmission};
