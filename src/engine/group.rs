//! The MPI ranks of one process group (`--features mpi`, started by
//! `mpirun`): what the engines that run over ranks need of MPI, and no
//! more. Every call here is collective: each rank makes it, in the same
//! order, or the group waits for ever. The engines keep that by taking
//! the same branches on every rank (they decide on values every rank has
//! been told: [`World::any`], [`World::max`]).
//!
//! What ranks hand each other is bytes: arrivals, records, runs and
//! search states in bincode's binary form of serde (`wire`).

use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::*;
use mpi::Count;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Starts MPI (once, in `main`); its drop ends it. Threads may call MPI
/// one at a time (the executor runs on whichever thread runs the check).
pub fn init() -> Option<mpi::environment::Universe> {
    mpi::initialize_with_threading(mpi::Threading::Serialized).map(|(u, _)| u)
}

/// The group of every rank, if MPI has been started; None otherwise (a
/// test, a library user), when every engine runs in this process alone.
pub fn world() -> Option<World> {
    mpi::environment::is_initialized().then(|| {
        let comm = SimpleCommunicator::world();
        World {
            rank: comm.rank() as usize,
            size: comm.size() as usize,
            comm,
        }
    })
}

/// The most bytes one rank hands another in one round of
/// [`World::exchange`] (MPI counts are 32-bit).
const ROUND: usize = 1 << 30;

/// Every rank of the run, and which one this is.
pub struct World {
    comm: SimpleCommunicator,
    /// This rank, 0 to `size - 1`.
    pub rank: usize,
    /// How many ranks.
    pub size: usize,
}

impl World {
    /// True if `mine` is true on any rank.
    pub fn any(&self, mine: bool) -> bool {
        self.max(&[mine as u64])[0] != 0
    }

    /// The largest of each value over every rank.
    pub fn max(&self, mine: &[u64]) -> Vec<u64> {
        let mut all = vec![0u64; mine.len()];
        self.comm
            .all_reduce_into(mine, &mut all[..], mpi::collective::SystemOperation::max());
        all
    }

    /// The sum of each value over every rank.
    pub fn sum(&self, mine: &[u64]) -> Vec<u64> {
        let mut all = vec![0u64; mine.len()];
        self.comm
            .all_reduce_into(mine, &mut all[..], mpi::collective::SystemOperation::sum());
        all
    }

    /// Hands `out[r]` to rank `r`, for every r, and returns what every
    /// rank handed this one, by rank (this rank's own `out` entry comes
    /// back as it was). In rounds of at most [`ROUND`] bytes a pair.
    pub fn exchange(&self, mut out: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        assert_eq!(out.len(), self.size, "one buffer a rank");
        let mut got: Vec<Vec<u8>> = vec![Vec::new(); self.size];
        got[self.rank] = std::mem::take(&mut out[self.rank]);
        let mut sent = vec![0usize; self.size];
        loop {
            let counts: Vec<Count> = (0..self.size)
                .map(|r| match r == self.rank {
                    true => 0,
                    false => (out[r].len() - sent[r]).min(ROUND) as Count,
                })
                .collect();
            let mut incoming = vec![0 as Count; self.size];
            self.comm.all_to_all_into(&counts[..], &mut incoming[..]);
            // Never an empty buffer: MPI refuses a send buffer at the
            // receive buffer's address, which two empty vectors share.
            let mut send =
                Vec::with_capacity(1 + counts.iter().map(|&c| c as usize).sum::<usize>());
            for r in 0..self.size {
                send.extend_from_slice(&out[r][sent[r]..sent[r] + counts[r] as usize]);
            }
            let total = incoming.iter().map(|&c| c as usize).sum::<usize>();
            let mut recv = Vec::with_capacity(total + 1);
            recv.resize(total, 0u8);
            {
                let displs = |c: &[Count]| -> Vec<Count> {
                    c.iter()
                        .scan(0, |at, &n| {
                            let d = *at;
                            *at += n;
                            Some(d)
                        })
                        .collect()
                };
                let (sd, rd) = (displs(&counts), displs(&incoming));
                let s = Partition::new(&send[..], &counts[..], &sd[..]);
                let mut r = PartitionMut::new(&mut recv[..], &incoming[..], &rd[..]);
                self.comm.all_to_all_varcount_into(&s, &mut r);
            }
            let mut at = 0;
            for (r, &c) in incoming.iter().enumerate() {
                got[r].extend_from_slice(&recv[at..at + c as usize]);
                at += c as usize;
            }
            for (r, &c) in counts.iter().enumerate() {
                sent[r] += c as usize;
            }
            let left = (0..self.size).any(|r| r != self.rank && sent[r] < out[r].len());
            if !self.any(left) {
                return got;
            }
        }
    }

