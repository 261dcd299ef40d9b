//! Grouping a slot's arrivals by receiver, for the next slot's senders to
//! read (the phased drive, for a protocol that reads its arrivals), and
//! the cursor through which a thread reads them.

use super::set_bit;
use models::Arrival;
use properties::NodeId;

/// Deliveries of a slot, each with its receiver.
pub(super) type Bucket<M> = [(NodeId, Arrival<M>)];

/// What arrived in the previous slot at one range of receivers, each
/// receiver's arrivals in sender order: by receiver offsets where many
/// arrived (`ends`), else as a sorted list of receivers (`to`).
pub(super) struct Arrived<M> {
    /// The arrivals, grouped by receiver.
    pub(super) msg: Vec<Arrival<M>>,
    /// Sparse: the receiver of each entry of `msg`, increasing.
    pub(super) to: Vec<NodeId>,
    /// Dense: `ends[i]` is where the arrivals of node `first + i` end.
    ends: Vec<u32>,
    /// Which of the two forms holds.
    dense: bool,
    /// The range's first node.
    first: NodeId,
}

impl<M: Copy> Arrived<M> {
    /// Nothing arrived.
    pub(super) fn new() -> Self {
        Arrived {
            msg: Vec::new(),
            to: Vec::new(),
            ends: Vec::new(),
            dense: false,
            first: 0,
        }
    }

    /// Forgets what arrived, leaving the sparse form (empty).
    pub(super) fn clear(&mut self) {
        self.msg.clear();
        self.to.clear();
        self.dense = false;
    }

    /// Hands `each` every entry of `sources` (each in sender order, the
    /// sources in order) and replaces the contents with them grouped by
    /// receiver, for receivers `first..first + range`. `tallies[s][i]` is
    /// how many entries of `sources[s]` go to node `first + i` (counted as
    /// they were sent, so that one pass over the entries places them: a
    /// counting sort where they are many); the tallies end zeroed. Sets
    /// the bit of every receiver in `next` (a word per 64 receivers).
    pub(super) fn group(
        &mut self,
        sources: &[&Bucket<M>],
        tallies: &mut [&mut [u32]],
        first: NodeId,
        range: usize,
        next: &mut [u64],
        mut each: impl FnMut(NodeId, &Arrival<M>),
    ) {
        self.to.clear();
        self.dense = false;
        self.first = first;
        let total: usize = sources.iter().map(|s| s.len()).sum();
        if total * 4 < range {
            self.msg.clear();
            for (source, tally) in sources.iter().zip(tallies.iter_mut()) {
                for (to, a) in source.iter() {
                    each(*to, a);
                    let i = (to - first) as usize;
                    tally[i] = 0;
                    set_bit(next, i);
                }
            }
            let mut all: Vec<(NodeId, Arrival<M>)> =
                sources.iter().flat_map(|s| s.iter()).copied().collect();
            all.sort_by_key(|(to, _)| *to);
            self.to.extend(all.iter().map(|e| e.0));
            self.msg.extend(all.iter().map(|e| e.1));
            return;
        }
        self.dense = true;
        let ends = &mut self.ends;
        ends.clear();
        ends.resize(range + 1, 0);
        let mut at = 0;
        for (i, end) in ends.iter_mut().enumerate() {
            *end = at;
            for tally in tallies.iter_mut().filter(|t| i < t.len()) {
                at += std::mem::take(&mut tally[i]);
            }
            if at != *end {
                set_bit(next, i);
            }
        }
        assert_eq!(at as usize, total, "the tallies count every entry");
        // ends[i] is now where node first + i starts; filling moves it to
        // where it ends. Every place below `total` is filled, so what the
        // last slot left there needs no clearing.
        let any = sources.iter().find_map(|s| s.first()).expect("total > 0").1;
        self.msg.truncate(total);
        self.msg.resize(total, any);
        for source in sources {
            for (to, a) in source.iter() {
                each(*to, a);
                let at = &mut ends[(to - first) as usize];
                self.msg[*at as usize] = *a;
                *at += 1;
            }
        }
    }
}

/// A thread's place in the grouped arrivals as it steps its nodes in
/// increasing order (a sparse range is read by walking, not searching).
pub(super) struct Cursor {
    /// The range last read.
    part: usize,
    /// Where in that range's sparse list the walk is.
    at: usize,
}

impl Cursor {
    /// At no range yet.
    pub(super) fn new() -> Self {
        Cursor {
            part: usize::MAX,
            at: 0,
        }
    }

    /// The arrivals of `node` (receivers split into ranges of 2^shift).
    pub(super) fn arrivals<'a, M>(
        &mut self,
        arrived: &'a [Arrived<M>],
        node: NodeId,
        shift: u32,
    ) -> &'a [Arrival<M>] {
        let part = (node >> shift) as usize;
        let Some(a) = arrived.get(part) else {
            return &[];
        };
        if a.dense {
            let i = (node - a.first) as usize;
            let start = if i == 0 { 0 } else { a.ends[i - 1] as usize };
            return &a.msg[start..a.ends[i] as usize];
        }
        if part != self.part {
            self.part = part;
            self.at = a.to.partition_point(|&t| t < node);
        }
        while self.at < a.to.len() && a.to[self.at] < node {
            self.at += 1;
        }
        let start = self.at;
        while self.at < a.to.len() && a.to[self.at] == node {
            self.at += 1;
        }
        &a.msg[start..self.at]
    }
}
