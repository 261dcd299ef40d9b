//! The parts of a machine a [`Graph`](super::Graph) is built from: what a
//! node is (an endpoint a rank runs on, or a switch), whether it forwards
//! worms, and what a link is (its kind, how many lanes, its bandwidth and
//! latency). docs/networks.md says how each file format and built-in
//! machine fills them in.
//!
//! **Forwarding.** A switch (an NVSwitch, a PCIe switch, a NIC, a network
//! switch) forwards: a worm crosses it within its slot. An endpoint (a GPU,
//! an NPU, a CPU, a host) does not unless its network says so: a DGX's
//! GPUs never pass a worm on through their NVLinks (NCCL and RCCL route
//! GPU to GPU over direct links or switches; a relay through a third GPU
//! is a schedule's own step), while the NPUs of a torus do. A node of a
//! version-1 graph file has no kind and forwards, as before.
//!
//! **Lanes.** A link of `count` lanes (NVLinks bundled between two parts,
//! xGMI links, PCIe lanes counted as one) carries `count` transmissions in
//! a slot; one more is contention. Its bandwidth is the bundle's, in GB/s
//! (10^9 bytes a second, as NCCL writes it), and its latency the time a
//! byte takes to cross it, in nanoseconds; both are for the cost models
//! and change no slot count.

use properties::NodeId;

/// What a node of a machine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A node of a graph that says nothing of its parts (version 1):
    /// ranks may run on it and it forwards.
    Node,
    /// A GPU.
    Gpu,
    /// An NPU (a torus's or mesh's accelerator).
    Npu,
    /// A CPU (a PCIe root complex in NCCL's files).
    Cpu,
    /// A host of a cluster, as one node.
    Host,
    /// An NVSwitch (NCCL draws all of a server's as one).
    NvSwitch,
    /// A PCIe switch.
    PcieSwitch,
    /// A network interface card.
    Nic,
    /// A network switch joining servers.
    Switch,
}

impl NodeKind {
    /// Every kind, in the order files name them.
    pub const ALL: [NodeKind; 9] = [
        NodeKind::Node,
        NodeKind::Gpu,
        NodeKind::Npu,
        NodeKind::Cpu,
        NodeKind::Host,
        NodeKind::NvSwitch,
        NodeKind::PcieSwitch,
        NodeKind::Nic,
        NodeKind::Switch,
    ];

    /// Its name in files and reports.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Node => "node",
            NodeKind::Gpu => "gpu",
            NodeKind::Npu => "npu",
            NodeKind::Cpu => "cpu",
            NodeKind::Host => "host",
            NodeKind::NvSwitch => "nvswitch",
            NodeKind::PcieSwitch => "pcie-switch",
            NodeKind::Nic => "nic",
            NodeKind::Switch => "switch",
        }
    }

    /// The kind named `name`.
    pub fn parse(name: &str) -> Option<NodeKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// True for a switch (it forwards, and no rank runs on it).
    pub fn is_switch(self) -> bool {
        matches!(
            self,
            NodeKind::NvSwitch | NodeKind::PcieSwitch | NodeKind::Nic | NodeKind::Switch
        )
    }

    /// True for an accelerator: where a machine that has them places its
    /// ranks.
    pub fn is_accelerator(self) -> bool {
        matches!(self, NodeKind::Gpu | NodeKind::Npu)
    }

    /// Whether a node of this kind forwards worms unless its network says
    /// otherwise: switches and kindless nodes do, endpoints do not.
    pub fn forwards_by_default(self) -> bool {
        self.is_switch() || self == NodeKind::Node
    }
}

/// What a link is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkKind {
    /// A link that says nothing of itself (version 1).
    Link,
    /// NVLink (NVIDIA).
    NvLink,
    /// xGMI / Infinity Fabric (AMD).
    Xgmi,
    /// PCIe.
    Pcie,
    /// A network link (Ethernet, InfiniBand).
    Net,
    /// An NPU's link to a neighbour (a torus's).
    NpuLink,
    /// A link between CPU sockets (NCCL's SYS path).
    Sys,
}

impl LinkKind {
    /// Every kind, in the order files name them.
    pub const ALL: [LinkKind; 7] = [
        LinkKind::Link,
        LinkKind::NvLink,
        LinkKind::Xgmi,
        LinkKind::Pcie,
        LinkKind::Net,
        LinkKind::NpuLink,
        LinkKind::Sys,
    ];

