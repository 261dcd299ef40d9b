//! The readers fuzzed: seeded mutations (bytes flipped, cut, repeated,
//! swapped; numbers made huge, negative or zero; tokens of the format
//! dropped in) of schedules in every format, of network files and of
//! `--map` files, and random command lines. Each input is read, and what
//! reads is run by the executor on the 3-cube: a refusal is one line,
//! and nothing panics. `COMMCHECK_FUZZ=N` runs N
//! inputs a format (BENCHMARKS.md records a long run); the default is
//! kept small for the test suite.

use commcheck::check::schedule::{check_schedule, Format, ScheduleRequest};
use commcheck::check::{CheckError, Options};
use commcheck::engine::Engine;
use commcheck::import::collective::Collective;
use commcheck::import::goal::COLLECTIVE_LINE;
use models::topology::NetworkFormat;
use models::{Ports, Switching};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// xorshift64*: seeded, so a failure names the input that made it.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TOKENS: [&str; 24] = [
    "-1",
    "0",
    "4294967295",
    "99999999999999999999",
    "1000000000",
    "\"",
    "{",
    "}",
    "[",
    "]",
    "<",
    "/>",
    "\n",
    "rank 0 {",
    "l1 requires l1",
    "send 1b to 0",
    "recv 1b from -1 tag -1",
    "type=\"rrcs\"",
    "depid=\"0\" deps=\"0\"",
    "\"after\": [\"x\"]",
    "\"slot\": 4294967295",
    "/*",
    "\u{0}",
    "é",
];

