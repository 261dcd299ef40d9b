//! A user's own protocol, checked from outside the catalogue: broadcast
//! along a Hamiltonian path of the n-cube, pipelined.
//!
//! # The protocol
//! The path is the reflected Gray code g(i) = i xor (i >> 1): consecutive
//! codes differ in one bit, so g(0), g(1), ..., g(2^n - 1) visits every
//! node of the n-cube once, each step over one link. The source s sits at
//! position 0; for another source the path is relabelled by xor (node v is
//! at position g^-1(v xor s)). Store-and-forward, one link per slot: a node
//! forwards whatever it receives to its successor on the path in the next
//! slot, and the source injects its K packets one a slot. Every node sends
//! and receives at most one packet a slot, so the run is checked under
//! one-port (the papers' SLA), the stronger claim.
//!
//! # The claim
//! Complete, one copy per node, contention-free, causal, K (2^n - 1)
//! transmissions (one per needed delivery), and 2^n - 2 + K slots: the
//! last packet leaves the source in slot K and takes 2^n - 1 hops. For one
//! packet that is 2^n - 1 slots and 2^n - 1 transmissions.
//!
//! "Pipelined" matters for several packets, and the task vocabulary has
//! them: `Task::Broadcast` lists packet ids, a node's (m+1)-th packet
//! being m 2^n + node, so K packets from one source are one task. The
//! one-port lower bound printed beside the time is K + n - 1 (the last
//! packet leaves the source no earlier than slot K, and the farthest node
//! is n hops away): for K much larger than 2^n the path is close to it.
//!
//! # What `main` does
//! 1. Checks the protocol exhaustively at n = 4 with one packet and at
//!    n = 3 with K = 3, from every source (no symmetry is declared, so
//!    none is assumed): the lock-step model and the asynchronous (actor)
//!    model, where the protocol reacts to each arrival on its own. (The
//!    actor model interleaves the K packets' deliveries: 344,048 states
//!    at n = 3, K = 3, and 3.1 million already at n = 4, K = 2.)
//! 2. Runs it in the executor at n = 20 (2^20 - 1 = 1,048,575 slots for
//!    one packet) and at n = 20 with K = 8.
//! 3. Checks a seeded variant at n = 3, K = 3: a source that injects two
//!    packets a slot (the pipelining rate got wrong), built with the
//!    generic `models::mutant::Mutant`. Contention-freedom must catch it
//!    in the lock-step model; the report prints the counterexample and its
//!    Explorer path.
//!
//! The exit code is nonzero if the honest protocol fails a claim, or
//! measures another time or count than claimed, or if the seeded variant
//! passes.
//!
//! Run it with `cargo run --release --example gray_path`.

use commcheck::check::{check_protocol, Engine, Options, Subject};
use commcheck::report::{Outcome, PropertyReport};
use models::config::Params;
use models::mutant::{Mutant, MutantState, Mutation};
use models::{
    Arrival, Config, Family, Hints, Hypercube, Inputs, Ports, Protocol, Switching, Topology,
};
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Status, Task, Transmission};
use std::process::ExitCode;

/// The reflected Gray code of `i`: the node at position `i` of the path
/// from source 0.
pub fn gray(i: u32) -> u32 {
    i ^ (i >> 1)
}

/// The position of `g` on the path from source 0 (the inverse of [`gray`]:
/// bit k of the position is the xor of bits k and above of `g`).
pub fn position(mut g: u32) -> u32 {
    let mut i = 0;
    while g != 0 {
        i ^= g;
        g >>= 1;
    }
    i
}

/// The pipelined Gray-path broadcast of `packets` packets on one n-cube.
#[derive(Clone, Debug)]
pub struct GrayPath {
    cube: Hypercube,
    packets: u32,
}

impl GrayPath {
    /// The broadcast of `packets` packets on the n-cube, store-and-forward
    /// and one-port.
    pub fn new(n: u32, packets: u32) -> Self {
        assert!(packets >= 1 && (packets as u64) << n <= 1 << 32);
        GrayPath {
            cube: Hypercube::new(n, Switching::Sf, Ports::One),
            packets,
        }
    }

    /// The configuration reports name (`gray-path n=4 K=3`).
    pub fn config(&self) -> Config {
        Config {
            n: self.cube.dim(),
            switching: Switching::Sf,
            ports: Ports::One,
            params: Params {
                k: Some(self.packets as u64),
                ..Params::default()
            },
        }
    }

