//! Built-in machines (`--network dgx-h100`, docs/networks.md): GPU
//! servers as their makers describe them, clusters of them joined by a
//! network switch, and a torus of NPUs. Each is written as its parts
//! ([`Parts`]): the GPUs first (ranks go on them in node order), then the
//! switches and NICs.
//!
//! Figures are per direction. NVLink's are the per-link rate of its
//! generation as NVIDIA gives it (25 GB/s a link a direction for NVLink 2,
//! 3 and 4); NCCL's own topology model rates links lower (20 GB/s for
//! sm 80, 20.6 for sm 90), and a topology file NCCL dumps on the same
//! server gives those (`--network nccl-topo:FILE`). PCIe links take NCCL's
//! rule (width x rate / 80: Gen4 x16 24 GB/s, Gen5 x16 48), network links
//! their line rate (200 Gb/s: 25 GB/s). Links give no latency: the cost
//! models' parameters stand for it.

use super::parts::{LinkAttrs, LinkKind, Node, NodeKind, Parts};
use properties::NodeId;

/// The machines by name, for messages.
pub const NAMES: &str = "dgx1, dgx-a100[:K], dgx-h100[:K], mi300x[:K], npu-torus:AxB";

/// Most servers of a cluster: 1024 GPUs, whose worms the graph still
/// routes by its rule (a cluster of k servers has 17k + 1 nodes, within
/// [`MAX_ROUTED`](super::graph::MAX_ROUTED)).
pub const MAX_SERVERS: u32 = 128;

/// Most NPUs of a torus side.
pub const MAX_SIDE: u32 = 256;

/// True where `spec` names a built-in machine (well formed or not).
pub fn is_machine(spec: &str) -> bool {
    let name = spec.split(':').next().unwrap_or("");
    ["dgx1", "dgx-a100", "dgx-h100", "mi300x", "npu-torus"].contains(&name)
}

/// A server of 8 GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Server {
    /// NVIDIA DGX-1 with V100: the hybrid cube-mesh.
    Dgx1,
    /// NVIDIA DGX A100: 8 A100 on 6 NVSwitches.
    DgxA100,
    /// NVIDIA DGX H100: 8 H100 on 4 NVSwitch chips.
    DgxH100,
    /// An AMD Instinct MI300X platform: 8 MI300X, every pair linked.
    Mi300x,
}

/// A built-in machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `servers` servers (one: the server alone; more: joined by a
    /// network switch, each GPU through its own NIC).
    Servers {
        /// Which server.
        server: Server,
        /// How many.
        servers: u32,
    },
    /// An `a` x `b` torus of NPUs with wraparound links.
    NpuTorus {
        /// NPUs along the first axis.
        a: u32,
        /// Along the second.
        b: u32,
    },
}

/// DGX-1 (V100)'s NVLinks: the pairs and how many links join each (6 a
/// GPU), as `nvidia-smi topo -m` reports them on a DGX-1V: two quads of
/// GPUs (0-3, 4-7), each GPU joined to its counterpart in the other quad
/// ("Hybrid cube-mesh", NVIDIA DGX-1 With Tesla V100 System Architecture,
/// white paper WP-08437-002, 2017, figure 5).
const DGX1_LINKS: [(NodeId, NodeId, u32); 16] = [
    (0, 1, 1),
    (0, 2, 1),
    (0, 3, 2),
    (0, 4, 2),
    (1, 2, 2),
    (1, 3, 1),
    (1, 5, 2),
    (2, 3, 2),
    (2, 6, 1),
    (3, 7, 1),
    (4, 5, 1),
    (4, 6, 1),
    (4, 7, 2),
    (5, 6, 2),
    (5, 7, 1),
    (6, 7, 2),
];

