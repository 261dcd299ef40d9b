//! Which node holds which packet: the ground truth the engines keep beside
//! the protocol's own state, so that causality and completeness judge the
//! model rather than trust it.
//!
//! The layout scales with what a task requires, not with nodes x packets:
//! * a broadcast packet is required by every node: one bit per (node,
//!   packet), node-major (one bit per node for a single broadcast);
//! * every other packet has one destination: one bit per packet, set once
//!   it is delivered there, and one word per packet naming the relay that
//!   holds it in transit, if any. Its origin holds it throughout.
//!
//! Total exchange on the 12-cube is 2^24 packets: 2 MB of bits and 64 MB of
//! relays, where a node x packet matrix would be 8 GB.

use crate::vocabulary::{NodeId, PacketId, Task};
use std::ops::Range;
use std::sync::Arc;

/// No relay holds the packet.
const NOWHERE: NodeId = NodeId::MAX;

/// What every node holds, for one task.
#[derive(Debug, PartialEq, Eq)]
pub struct Holdings {
    task: Arc<Task>,
    /// A broadcast's packets in increasing order; a packet's column is its
    /// position here.
    columns: Arc<[PacketId]>,
    bits: Vec<u64>,
    /// The bit index of `bits[0]`: 0, or where the first node's bits start
    /// in holdings kept for a range of nodes ([`Holdings::of_nodes`]).
    first: u64,
    /// How many of a broadcast's bits, from `bits[0]`, are cells (the
    /// rest pad the last word).
    cells: u64,
    /// Per packet of a personalised task, the relay holding it in transit.
    relay: Vec<NodeId>,
    /// Where a broadcast's bit of (node, packet) lives.
    layout: Layout,
}

/// Where a broadcast's bit of (node, packet) lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// One packet: bit `node`.
    One(PacketId),
    /// Every node a source (multinode broadcast) and a power of two of
    /// them: nodes in blocks of `block` (a power of two), and in a block
    /// one row of `block` bits per offset `packet xor node`. A schedule
    /// translated by xor (every node sends the packet at the same offset
    /// in a slot) then streams through a few rows instead of touching a
    /// new cache line (and page) per packet; a block of nodes is a range
    /// of words that a thread can own.
    EverySource { block: u64 },
    /// Node-major over the task's packets in increasing order.
    Columns,
    /// Packet-major: nodes in blocks of `row` (all of them, or a power of
    /// two 2^`shift` that divides their number), and in a block one row of
    /// `row` bits per packet in increasing order. A tree broadcast's slot
    /// delivers few packets to many nodes, and touches few rows; a block
    /// of nodes is a range of words that a thread can own. (Shifts, not
    /// divisions: this is on every delivery's path.)
    ByPacket { shift: u32, row: u64 },
    /// Not a broadcast: a bit per packet and a relay word, at the
    /// packet's place ([`Layout::place`]).
    Personal {
        /// For a total exchange on 2^`offsets` nodes, the packet from o
        /// to d is kept at row `o xor d`, column `o`: a schedule
        /// translated by xor (node x sends the packet from x xor a to x
        /// xor b in a slot) touches a row of 2^`offsets` words per slot
        /// instead of a cache line (and page) per packet. 0: at its id.
        offsets: u32,
    },
}

impl Layout {
    /// The layout for `columns`, a multinode broadcast's in blocks of
    /// `block` nodes (at most all of them).
    fn of(columns: &[PacketId], nodes: u32, block: u64) -> Layout {
        let len = columns.len();
        match *columns {
            [only] => Layout::One(only),
            // Packets 0..len from every node: `packet xor node` stays in
            // 0..len only if len is all of the nodes.
            [.., last]
                if last as usize == len - 1 && len == nodes as usize && len.is_power_of_two() =>
            {
                Layout::EverySource {
                    block: block.min(len as u64),
                }
            }
            _ => Layout::Columns,
        }
    }

    /// The bit of (node, packet); None if `packet` is not the task's. Every
    /// range of whole blocks of 64 nodes is a range of whole words.
    #[inline(always)]
    fn index(self, columns: &[PacketId], node: NodeId, packet: PacketId) -> Option<u64> {
        let len = columns.len() as u64;
        match self {
            Layout::One(only) => (only == packet).then_some(node as u64),
            Layout::EverySource { block: b } => (u64::from(packet) < len).then(|| {
                let (node, offset) = (node as u64, (packet ^ node) as u64);
                (node & !(b - 1)) * len + offset * b + (node & (b - 1))
            }),
            // A schedule's packets are all its columns: packet p is
            // column p, found without a search.
            Layout::Columns | Layout::Personal { .. } => match columns.get(packet as usize) {
                Some(&c) if c == packet => Some(packet as usize),
                _ => columns.binary_search(&packet).ok(),
            }
            .map(|c| node as u64 * len + c as u64),
            Layout::ByPacket { shift, row } => by_packet_column(columns, packet).map(|c| {
                let node = node as u64;
                let (block, at) = (node >> shift, node & ((1 << shift) - 1));
                block * row * len + c as u64 * row + at
            }),
        }
    }
}

