//! Progress on stderr while a check runs: one line, rewritten every
//! second once the check has taken two, cleared at the end. Shown only
//! when stderr is a terminal and neither `--json` nor `--quiet` is given.

use crate::engine::Engine;
use crate::engine::{memory::process_memory, search::Progress};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// `1234567` as `1.23 M`.
fn si(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.2} G", x / 1e9),
        x if x >= 1e6 => format!("{:.2} M", x / 1e6),
        x if x >= 1e3 => format!("{:.1} k", x / 1e3),
        x => format!("{x:.0}"),
    }
}

/// The progress line for what `progress` holds after `elapsed`.
pub fn line(progress: &Progress, engine: Engine, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let generated = progress.generated.load(Relaxed) as f64;
    let depth = progress.depth.load(Relaxed);
    let memory = si(process_memory().0 as f64);
    if engine == Engine::Executor {
        let of = match progress.slots.load(Relaxed) {
            0 => String::new(),
            slots => format!(" of {slots}"),
        };
        return format!(
            "executor: slot {depth}{of}, {} node steps, {}/s, {memory}B, {secs:.0} s",
            si(generated),
            si(generated / secs)
        );
    }
    let (done, total) = (
        progress.inputs_done.load(Relaxed),
        progress.inputs_total.load(Relaxed),
    );
    let mut s = format!(
        "{}: {} states ({} unique), {}/s, depth {depth}, sources {done}/{total}, {memory}B, {secs:.0} s",
        engine.name(),
        si(generated),
        si(progress.unique.load(Relaxed) as f64),
        si(generated / secs),
    );
    if done > 0 && total > done {
        let left = secs * (total - done) as f64 / done as f64;
        s += &format!(", about {left:.0} s left");
    }
    s
}

/// Where progress lines go instead of stderr: each line, then "" when
/// the check ends (a program that embeds commcheck shows them itself).
#[derive(Clone)]
pub struct Sink(pub std::sync::Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sink")
    }
}

/// Rewrites the progress line every second after the first two, until
/// `stop`; then clears it: on stderr, or through `sink`.
pub fn show(progress: &Progress, engine: Engine, stop: &AtomicBool, sink: Option<&Sink>) {
    let start = Instant::now();
    let mut shown = false;
    let mut next = Duration::from_secs(2);
    let put = |text: &str| match sink {
        Some(Sink(f)) => f(text),
        None => {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K{text}");
            let _ = err.flush();
        }
    };
    while !stop.load(Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        let elapsed = start.elapsed();
        if elapsed >= next {
            next += Duration::from_secs(1);
            put(&line(progress, engine, elapsed));
            shown = true;
        }
    }
    if shown {
        put("");
    }
}