impl Server {
    /// Its name in `--network`.
    pub fn name(self) -> &'static str {
        match self {
            Server::Dgx1 => "dgx1",
            Server::DgxA100 => "dgx-a100",
            Server::DgxH100 => "dgx-h100",
            Server::Mi300x => "mi300x",
        }
    }

    /// Each GPU's NVLinks to the NVSwitches and their rate a link a
    /// direction (GB/s), where it has NVSwitches: DGX A100, 12 NVLink 3
    /// links (NVIDIA DGX A100 System Architecture, WP-10083-001, 2020: 600
    /// GB/s a GPU both ways); DGX H100, 18 NVLink 4 links (NVIDIA DGX H100
    /// user guide and H100 datasheet: 900 GB/s a GPU both ways).
    fn nvswitch(self) -> Option<(u32, f64)> {
        match self {
            Server::DgxA100 => Some((12, 25.0)),
            Server::DgxH100 => Some((18, 25.0)),
            Server::Dgx1 | Server::Mi300x => None,
        }
    }

    /// A GPU's compute NIC (GB/s) and its PCIe link (GB/s, NCCL's rule):
    /// DGX A100, ConnectX-6 at 200 Gb/s on PCIe Gen4; DGX H100, ConnectX-7
    /// at 400 Gb/s on Gen5; the MI300X platform, 400 Gb/s on Gen5 (AMD
    /// Instinct MI300X platform data sheet: eight 400 GbE). DGX-1 has four
    /// 100 Gb/s NICs for eight GPUs and is one server here.
    fn nic(self) -> Option<(f64, f64)> {
        match self {
            Server::DgxA100 => Some((25.0, 24.0)),
            Server::DgxH100 | Server::Mi300x => Some((50.0, 48.0)),
            Server::Dgx1 => None,
        }
    }

    /// Adds one server's GPUs' links among themselves to `parts`, its
    /// GPUs being `gpus`, named with `prefix`.
    fn add(self, parts: &mut Parts, gpus: &[NodeId], prefix: &str) {
        match self {
            Server::Dgx1 => {
                // NVLink 2: 25 GB/s a link a direction (V100 datasheet:
                // 300 GB/s over six links both ways).
                for (u, v, links) in DGX1_LINKS {
                    let attrs = LinkAttrs::new(LinkKind::NvLink, links, 25.0 * links as f64);
                    parts.link(gpus[u as usize], gpus[v as usize], attrs);
                }
                // The PCIe tree (the white paper's figure 5): a PCIe
                // switch for each pair of GPUs, two switches on each of
                // two CPUs, the CPUs joined by QPI. PCIe Gen3 x16 at
                // NCCL's 12 GB/s (PCI_BW), QPI at NCCL's 6 (QPI_BW, its
                // Broadwell figure). The CPUs forward: GPUs of different
                // quads that share no NVLink reach each other this way
                // (NCCL's SYS path, through host memory).
                let pcie = LinkAttrs::new(LinkKind::Pcie, 1, 12.0);
                let cpus = [0, 1].map(|c| {
                    let mut cpu = Node::new(format!("{prefix}cpu{c}"), NodeKind::Cpu);
                    cpu.forwards = Some(true);
                    parts.nodes.push(cpu);
                    (parts.nodes.len() - 1) as NodeId
                });
                parts.link(cpus[0], cpus[1], LinkAttrs::new(LinkKind::Sys, 1, 6.0));
                for (s, pair) in gpus.chunks(2).enumerate() {
                    let switch = parts.node(format!("{prefix}pcie{s}"), NodeKind::PcieSwitch);
                    parts.link(cpus[s / 2], switch, pcie);
                    for &g in pair {
                        parts.link(g, switch, pcie);
                    }
                }
            }
            Server::DgxA100 | Server::DgxH100 => {
                let (links, rate) = self.nvswitch().expect("an NVSwitch server");
                let nvs = parts.node(format!("{prefix}nvs"), NodeKind::NvSwitch);
                let attrs = LinkAttrs::new(LinkKind::NvLink, links, rate * links as f64);
                for &g in gpus {
                    parts.link(g, nvs, attrs);
                }
            }
            Server::Mi300x => {
                // Seven Infinity Fabric (xGMI) links a GPU, one to each
                // peer, 128 GB/s each both ways (AMD Instinct MI300X data
                // sheet: 896 GB/s of peer bandwidth); RCCL's topology
                // model rates a gfx942 link at 48.
                let attrs = LinkAttrs::new(LinkKind::Xgmi, 1, 64.0);
                for (i, &u) in gpus.iter().enumerate() {
                    for &v in &gpus[i + 1..] {
                        parts.link(u, v, attrs);
                    }
                }
            }
        }
    }
}

