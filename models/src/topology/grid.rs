//! Meshes M(z_1, ..., z_k) and tori T(z_1, ..., z_k) of any side lengths:
//! the networks of the lecture notes on one-to-all broadcast (section 11,
//! "Meshes", "Tori", "Wormhole switching").
//!
//! Node (a_1, ..., a_k) with 0 <= a_i < z_i has id sum a_i * stride_i, the
//! first coordinate varying slowest; it is printed `(a_1,...,a_k)`. Every
//! node has an arc to each neighbour: along dimension i, to a_i - 1 and
//! a_i + 1 where they exist (on a torus they always do, modulo z_i). The
//! arcs are the resources, directed; under one-port a node's out-port and
//! in-port are resources too, as on the hypercube.
//!
//! A worm follows dimension-order routing (XY routing in two dimensions):
//! it corrects dimension 1 first, then 2, and so on. On a mesh it moves
//! toward the target coordinate; on a torus the shorter way round, the
//! increasing direction when both are equally long.

use crate::config::{Config, Param, Ports, Switching};
use crate::topology::Topology;
use properties::{NodeId, ResourceId, Route};

/// At most this many dimensions.
pub const MAX_DIMS: usize = 4;

/// A mesh or torus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    sides: Vec<u32>,
    strides: Vec<u32>,
    nodes: u32,
    torus: bool,
    switching: Switching,
    ports: Ports,
}

/// A direction along a dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Dir {
    /// Towards coordinate 0.
    Down,
    /// Away from it.
    Up,
}

impl Grid {
    /// Largest number of nodes.
    pub const MAX_NODES: u64 = 1 << 24;

    /// The grid of `sides`; checked by the catalog (1..=4 sides, each at
    /// least 2, at least 3 on a torus, at most [`Grid::MAX_NODES`] nodes).
    pub fn new(sides: &[u32], torus: bool, switching: Switching, ports: Ports) -> Self {
        assert!(
            check_sides(sides, torus).is_none(),
            "sides validated by the catalog"
        );
        let mut strides = vec![1; sides.len()];
        for i in (0..sides.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * sides[i + 1];
        }
        Grid {
            sides: sides.to_vec(),
            strides,
            nodes: sides.iter().product(),
            torus,
            switching,
            ports,
        }
    }

    /// The sides.
    pub fn sides(&self) -> &[u32] {
        &self.sides
    }

    /// The number of dimensions.
    pub fn dims(&self) -> usize {
        self.sides.len()
    }

    /// True on a torus.
    pub fn torus(&self) -> bool {
        self.torus
    }

    /// The switching technique.
    pub fn switching(&self) -> Switching {
        self.switching
    }

    /// The port model.
    pub fn ports(&self) -> Ports {
        self.ports
    }

    /// Coordinate `i` of `node`.
    #[inline]
    pub fn coord(&self, node: NodeId, i: usize) -> u32 {
        node / self.strides[i] % self.sides[i]
    }

    /// Every coordinate of `node`.
    pub fn coords(&self, node: NodeId) -> Vec<u32> {
        (0..self.dims()).map(|i| self.coord(node, i)).collect()
    }

    /// The node at `coords`.
    pub fn node(&self, coords: &[u32]) -> NodeId {
        coords.iter().zip(&self.strides).map(|(a, s)| a * s).sum()
    }

    /// `node` with coordinate `i` set to `a`.
    #[inline]
    pub fn with(&self, node: NodeId, i: usize, a: u32) -> NodeId {
        node - self.coord(node, i) * self.strides[i] + a * self.strides[i]
    }

    /// The neighbour of `node` along dimension `i` in direction `dir`, if
    /// there is one.
    pub fn neighbour(&self, node: NodeId, i: usize, dir: Dir) -> Option<NodeId> {
        let (a, z) = (self.coord(node, i), self.sides[i]);
        let b = match (dir, self.torus) {
            (Dir::Up, _) if a + 1 < z => a + 1,
            (Dir::Up, true) => 0,
            (Dir::Down, _) if a > 0 => a - 1,
            (Dir::Down, true) => z - 1,
            _ => return None,
        };
        Some(self.with(node, i, b))
    }

    /// The arc leaving `node` along dimension `i` in direction `dir`.
    #[inline]
    pub fn arc(&self, node: NodeId, i: usize, dir: Dir) -> ResourceId {
        (node as u64 * self.dims() as u64 + i as u64) * 2 + (dir == Dir::Down) as u64
    }

