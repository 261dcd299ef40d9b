//! A user's own broadcast tree on a mesh, checked from outside the
//! catalogue: the comb.
//!
//! # The protocol
//! On the mesh M(R, C) (`models::Grid`, rows first: node (r, c)), the
//! source (r0, c0) sends its packet along its own row, both ways, and
//! down its own column, both ways; every node of the source's row passes
//! it on along the row and into its column, both ways; every other node
//! passes it on along its column, away from the source's row. The tree is
//! a comb: the source's row is the spine, the columns are the teeth.
//! Store-and-forward, all-port: a node sends in the slot after the packet
//! reaches it, on every link its rule names. A node forwards its first
//! copy only (in the tree there is no second).
//!
//! The catalogue's `mesh-sf` builds the dimension-order tree the other
//! way round (the source's column first, then every row); the comb is the
//! user's own choice of order, and a node decides from the link the packet
//! came over, nothing else.
//!
//! # The claim
//! Node (r, c) is reached in slot |r - r0| + |c - c0|, its distance from
//! the source, so the run takes the source's eccentricity max(r0, R - 1 -
//! r0) + max(c0, C - 1 - c0), the all-port lower bound: that is the claimed
//! time. Complete, one copy per node, contention-free (every arc carries
//! the packet once), causal, R C - 1 transmissions.
//!
//! The claim depends on the source, and `Protocol::claims` does not take
//! the input: the protocol is built for one source (its bound is that
//! source's), and `main` checks every source on its own. Built without a
//! source, it claims the largest eccentricity, the diameter.
//!
//! # What `main` does
//! 1. Checks the comb exhaustively on M(4,5) from each of its 20 sources,
//!    each against its own eccentricity: the lock-step model and the
//!    asynchronous (actor) model, where the protocol reacts to each
//!    arrival on its own. It prints the report of one source and a line
//!    per source; the time bound of each is that source's eccentricity.
//! 2. Runs it in the executor on M(1024,1024) from (300,700), whose
//!    eccentricity is 723 + 700 = 1423 (the diameter is 2046).
//! 3. Checks a seeded variant on M(3,4): a tooth that branches (a node
//!    reached along its column also sends along its row, the test for
//!    "reached along the row" left out), built with the generic
//!    `models::mutant::Mutant`. No-duplication must catch it in the
//!    lock-step model; the report prints the counterexample and its
//!    Explorer path.
//!
//! The exit code is nonzero if the honest comb fails a claim, or measures
//! another time or count than claimed, or if the seeded variant passes.
//!
//! Run it with `cargo run --release --example mesh_tree`.

use commcheck::check::{check_protocol, Engine, Options, Subject};
use commcheck::report::{Outcome, PropertyReport};
use models::config::Params;
use models::mutant::{Mutant, MutantState, Mutation};
use models::topology::grid::Dir;
use models::{
    Arrival, Config, Family, Grid, Hints, Inputs, Ports, Protocol, Sources, Switching, Topology,
};
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Status, Transmission};
use std::process::ExitCode;

/// The row coordinate (the first, varying slowest in node ids).
const ROW: usize = 0;
/// The column coordinate.
const COL: usize = 1;

/// The comb broadcast on one mesh, for one source or for all.
#[derive(Clone, Debug)]
pub struct Comb {
    grid: Grid,
    /// The source whose eccentricity the claim is; None: every source,
    /// the largest of theirs.
    source: Option<NodeId>,
}

/// A node's state: what it still has to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum State {
    /// The source, before slot 1.
    Source,
    /// Not reached yet.
    Waiting,
    /// Forwarded (later copies are dropped).
    Done,
}

impl Comb {
    /// The comb on the mesh of `rows` x `cols`, its claim for `source`
    /// (else for every source).
    pub fn new(rows: u32, cols: u32, source: Option<NodeId>) -> Self {
        Comb {
            grid: Grid::new(&[rows, cols], false, Switching::Sf, Ports::All),
            source,
        }
    }

    /// The configuration reports name (`comb M(4,5)`).
    pub fn config(&self) -> Config {
        let sides = self.grid.sides().to_vec();
        Config {
            n: sides.iter().copied().max().unwrap_or(0),
            switching: Switching::Sf,
            ports: Ports::All,
            params: Params {
                sides: Some(sides),
                source: self.source,
                ..Params::default()
            },
        }
    }

    /// The claimed time from `source`: its eccentricity.
    pub fn bound(&self, source: NodeId) -> Slot {
        self.grid.eccentricity(source)
    }

    /// The direction along coordinate `i` in which the packet travelled
    /// from `from` to its neighbour `node`, if they differ there.
    fn travelled(&self, from: NodeId, node: NodeId, i: usize) -> Option<Dir> {
        [Dir::Up, Dir::Down]
            .into_iter()
            .find(|&d| self.grid.neighbour(from, i, d) == Some(node))
    }