    /// Its name in files and reports.
    pub fn name(self) -> &'static str {
        match self {
            LinkKind::Link => "link",
            LinkKind::NvLink => "nvlink",
            LinkKind::Xgmi => "xgmi",
            LinkKind::Pcie => "pcie",
            LinkKind::Net => "net",
            LinkKind::NpuLink => "npu-link",
            LinkKind::Sys => "sys",
        }
    }

    /// The kind named `name`.
    pub fn parse(name: &str) -> Option<LinkKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A node as a machine description gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Its name in reports (`gpu3`, `nvs0`).
    pub name: String,
    /// What it is.
    pub kind: NodeKind,
    /// Whether worms cross it (None: its kind's default,
    /// [`NodeKind::forwards_by_default`]).
    pub forwards: Option<bool>,
}

impl Node {
    /// A node of `kind` named `name`, forwarding as its kind does.
    pub fn new(name: impl Into<String>, kind: NodeKind) -> Node {
        Node {
            name: name.into(),
            kind,
            forwards: None,
        }
    }

    /// Whether worms cross it.
    pub fn forwards(&self) -> bool {
        self.forwards
            .unwrap_or_else(|| self.kind.forwards_by_default())
    }
}

/// What one arc of a link is: the same both ways unless a description
/// gives each direction its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkAttrs {
    /// What it is made of.
    pub kind: LinkKind,
    /// How many transmissions it carries in a slot (1 to
    /// [`MAX_LANES`]).
    pub lanes: u32,
    /// The bundle's bandwidth in GB/s (10^9 bytes a second); None where
    /// the description gives none.
    pub bandwidth: Option<f64>,
    /// Its latency in nanoseconds; None where the description gives none.
    pub latency: Option<f64>,
}

/// Most lanes of one link.
pub const MAX_LANES: u32 = 1024;

impl LinkAttrs {
    /// A plain link of one lane, no bandwidth or latency (version 1).
    pub const PLAIN: LinkAttrs = LinkAttrs {
        kind: LinkKind::Link,
        lanes: 1,
        bandwidth: None,
        latency: None,
    };

    /// A link of `kind` with `lanes` lanes and `bandwidth` GB/s in all.
    pub fn new(kind: LinkKind, lanes: u32, bandwidth: f64) -> LinkAttrs {
        LinkAttrs {
            kind,
            lanes,
            bandwidth: Some(bandwidth),
            latency: None,
        }
    }

    /// The same with a latency of `ns` nanoseconds.
    pub fn with_latency(self, ns: f64) -> LinkAttrs {
        LinkAttrs {
            latency: Some(ns),
            ..self
        }
    }
}

/// An arc of a machine: from, to, and what it is. A link both ways is two
/// arcs ([`Arc::both`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arc {
    /// Its first node.
    pub from: NodeId,
    /// Its last node.
    pub to: NodeId,
    /// What it is.
    pub attrs: LinkAttrs,
}

impl Arc {
    /// The two arcs of a link between `u` and `v`, alike.
    pub fn both(u: NodeId, v: NodeId, attrs: LinkAttrs) -> [Arc; 2] {
        [
            Arc {
                from: u,
                to: v,
                attrs,
            },
            Arc {
                from: v,
                to: u,
                attrs,
            },
        ]
    }
}

/// A machine's nodes and arcs, as a reader or a built-in description
/// gives them, before they are built into a [`Graph`](super::Graph) under
/// a switching technique and a port model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parts {
    /// The nodes, numbered in order; ranks go on the accelerators in this
    /// order ([`Graph::rank_nodes`](super::Graph::rank_nodes)).
    pub nodes: Vec<Node>,
    /// The arcs.
    pub arcs: Vec<Arc>,
    /// Accelerators a row in pictures, where the machine has rows of its
    /// own (a torus's first side); else two rows a server.
    pub width: Option<u32>,
}

impl Parts {
    /// Adds a node and returns its number.
    pub fn node(&mut self, name: impl Into<String>, kind: NodeKind) -> NodeId {
        self.nodes.push(Node::new(name, kind));
        (self.nodes.len() - 1) as NodeId
    }

    /// Adds a link between `u` and `v`, alike both ways.
    pub fn link(&mut self, u: NodeId, v: NodeId, attrs: LinkAttrs) {
        self.arcs.extend(Arc::both(u, v, attrs));
    }
}