    fn arcs(&self) -> u64 {
        self.nodes as u64 * self.dims() as u64 * 2
    }

    /// The hops of `route` (node, dimension, direction), in path order;
    /// None where it is not a route of this grid.
    fn hops(&self, route: &Route, mut f: impl FnMut(NodeId, usize, Dir)) -> Option<()> {
        let (from, to) = match *route {
            Route::Link { from, to } => (from, to),
            Route::Worm {
                from,
                to,
                first: None,
            } => (from, to),
            _ => return None,
        };
        if from >= self.nodes || to >= self.nodes {
            return None;
        }
        let mut at = from;
        for i in 0..self.dims() {
            let (a, b, z) = (self.coord(at, i), self.coord(to, i), self.sides[i]);
            if a == b {
                continue;
            }
            let (dir, steps) = match self.torus {
                false if b > a => (Dir::Up, b - a),
                false => (Dir::Down, a - b),
                true => {
                    let up = (b + z - a) % z;
                    match up <= z - up {
                        true => (Dir::Up, up),
                        false => (Dir::Down, z - up),
                    }
                }
            };
            for _ in 0..steps {
                f(at, i, dir);
                at = self.neighbour(at, i, dir)?;
            }
        }
        Some(())
    }

    /// The number of arcs of the dimension-order route from `from` to `to`.
    pub fn distance(&self, from: NodeId, to: NodeId) -> u32 {
        let mut hops = 0;
        self.hops(
            &Route::Worm {
                from,
                to,
                first: None,
            },
            |_, _, _| hops += 1,
        );
        hops
    }

    /// The distance from `source` to the farthest node: per dimension the
    /// longer side (on a torus half the ring, vertex-symmetric).
    pub fn eccentricity(&self, source: NodeId) -> u32 {
        (0..self.dims())
            .map(|i| {
                let (a, z) = (self.coord(source, i), self.sides[i]);
                match self.torus {
                    true => z / 2,
                    false => a.max(z - 1 - a),
                }
            })
            .sum()
    }

    /// The network in the notes' notation: `M(5,7)`, `T(6,6)`.
    pub fn name(&self) -> String {
        let sides: Vec<String> = self.sides.iter().map(|z| z.to_string()).collect();
        format!(
            "{}({})",
            if self.torus { "T" } else { "M" },
            sides.join(",")
        )
    }
}

/// `--torus`: the torus of the given sides rather than the mesh.
pub const TORUS: Param = Param {
    flag: "--torus",
    meaning: "the torus T(z_1,...,z_k) rather than the mesh (each side at least 3)",
    range: |_| (0, 1),
    below: "",
};

impl Grid {
    /// The grid of a configuration: its sides as given, else n x n; a
    /// torus if the algorithm runs on one or `--torus` was given.
    pub fn of(cfg: &Config, torus: bool) -> Grid {
        let sides = cfg.params.sides.clone().unwrap_or(vec![cfg.n, cfg.n]);
        Grid::new(&sides, torus || cfg.params.torus, cfg.switching, cfg.ports)
    }
}

/// Why `sides` is not a grid commcheck takes, if it is not.
pub fn check_sides(sides: &[u32], torus: bool) -> Option<String> {
    if sides.is_empty() || sides.len() > MAX_DIMS {
        return Some(format!(
            "a {} has 1 to {MAX_DIMS} sides, e.g. 5x7",
            if torus { "torus" } else { "mesh" }
        ));
    }
    let least = if torus { 3 } else { 2 };
    if let Some(z) = sides.iter().find(|&&z| z < least) {
        return Some(match torus {
            true => format!(
                "a torus side of {z}: each side is at least 3 (a ring of 2 would double its link)"
            ),
            false => format!("a mesh side of {z}: each side is at least 2"),
        });
    }
    let nodes = sides.iter().try_fold(1u64, |p, &z| p.checked_mul(z as u64));
    if nodes.is_none_or(|n| n > Grid::MAX_NODES) {
        return Some(format!(
            "{} has more than {} nodes",
            sides
                .iter()
                .map(|z| z.to_string())
                .collect::<Vec<_>>()
                .join("x"),
            Grid::MAX_NODES
        ));
    }
    None
}

/// Why text gives no sides of a grid commcheck takes, in one line.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum SidesError {
    /// Text that is not numbers separated by x.
    #[error("'{text}' is not a mesh or torus shape: sides separated by x, e.g. 5x7")]
    Shape {
        /// The text given.
        text: String,
    },
    /// Sides that are not a grid commcheck takes ([`check_sides`]).
    #[error("{0}")]
    Sides(String),
}