    /// The neighbours `node` sends to, having got the packet from `from`
    /// (None: at the source).
    pub fn children(&self, node: NodeId, from: Option<NodeId>) -> Vec<NodeId> {
        let both = [Dir::Up, Dir::Down];
        let mut moves: Vec<(usize, Dir)> = Vec::new();
        match from {
            // The source: its row and its column, both ways.
            None => moves.extend(
                both.map(|d| (COL, d))
                    .into_iter()
                    .chain(both.map(|d| (ROW, d))),
            ),
            Some(from) => match self.travelled(from, node, COL) {
                // On the spine: on along the row, and into the column.
                Some(d) => moves.extend([(COL, d), (ROW, Dir::Up), (ROW, Dir::Down)]),
                // On a tooth: on along the column.
                None => moves.extend(self.travelled(from, node, ROW).map(|d| (ROW, d))),
            },
        }
        moves
            .into_iter()
            .filter_map(|(i, d)| self.grid.neighbour(node, i, d))
            .collect()
    }
}

impl Protocol for Comb {
    type Topo = Grid;
    /// The source.
    type Input = NodeId;
    type State = State;
    /// The packet, named by its source.
    type Msg = NodeId;

    fn topology(&self) -> &Grid {
        &self.grid
    }

    fn domain(&self) -> impl Inputs<NodeId> + '_ {
        Sources::of(&self.grid) // every node a source
    }

    fn claims(&self) -> Claims {
        let time = match self.source {
            Some(s) => self.bound(s),
            None => (0..self.grid.nodes())
                .map(|s| self.bound(s))
                .max()
                .unwrap_or(0),
        };
        Claims {
            claimed: PropertyName::OPTIMAL.to_vec(),
            bound: Some(time),
            // Every node is reached at its distance: the eccentricity is
            // also the best any all-port broadcast can do.
            lower_bound: Some(time),
            // One transmission per needed delivery: R C - 1.
            transmissions: None,
        }
    }

    fn init(&self, &source: &NodeId, node: NodeId) -> State {
        match node == source {
            true => State::Source,
            false => State::Waiting,
        }
    }

    fn packets(&self, &packet: &NodeId, mut f: impl FnMut(PacketId)) {
        f(packet)
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut State,
        _slot: Slot,
        arrivals: &[Arrival<NodeId>],
        _choice: u32,
        out: &mut Vec<Transmission<NodeId>>,
    ) -> bool {
        let (packet, from) = match (*state, arrivals.first()) {
            (State::Source, _) => (node, None),
            (State::Waiting, Some(a)) => (a.msg, Some(a.from)),
            _ => return false,
        };
        *state = State::Done;
        for to in self.children(node, from) {
            let route = Route::Link { from: node, to };
            out.push(Transmission { route, msg: packet });
        }
        false
    }

    /// Each arrival is handled on its own: the actor model applies.
    fn hints(&self) -> Hints {
        Hints::EVENT_DRIVEN
    }
}

/// The seeded bug: a tooth that branches. A node reached along its column
/// also sends along its row, both ways, as if it were on the spine:
/// neighbouring teeth then hear the packet twice.
pub struct BranchingTooth;

impl Mutation<Comb> for BranchingTooth {
    type Memory = ();

    fn step(
        &self,
        comb: &Comb,
        node: NodeId,
        state: &mut MutantState<State, ()>,
        slot: Slot,
        arrivals: &[Arrival<NodeId>],
        choice: u32,
        out: &mut Vec<Transmission<NodeId>>,
    ) -> bool {
        let first = state.inner == State::Waiting;
        let more = comb.step(node, &mut state.inner, slot, arrivals, choice, out);
        if let (true, Some(a)) = (first, arrivals.first()) {
            let grid = comb.topology();
            if grid.coord(a.from, ROW) != grid.coord(node, ROW) {
                for d in [Dir::Up, Dir::Down] {
                    if let Some(to) = grid.neighbour(node, COL, d) {
                        let route = Route::Link { from: node, to };
                        out.push(Transmission { route, msg: a.msg });
                    }
                }
            }
        }
        more
    }
}

/// The subject reports name, at the comb's configuration.
fn subject(comb: &Comb, name: &str) -> Subject {
    Subject::new(name, Family::Grid { torus: false }, comb.config())
}

/// Options for a check of one source with `engine`.
fn options(engine: Engine, source: NodeId) -> Options {
    Options {
        engine: Some(engine),
        source: Some(source),
        ..Options::default()
    }
}

/// The exhaustive check of the comb on `rows` x `cols` from `source`,
/// against its eccentricity: lock-step and actor model.
pub fn check_source(rows: u32, cols: u32, source: NodeId) -> Outcome {
    let comb = Comb::new(rows, cols, Some(source));
    let subject = subject(&comb, "comb");
    check_protocol(comb, &subject, &options(Engine::Exhaustive, source))
        .expect("a small mesh is checked")
}