impl Layout {
    /// Where a personalised task's `packet` keeps its bit and relay word
    /// (a bijection of 0..2^(2 offsets) onto itself, else the id).
    #[inline(always)]
    fn place(self, packet: PacketId) -> usize {
        match self {
            Layout::Personal { offsets: s } if s > 0 => {
                let (o, d) = (packet >> s, packet & ((1 << s) - 1));
                (((o ^ d) << s) | o) as usize
            }
            _ => packet as usize,
        }
    }

    /// The packet kept at place `i`: the inverse of [`Layout::place`].
    fn packet_at(self, i: u64) -> PacketId {
        match self {
            Layout::Personal { offsets: s } if s > 0 => {
                let (row, o) = (i >> s, i & ((1 << s) - 1));
                ((o << s) | (o ^ row)) as PacketId
            }
            _ => i as PacketId,
        }
    }
}

/// The column of `packet` among the sorted `columns` (dense ids, packets
/// 0..len, index themselves).
#[inline]
fn by_packet_column(columns: &[PacketId], packet: PacketId) -> Option<usize> {
    match columns.get(packet as usize) {
        Some(&p) if p == packet => Some(packet as usize),
        _ => columns.binary_search(&packet).ok(),
    }
}

/// What a range of nodes holds of a broadcast ([`Holdings::parts`]).
pub struct Part<'a> {
    layout: Layout,
    columns: &'a [PacketId],
    /// The bit index of `bits[0]` (laid out by packet: the range's first
    /// node).
    first: u64,
    bits: &'a mut [u64],
}

/// Somewhere to record what a node received: all holdings, or a part.
pub trait Keep {
    /// Records that `node` received `packet`; false if it already held it
    /// (see [`Holdings::insert`]).
    fn insert(&mut self, node: NodeId, packet: PacketId) -> bool;

    /// [`Keep::insert`] of each of the consecutive `packets`: the first it
    /// already held, and whether any was new to it.
    fn insert_run(&mut self, node: NodeId, packets: Range<PacketId>) -> Inserted {
        insert_each(self, node, packets)
    }

    /// [`Keep::insert`] of `packet` at each of the consecutive `nodes` (a
    /// bus write to a row of them): the lowest that already held it and
    /// the lowest it was new to.
    fn insert_nodes(&mut self, nodes: Range<NodeId>, packet: PacketId) -> Reached {
        insert_at_each(self, nodes, packet)
    }
}

/// [`Keep::insert_nodes`] node by node.
fn insert_at_each<K: Keep + ?Sized>(
    keep: &mut K,
    nodes: Range<NodeId>,
    packet: PacketId,
) -> Reached {
    let mut out = Reached::default();
    for node in nodes {
        match keep.insert(node, packet) {
            true => _ = out.fresh.get_or_insert(node),
            false => _ = out.again.get_or_insert(node),
        }
    }
    out
}

/// What [`Keep::insert_nodes`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reached {
    /// The lowest node that already held the packet.
    pub again: Option<NodeId>,
    /// The lowest node the packet was new to.
    pub fresh: Option<NodeId>,
}

/// [`Keep::insert_run`] packet by packet.
fn insert_each<K: Keep + ?Sized>(keep: &mut K, node: NodeId, packets: Range<PacketId>) -> Inserted {
    let mut out = Inserted::default();
    for p in packets {
        match keep.insert(node, p) {
            true => out.fresh = true,
            false => _ = out.held.get_or_insert(p),
        }
    }
    out
}

/// What [`Keep::insert_run`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inserted {
    /// The first packet of the run the node already held.
    pub held: Option<PacketId>,
    /// True if any packet of the run was new to the node.
    pub fresh: bool,
}

impl Keep for Part<'_> {
    #[inline]
    fn insert(&mut self, node: NodeId, packet: PacketId) -> bool {
        let Some(i) = self.layout.index(self.columns, node, packet) else {
            return true;
        };
        let i = i - self.first;
        let word = &mut self.bits[(i / 64) as usize];
        let m = 1u64 << (i % 64);
        let fresh = *word & m == 0;
        *word |= m;
        fresh
    }

    /// Laid out by packet, a row of nodes in one block is a run of bits
    /// in the packet's row: word by word (a row bus's write to 256 nodes
    /// is four or five words, not 256 insertions).
    fn insert_nodes(&mut self, nodes: Range<NodeId>, packet: PacketId) -> Reached {
        let index = |v| self.layout.index(self.columns, v, packet);
        let bits = match (
            nodes.is_empty(),
            matches!(self.layout, Layout::ByPacket { .. }),
        ) {
            (false, true) => index(nodes.start).zip(index(nodes.end - 1)),
            _ => None,
        };
        let Some((lo, hi)) =
            bits.filter(|(lo, hi)| hi - lo == u64::from(nodes.end - nodes.start - 1))
        else {
            return insert_at_each(self, nodes, packet);
        };
        let (first, lo) = (self.first, lo - self.first);
        let (again, fresh) = set_bits(self.bits, lo..hi + 1 - first);
        let node_of = |i: u64| nodes.start + (i - lo) as NodeId;
        Reached {
            again: again.map(node_of),
            fresh: fresh.map(node_of),
        }
    }
}

impl Keep for Holdings {
    fn insert(&mut self, node: NodeId, packet: PacketId) -> bool {
        Holdings::insert(self, node, packet)
    }