    /// Every rank's `mine`, by rank, at rank 0; None on the others.
    pub fn gather<T: Serialize + DeserializeOwned>(&self, mine: &T) -> Option<Vec<T>> {
        let bytes = wire::put(mine);
        let mut out = vec![Vec::new(); self.size];
        out[0] = bytes;
        let got = self.exchange(out);
        (self.rank == 0).then(|| got.iter().map(|b| wire::get(b)).collect())
    }

    /// How many ranks run on rank 0's host (every rank is told): they
    /// share its memory.
    pub fn on_first_host(&self) -> usize {
        let name = mpi::environment::processor_name().unwrap_or_default();
        let names = self.gather(&name);
        self.from_first(names.map(|all| all.iter().filter(|n| **n == all[0]).count()))
    }

    /// Rank 0's `value` on every rank (the others' `value` is ignored).
    pub fn from_first<T: Serialize + DeserializeOwned>(&self, value: Option<T>) -> T {
        let bytes = match (self.rank, value) {
            (0, Some(v)) => wire::put(&v),
            (0, None) => panic!("rank 0 has the value"),
            _ => Vec::new(),
        };
        let mut len = [bytes.len() as u64];
        self.comm.process_at_rank(0).broadcast_into(&mut len[..]);
        let mut buf = bytes;
        buf.resize(len[0] as usize, 0);
        for chunk in buf.chunks_mut(ROUND) {
            self.comm.process_at_rank(0).broadcast_into(chunk);
        }
        wire::get(&buf)
    }
}

/// Bytes as the ranks' closing notes say them.
pub fn amount(bytes: u64) -> String {
    match bytes {
        0..1_000_000 => format!("{bytes} B"),
        b => format!("{:.3} GB", b as f64 / 1e9),
    }
}

/// What ranks hand each other, as bytes: bincode with variable-length
/// integers (a search's states and paths are mostly small numbers).
pub mod wire {
    use bincode::Options;
    use properties::{Holdings, NodeId, Record};
    use serde::de::DeserializeOwned;
    use serde::Serialize;

    fn options() -> impl Options {
        bincode::DefaultOptions::new()
    }

    /// `value` as bytes.
    pub fn put<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
        options().serialize(value).expect("plain data serialises")
    }

    /// Appends `value`'s bytes to `out`.
    pub fn append<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
        options()
            .serialize_into(out, value)
            .expect("plain data serialises")
    }

    /// The value `bytes` hold, written by [`put`] on another rank of this
    /// same program.
    pub fn get<T: DeserializeOwned>(bytes: &[u8]) -> T {
        options()
            .deserialize(bytes)
            .expect("a rank of this program wrote it")
    }

    /// The value at the front of `bytes`, which are advanced past it.
    pub fn take<T: DeserializeOwned>(bytes: &mut &[u8]) -> T {
        options()
            .deserialize_from(bytes)
            .expect("a rank of this program wrote it")
    }

    /// Appends a search state: its input, its engine's own `parts`, what
    /// its holdings add to their task, and its record (the receiving
    /// rank knows the task).
    pub fn put_state<T: Serialize>(
        out: &mut Vec<u8>,
        input: usize,
        parts: &T,
        holdings: &Holdings,
        record: &Record,
    ) {
        let (bits, relay) = holdings.contents();
        append(out, &(input, parts, bits, relay, record));
    }

    /// Reads what [`put_state`] wrote at the front of `bytes`: the input,
    /// the parts and the record, the holdings' contents into `holdings`
    /// (made anew by `fresh` for an input other than `was`).
    pub fn take_state<T: DeserializeOwned>(
        bytes: &mut &[u8],
        was: usize,
        holdings: &mut Holdings,
        fresh: impl FnOnce(usize) -> Holdings,
    ) -> (usize, T, Record) {
        type Whole<T> = (usize, T, Vec<u64>, Vec<NodeId>, Record);
        let (input, parts, bits, relay, record): Whole<T> = take(bytes);
        if input != was {
            *holdings = fresh(input);
        }
        holdings.set_contents(&bits, &relay);
        (input, parts, record)
    }
}