/// One executor run of the comb on `rows` x `cols` from `source`.
pub fn execute(rows: u32, cols: u32, source: NodeId) -> Outcome {
    let comb = Comb::new(rows, cols, Some(source));
    let subject = subject(&comb, "comb");
    check_protocol(comb, &subject, &options(Engine::Executor, source))
        .expect("the run fits in memory")
}

/// The check of the seeded variant (the branching tooth) in the lock-step
/// model, whose Explorer path the report gives. (Its actor model
/// interleaves every duplicate: 24 million states on M(3,4), two minutes.)
pub fn check_seeded(rows: u32, cols: u32, source: NodeId) -> Outcome {
    let mutant = Mutant::new(Comb::new(rows, cols, Some(source)), BranchingTooth);
    let subject = subject(&mutant.inner, "comb-branching-tooth");
    check_protocol(mutant, &subject, &options(Engine::Lockstep, source))
        .expect("a small mesh is checked")
}

/// A mesh and a source: what one check covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    pub rows: u32,
    pub cols: u32,
    /// The source's row and column.
    pub source: (u32, u32),
}

impl Case {
    /// The source's node id (rows first).
    pub fn source_id(&self) -> NodeId {
        self.source.0 * self.cols + self.source.1
    }
}

/// The small mesh checked exhaustively from every source.
pub const SMALL: (u32, u32) = (4, 5);
/// The executor's run: M(1024,1024) from (300,700).
pub const EXECUTED: Case = Case {
    rows: 1024,
    cols: 1024,
    source: (300, 700),
};
/// The seeded variant's check: M(3,4) from (1,1).
pub const SEEDED: Case = Case {
    rows: 3,
    cols: 4,
    source: (1, 1),
};

/// What `main` checked: the honest comb at each case, exhaustively or in
/// the executor, and the seeded variant. A test reads the same.
pub struct Findings {
    /// Each case of the honest comb, with its outcome.
    pub honest: Vec<(Case, Outcome)>,
    /// The seeded variant's outcome.
    pub seeded: Outcome,
}

/// Runs every check of `main`, handing each outcome to `show` with its
/// case as it comes (the seeded variant's with [`SEEDED`]).
pub fn findings(mut show: impl FnMut(&Case, &Outcome)) -> Findings {
    let mut honest = Vec::new();
    let (rows, cols) = SMALL;
    for r in 0..rows {
        for c in 0..cols {
            let case = Case {
                rows,
                cols,
                source: (r, c),
            };
            let outcome = check_source(rows, cols, case.source_id());
            show(&case, &outcome);
            honest.push((case, outcome));
        }
    }
    let case = EXECUTED;
    let outcome = execute(case.rows, case.cols, case.source_id());
    show(&case, &outcome);
    honest.push((case, outcome));
    let seeded = check_seeded(SEEDED.rows, SEEDED.cols, SEEDED.source_id());
    show(&SEEDED, &seeded);
    Findings { honest, seeded }
}

/// True if every claim of `outcome` holds and the run took the source's
/// eccentricity and R C - 1 transmissions.
pub fn kept(outcome: &Outcome, case: &Case) -> bool {
    let comb = Comb::new(case.rows, case.cols, None);
    let verdicts = outcome
        .properties
        .iter()
        .all(|p| !p.claimed || p.status == Status::Holds);
    verdicts
        && outcome.time.measured == Some(comb.bound(case.source_id()))
        && outcome.transmissions == Some(case.rows as u64 * case.cols as u64 - 1)
}

/// The claimed property the seeded variant breaks, if any: the first
/// violated, with its counterexample and Explorer path.
pub fn caught(seeded: &Outcome) -> Option<&PropertyReport> {
    seeded
        .properties
        .iter()
        .find(|p| p.claimed && p.status == Status::Violated)
}

/// True if the honest comb kept every claim and the seeded bug was
/// caught.
pub fn judge(findings: &Findings) -> bool {
    let honest = findings.honest.iter().all(|(case, o)| kept(o, case));
    honest && caught(&findings.seeded).is_some()
}

fn main() -> ExitCode {
    let shown = (1, 2);
    let findings = findings(|case, outcome| {
        let small = (case.rows, case.cols) == SMALL;
        if !small || case.source == shown || !kept(outcome, case) {
            println!("{}", outcome.text());
        }
        if small {
            println!(
                "comb M({},{}) from ({},{}): {} slots, eccentricity {}, states {} lock-step, \
                 {} actor model: {}",
                case.rows,
                case.cols,
                case.source.0,
                case.source.1,
                outcome.time.measured.map_or("-".into(), |t| t.to_string()),
                outcome.time.bound.map_or("-".into(), |t| t.to_string()),
                outcome.states.unwrap_or(0),
                outcome.actor_states.unwrap_or(0),
                match kept(outcome, case) {
                    true => "every claim holds",
                    false => "FAILED",
                }
            );
        }
    });
    println!();
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
        println!("FAILED: a claim of the honest comb broke, or the seeded bug passed");
        ExitCode::FAILURE
    }
}
