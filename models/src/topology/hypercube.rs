//! The binary n-cube: nodes 0..2^n, a directed arc (u, u xor 2^d) for every
//! node u and dimension d, and e-cube routes.
//!
//! E-cube here corrects the differing bits from the highest dimension down
//! (left to right in the papers' addresses). That is the order Wang-Ku's
//! routes are written in: rule 3 goes APR -> AP(R') -> AP3(R') -> AP3R3, the
//! P bits (higher) before the R bits, "in dimensional order"; the lecture
//! notes' Ho-Kao scheme also checks "the bits left-to-right".
//! [`Hypercube::lowest_first`] is the other order, for the literal variants
//! that ask what the choice changes (`nob-ecube-low`).

use crate::config::{Ports, Switching};
use crate::topology::Topology;
use properties::{NodeId, ResourceId, Route};

/// The n-cube under a switching technique and a port model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hypercube {
    n: u32,
    switching: Switching,
    ports: Ports,
    lowest_first: bool,
}

impl Hypercube {
    /// Largest dimension any engine accepts (node ids are u32).
    pub const MAX_DIM: u32 = 30;

    /// The n-cube; `n` must be within 1..=MAX_DIM (checked by the catalog).
    pub fn new(n: u32, switching: Switching, ports: Ports) -> Self {
        assert!(
            (1..=Self::MAX_DIM).contains(&n),
            "dimension validated by the catalog"
        );
        Hypercube {
            n,
            switching,
            ports,
            lowest_first: false,
        }
    }

    /// The same cube with e-cube correcting the lowest dimension first.
    pub fn lowest_first(self) -> Self {
        Hypercube {
            lowest_first: true,
            ..self
        }
    }

    /// The dimension n.
    pub fn dim(&self) -> u32 {
        self.n
    }

    /// The port model.
    pub fn ports(&self) -> Ports {
        self.ports
    }

    /// The switching technique.
    pub fn switching(&self) -> Switching {
        self.switching
    }

    /// The arc leaving `u` over dimension `d`.
    #[inline]
    pub fn arc(&self, u: NodeId, d: u32) -> ResourceId {
        u as u64 * self.n as u64 + d as u64
    }

    /// Calls `f(u, d)` for every arc (u, u xor 2^d) of the route, in order
    /// (a fan-out's arcs all leave its sender, by increasing dimension).
    #[inline]
    pub fn hops(&self, route: &Route, mut f: impl FnMut(NodeId, u32)) {
        let (from, to, first) = match *route {
            Route::Link { from, to } => (from, to, None),
            Route::Worm { from, to, first } => (from, to, first),
            Route::Fan { from, mut ports } => {
                while ports != 0 {
                    f(from, ports.trailing_zeros());
                    ports &= ports - 1;
                }
                return;
            }
            Route::Bus { .. } => panic!("a hypercube has no buses"),
        };
        let mut at = from;
        if let Some(d) = first {
            f(at, d as u32);
            at ^= 1 << d;
        }
        let mut diff = at ^ to;
        while diff != 0 {
            let d = match self.lowest_first {
                true => diff.trailing_zeros(),
                false => 31 - diff.leading_zeros(),
            };
            f(at, d);
            at ^= 1 << d;
            diff ^= 1 << d;
        }
    }

    /// [`Topology::occupy`] of a route that is not a fan-out.
    #[inline]
    fn occupy_one(&self, route: &Route, f: &mut impl FnMut(ResourceId)) {
        self.hops(route, |u, d| f(self.arc(u, d)));
        if self.ports == Ports::One {
            let nodes = self.nodes() as u64;
            let arcs = nodes * self.n as u64;
            self.receivers(route, |v| f(arcs + nodes + v as u64));
            f(arcs + route.from() as u64);
        }
    }

    fn bits(&self, v: NodeId) -> String {
        format!("{:0width$b}", v, width = self.n as usize)
    }

