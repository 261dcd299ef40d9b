//! The integration tests, one module per algorithm or concern.

/// Helpers shared by the modules: run a protocol through each engine.
mod support;

/// The executor agrees with the exhaustive checker for n <= 6; commcheck's
/// search agrees with stateright's on the lock-step and actor models.
mod agreement;
/// Bertsekas et al.: Tables 1 and 2 at small d, Fig. 5's flaw, mutants of
/// relaying and combining.
mod bertsekas;
/// Headless Chromium follows the Explorer's discovery to the red arc.
mod browser;
/// Budgets bind: states, time, memory (under ulimit -v), Ctrl-C.
mod budgets;
/// Chakra execution traces: read as GOAL is, or as the MSCCL-IR they embed.
mod chakra;
/// The claims ledger: judges, statuses, and docs/claims.md as printed.
mod claims;
/// The `check` command: reports, JSON, and every bad input.
mod cli;
/// Cost models: LogGOPS through the command line, sizes, refusals.
mod cost;
/// dt: exhaustive n <= 5; its bound fails at n = 2 only.
mod dt;
/// The examples a user would write (examples/): each run as its `main`
/// runs it, held against times and counts computed here.
mod examples;
/// The Explorer serves the model with a picture of each state.
mod explorer;
/// --dot, --svg-load and --trace, read back and held against each other.
mod exports;
/// Faults, delays and skew: losses and excuses, ft-trees against every
/// fault set of its claim, the executor beside the lock-step model,
/// seeded bugs, refusals, the fault parser fuzzed.
mod faults;
/// flood: the checker finds and shows its duplicates.
mod flood;
/// Fujita's mesh-bus gossip: SIMPLE and its refinement at every l for n
/// <= 5, the executor beside them, mutants of the bus properties.
mod fujita;
/// The readers and the command line fuzzed with seeded mutations and
/// draws: one-line refusals, no panic.
mod fuzz;
/// GOAL files: a binomial broadcast and a dissemination barrier, their
/// worst orders and a dependency taken out; bad GOAL refused.
mod goal;
/// Stamoulis-Tsitsiklis section 3.2: prefix, kbcast and its variants over
/// every K-set and every order at small d; their errata; mutants.
mod kbcast;
/// Imports between files go one way, in every crate.
mod layout;
/// Lecture notes, section 11: broadcast on meshes and tori (every
/// source, against times computed from coordinates), Ho-Kao on the cube;
/// the notes' errata.
mod lecture_notes;
/// Machines as they are: switches, GPUs that do not forward, lanes,
/// graph files of version 2, ranks on the accelerators.
mod machines;
/// The executor over MPI ranks gives one process's report (`--features
/// mpi`, under mpirun).
#[cfg(feature = "mpi")]
mod mpi;
/// MSCCL-IR files: the ring allgather and allreduce generated here,
/// seeded bugs, dependencies released as the interpreter releases them.
mod msccl;
/// MSCCL++ execution plans judged at every relative speed: the classic
/// bugs found in the plan's terms, bad plans refused.
mod mscclpp;
/// Every property catches a seeded bug (a mutant protocol).
mod mutants;
/// naive-tree: the checker finds and shows the contention of Fig. 4(a).
mod naive_tree;
/// nob: exhaustive n <= 5 (lock-step, every rule-3 choice), actor model n <= 4.
mod nob;
/// nob-appendix: the Appendix's literal levels leave nodes uninformed.
mod nob_appendix;
/// The least rounds by exhaustive search, against the algorithms and bounds.
mod optimal;
/// The orders of a slot's local work: races found in the order that
/// breaks them; the reduction reaches what every order reaches.
mod orders;
/// README.md, docs/tour.md, docs/tutorial.md, docs/schedules.md: their commands say
/// what they quote, their pictures are what the tool exports.
mod pages;
/// The library's parts tested alone: the visited set, the judges, the
/// readers' pieces, the cost models, the tables' sheets.
mod parts;
/// Every catalogue run written as a schedule and as GOAL, checked back.
mod roundtrip;
/// sbt: exhaustive in every switching and port model, n <= 5.
mod sbt;
/// `check schedule FILE`: schedules and graph files written here, what
/// only some interleavings show, bad files refused in one line.
mod schedules;
/// Stamoulis-Tsitsiklis: K broadcasts over every K-set at small d.
mod stamoulis;
/// The xor symmetry that lets a check cover one source holds.
mod symmetry;
/// Every verdict earned: no "holds" whose judge had nothing to judge, for
/// every algorithm of the catalogue by every engine.
mod verdicts;
