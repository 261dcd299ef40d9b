//! The measured targets of BENCHMARKS.md: `cargo bench --bench engines`.
//!
//! * exhaustive `check nob 4` (lock-step and actor model, all 16 sources),
//!   median of 5 runs, with unique states;
//! * the asynchronous (actor) model of `sbt 5` from one source, 1 and 2
//!   threads, median of 3 each (the SPIN comparison), and `nob 5` with
//!   symmetry (one source per orbit);
//! * the budget cases (`nob 11`/`nob 12` lock-step with `--max-states` and
//!   `--timeout`) and the defaults of `nob 9` and `nob 10`;
//! * the executor on nob n = 16..24;
//! * with `-- --long`: the executor at n = 28 (about 14 GB).
//!
//! Every measurement runs the `check` binary in a fresh child process, so
//! the peak memory (the child's maximum resident set, from wait4) is that
//! run's alone. The machine is noisy: medians.
//!
//! `cargo test --all-targets` runs this file without `--bench`: then it only
//! smoke-tests each kind of measurement at a small size.

use std::process::Command;
use std::time::Instant;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs[xs.len() / 2]
}

/// Runs `check` with `args`; returns seconds, peak MB (the child's maximum
/// resident set, from wait4) and stdout.
#[allow(clippy::zombie_processes)] // reaped by wait4 below, which also gives its peak memory
fn run(args: &[&str]) -> (f64, f64, String) {
    use std::io::Read;
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(args)
        .arg("--quiet")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run check");
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_to_string(&mut out)
        .expect("read stdout");
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 reaps our own child and
    // fills it in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waiting for our own child, with valid pointers.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4 reaps the child");
    let secs = start.elapsed().as_secs_f64();
    (secs, usage.ru_maxrss as f64 / 1024.0, out)
}

/// The line of `out` that starts with `prefix`.
fn line<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines().find(|l| l.starts_with(prefix)).unwrap_or("-")
}

/// Median seconds and peak MB of `k` runs.
fn measure(k: usize, args: &[&str]) -> (f64, f64, String) {
    let runs: Vec<_> = (0..k).map(|_| run(args)).collect();
    let t = median(runs.iter().map(|r| r.0).collect());
    let m = median(runs.iter().map(|r| r.1).collect());
    (t, m, runs[0].2.clone())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bench = args.iter().any(|a| a == "--bench");
    let long = args.iter().any(|a| a == "--long");
    let (k, small) = if bench { (5, false) } else { (1, true) };

    let (t, m, out) = measure(k, &["nob", "4", "--all-sources"]);
    println!(
        "exhaustive nob 4 --all-sources: median {t:.3} s of {k}, peak {m:.0} MB; {}",
        line(&out, "states")
    );
    let (t, m, out) = measure(k, &["nob", "4"]);
    println!(
        "exhaustive nob 4 (one source by symmetry): median {t:.3} s of {k}, peak {m:.0} MB; {}",
        line(&out, "states")
    );

    let n = if small { "4" } else { "5" };
    for threads in ["1", "2"] {
        let (t, m, out) = measure(
            k.min(3),
            &[
                "sbt",
                n,
                "--engine",
                "actor",
                "--source",
                "0",
                "--threads",
                threads,
            ],
        );
        println!(
            "actor sbt {n} source 0, {threads} thread(s): median {t:.2} s, peak {m:.0} MB; {}",
            line(&out, "states")
        );
    }
    let (t, m, out) = run(&["nob", n, "--engine", "actor"]);
    println!(
        "actor nob {n} (all sources by symmetry, default threads): {t:.1} s, peak {m:.0} MB; {}",
        line(&out, "states")
    );

    let big = if small { ["7", "8"] } else { ["11", "12"] };
    for args in [
        &[
            "nob",
            big[0],
            "--engine",
            "lockstep",
            "--max-states",
            "1000",
        ][..],
        &[
            "nob",
            big[1],
            "--engine",
            "lockstep",
            "--source",
            "0",
            "--max-states",
            "1000",
        ][..],
        &["nob", big[0], "--engine", "lockstep", "--timeout", "5"][..],
    ] {
        let (t, m, out) = run(args);
        println!(
            "budget `check {}`: {t:.2} s, peak {m:.0} MB; {}",
            args.join(" "),
            line(&out, "note: the lock-step search stopped")
                .split(',')
                .next()
                .unwrap_or("finished")
        );
    }
    let defaults: &[&str] = if small { &["5"] } else { &["8", "9", "10"] };
    for n in defaults {
        let (t, m, out) = run(&["nob", n]);
        println!(
            "default `check nob {n}`: {t:.2} s, peak {m:.0} MB; {}",
            line(&out, "nob n=")
        );
    }

    let sizes: &[u32] = if small { &[16] } else { &[16, 18, 20, 22, 24] };
    for &n in sizes {
        let (t, m, _) = measure(
            if n == 24 { 3 } else { 1 },
            &["nob", &n.to_string(), "--engine", "executor"],
        );
        let per = t / (1u64 << n) as f64 * 1e9;
        println!("executor nob {n}: {t:.2} s, peak {m:.0} MB, {per:.0} ns/node (process included)");
    }
    if long {
        let (t, m, _) = run(&["nob", "28", "--engine", "executor"]);
        println!("executor nob 28 (268 M nodes): {t:.1} s, peak {m:.0} MB");
    }
}