impl Builtin {
    /// The machine `spec` names (`dgx-h100`, `dgx-h100:4`,
    /// `npu-torus:4x4`), or why it names none.
    pub fn parse(spec: &str) -> Result<Builtin, String> {
        let (name, arg) = match spec.split_once(':') {
            Some((name, arg)) => (name, Some(arg)),
            None => (spec, None),
        };
        let server = match name {
            "dgx1" => Server::Dgx1,
            "dgx-a100" => Server::DgxA100,
            "dgx-h100" => Server::DgxH100,
            "mi300x" => Server::Mi300x,
            "npu-torus" => {
                let sides: Vec<u32> = arg
                    .unwrap_or("")
                    .split('x')
                    .map(|t| t.parse::<u32>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| "npu-torus:AxB names its sides, such as npu-torus:4x4")?;
                return match sides[..] {
                    [a, b] if (2..=MAX_SIDE).contains(&a) && (2..=MAX_SIDE).contains(&b) => {
                        Ok(Builtin::NpuTorus { a, b })
                    }
                    _ => Err(format!(
                        "npu-torus:AxB has two sides of 2 to {MAX_SIDE}, such as npu-torus:4x4"
                    )),
                };
            }
            _ => return Err(format!("expected a machine: {NAMES}")),
        };
        let servers = match arg {
            None => 1,
            Some(k) => k
                .parse::<u32>()
                .ok()
                .filter(|k| (1..=MAX_SERVERS).contains(k))
                .ok_or_else(|| {
                    format!("{name}:K is K servers, 1 to {MAX_SERVERS}, such as {name}:4")
                })?,
        };
        if servers > 1 && server.nic().is_none() {
            return Err(format!("{name} is one server here: it takes no :K"));
        }
        Ok(Builtin::Servers { server, servers })
    }

    /// Its parts: the GPUs (or NPUs) first, server by server, then each
    /// server's NVSwitch and NICs, then the network switch.
    pub fn parts(&self) -> Parts {
        match *self {
            Builtin::NpuTorus { a, b } => torus(a, b),
            Builtin::Servers { server, servers } => cluster(server, servers),
        }
    }
}

/// `servers` servers of `server`: one alone, or joined by a network
/// switch that every GPU reaches through its own NIC (a rail each, as on
/// DGX SuperPODs; one switch stands for the fabric).
fn cluster(server: Server, servers: u32) -> Parts {
    let mut parts = Parts::default();
    let prefix = |s: u32| match servers {
        1 => String::new(),
        _ => format!("s{s}."),
    };
    for s in 0..servers {
        for g in 0..8 {
            parts.node(format!("{}gpu{g}", prefix(s)), NodeKind::Gpu);
        }
    }
    let switch = (servers > 1).then(|| Node::new("switch", NodeKind::Switch));
    for s in 0..servers {
        let gpus: Vec<NodeId> = (8 * s..8 * s + 8).collect();
        server.add(&mut parts, &gpus, &prefix(s));
    }
    if let (Some(switch), Some((net, pcie))) = (switch, server.nic()) {
        parts.nodes.push(switch);
        let sw = (parts.nodes.len() - 1) as NodeId;
        for s in 0..servers {
            for g in 0..8 {
                let nic = parts.node(format!("{}nic{g}", prefix(s)), NodeKind::Nic);
                parts.link(8 * s + g, nic, LinkAttrs::new(LinkKind::Pcie, 1, pcie));
                parts.link(nic, sw, LinkAttrs::new(LinkKind::Net, 1, net));
            }
        }
    }
    parts
}

