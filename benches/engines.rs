//! The measured targets of BENCHMARKS.md: `cargo bench --bench engines`.
//!
//! * exhaustive `check nob 4` (lock-step and actor model, all 16 sources),
//!   median of 5 runs, with unique states;
//! * the executor on nob n = 16..24, each run in a fresh child process so
//!   that its peak memory (VmHWM) is its own; median of 3 at n = 24;
//! * with `-- --long`: the actor model of nob 5 (all 32 sources) and the
//!   executor at n = 28 (about 14 GB).
//!
//! The machine is noisy: medians, and time per node for the cost model.

use commcheck::check::{self, Engine, Request};
use models::catalog::Algorithm;
use std::process::Command;
use std::time::Instant;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs[xs.len() / 2]
}

fn request(n: u64, engine: Engine) -> Request {
    let mut req = Request::new(Algorithm::Nob, n, None, None).unwrap();
    req.engine = Some(engine);
    req
}

/// Peak resident memory of this process, in MB (Linux VmHWM).
fn peak_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// Child mode: one executor run of nob n; prints "seconds peak_mb".
fn child(n: u64) {
    let start = Instant::now();
    let o = check::check(&request(n, Engine::Executor)).unwrap();
    assert!(!o.refuted(), "nob {n} passes");
    println!("{} {}", start.elapsed().as_secs_f64(), peak_mb());
}

fn executor_in_child(n: u64) -> (f64, f64) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--child", &n.to_string()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut it = text.split_whitespace().map(|x| x.parse::<f64>().unwrap());
    (it.next().unwrap(), it.next().unwrap())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        child(args[i + 1].parse().unwrap());
        return;
    }
    let long = args.iter().any(|a| a == "--long");

    let mut times = Vec::new();
    let mut states = (0, 0);
    for _ in 0..5 {
        let start = Instant::now();
        let o = check::check(&request(4, Engine::Exhaustive)).unwrap();
        times.push(start.elapsed().as_secs_f64());
        states = (o.states.unwrap(), o.actor_states.unwrap());
    }
    println!(
        "exhaustive nob 4 (lock-step + actor, 16 sources): median {:.3} s of 5; states {} lock-step, {} actor",
        median(times),
        states.0,
        states.1
    );
    let mut times = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        check::check(&request(4, Engine::Lockstep)).unwrap();
        times.push(start.elapsed().as_secs_f64());
    }
    println!("lock-step nob 4 alone: median {:.4} s of 5", median(times));

    for n in [16u64, 18, 20, 22] {
        let (t, m) = executor_in_child(n);
        let per = t / (1u64 << n) as f64 * 1e9;
        println!("executor nob {n}: {t:.2} s, peak {m:.0} MB, {per:.0} ns/node");
    }
    let runs: Vec<(f64, f64)> = (0..3).map(|_| executor_in_child(24)).collect();
    let t = median(runs.iter().map(|r| r.0).collect());
    let m = median(runs.iter().map(|r| r.1).collect());
    println!(
        "executor nob 24 (16.7 M nodes, every property): median {t:.2} s of 3, peak {m:.0} MB, {:.0} ns/node",
        t / (1u64 << 24) as f64 * 1e9
    );

    if long {
        let start = Instant::now();
        let mut req = request(5, Engine::Actor);
        req.threads = 2;
        let o = check::check(&req).unwrap();
        println!(
            "actor nob 5 (32 sources, 2 threads): {:.1} s, {} states, refuted: {}",
            start.elapsed().as_secs_f64(),
            o.actor_states.unwrap(),
            o.refuted()
        );
        let (t, m) = executor_in_child(28);
        println!("executor nob 28 (268 M nodes): {t:.1} s, peak {m:.0} MB");
    }
}