    /// A run in a row of bits word by word: a partial sum of 512 terms is
    /// eight words, not 512 insertions.
    fn insert_run(&mut self, node: NodeId, packets: Range<PacketId>) -> Inserted {
        let Some(bits) = self.row_run(node, &packets) else {
            return insert_each(self, node, packets);
        };
        let (held, fresh) = set_bits(&mut self.bits, bits.clone());
        Inserted {
            held: held.map(|i| packets.start + (i - bits.start) as PacketId),
            fresh: fresh.is_some(),
        }
    }
}

/// Sets the bits `range` of `bits` word by word; returns the first of them
/// that was set already and the first that was not.
fn set_bits(bits: &mut [u64], range: Range<u64>) -> (Option<u64>, Option<u64>) {
    let (mut held, mut fresh) = (None, None);
    words_of(range, |w, m| {
        let word = &mut bits[w];
        let first = |x: u64| w as u64 * 64 + x.trailing_zeros() as u64;
        if held.is_none() && *word & m != 0 {
            held = Some(first(*word & m));
        }
        if fresh.is_none() && !*word & m != 0 {
            fresh = Some(first(!*word & m));
        }
        *word |= m;
    });
    (held, fresh)
}

/// Calls `f` with (word, mask) for each word of `bits` that covers some of
/// the range `bits`, in order.
#[inline]
fn words_of(bits: Range<u64>, mut f: impl FnMut(usize, u64)) {
    let mut i = bits.start;
    while i < bits.end {
        let (w, lo) = (i / 64, i % 64);
        let hi = (bits.end - w * 64).min(64);
        f(w as usize, (u64::MAX >> (64 - (hi - lo))) << lo);
        i = (w + 1) * 64;
    }
}

/// The bits and relays alone: the task is the same for every state of a
/// run (and hashing it per state was a measurable cost).
impl std::hash::Hash for Holdings {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.bits.hash(state);
        self.relay.hash(state);
    }
}

/// Field by field, so that `clone_from` reuses the vectors.
impl Clone for Holdings {
    fn clone(&self) -> Self {
        Holdings {
            task: self.task.clone(),
            columns: self.columns.clone(),
            bits: self.bits.clone(),
            first: self.first,
            cells: self.cells,
            relay: self.relay.clone(),
            layout: self.layout,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        if !Arc::ptr_eq(&self.task, &source.task) {
            self.task = source.task.clone();
            self.columns = source.columns.clone();
            self.layout = source.layout;
        }
        (self.first, self.cells) = (source.first, source.cells);
        self.bits.clone_from(&source.bits);
        self.relay.clone_from(&source.relay);
    }
}

impl Holdings {
    /// What these holdings add to their task: the bits and the relays
    /// (ranks of a search hand a state across as these; the receiver
    /// knows the task).
    pub fn contents(&self) -> (&[u64], &[NodeId]) {
        (&self.bits, &self.relay)
    }

    /// Replaces the bits and relays with `contents` of holdings of the
    /// same task and layout.
    pub fn set_contents(&mut self, bits: &[u64], relay: &[NodeId]) {
        assert!(
            bits.len() == self.bits.len() && relay.len() == self.relay.len(),
            "contents of holdings of the same task"
        );
        self.bits.copy_from_slice(bits);
        self.relay.copy_from_slice(relay);
    }

    /// What every node holds before slot 1.
    pub fn initial(task: &Task) -> Self {
        Holdings::in_blocks(task, u64::MAX)
    }

    /// [`Holdings::in_blocks`], a broadcast of several packets laid out
    /// packet by packet (see `Layout::ByPacket`): for protocols that
    /// forward along trees (`Protocol::holdings_by_packet`).
    pub fn by_packet(task: &Task, block: u64) -> Self {
        let mut h = Holdings::in_blocks(task, u64::MAX);
        if !h.personal() && h.columns.len() > 1 {
            let nodes = task.nodes() as u64;
            // Blocks of a power of two dividing the nodes, else one block
            // (a shift of 32 takes a node to block 0, row 0).
            h.layout = match block.is_power_of_two() && block < nodes {
                true if nodes.is_multiple_of(block) => Layout::ByPacket {
                    shift: block.trailing_zeros(),
                    row: block,
                },
                _ => Layout::ByPacket {
                    shift: 32,
                    row: nodes,
                },
            };
            h.bits.iter_mut().for_each(|w| *w = 0);
            for &p in h.columns.clone().iter() {
                h.set_column(task.origin(p), p);
            }
        }
        h
    }

    /// [`Holdings::initial`], with a multinode broadcast laid out in blocks
    /// of `block` nodes (a power of two), so that [`Holdings::parts`] can
    /// split it into ranges of that many nodes.
    pub fn in_blocks(task: &Task, block: u64) -> Self {
        Holdings::of_nodes(task, block, 0..task.nodes())
    }