    /// Why `route` is not a route of this cube, if it is not.
    fn why_invalid(&self, route: &Route) -> Option<String> {
        let limit = self.nodes();
        let (from, to, first) = match *route {
            Route::Link { from, to } => (from, to, None),
            Route::Worm { from, to, first } => (from, to, first),
            Route::Bus { .. } => return Some("a hypercube has no buses".into()),
            Route::Fan { from, ports } => {
                return if from >= limit {
                    Some(format!("fan-out from {from} outside the {}-cube", self.n))
                } else if ports == 0 || ports >> self.n != 0 {
                    Some(format!(
                        "fan-out from {} over dimensions {ports:#b}: not a non-empty set of \
                         the {}-cube's dimensions",
                        self.bits(from),
                        self.n
                    ))
                } else {
                    None
                };
            }
        };
        if from >= limit || to >= limit {
            return Some(format!("route {from}->{to} leaves the {}-cube", self.n));
        }
        if first.is_some_and(|d| d as u32 >= self.n) {
            return Some(format!(
                "first dimension {first:?} beyond the {}-cube",
                self.n
            ));
        }
        if from == to && first.is_none() {
            return Some(format!("route from {} to itself", self.bits(from)));
        }
        let single_arc = matches!(route, Route::Link { .. }) || self.switching == Switching::Sf;
        if single_arc
            && ((from ^ to).count_ones() != 1 || first.is_some_and(|d| from ^ to != 1 << d))
        {
            return Some(format!(
                "{} -> {} is not one arc; store-and-forward moves a packet one arc per slot",
                self.bits(from),
                self.bits(to)
            ));
        }
        None
    }
}

impl Topology for Hypercube {
    fn nodes(&self) -> u32 {
        1 << self.n
    }

    fn resources(&self) -> ResourceId {
        let nodes = self.nodes() as u64;
        match self.ports {
            Ports::All => nodes * self.n as u64,
            // One out-port and one in-port per node, after the arcs.
            Ports::One => nodes * (self.n as u64 + 2),
        }
    }

    #[inline]
    fn occupy(&self, route: &Route, mut f: impl FnMut(ResourceId)) {
        // A fan-out takes what its links would, link by link.
        if let Route::Fan { from, mut ports } = *route {
            if self.ports == Ports::All {
                // Its arcs only: from's, by increasing dimension.
                let base = self.arc(from, 0);
                while ports != 0 {
                    f(base + ports.trailing_zeros() as u64);
                    ports &= ports - 1;
                }
                return;
            }
            while ports != 0 {
                let to = from ^ (1 << ports.trailing_zeros());
                self.occupy_one(&Route::Link { from, to }, &mut f);
                ports &= ports - 1;
            }
            return;
        }
        self.occupy_one(route, &mut f)
    }

    #[inline]
    fn receivers(&self, route: &Route, mut f: impl FnMut(NodeId)) {
        match *route {
            Route::Link { to, .. } | Route::Worm { to, .. } => f(to),
            Route::Fan { from, mut ports } => {
                while ports != 0 {
                    f(from ^ (1 << ports.trailing_zeros()));
                    ports &= ports - 1;
                }
            }
            Route::Bus { .. } => panic!("a hypercube has no buses"),
        }
    }

    #[inline]
    fn invalid(&self, route: &Route) -> Option<String> {
        // The common case first: one arc between two nodes of the cube.
        match *route {
            Route::Link { from, to }
                if from.max(to) < self.nodes() && (from ^ to).is_power_of_two() =>
            {
                return None
            }
            Route::Fan { from, ports }
                if from < self.nodes() && ports != 0 && ports >> self.n == 0 =>
            {
                return None
            }
            _ => {}
        }
        self.why_invalid(route)
    }

    fn default_routing(&self) -> bool {
        !self.lowest_first
    }