/// An `a` x `b` torus of NPUs that forward (as ASTRA-sim routes through
/// them), each linked to its four neighbours, wrapping around; a side of
/// 2 has one link between its two NPUs. Links of 50 GB/s and 500 ns, the
/// figures of ASTRA-sim's example ring (examples/network/analytical).
fn torus(a: u32, b: u32) -> Parts {
    let mut parts = Parts::default();
    for y in 0..b {
        for x in 0..a {
            parts.nodes.push(Node {
                forwards: Some(true),
                ..Node::new(format!("npu{x}.{y}"), NodeKind::Npu)
            });
        }
    }
    parts.width = Some(a);
    let attrs = LinkAttrs::new(LinkKind::NpuLink, 1, 50.0).with_latency(500.0);
    let id = |x: u32, y: u32| y * a + x;
    for y in 0..b {
        for x in 0..a {
            if a > 2 || x == 0 {
                parts.link(id(x, y), id((x + 1) % a, y), attrs);
            }
            if b > 2 || y == 0 {
                parts.link(id(x, y), id(x, (y + 1) % b), attrs);
            }
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Ports, Switching};
    use crate::topology::Topology;

    fn built(spec: &str) -> crate::topology::Graph {
        Builtin::parse(spec)
            .unwrap()
            .parts()
            .build(spec, Switching::Wh, Ports::All)
            .unwrap()
    }

    fn count(g: &crate::topology::Graph, kind: NodeKind) -> usize {
        (0..g.nodes()).filter(|&v| g.kind(v) == kind).count()
    }

    /// DGX-1: six NVLinks a GPU, 16 links, and a PCIe link to its
    /// switch; GPUs do not forward, so a worm between GPUs of different
    /// quads that are not counterparts goes over PCIe and QPI.
    #[test]
    fn dgx1_is_a_hybrid_cube_mesh() {
        let g = built("dgx1");
        assert_eq!(g.nodes(), 8 + 2 + 4);
        assert_eq!(g.rank_nodes(), (0..8).collect::<Vec<_>>());
        for u in 0..8 {
            let nvlinks: u32 = g
                .out_neighbours(u)
                .filter(|&v| v < 8)
                .map(|v| g.arc_attrs(u, v).unwrap().lanes)
                .sum();
            assert_eq!(nvlinks, 6, "gpu{u}");
        }
        assert_eq!(g.worm_path(0, 4), Some(vec![0, 4]));
        let names =
            |p: Vec<NodeId>| -> Vec<String> { p.iter().map(|&v| g.node_label(v)).collect() };
        assert_eq!(
            names(g.worm_path(3, 4).unwrap()),
            ["gpu3", "pcie1", "cpu0", "cpu1", "pcie2", "gpu4"]
        );
        assert_eq!(g.arc_attrs(0, 3).unwrap().bandwidth, Some(50.0));
        assert_eq!(g.arc_attrs(8, 9).unwrap().bandwidth, Some(6.0));
    }

    /// DGX A100 and H100: the GPUs reach each other through the NVSwitch,
    /// with 12 and 18 lanes; four H100 servers reach each other through
    /// their NICs and the switch; 64 servers build.
    #[test]
    fn nvswitch_servers_and_clusters() {
        let a100 = built("dgx-a100");
        assert_eq!(
            (
                count(&a100, NodeKind::Gpu),
                count(&a100, NodeKind::NvSwitch)
            ),
            (8, 1)
        );
        assert_eq!(a100.worm_path(0, 1), Some(vec![0, 8, 1]));
        assert_eq!(a100.arc_attrs(0, 8).unwrap().lanes, 12);
        let h100 = built("dgx-h100:4");
        assert_eq!(count(&h100, NodeKind::Gpu), 32);
        assert_eq!(count(&h100, NodeKind::Nic), 32);
        assert_eq!(h100.node_label(8), "s1.gpu0");
        let path: Vec<String> = h100
            .worm_path(0, 8)
            .unwrap()
            .iter()
            .map(|&v| h100.node_label(v))
            .collect();
        assert_eq!(path, ["s0.gpu0", "s0.nic0", "switch", "s1.nic0", "s1.gpu0"]);
        assert_eq!(h100.rank_nodes(), (0..32).collect::<Vec<_>>());
        let big = built("dgx-h100:64");
        assert_eq!(count(&big, NodeKind::Gpu), 512);
        assert!(big.worm_path(0, 511).is_some());
    }

    /// MI300X: every pair linked directly; the torus's NPUs forward and
    /// wrap around, a side of 2 linking its pair once.
    #[test]
    fn mi300x_and_the_npu_torus() {
        let mi = built("mi300x");
        assert_eq!(mi.worm_path(2, 7), Some(vec![2, 7]));
        let t = built("npu-torus:4x3");
        assert_eq!(t.nodes(), 12);
        assert_eq!(t.worm_path(0, 3), Some(vec![0, 3]), "wraps around");
        assert_eq!(
            t.worm_path(0, 5).map(|p| p.len()),
            Some(3),
            "through an NPU"
        );
        let two = built("npu-torus:2x2");
        let mut links = 0;
        two.links(|_, _| links += 1);
        assert_eq!(links, 4);
    }

    /// Bad names are refused in one line saying what is expected.
    #[test]
    fn bad_machines_are_refused() {
        let why = |s: &str| Builtin::parse(s).unwrap_err();
        assert!(why("dgx1:2").contains("one server"));
        assert!(why("dgx-h100:0").contains("1 to 128"));
        assert!(why("dgx-h100:x").contains("such as dgx-h100:4"));
        assert!(why("npu-torus:4").contains("two sides"));
        assert!(why("npu-torus:1x4").contains("2 to"));
        assert!(why("npu-torus").contains("names its sides"));
        assert!(why("tpu").contains("expected a machine"));
    }
}