    /// [`Holdings::in_blocks`] kept for the nodes `nodes` alone: the bits of
    /// a broadcast are by node, and a rank of a run over MPI keeps only
    /// its own nodes' (docs/scale.md). `nodes.start` must be a multiple of
    /// `block` (a power of two) or of the whole broadcast's block; asking
    /// of a node outside the range is a bug (a panic, never a wrong
    /// answer). A personalised task's holdings are by packet, whole.
    pub fn of_nodes(task: &Task, block: u64, nodes: std::ops::Range<NodeId>) -> Self {
        let columns: Arc<[PacketId]> = task.broadcast_packets().into();
        let personal = !task.is_broadcast();
        let layout = if personal {
            let nodes = task.nodes();
            let offsets = match task {
                Task::TotalExchange { .. } if nodes.is_power_of_two() => nodes.trailing_zeros(),
                _ => 0,
            };
            Layout::Personal { offsets }
        } else {
            Layout::of(&columns, task.nodes(), block)
        };
        let len = columns.len() as u64;
        // A broadcast's bits of the range's blocks of nodes: a layout in
        // blocks keeps a block's bits together.
        let whole = match layout {
            Layout::EverySource { block } => block,
            _ => 1,
        };
        let (first, bits, relays) = if personal {
            (0, task.packet_ids(), task.packet_ids())
        } else {
            assert!(
                u64::from(nodes.start).is_multiple_of(whole) && nodes.end <= task.nodes(),
                "holdings of whole blocks of nodes"
            );
            let end = u64::from(nodes.end)
                .next_multiple_of(whole)
                .min(task.nodes().into());
            let first = u64::from(nodes.start) * len;
            (first, end * len - first, 0)
        };
        let mut h = Holdings {
            task: Arc::new(task.clone()),
            layout,
            columns,
            bits: vec![0; bits.div_ceil(64) as usize],
            first,
            cells: bits,
            relay: vec![NOWHERE; relays as usize],
        };
        if personal {
            // Ids that are not packets count as delivered, so that a scan
            // for a missing packet reads whole words.
            for p in 0..task.packet_ids() as PacketId {
                if !task.is_packet(p) {
                    let i = layout.place(p);
                    h.bits[i / 64] |= 1 << (i % 64);
                }
            }
        } else {
            for &s in h.columns.clone().iter() {
                if nodes.contains(&task.origin(s)) {
                    h.set_column(task.origin(s), s);
                }
            }
        }
        h
    }

    /// The bit of (node, packet) of a broadcast, or None for a packet the
    /// task does not have (a forged one).
    #[inline]
    fn column(&self, node: NodeId, packet: PacketId) -> Option<(usize, u64)> {
        let i = self.layout.index(&self.columns, node, packet)? - self.first;
        Some(((i / 64) as usize, 1 << (i % 64)))
    }

    /// The (node, packet) of bit `i` of a broadcast: the inverse of
    /// [`Holdings::column`].
    fn cell(&self, i: u64) -> (NodeId, PacketId) {
        let (i, len) = (i + self.first, self.columns.len() as u64);
        match self.layout {
            Layout::One(only) => (i as NodeId, only),
            Layout::EverySource { block: b } => {
                let node = (i / (b * len)) * b + i % b;
                let offset = (i % (b * len)) / b;
                (node as NodeId, (offset ^ node) as PacketId)
            }
            Layout::Columns | Layout::Personal { .. } => {
                ((i / len) as NodeId, self.columns[(i % len) as usize])
            }
            Layout::ByPacket { row, .. } => {
                let node = (i / (row * len)) * row + i % row;
                (
                    node as NodeId,
                    self.columns[((i % (row * len)) / row) as usize],
                )
            }
        }
    }

    /// The holdings of consecutive ranges of `per` nodes each, to be
    /// updated each on its own thread: `per` a multiple of 64 and of the
    /// block of [`Holdings::in_blocks`]. None for a personalised task,
    /// whose packets are not split by node.
    pub fn parts(&mut self, per: u32) -> Option<Vec<Part<'_>>> {
        let block = match self.layout {
            Layout::EverySource { block } | Layout::ByPacket { row: block, .. } => block,
            _ => 1,
        };
        if self.personal()
            || self.columns.is_empty()
            || !per.is_multiple_of(64)
            || !u64::from(per).is_multiple_of(block)
        {
            return None;
        }
        let words = per as usize * self.columns.len() / 64;
        let (layout, columns, first) = (self.layout, &*self.columns, self.first);
        Some(
            self.bits
                .chunks_mut(words)
                .enumerate()
                .map(|(k, bits)| Part {
                    layout,
                    columns,
                    first: first + (k * words * 64) as u64,
                    bits,
                })
                .collect(),
        )
    }

    /// Where the bits of `packets` in `node`'s row are consecutive (node-
    /// major columns whose packets are their own columns, as a
    /// schedule's), the range of those bits in `bits`.
    fn row_run(&self, node: NodeId, packets: &Range<PacketId>) -> Option<Range<u64>> {
        let own_column = |p: PacketId| self.columns.get(p as usize) == Some(&p);
        if self.layout != Layout::Columns
            || packets.is_empty()
            || !own_column(packets.start)
            || !own_column(packets.end - 1)
        {
            return None;
        }
        let start = (u64::from(node) * self.columns.len() as u64 + u64::from(packets.start))
            .checked_sub(self.first)?;
        let end = start + packets.len() as u64;
        (end <= self.bits.len() as u64 * 64).then_some(start..end)
    }

