//! The n x n mesh-bus computer of Fujita, "Gossiping in Mesh-Bus Computers
//! by Packets with Bounded Length", section 2: node (i, j) on row bus R_i
//! and column bus C_j, every bus CREW.
//!
//! Node (i, j) (the paper's 1-based row i, column j) has id (i - 1) n +
//! (j - 1). Resources are the 2n buses: R_i is i - 1, C_j is n + j - 1. A
//! write `Route::Bus { from, bus }` occupies its bus for the step (two
//! writers of one bus in one step are a contention-freedom violation: the
//! CW of CREW is exclusive) and is received by every other node on the bus
//! (the CR: everyone eavesdrops). A node may write on both its buses in
//! one step ("can send a message ... through the two buses").

use crate::topology::Topology;
use properties::{NodeId, ResourceId, Route};

/// An n x n mesh with row and column buses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshBus {
    n: u32,
}

/// A bus: a row's or a column's (0-based index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bus {
    Row(u32),
    Col(u32),
}

impl MeshBus {
    /// Sides up to this keep n^2 node ids (and tokens) in 32 bits with
    /// room to spare; the memory check refuses far earlier.
    pub const MAX_SIDE: u32 = 4096;

    pub fn new(n: u32) -> Self {
        assert!((1..=Self::MAX_SIDE).contains(&n), "side {n} out of range");
        MeshBus { n }
    }

    /// The side n.
    pub fn side(&self) -> u32 {
        self.n
    }

    /// The node at 0-based (row, column).
    #[inline]
    pub fn node(&self, row: u32, col: u32) -> NodeId {
        row * self.n + col
    }

    /// The 0-based (row, column) of `node`.
    #[inline]
    pub fn at(&self, node: NodeId) -> (u32, u32) {
        (node / self.n, node % self.n)
    }

    /// The resource id of `bus`.
    #[inline]
    pub fn bus(&self, bus: Bus) -> u32 {
        match bus {
            Bus::Row(i) => i,
            Bus::Col(j) => self.n + j,
        }
    }

    /// The bus with resource id `id`.
    pub fn bus_of(&self, id: u32) -> Bus {
        match id < self.n {
            true => Bus::Row(id),
            false => Bus::Col(id - self.n),
        }
    }

    /// A write by `from` on `bus`.
    pub fn write(&self, from: NodeId, bus: Bus) -> Route {
        Route::Bus {
            from,
            bus: self.bus(bus),
        }
    }

    /// The nodes on `bus`, in order along it.
    pub fn on(&self, bus: Bus) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.n).map(move |k| match bus {
            Bus::Row(i) => self.node(i, k),
            Bus::Col(j) => self.node(k, j),
        })
    }

    fn bus_label(&self, id: u32) -> String {
        match self.bus_of(id) {
            Bus::Row(i) => format!("R_{}", i + 1),
            Bus::Col(j) => format!("C_{}", j + 1),
        }
    }

    fn why_invalid(&self, route: &Route) -> Option<String> {
        let Route::Bus { from, bus } = *route else {
            return Some("a mesh-bus computer has buses, not links".into());
        };
        if from >= self.nodes() {
            return Some(format!(
                "node {from} is not a node of the {0}x{0} mesh",
                self.n
            ));
        }
        if bus >= 2 * self.n {
            return Some(format!(
                "bus {bus} is not a bus of the {0}x{0} mesh",
                self.n
            ));
        }
        let (i, j) = self.at(from);
        match self.bus_of(bus) {
            Bus::Row(r) if r == i => None,
            Bus::Col(c) if c == j => None,
            _ => Some(format!(
                "{} is not on {}",
                self.node_label(from),
                self.bus_label(bus)
            )),
        }
    }
}

impl Topology for MeshBus {
    fn nodes(&self) -> u32 {
        self.n * self.n
    }

    fn resources(&self) -> ResourceId {
        2 * self.n as u64
    }

    #[inline]
    fn occupy(&self, route: &Route, mut f: impl FnMut(ResourceId)) {
        if let Route::Bus { bus, .. } = *route {
            f(bus as ResourceId)
        }
    }

    #[inline]
    fn receivers(&self, route: &Route, mut f: impl FnMut(NodeId)) {
        let Route::Bus { from, bus } = *route else {
            panic!("a mesh-bus computer has buses, not links");
        };
        for v in self.on(self.bus_of(bus)) {
            if v != from {
                f(v)
            }
        }
    }

    #[inline]
    fn invalid(&self, route: &Route) -> Option<String> {
        self.why_invalid(route)
    }

    fn path(&self, route: &Route) -> Vec<NodeId> {
        match *route {
            Route::Bus { bus, .. } if bus < 2 * self.n => self.on(self.bus_of(bus)).collect(),
            _ => vec![route.from()],
        }
    }

    fn position(&self, node: NodeId) -> (f32, f32) {
        let (i, j) = self.at(node);
        (j as f32, i as f32)
    }

    fn links(&self, mut f: impl FnMut(NodeId, NodeId)) {
        // The buses, drawn as the segments between neighbours on them.
        for i in 0..self.n {
            for j in 0..self.n {
                if j + 1 < self.n {
                    f(self.node(i, j), self.node(i, j + 1));
                }
                if i + 1 < self.n {
                    f(self.node(i, j), self.node(i + 1, j));
                }
            }
        }
    }

    fn arc_ends(&self, _: ResourceId) -> Option<(NodeId, NodeId)> {
        None
    }

    fn node_label(&self, node: NodeId) -> String {
        let (i, j) = self.at(node);
        format!("({},{})", i + 1, j + 1)
    }

    fn resource_label(&self, r: ResourceId) -> String {
        format!("bus {}", self.bus_label(r as u32))
    }

    fn route_label(&self, route: &Route) -> String {
        match *route {
            Route::Bus { from, bus } if bus < 2 * self.n => {
                format!("{} on {}", self.node_label(from), self.bus_label(bus))
            }
            _ => format!("{route:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write reaches the other n - 1 nodes of its bus and takes that bus
    /// only; a write on another node's bus is refused.
    #[test]
    fn a_write_reaches_its_bus() {
        let m = MeshBus::new(3);
        let from = m.node(1, 2);
        let mut got = Vec::new();
        m.receivers(&m.write(from, Bus::Row(1)), |v| got.push(m.node_label(v)));
        assert_eq!(got, ["(2,1)", "(2,2)"]);
        got.clear();
        m.receivers(&m.write(from, Bus::Col(2)), |v| got.push(m.node_label(v)));
        assert_eq!(got, ["(1,3)", "(3,3)"]);
        let mut taken = Vec::new();
        m.occupy(&m.write(from, Bus::Col(2)), |r| taken.push(r));
        assert_eq!(taken, [5]);
        assert_eq!(m.resource_label(5), "bus C_3");
        assert!(m.invalid(&m.write(from, Bus::Col(2))).is_none());
        let bad = m.invalid(&m.write(from, Bus::Row(0))).unwrap();
        assert_eq!(bad, "(2,3) is not on R_1");
        assert!(m
            .invalid(&Route::Link { from: 0, to: 1 })
            .is_some_and(|w| w.contains("buses")));
    }
}