/// The sides in `text` (`5x7`, `16`, `4x4x4`), checked.
pub fn parse_sides(text: &str, torus: bool) -> Result<Vec<u32>, SidesError> {
    let sides = text
        .split('x')
        .map(|t| t.trim().parse::<u32>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| SidesError::Shape {
            text: text.to_string(),
        })?;
    match check_sides(&sides, torus) {
        Some(why) => Err(SidesError::Sides(why)),
        None => Ok(sides),
    }
}

impl Topology for Grid {
    fn nodes(&self) -> u32 {
        self.nodes
    }

    fn resources(&self) -> ResourceId {
        match self.ports {
            Ports::All => self.arcs(),
            Ports::One => self.arcs() + 2 * self.nodes as u64,
        }
    }

    #[inline]
    fn occupy(&self, route: &Route, mut f: impl FnMut(ResourceId)) {
        let _ = self.hops(route, |u, i, dir| f(self.arc(u, i, dir)));
        if self.ports == Ports::One {
            let (arcs, nodes) = (self.arcs(), self.nodes as u64);
            self.receivers(route, |v| f(arcs + nodes + v as u64));
            f(arcs + route.from() as u64);
        }
    }

    #[inline]
    fn receivers(&self, route: &Route, mut f: impl FnMut(NodeId)) {
        match *route {
            Route::Link { to, .. } | Route::Worm { to, .. } => f(to),
            Route::Bus { .. } => panic!("a mesh has no buses"),
            Route::Fan { .. } => panic!("a mesh has no fan-outs"),
        }
    }

    fn invalid(&self, route: &Route) -> Option<String> {
        let (from, to) = match *route {
            Route::Link { from, to } | Route::Worm { from, to, .. } => (from, to),
            Route::Bus { .. } => return Some(format!("{} has no buses", self.name())),
            Route::Fan { .. } => {
                return Some(format!(
                    "{} has no fan-outs (send one link per neighbour)",
                    self.name()
                ))
            }
        };
        if from >= self.nodes || to >= self.nodes {
            return Some(format!("route {from}->{to} leaves {}", self.name()));
        }
        if let Route::Worm { first: Some(_), .. } = route {
            return Some("a mesh worm follows dimension order; it takes no first hop".into());
        }
        if from == to {
            return Some(format!("route from {} to itself", self.node_label(from)));
        }
        let single = matches!(route, Route::Link { .. }) || self.switching == Switching::Sf;
        if single && self.distance(from, to) != 1 {
            return Some(format!(
                "{} -> {} is not one arc; store-and-forward moves a packet one arc per slot",
                self.node_label(from),
                self.node_label(to)
            ));
        }
        None
    }

    fn path(&self, route: &Route) -> Vec<NodeId> {
        let mut path = vec![route.from()];
        let _ = self.hops(route, |u, i, dir| {
            path.extend(self.neighbour(u, i, dir));
        });
        path
    }

    fn position(&self, node: NodeId) -> (f32, f32) {
        // Dimension 1 across, 2 down; a third and fourth place copies side
        // by side and one under another.
        let c = |i: usize| match i < self.dims() {
            true => self.coord(node, i) as f32,
            false => 0.0,
        };
        let z = |i: usize| self.sides.get(i).copied().unwrap_or(1) as f32;
        (c(0) + c(2) * (z(0) + 1.0), c(1) + c(3) * (z(1) + 1.0))
    }

    fn links(&self, mut f: impl FnMut(NodeId, NodeId)) {
        for u in 0..self.nodes {
            for i in 0..self.dims() {
                if let Some(v) = self.neighbour(u, i, Dir::Up) {
                    if u != v {
                        f(u.min(v), u.max(v));
                    }
                }
            }
        }
    }

    fn arc_ends(&self, r: ResourceId) -> Option<(NodeId, NodeId)> {
        (r < self.arcs())
            .then(|| {
                let dims = self.dims() as u64;
                let u = (r / 2 / dims) as NodeId;
                let i = (r / 2 % dims) as usize;
                let dir = if r.is_multiple_of(2) {
                    Dir::Up
                } else {
                    Dir::Down
                };
                // A mesh's border numbers arcs that lead nowhere: no ends.
                Some((u, self.neighbour(u, i, dir)?))
            })
            .flatten()
    }