    /// The first of the consecutive `packets` that `node` does not hold.
    pub fn first_not_held(&self, node: NodeId, packets: Range<PacketId>) -> Option<PacketId> {
        let Some(bits) = self.row_run(node, &packets) else {
            return packets.clone().find(|&p| !self.holds(node, p));
        };
        let mut clear = None;
        words_of(bits.clone(), |w, m| {
            let missing = !self.bits[w] & m;
            if clear.is_none() && missing != 0 {
                clear = Some(w as u64 * 64 + missing.trailing_zeros() as u64);
            }
        });
        clear.map(|i| packets.start + (i - bits.start) as PacketId)
    }

    fn set_column(&mut self, node: NodeId, packet: PacketId) -> bool {
        let Some((w, m)) = self.column(node, packet) else {
            return true;
        };
        let fresh = self.bits[w] & m == 0;
        self.bits[w] |= m;
        fresh
    }

    #[inline]
    fn personal(&self) -> bool {
        matches!(self.layout, Layout::Personal { .. })
    }

    /// True if a personalised `packet` (one of the task's) reached its
    /// destination.
    fn delivered(&self, packet: PacketId) -> bool {
        let i = self.layout.place(packet);
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }

    /// True if `node` holds `packet`. (The broadcast's bit test inline:
    /// it is on every transmission's path.)
    #[inline]
    pub fn holds(&self, node: NodeId, packet: PacketId) -> bool {
        if !self.personal() {
            return self
                .column(node, packet)
                .is_some_and(|(w, m)| self.bits[w] & m != 0);
        }
        self.holds_personal(node, packet)
    }

    /// [`Holdings::holds`] for a packet with one destination.
    #[inline(never)]
    fn holds_personal(&self, node: NodeId, packet: PacketId) -> bool {
        if !self.task.is_packet(packet) {
            return false;
        }
        let task = &*self.task;
        task.origin(packet) == node
            || (task.destination(packet) == Some(node) && self.delivered(packet))
            || self.relay[self.layout.place(packet)] == node
    }

    /// Records that `node` received `packet`; returns false if it already
    /// held it, or if a copy of this one-destination packet is held in
    /// transit elsewhere (a second copy in the network). A packet foreign
    /// to the task is never held.
    #[inline]
    pub fn insert(&mut self, node: NodeId, packet: PacketId) -> bool {
        if !self.personal() {
            return self.set_column(node, packet);
        }
        if !self.task.is_packet(packet) {
            return true;
        }
        let task = &*self.task;
        let i = self.layout.place(packet);
        let relay = &mut self.relay[i];
        if task.origin(packet) == node || *relay == node {
            return false;
        }
        let twice = *relay != NOWHERE;
        if task.destination(packet) == Some(node) {
            let (w, m) = (i / 64, 1u64 << (i % 64));
            let fresh = self.bits[w] & m == 0;
            self.bits[w] |= m;
            return fresh && !twice;
        }
        if twice {
            return false;
        }
        *relay = node;
        true
    }

    /// `node` sent `packet` on: a relay no longer holds it. (A broadcast
    /// packet, an origin's or a destination's is kept.)
    pub fn release(&mut self, node: NodeId, packet: PacketId) {
        // A personalised task's relays are at places, its ids in range.
        let i = match u64::from(packet) < self.relay.len() as u64 {
            true => self.layout.place(packet),
            false => return,
        };
        if let Some(relay) = self.relay.get_mut(i) {
            if *relay == node {
                *relay = NOWHERE;
            }
        }
    }

    /// Adds everything `other` holds (the actor model keeps one per node).
    pub fn union_with(&mut self, other: &Holdings) {
        assert_eq!(self.bits.len(), other.bits.len(), "holdings of one task");
        for (a, b) in self.bits.iter_mut().zip(&other.bits) {
            *a |= b;
        }
        for (a, b) in self.relay.iter_mut().zip(&other.relay) {
            if *a == NOWHERE {
                *a = *b;
            }
        }
    }

    /// The first node, in id order, missing a packet the task requires of
    /// it, with the packet.
    pub fn first_missing(&self) -> Option<(NodeId, PacketId)> {
        self.first_missing_in(0..self.task.nodes())
    }

    /// [`Holdings::first_missing`] among the nodes of `nodes` (the rank of
    /// a run that owns them keeps their holdings; the others' bits here
    /// are not read).
    pub fn first_missing_in(&self, nodes: std::ops::Range<NodeId>) -> Option<(NodeId, PacketId)> {
        let task = &*self.task;
        if !self.personal() {
            // Word by word: a complete multinode broadcast on 2^16 nodes
            // is 2^26 full words. One packet: only the range's words.
            let cells = self.cells;
            let words = match self.layout {
                Layout::One(_) => {
                    let word = |v: NodeId, up: bool| {
                        let bit = u64::from(v).saturating_sub(self.first);
                        let w = if up { bit.div_ceil(64) } else { bit / 64 };
                        (w as usize).min(self.bits.len())
                    };
                    word(nodes.start, false)..word(nodes.end, true)
                }
                // Node-major rows: only the rows of nodes the task
                // requires something of (a schedule's switches none).
                Layout::Columns => {
                    let len = self.columns.len() as u64;
                    let any = task.requires_anything();
                    return nodes
                        .filter(|&v| any[v as usize])
                        .filter_map(|v| {
                            let row = (u64::from(v) * len).checked_sub(self.first)?;
                            let row = row.min(cells)..(row + len).min(cells);
                            self.clear_bits_between(row)
                                .map(|i| self.cell(i))
                                .find(|&(node, packet)| task.requires(node, packet))
                        })
                        .next();
                }
                _ => 0..self.bits.len(),
            };
            return self
                .clear_bits(words)
                .filter(|&i| i < cells)
                .map(|i| self.cell(i))
                .filter(|&(node, packet)| nodes.contains(&node) && task.requires(node, packet))
                .min();
        }
        let ids = task.packet_ids();
        self.clear_bits(0..self.bits.len())
            .filter(|&i| i < ids)
            .map(|i| self.layout.packet_at(i))
            .filter_map(|p| Some((task.destination(p)?, p)))
            .filter(|(node, _)| nodes.contains(node))
            .min()
    }