    fn path(&self, route: &Route) -> Vec<NodeId> {
        let mut path = vec![route.from()];
        self.hops(route, |u, d| path.push(u ^ (1 << d)));
        path
    }

    fn position(&self, node: NodeId) -> (f32, f32) {
        // Dimension d moves a node along its own vector: even dimensions
        // mostly right, odd ones mostly down, each pair 2.6 times the
        // last, every vector at its own slant so that no two links of
        // different dimensions are drawn on one line.
        const SLANT: [f32; 8] = [0.25, -0.3, -0.25, 0.35, 0.12, -0.12, -0.15, 0.2];
        let (mut x, mut y) = (0.0, 0.0);
        for d in 0..self.n {
            if node & (1 << d) != 0 {
                let scale = 2.6f32.powi((d / 2) as i32);
                let slant = SLANT[(d / 2) as usize % 4 * 2 + (d % 2) as usize];
                let (along, across) = (scale, slant * scale);
                if d % 2 == 0 {
                    (x, y) = (x + along, y + across);
                } else {
                    (x, y) = (x + across, y + along);
                }
            }
        }
        (x, y)
    }

    fn links(&self, mut f: impl FnMut(NodeId, NodeId)) {
        for u in 0..self.nodes() {
            for d in 0..self.n {
                let v = u ^ (1 << d);
                if u < v {
                    f(u, v)
                }
            }
        }
    }

    /// n 2^(n-1): a walk over the links took a fifth of `check nob 25`.
    fn link_count(&self) -> u64 {
        self.n as u64 * (self.nodes() as u64 / 2)
    }

    fn arc_ends(&self, r: ResourceId) -> Option<(NodeId, NodeId)> {
        let arcs = self.nodes() as u64 * self.n as u64;
        (r < arcs).then(|| {
            let u = (r / self.n as u64) as NodeId;
            (u, u ^ (1 << (r % self.n as u64)))
        })
    }

    fn node_label(&self, node: NodeId) -> String {
        self.bits(node)
    }

    fn resource_label(&self, r: ResourceId) -> String {
        let nodes = self.nodes() as u64;
        let arcs = nodes * self.n as u64;
        let arc = |r: ResourceId| {
            let u = (r / self.n as u64) as NodeId;
            let d = (r % self.n as u64) as u32;
            (r < arcs).then(|| format!("arc {}->{}", self.bits(u), self.bits(u ^ (1 << d))))
        };
        let node = |v| self.bits(v);
        super::arc_or_port_label(r, arcs, nodes, arc, node)
    }