    fn network(&self) -> Option<String> {
        Some(self.name())
    }

    fn node_label(&self, node: NodeId) -> String {
        let c: Vec<String> = self.coords(node).iter().map(|a| a.to_string()).collect();
        format!("({})", c.join(","))
    }

    fn resource_label(&self, r: ResourceId) -> String {
        let arc = |r| super::arc_label(self, r);
        let node = |v| self.node_label(v);
        super::arc_or_port_label(r, self.arcs(), self.nodes as u64, arc, node)
    }

    fn route_label(&self, route: &Route) -> String {
        match *route {
            Route::Link { from, to } | Route::Worm { from, to, .. } => {
                format!("{}->{}", self.node_label(from), self.node_label(to))
            }
            Route::Bus { from, bus } => format!("{} on bus {bus}", self.node_label(from)),
            Route::Fan { from, ports } => {
                format!("{} fan-out {ports:#b}", self.node_label(from))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mesh(sides: &[u32]) -> Grid {
        Grid::new(sides, false, Switching::Wh, Ports::All)
    }

    /// XY routing on M(4,5): dimension 1 first, then 2.
    #[test]
    fn worms_follow_dimension_order() {
        let m = mesh(&[4, 5]);
        let worm = Route::Worm {
            from: m.node(&[0, 4]),
            to: m.node(&[2, 1]),
            first: None,
        };
        let path: Vec<String> = m.path(&worm).iter().map(|&v| m.node_label(v)).collect();
        assert_eq!(path, ["(0,4)", "(1,4)", "(2,4)", "(2,3)", "(2,2)", "(2,1)"]);
        assert_eq!(m.distance(m.node(&[0, 4]), m.node(&[2, 1])), 5);
    }

    /// On T(5) a worm goes the shorter way; on T(6) a half-way worm goes
    /// up, wrapping.
    #[test]
    fn torus_worms_go_the_short_way() {
        let t = Grid::new(&[5], true, Switching::Wh, Ports::All);
        let path = |from, to| {
            t.path(&Route::Worm {
                from,
                to,
                first: None,
            })
        };
        assert_eq!(path(1, 4), [1, 0, 4]);
        assert_eq!(path(4, 1), [4, 0, 1]);
        let t6 = Grid::new(&[6], true, Switching::Wh, Ports::All);
        assert_eq!(
            t6.path(&Route::Worm {
                from: 4,
                to: 1,
                first: None
            }),
            [4, 5, 0, 1]
        );
    }

    /// Every arc has its own resource, labelled by its ends; a boundary has
    /// none on a mesh and wraps on a torus.
    #[test]
    fn arcs_are_distinct_and_labelled() {
        let m = Grid::new(&[3, 3], false, Switching::Sf, Ports::One);
        let mut seen = std::collections::HashSet::new();
        for u in 0..9 {
            for i in 0..2 {
                for dir in [Dir::Up, Dir::Down] {
                    if let Some(v) = m.neighbour(u, i, dir) {
                        assert!(seen.insert(m.arc(u, i, dir)));
                        assert_eq!(m.arc_ends(m.arc(u, i, dir)), Some((u, v)));
                    }
                }
            }
        }
        assert_eq!(seen.len(), 24, "12 links, two arcs each");
        let mut rs = vec![];
        m.occupy(&Route::Link { from: 0, to: 1 }, |r| {
            rs.push(m.resource_label(r))
        });
        assert_eq!(
            rs,
            ["arc (0,0)->(0,1)", "in-port of (0,1)", "out-port of (0,0)"]
        );
        assert!(m.invalid(&Route::Link { from: 0, to: 2 }).is_some());
        let t = Grid::new(&[3, 3], true, Switching::Sf, Ports::All);
        assert_eq!(t.neighbour(0, 1, Dir::Down), Some(2));
        assert!(t.invalid(&Route::Link { from: 0, to: 2 }).is_none());
    }

    #[test]
    fn bad_sides_are_named() {
        let why = |text, torus| parse_sides(text, torus).unwrap_err().to_string();
        assert!(why("1x4", false).contains("side of 1"));
        assert!(why("0", false).contains("side of 0"));
        assert!(why("2x2", true).contains("at least 3"));
        assert!(why("5xa", false).contains("not a mesh"));
        assert!(why("2x2x2x2x2", false).contains("1 to 4"));
        assert!(why("8192x8192", false).contains("more than"));
        assert_eq!(parse_sides("5x7", false), Ok(vec![5, 7]));
    }
}