    /// The first node missing a required packet that `excused` does not
    /// excuse (as [`Holdings::first_missing`]), how many missing (node,
    /// packet) pairs it excused, and how many it did not.
    pub fn missing_except(
        &self,
        mut excused: impl FnMut(NodeId, PacketId) -> bool,
    ) -> (Option<(NodeId, PacketId)>, u64, u64) {
        let task = &*self.task;
        let missing: Vec<(NodeId, PacketId)> = if !self.personal() {
            let cells = self.cells;
            self.clear_bits(0..self.bits.len())
                .filter(|&i| i < cells)
                .map(|i| self.cell(i))
                .filter(|&(node, packet)| task.requires(node, packet))
                .collect()
        } else {
            let ids = task.packet_ids();
            self.clear_bits(0..self.bits.len())
                .filter(|&i| i < ids)
                .map(|i| self.layout.packet_at(i))
                .map(|p| (task.destination(p).expect("one destination"), p))
                .collect()
        };
        let (mut spared, mut unspared) = (0, 0);
        let mut first: Option<(NodeId, PacketId)> = None;
        for (node, packet) in missing {
            if excused(node, packet) {
                spared += 1;
            } else {
                unspared += 1;
                if first.is_none_or(|f| (node, packet) < f) {
                    first = Some((node, packet));
                }
            }
        }
        (first, spared, unspared)
    }