    /// The claimed completion time: 2^n - 2 + K.
    pub fn time(&self) -> Slot {
        self.cube.nodes() - 2 + self.packets
    }

    /// The node after `node` on the path from `source`, if `node` is not
    /// the last: positions i and i + 1 differ in bit tz(i + 1).
    pub fn successor(&self, source: NodeId, node: NodeId) -> Option<NodeId> {
        let next = position(node ^ source) + 1;
        (next < self.cube.nodes()).then(|| node ^ (1 << next.trailing_zeros()))
    }
}

impl Protocol for GrayPath {
    type Topo = Hypercube;
    /// The source.
    type Input = NodeId;
    /// The packets the node has still to inject: K at the source, else 0.
    type State = u32;
    /// The packet: m 2^n + source for the source's (m+1)-th.
    type Msg = PacketId;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn domain(&self) -> impl Inputs<NodeId> + '_ {
        self
    }

    fn claims(&self) -> Claims {
        let n = self.cube.dim();
        Claims {
            claimed: PropertyName::OPTIMAL.to_vec(),
            bound: Some(self.time()),
            lower_bound: Some(self.packets + n - 1),
            // One transmission per needed delivery: K (2^n - 1).
            transmissions: None,
        }
    }

    fn init(&self, &source: &NodeId, node: NodeId) -> u32 {
        if node == source {
            self.packets
        } else {
            0
        }
    }

    fn packets(&self, &packet: &PacketId, mut f: impl FnMut(PacketId)) {
        f(packet)
    }

    fn step(
        &self,
        node: NodeId,
        left: &mut u32,
        _slot: Slot,
        arrivals: &[Arrival<PacketId>],
        _choice: u32,
        out: &mut Vec<Transmission<PacketId>>,
    ) -> bool {
        let nodes = self.cube.nodes();
        // A relay forwards what arrived; the source injects one packet.
        let injected = (*left > 0).then(|| (self.packets - *left) * nodes + node);
        *left = left.saturating_sub(1);
        for packet in arrivals.iter().map(|a| a.msg).chain(injected) {
            if let Some(to) = self.successor(packet % nodes, node) {
                let route = Route::Link { from: node, to };
                out.push(Transmission { route, msg: packet });
            }
        }
        *left > 0
    }

    /// Each arrival is forwarded on its own: the actor model applies.
    fn hints(&self) -> Hints {
        Hints::EVENT_DRIVEN
    }
}

/// Every node a source, each injecting `packets` packets (source x's m-th
/// is packet m 2^n + x) that every node must get.
impl Inputs<NodeId> for &GrayPath {
    fn task(&self, &source: &NodeId) -> Task {
        let nodes = self.cube.nodes();
        Task::Broadcast {
            nodes,
            sources: (0..self.packets).map(|m| m * nodes + source).collect(),
        }
    }

    fn source_input(&self, source: NodeId) -> Option<NodeId> {
        Some(source)
    }

    fn describe(&self, &source: &NodeId) -> String {
        format!("source {}", self.cube.node_label(source))
    }
}

/// The seeded bug: a source that injects two packets a slot (the
/// pipelining rate got wrong). Two packets then leave over one arc in
/// one slot: contention-freedom must catch it.
pub struct EagerSource;

impl Mutation<GrayPath> for EagerSource {
    type Memory = ();

    fn step(
        &self,
        path: &GrayPath,
        node: NodeId,
        state: &mut MutantState<u32, ()>,
        slot: Slot,
        arrivals: &[Arrival<PacketId>],
        choice: u32,
        out: &mut Vec<Transmission<PacketId>>,
    ) -> bool {
        let more = path.step(node, &mut state.inner, slot, arrivals, choice, out);
        match more {
            // The source has another packet: it injects it at once too.
            true => path.step(node, &mut state.inner, slot, &[], choice, out),
            false => false,
        }
    }
}

/// The subject reports name: `gray-path` at the path's configuration.
fn subject(path: &GrayPath, name: &str) -> Subject {
    Subject::new(name, Family::Cube, path.config())
}

/// The exhaustive check of the path broadcast of `packets` packets on the
/// n-cube, from every source: lock-step and actor model.
pub fn check_exhaustive(n: u32, packets: u32) -> Outcome {
    let path = GrayPath::new(n, packets);
    let options = Options {
        engine: Some(Engine::Exhaustive),
        ..Options::default()
    };
    let subject = subject(&path, "gray-path");
    check_protocol(path, &subject, &options).expect("a small cube is checked")
}