/// One mutation of `text`.
pub(crate) fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(6) {
            0 => bytes.truncate(at),
            1 if at < bytes.len() => bytes[at] = rng.next() as u8,
            2 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                bytes.splice(at..at, t.bytes());
            }
            3 => {
                let end = (at + rng.below(64)).min(bytes.len());
                let piece = bytes[at..end].to_vec();
                bytes.splice(at..at, piece);
            }
            4 => {
                let end = (at + rng.below(32)).min(bytes.len());
                bytes.drain(at..end);
            }
            _ => {
                // A number made another.
                if let Some(d) = bytes[at.min(bytes.len())..]
                    .iter()
                    .position(u8::is_ascii_digit)
                {
                    let i = at + d;
                    let t = ["0", "7", "65536", "4294967296", "-3"][rng.below(5)];
                    bytes.splice(i..i + 1, t.bytes());
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Reads and runs `text` as `format`; a panic fails with the input.
fn try_one(text: &str, format: Format, dir: &std::path::Path, k: usize) {
    let file = dir.join(format!("fuzz-{k}"));
    std::fs::write(&file, text).unwrap();
    let req = ScheduleRequest {
        format: Some(format),
        // A GOAL file commcheck wrote names its own collective.
        collective: (format == Format::Goal && !text.contains(COLLECTIVE_LINE))
            .then_some(Collective::Barrier),
        switching: Switching::Wh,
        ports: Ports::One,
        options: Options {
            engine: Some(Engine::Executor),
            max_states: Some(10_000),
            ..Options::default()
        },
        // A plan's pipelines read for 128 MiB chunks (a scratch ring wraps).
        bytes: text.contains("iter_context").then_some(128 << 20),
        ..ScheduleRequest::new(&file, "hypercube:3".parse().unwrap())
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| check_schedule(&req)));
    match outcome {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => {
            let line = e.to_string();
            assert_eq!(
                line.lines().count(),
                1,
                "{format:?} input {k}: {line}\n{text}"
            );
            assert!(!matches!(e, CheckError::Usage(ref s) if s.is_empty()));
        }
        Err(_) => panic!("{format:?} input {k} panicked:\n{text}"),
    }
}

/// `ALG N`'s run as the exporter writes it.
fn exported(
    algorithm: &str,
    n: u64,
    write: fn(&models::schedule::Schedule) -> Result<String, commcheck::import::WriteError>,
) -> String {
    let algorithm = models::catalog::Algorithm::parse(algorithm).unwrap();
    let req = commcheck::check::Request::new(algorithm, n, None, None).unwrap();
    let run = commcheck::show::as_schedule::run_as_schedule(&req).unwrap();
    write(&run.schedule).unwrap()
}

fn inputs() -> usize {
    std::env::var("COMMCHECK_FUZZ")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
}

#[test]
fn the_readers_refuse_mutated_files_without_panicking() {
    let seeds: Vec<(Format, String)> = vec![
        (
            Format::Commcheck,
            std::fs::read_to_string("tests/schedules/binomial_q3.json").unwrap(),
        ),
        (
            Format::Commcheck,
            std::fs::read_to_string("tests/schedules/allreduce_pair.json").unwrap(),
        ),
        (
            Format::Goal,
            std::fs::read_to_string("tests/schedules/dissemination_8.goal").unwrap(),
        ),
        (Format::Msccl, crate::msccl::ring_allreduce(4)),
        (Format::Msccl, crate::msccl::ring_allgather(8)),
        // The exporter's constructs: paths (nob), bus writes to several
        // readers (simple), control messages (prefix), GOAL with its
        // collective line (sbt).
        (
            Format::Commcheck,
            exported("nob", 3, commcheck::import::commcheck::write),
        ),
        (
            Format::Commcheck,
            exported("simple", 2, commcheck::import::commcheck::write),
        ),
        (
            Format::Commcheck,
            exported("prefix", 3, commcheck::import::commcheck::write),
        ),
        (
            Format::Goal,
            exported("sbt", 3, commcheck::import::goal::write),
        ),
        (Format::Mscclpp, crate::mscclpp::allgather(3, true)),
        (Format::Mscclpp, crate::mscclpp::allreduce(4, false)),
        (
            Format::Mscclpp,
            crate::mscclpp::tbg_allgather(2, 4, |_, t| Some(t)),
        ),
        (
            Format::Mscclpp,
            crate::mscclpp::switch_packet_allgather(3, true),
        ),
        (Format::Mscclpp, crate::mscclpp::pipelined_allgather(3)),
        (Format::Mscclpp, crate::mscclpp::scratch_ring(2)),
    ];
    let dir = std::env::temp_dir().join(format!("commcheck-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut k = 0;
    for (format, seed) in &seeds {
        for _ in 0..inputs() {
            let text = mutate(seed, &mut rng);
            try_one(&text, *format, &dir, k);
            k += 1;
        }
    }
    let graph = "{\"format\": \"commcheck-network\", \"version\": 1, \"nodes\": 4,\n\
                 \"names\": [\"a\", \"b\", \"c\", \"d\"],\n\"links\": [[0, 1], [1, 2], [2, 3]],\n\
                 \"arcs\": [[3, 0]]}";
    let machine = crate::machines::switched(
        3,
        2,
        r#"{"between": [1, 2], "kind": "pcie", "latency": 900}"#,
    );
    for (format, seed) in [
        (NetworkFormat::Graph, graph.to_string()),
        (NetworkFormat::Graph, machine),
        (
            NetworkFormat::NcclTopo,
            crate::machines::NCCL_TOPO.to_string(),
        ),
        (NetworkFormat::Guess, crate::machines::RCCL_TOPO.to_string()),
        (
            NetworkFormat::Astra,
            "topology: [ Ring, Switch ]  # two dimensions\nnpus_count:\n  - 4\n  - 2\n\
             bandwidth: [ 50.0, 25 ]\nlatency: [ 500, 700.5 ]\n"
                .to_string(),
        ),
    ] {
        for _ in 0..inputs() {
            let text = mutate(&seed, &mut rng);
            let read = catch_unwind(|| {
                commcheck::import::network::network_text(
                    &text,
                    "g",
                    format,
                    Switching::Wh,
                    Ports::All,
                )
                .map(|_| ())
            });
            match read {
                Ok(Ok(())) => {}
                Ok(Err(e)) => assert_eq!(e.to_string().lines().count(), 1, "{e}\n{text}"),
                Err(_) => panic!("{format:?} network input panicked:\n{text}"),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--map` files fuzzed: seeded mutations of a placement of the 8 ranks
/// of a binomial broadcast on the 3-cube, each read and run: a refusal is
/// one line that names the map file, and nothing panics.
#[test]
fn mutated_maps_are_refused_in_one_line_without_panicking() {
    let dir = std::env::temp_dir().join(format!("commcheck-fuzz-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seed = "[0, 1, 2, 3,\n 4, 5, 6, 7]\n";
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    let (mut read, mut refused) = (0, 0);
    for k in 0..inputs() {
        let text = match k {
            0 => seed.to_string(),
            _ => mutate(seed, &mut rng),
        };
        let file = dir.join(format!("map-{k}.json"));
        std::fs::write(&file, &text).unwrap();
        let req = ScheduleRequest {
            map: commcheck::check::schedule::Map::File(file.clone()),
            options: Options {
                engine: Some(Engine::Executor),
                ..Options::default()
            },
            ..ScheduleRequest::new(
                std::path::Path::new("tests/schedules/binomial_q3.json"),
                "hypercube:3".parse().unwrap(),
            )
        };
        match catch_unwind(AssertUnwindSafe(|| check_schedule(&req))) {
            Ok(Ok(_)) => read += 1,
            Ok(Err(e)) => {
                let line = e.to_string();
                assert_eq!(line.lines().count(), 1, "map {k}: {line}\n{text}");
                assert!(line.len() <= 200, "map {k}: {line}");
                assert!(
                    line.contains("map-"),
                    "map {k} is not named: {line}\n{text}"
                );
                refused += 1;
            }
            Err(_) => panic!("map {k} panicked:\n{text}"),
        }
    }
    // The seed itself is read; the mutations reach both sides.
    assert!(
        read > 0 && refused > inputs() / 10,
        "{read} read, {refused} refused"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Command lines fuzzed: seeded draws of a command, a size and flags with
/// good and bad values (negative, huge, empty, a word, a flag's name),
/// each run as the binary runs: the exit code is 0 to 3, nothing panics,
/// and a refusal (exit 2) is one line of at most 200 characters.
#[test]
fn random_command_lines_give_a_verdict_or_one_line() {
    const HEADS: [&[&str]; 14] = [
        &["nob"],
        &["sbt"],
        &["mnb"],
        &["ft-trees"],
        &["naive-tree"],
        &["kbcast"],
        &["simple"],
        &["mesh-sf"],
        &["list"],
        &["help"],
        &["help", "nob"],
        &["schedule", "tests/schedules/binomial_q3.json"],
        &["optimal", "broadcast", "hypercube:2"],
        &["table", "wang-ku"],
    ];
    const SIZES: [&str; 9] = ["1", "2", "3", "3x3", "0", "-1", "x", "99", "4"];
    const FLAGS: [&str; 22] = [
        "--source",
        "--timeout",
        "--max-states",
        "--max-memory",
        "--engine",
        "--ports",
        "--switching",
        "--faults",
        "--node-faults",
        "--delay",
        "--skew",
        "--network",
        "--k",
        "--ell",
        "--seed",
        "--threads",
        "--json",
        "--quiet",
        "--all-sources",
        "--observe-all",
        "--format",
        "--max-side",
    ];
    const VALUES: [&str; 16] = [
        "0",
        "1",
        "2",
        "-1",
        "1.5",
        "99999999999999999999999",
        "",
        "none",
        "executor",
        "lockstep",
        "one",
        "wh",
        "hypercube:2",
        "0,0",
        "--json",
        "é",
    ];
    let mut rng = Rng(0xbb67_ae85_84ca_a73b);
    let mut codes = [0usize; 4];
    for k in 0..inputs() / 3 {
        let mut args: Vec<&str> = HEADS[rng.below(HEADS.len())].to_vec();
        if !matches!(args[0], "list" | "help" | "schedule" | "optimal" | "table") {
            args.push(SIZES[rng.below(SIZES.len())]);
        }
        for _ in 0..rng.below(4) {
            args.push(FLAGS[rng.below(FLAGS.len())]);
            if rng.below(4) > 0 {
                args.push(VALUES[rng.below(VALUES.len())]);
            }
        }
        // Every draw ends within seconds: a budget where one is taken.
        let budgeted = !matches!(args[0], "list" | "help") && !args.contains(&"--timeout");
        if budgeted {
            args.extend(["--timeout", "3"]);
        }
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_check"))
            .args(&args)
            .output()
            .expect("run check");
        let err = String::from_utf8_lossy(&o.stderr);
        let code = o
            .status
            .code()
            .unwrap_or_else(|| panic!("{k}: {args:?} killed: {err}"));
        assert!((0..=3).contains(&code), "{k}: {args:?} exit {code}: {err}");
        assert!(!err.contains("panicked"), "{k}: {args:?}: {err}");
        if code == 2 {
            let lines: Vec<&str> = err.lines().collect();
            assert_eq!(lines.len(), 1, "{k}: {args:?}: {err}");
            assert!(lines[0].chars().count() <= 200, "{k}: {args:?}: {err}");
        }
        codes[code as usize] += 1;
    }
    // The draws reach verdicts and refusals alike.
    assert!(codes[0] > 0 && codes[2] > 0, "exit codes 0..=3: {codes:?}");
}