    /// The indices in `bits` of the bits not set, word by word (full words
    /// cost one comparison).
    fn clear_bits_between(&self, bits: std::ops::Range<u64>) -> impl Iterator<Item = u64> + '_ {
        let words = (bits.start / 64) as usize..bits.end.div_ceil(64) as usize;
        self.clear_bits(words.start..words.end.min(self.bits.len()))
            .skip_while(move |&i| i < bits.start)
            .take_while(move |&i| i < bits.end)
    }

    /// The indices of the bits not set in the words `words`, word by word
    /// (full words cost one comparison).
    fn clear_bits(&self, words: std::ops::Range<usize>) -> impl Iterator<Item = u64> + '_ {
        let first = words.start;
        self.bits[words]
            .iter()
            .enumerate()
            .map(move |(i, w)| (first + i, w))
            .filter(|(_, w)| **w != u64::MAX)
            .flat_map(|(i, w)| {
                (0..64)
                    .filter(move |b| w & (1 << b) == 0)
                    .map(move |b| i as u64 * 64 + b)
            })
    }

    /// True if `node` holds every packet the task requires of it (for
    /// pictures; a scan of every packet of a personalised task).
    pub fn complete_at(&self, node: NodeId) -> bool {
        if !self.personal() {
            return self
                .columns
                .iter()
                .all(|&p| !self.task.requires(node, p) || self.holds(node, p));
        }
        (0..self.task.packet_ids() as PacketId)
            .filter(|&p| self.task.is_packet(p) && self.task.destination(p) == Some(node))
            .all(|p| self.delivered(p))
    }

    /// Bytes these holdings take (for the executor's memory estimate):
    /// one bit per required (node, packet) and a word per personalised
    /// packet.
    pub fn bytes(task: &Task) -> u64 {
        match task {
            Task::Broadcast { .. } | Task::Gossip { .. } | Task::Schedule(_) => {
                (task.nodes() as u64 * task.broadcast_packets().len() as u64).div_ceil(8)
            }
            _ => task.packet_ids().div_ceil(8) + 4 * task.packet_ids(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relay_holds_a_packet_until_it_sends_it_on() {
        // Scatter from node 0 on four nodes: packet 3 goes 0 -> 1 -> 3.
        let task = Task::Scatter { nodes: 4, root: 0 };
        let mut h = Holdings::initial(&task);
        assert!(h.holds(0, 3) && !h.holds(1, 3));
        assert_eq!(h.first_missing(), Some((1, 1)));
        assert!(h.insert(1, 3));
        assert!(h.holds(1, 3));
        assert!(!h.insert(1, 3), "a second copy at the relay");
        h.release(1, 3);
        assert!(!h.holds(1, 3));
        assert!(h.insert(3, 3));
        assert!(h.holds(3, 3) && h.holds(0, 3));
        assert!(!h.insert(3, 3), "a second delivery");
        assert!(!h.insert(0, 3), "back to its origin");
        assert!(h.insert(1, 1) && h.insert(2, 2));
        assert_eq!(h.first_missing(), None);
    }

    /// A row of nodes written word by word (a part laid out by packet)
    /// finds and sets what inserting node by node does, in every layout.
    #[test]
    fn a_row_of_nodes_inserted_at_once_is_each_inserted() {
        let task = Task::Gossip {
            nodes: 256,
            per_message: 1,
        };
        let mut random = crate::seeded(3);
        for by_packet in [true, false] {
            let make = || match by_packet {
                true => Holdings::by_packet(&task, 128),
                false => Holdings::in_blocks(&task, 128),
            };
            let (mut at_once, mut each) = (make(), make());
            for case in 0..2000 {
                let packet = random(260) as PacketId;
                let lo = random(256) as NodeId;
                let hi = lo + random(140).min(256 - lo as u64) as NodeId;
                let part = (lo / 128) as usize;
                let (mut a, mut b) = (at_once.parts(128).unwrap(), each.parts(128).unwrap());
                let hi = hi.min((part as NodeId + 1) * 128);
                let got = a[part].insert_nodes(lo..hi, packet);
                assert_eq!(
                    got,
                    insert_at_each(&mut b[part], lo..hi, packet),
                    "case {case}: {lo}..{hi} receive {packet}"
                );
                drop((a, b));
                assert_eq!(at_once, each, "case {case}");
            }
        }
    }

    /// A total exchange kept by offset (row origin xor destination)
    /// answers every question as the same holdings kept by packet id,
    /// after the same random deliveries and releases.
    #[test]
    fn a_total_exchange_kept_by_offset_answers_as_kept_by_id() {
        let task = Task::TotalExchange { nodes: 8 };
        let mut by_offset = Holdings::initial(&task);
        assert_eq!(by_offset.layout, Layout::Personal { offsets: 3 });
        let places: std::collections::BTreeSet<usize> =
            (0..64).map(|p| by_offset.layout.place(p)).collect();
        assert_eq!(places.len(), 64, "a place per packet");
        for p in 0..64 {
            let i = by_offset.layout.place(p) as u64;
            assert_eq!(by_offset.layout.packet_at(i), p);
        }
        let mut by_id = Holdings::initial(&task);
        by_id.layout = Layout::Personal { offsets: 0 };
        by_id.bits.iter_mut().for_each(|w| *w = 0);
        for p in (0..64).filter(|&p| !task.is_packet(p)) {
            by_id.bits[p as usize / 64] |= 1 << (p % 64);
        }
        let mut random = crate::seeded(7);
        let mut answers = [0; 2];
        for step in 0..3000 {
            let (node, packet) = (random(8) as NodeId, random(70) as PacketId);
            if random(3) == 0 {
                by_offset.release(node, packet);
                by_id.release(node, packet);
            } else {
                let fresh = by_offset.insert(node, packet);
                assert_eq!(fresh, by_id.insert(node, packet), "step {step}");
                answers[fresh as usize] += 1;
            }
            for (v, p) in (0..8).flat_map(|v| (0..70).map(move |p| (v, p))) {
                assert_eq!(by_offset.holds(v, p), by_id.holds(v, p), "step {step}");
            }
            assert_eq!(by_offset.first_missing(), by_id.first_missing());
            assert_eq!(
                by_offset.first_missing_in(3..6),
                by_id.first_missing_in(3..6)
            );
            let odd = |v: NodeId, _| v % 2 == 1;
            assert_eq!(by_offset.missing_except(odd), by_id.missing_except(odd));
            for v in 0..8 {
                assert_eq!(by_offset.complete_at(v), by_id.complete_at(v));
            }
        }
        assert!(
            answers.iter().all(|&n| n > 100),
            "both answers: {answers:?}"
        );
    }

    #[test]
    fn a_packet_in_two_places_is_a_second_copy() {
        let task = Task::TotalExchange { nodes: 4 };
        let mut h = Holdings::initial(&task);
        let p = 3; // 0 -> 3
        assert!(h.insert(1, p));
        assert!(!h.insert(2, p), "the origin sent it twice");
        assert!(!h.holds(0, 0), "0 -> 0 is not a packet");
        assert_eq!(h.first_missing(), Some((0, 4)));
    }

    #[test]
    fn every_cell_of_a_multinode_broadcast_has_its_own_bit() {
        for (n, block) in [(2u32, 64), (4, 2), (6, 64), (64, 64), (128, 64), (256, 128)] {
            let task = Task::multinode_broadcast(n);
            let h = Holdings::in_blocks(&task, block);
            let mut seen = std::collections::HashSet::new();
            for node in 0..n {
                for packet in 0..n {
                    let (w, m) = h.column(node, packet).unwrap();
                    let i = w as u64 * 64 + m.trailing_zeros() as u64;
                    assert!(i < n as u64 * n as u64 && seen.insert(i));
                    assert_eq!(h.cell(i), (node, packet), "n = {n}");
                }
            }
            let mut h = Holdings::initial(&task);
            assert_eq!(h.first_missing(), Some((0, 1)));
            for node in 0..n {
                for packet in (0..n).filter(|&p| p != node) {
                    assert!(h.insert(node, packet) && h.holds(node, packet));
                }
            }
            assert_eq!(h.first_missing(), None);
        }
    }

    #[test]
    fn broadcast_holdings_are_a_node_by_packet_matrix() {
        let task = Task::Broadcast {
            nodes: 4,
            sources: vec![2, 0],
        };
        let mut h = Holdings::initial(&task);
        assert!(h.holds(2, 2) && h.holds(0, 0) && !h.holds(1, 0));
        assert!(h.insert(1, 0) && !h.insert(1, 0));
        h.release(1, 0);
        assert!(h.holds(1, 0), "a broadcast packet is kept");
        assert_eq!(h.first_missing(), Some((0, 2)));
        assert!(!h.holds(1, 1), "not a packet of the task");
    }

    /// Sources 0..k of a larger cube are not every source: each of the 16
    /// nodes of the 4-cube has its own bit for packets 0 and 1 (this
    /// layout once indexed them by `packet xor node`, out of range).
    #[test]
    fn the_first_sources_of_a_larger_cube_are_columns() {
        let task = Task::Broadcast {
            nodes: 16,
            sources: vec![0, 1],
        };
        let mut h = Holdings::initial(&task);
        for node in 2..16 {
            for packet in 0..2 {
                assert!(h.insert(node, packet) && h.holds(node, packet));
            }
        }
        assert_eq!(h.first_missing(), Some((0, 1)));
        assert!(h.insert(0, 1) && h.insert(1, 0));
        assert_eq!(h.first_missing(), None);
    }

    /// Holdings kept for a range of nodes answer of those nodes as the
    /// whole holdings do, through every layout of a broadcast: one packet,
    /// every source (in blocks) and columns.
    #[test]
    fn holdings_of_a_range_of_nodes_are_the_wholes_there() {
        let tasks = [
            Task::Broadcast {
                nodes: 100,
                sources: vec![37],
            },
            Task::multinode_broadcast(64),
            Task::Broadcast {
                nodes: 96,
                sources: vec![5, 40, 90],
            },
        ];
        for task in tasks {
            let n = task.nodes();
            let packets = task.broadcast_packets();
            for (ranks, block) in [(1u32, 64u64), (2, 32), (3, 2), (4, 8)] {
                let per = n.div_ceil(ranks).next_multiple_of(block as u32);
                let mut whole = Holdings::in_blocks(&task, block);
                let mut parts: Vec<Holdings> = (0..ranks)
                    .map(|r| (r * per).min(n)..((r + 1) * per).min(n))
                    .map(|range| Holdings::of_nodes(&task, block, range))
                    .collect();
                // Every third cell delivered, once to the whole and once to
                // the owner's part.
                for (k, (node, &packet)) in (0..n)
                    .flat_map(|v| packets.iter().map(move |p| (v, p)))
                    .enumerate()
                    .filter(|(k, _)| k % 3 == 0)
                {
                    let part = &mut parts[(node / per) as usize];
                    assert_eq!(part.insert(node, packet), whole.insert(node, packet), "{k}");
                }
                for (r, part) in parts.iter().enumerate() {
                    let range = (r as u32 * per).min(n)..((r as u32 + 1) * per).min(n);
                    for node in range.clone() {
                        for &packet in &packets {
                            assert_eq!(part.holds(node, packet), whole.holds(node, packet));
                        }
                    }
                    assert_eq!(
                        part.first_missing_in(range.clone()),
                        whole.first_missing_in(range.clone()),
                        "{task:?}, rank {r} of {ranks}"
                    );
                    let spared = |v: NodeId, _| v.is_multiple_of(2);
                    let (first, spared_n, unspared) = part.missing_except(spared);
                    let in_range = |v: &NodeId| range.contains(v);
                    let all = whole.missing_except(|v, p| !in_range(&v) || spared(v, p));
                    assert_eq!((first, unspared), (all.0, all.2), "{task:?}, rank {r}");
                    assert!(spared_n <= all.1);
                }
            }
        }
    }

    /// Laid out by packet in blocks: every cell has its own bit, `cell`
    /// inverts `column`, and the parts own whole blocks (a part's inserts
    /// are seen by the whole).
    #[test]
    fn by_packet_blocks_give_every_cell_its_own_bit() {
        for (n, block) in [
            (4u32, 64),
            (100, 64),
            (128, 64),
            (256, 64),
            (256, 128),
            (256, 256),
        ] {
            let task = Task::Broadcast {
                nodes: n,
                sources: (0..n).filter(|v| v % 3 == 0).collect(),
            };
            let packets: Vec<PacketId> = task.broadcast_packets();
            let mut h = Holdings::by_packet(&task, block);
            let mut seen = std::collections::HashSet::new();
            for node in 0..n {
                for &packet in &packets {
                    let (w, m) = h.column(node, packet).unwrap();
                    let i = w as u64 * 64 + m.trailing_zeros() as u64;
                    assert!(i < (n as u64 * packets.len() as u64).next_multiple_of(64));
                    assert!(seen.insert(i), "n = {n}, block = {block}");
                    assert_eq!(h.cell(i), (node, packet), "n = {n}, block = {block}");
                }
            }
            if let Some(mut parts) = h.parts(block as u32) {
                for (k, part) in parts.iter_mut().enumerate() {
                    let node = k as u32 * block as u32 + 1;
                    assert!(part.insert(node, packets[1]) && !part.insert(node, packets[1]));
                }
                drop(parts);
                for k in 0..n / block as u32 {
                    assert!(h.holds(k * block as u32 + 1, packets[1]));
                }
            }
        }
    }
}