/// One executor run of the path broadcast from source 0 (named, so that
/// the report says which source it ran from).
pub fn execute(n: u32, packets: u32) -> Outcome {
    let path = GrayPath::new(n, packets);
    let options = Options {
        engine: Some(Engine::Executor),
        source: Some(0),
        ..Options::default()
    };
    let subject = subject(&path, "gray-path");
    check_protocol(path, &subject, &options).expect("the run fits in memory")
}

/// The check of the seeded variant (the eager source) in the lock-step
/// model: contention needs a global slot, so the actor model cannot see
/// this bug, and the Explorer path is the lock-step model's.
pub fn check_seeded(n: u32, packets: u32) -> Outcome {
    let mutant = Mutant::new(GrayPath::new(n, packets), EagerSource);
    let options = Options {
        engine: Some(Engine::Lockstep),
        ..Options::default()
    };
    let subject = subject(&mutant.inner, "gray-path-eager-source");
    check_protocol(mutant, &subject, &options).expect("a small cube is checked")
}

/// What `main` checked: the honest protocol at each (n, K), exhaustively
/// or in the executor, and the seeded variant. A test reads the same.
pub struct Findings {
    /// (n, K, outcome) of the honest protocol.
    pub honest: Vec<(u32, u32, Outcome)>,
    /// The seeded variant's outcome.
    pub seeded: Outcome,
}

/// Exhaustive checks at n = 4 (one packet) and n = 3 (three packets).
pub const EXHAUSTIVE: [(u32, u32); 2] = [(4, 1), (3, 3)];
/// Executor runs at n = 20: one packet, and eight.
pub const EXECUTED: [(u32, u32); 2] = [(20, 1), (20, 8)];
/// The seeded variant's size: three packets on the 3-cube.
pub const SEEDED: (u32, u32) = (3, 3);

/// Runs every check of `main`, handing each outcome to `show` as it
/// comes.
pub fn findings(mut show: impl FnMut(&Outcome)) -> Findings {
    let mut honest = Vec::new();
    let mut keep = |n, packets, outcome: Outcome| {
        show(&outcome);
        honest.push((n, packets, outcome));
    };
    for (n, packets) in EXHAUSTIVE {
        keep(n, packets, check_exhaustive(n, packets));
    }
    for (n, packets) in EXECUTED {
        keep(n, packets, execute(n, packets));
    }
    let seeded = check_seeded(SEEDED.0, SEEDED.1);
    show(&seeded);
    Findings { honest, seeded }
}

/// True if every claim of `outcome` holds and the run took the claimed
/// time and count: 2^n - 2 + K slots, K (2^n - 1) transmissions.
pub fn kept(outcome: &Outcome, n: u32, packets: u32) -> bool {
    let path = GrayPath::new(n, packets);
    let count = packets as u64 * (path.cube.nodes() as u64 - 1);
    let verdicts = outcome
        .properties
        .iter()
        .all(|p| !p.claimed || p.status == Status::Holds);
    verdicts && outcome.time.measured == Some(path.time()) && outcome.transmissions == Some(count)
}

/// The claimed property the seeded variant breaks, if any: the first
/// violated, with its counterexample and Explorer path.
pub fn caught(seeded: &Outcome) -> Option<&PropertyReport> {
    seeded
        .properties
        .iter()
        .find(|p| p.claimed && p.status == Status::Violated)
}

/// True if the honest protocol kept every claim and the seeded bug was
/// caught.
pub fn judge(findings: &Findings) -> bool {
    let honest = findings.honest.iter().all(|(n, k, o)| kept(o, *n, *k));
    honest && caught(&findings.seeded).is_some()
}

fn main() -> ExitCode {
    let findings = findings(|outcome| println!("{}", outcome.text()));
    match caught(&findings.seeded) {
        Some(p) => {
            let text = p.counterexample.as_ref().map_or("", |c| &c.text);
            println!("seeded bug caught by {}: {text}", p.name);
            if let Some(path) = &p.explorer_path {
                println!("explorer: #/steps/{path} (the lock-step model of the seeded variant)");
            }
        }
        None => println!("the seeded bug was NOT caught"),
    }
    if judge(&findings) {
        ExitCode::SUCCESS
    } else {
        println!("FAILED: a claim of the honest protocol broke, or the seeded bug passed");
        ExitCode::FAILURE
    }
}