    fn route_label(&self, route: &Route) -> String {
        match *route {
            Route::Link { from, to }
            | Route::Worm {
                from,
                to,
                first: None,
            } => {
                format!("{}->{}", self.bits(from), self.bits(to))
            }
            Route::Worm {
                from,
                to,
                first: Some(d),
            } => format!(
                "{}->{} (first over dim {d})",
                self.bits(from),
                self.bits(to)
            ),
            Route::Bus { from, bus } => format!("{} on bus {bus}", self.bits(from)),
            Route::Fan { from, .. } => {
                let mut to = Vec::new();
                self.receivers(route, |v| to.push(self.bits(v)));
                format!("{}->{}", self.bits(from), to.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: u32) -> Hypercube {
        Hypercube::new(n, Switching::Wh, Ports::All)
    }

    /// A fan-out takes, link by link, the resources its links would, and
    /// reaches their receivers, in both port models; it counts as that
    /// many transmissions; it is refused outside the cube or without links.
    #[test]
    fn a_fan_out_stands_for_its_links() {
        for ports in [Ports::All, Ports::One] {
            let c = Hypercube::new(4, Switching::Sf, ports);
            for from in 0..16 {
                for dims in 1..16u32 {
                    let fan = Route::Fan { from, ports: dims };
                    let links: Vec<Route> = (0..4)
                        .filter(|d| dims & (1 << d) != 0)
                        .map(|d| Route::Link {
                            from,
                            to: from ^ (1 << d),
                        })
                        .collect();
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    c.occupy(&fan, |r| a.push(r));
                    links.iter().for_each(|l| c.occupy(l, |r| b.push(r)));
                    assert_eq!(a, b, "{ports:?} {from} {dims:#b}");
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    c.receivers(&fan, |v| a.push(v));
                    links.iter().for_each(|l| c.receivers(l, |v| b.push(v)));
                    assert_eq!(a, b);
                    assert_eq!(fan.transmissions() as usize, links.len());
                    assert_eq!(c.invalid(&fan), None);
                }
            }
        }
        let c = q(3);
        assert_eq!(
            c.route_label(&Route::Fan {
                from: 0b001,
                ports: 0b110
            }),
            "001->011,101"
        );
        for bad in [
            Route::Fan { from: 8, ports: 1 },
            Route::Fan { from: 0, ports: 0 },
            Route::Fan {
                from: 0,
                ports: 0b1000,
            },
        ] {
            assert!(c.invalid(&bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn the_link_count_is_the_walk_over_the_links() {
        for n in 1..8 {
            let cube = q(n);
            let mut walked = 0;
            cube.links(|_, _| walked += 1);
            assert_eq!(cube.link_count(), walked, "Q_{n}");
        }
    }

    #[test]
    fn e_cube_corrects_the_highest_dimension_first() {
        let c = q(4);
        let worm = Route::Worm {
            from: 0b0000,
            to: 0b1011,
            first: None,
        };
        assert_eq!(c.path(&worm), vec![0b0000, 0b1000, 0b1010, 0b1011]);
        let forced = Route::Worm {
            from: 0b0000,
            to: 0b1100,
            first: Some(0),
        };
        assert_eq!(
            c.path(&forced),
            vec![0b0000, 0b0001, 0b1001, 0b1101, 0b1100]
        );
        let low = q(4).lowest_first();
        assert_eq!(low.path(&worm), vec![0b0000, 0b0001, 0b0011, 0b1011]);
        assert_eq!(
            low.path(&forced),
            vec![0b0000, 0b0001, 0b0000, 0b0100, 0b1100]
        );
    }

    #[test]
    fn xor_relabel_is_an_automorphism_of_routes() {
        // Relabelling every node by xor with s maps the e-cube path from u to
        // v onto the e-cube path from u^s to v^s: the algorithms compute for
        // source 0 and relabel.
        let c = q(5);
        for s in 0..32 {
            for u in 0..32 {
                for v in 0..32 {
                    if u == v {
                        continue;
                    }
                    let p = c.path(&Route::Worm {
                        from: u,
                        to: v,
                        first: None,
                    });
                    let r = c.path(&Route::Worm {
                        from: u ^ s,
                        to: v ^ s,
                        first: None,
                    });
                    assert_eq!(p.iter().map(|x| x ^ s).collect::<Vec<_>>(), r);
                }
            }
        }
    }

    #[test]
    fn one_port_adds_the_ports_and_labels_say_which() {
        let c = Hypercube::new(3, Switching::Sf, Ports::One);
        let mut rs = vec![];
        c.occupy(&Route::Link { from: 0, to: 4 }, |r| {
            rs.push(c.resource_label(r))
        });
        assert_eq!(rs, ["arc 000->100", "in-port of 100", "out-port of 000"]);
    }

    #[test]
    fn store_and_forward_rejects_multi_arc_routes() {
        let c = Hypercube::new(3, Switching::Sf, Ports::All);
        assert!(c
            .invalid(&Route::Worm {
                from: 0,
                to: 3,
                first: None
            })
            .is_some());
        assert!(c.invalid(&Route::Link { from: 0, to: 2 }).is_none());
        assert!(q(3)
            .invalid(&Route::Worm {
                from: 0,
                to: 3,
                first: None
            })
            .is_none());
    }
}
