//! One check: plan it ([`plan`]: engine, inputs, symmetry, refusals),
//! run the engines ([`run`]), and assemble what they found into an
//! [`Outcome`] ([`assemble`]). Generic over the protocol:
//! `with_protocol!` is the one place that names every algorithm, and
//! [`check_protocol`] checks a protocol of the user's own the same way.

pub mod assemble;
pub mod error;
pub mod machine;
pub mod optimal;
pub mod plan;
pub mod progress;
pub mod request;
pub mod results;
pub mod run;
pub mod schedule;
pub mod subject;

pub use crate::engine::Engine;
pub use error::CheckError;
pub use plan::Plan;
pub use request::{Options, Request, DEFAULT_TIMEOUT};
pub use subject::Subject;

use crate::report::Outcome;
use models::{with_protocol, Protocol, ProtocolExt};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs the check `req` asks for. An executor run that would not fit is
/// refused before the protocol is built, by the catalogue's cost model.
pub fn check(req: &Request) -> Result<Outcome, CheckError> {
    let subject = Subject::of(req);
    let plan = Plan::new(&subject, &req.options, None)?;
    let start = Instant::now();
    let within = req.options.timeout;
    // Why the build was left, where it was.
    let left = std::cell::Cell::new("");
    let built_by = |build| done_within(build, within).map_err(|why| left.set(why)).ok();
    with_protocol!(req.algorithm, req.config.clone(), built by built_by, |p| {
        let Some(p) = p else {
            return Err(CheckError::Unbuilt {
                what: format!("{} n={}", subject.name, subject.config.n),
                why: left.get().into(),
            });
        };
        // The search has what the build left of the budget.
        let mut options = req.options.clone();
        options.timeout = within.map(|t| t.saturating_sub(start.elapsed()));
        on_machine(p, &subject, &options, plan, 0)
    })
}

/// Runs `work` (a model's build, a schedule's reading) on a thread of
/// the main thread's stack and waits for it until `within` has passed
/// or an interrupt comes: then the reason, and the work is left to its
/// thread (the largest models take a minute to build, and a budget binds
/// from the start; a library caller's process carries that thread, and
/// its memory, until the work ends). A panic of the work is the caller's.
pub(crate) fn done_within<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
    within: Option<Duration>,
) -> Result<T, &'static str> {
    let start = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = std::thread::Builder::new()
        .name("build".into())
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = tx.send(work());
        })
        .expect("a thread to build the model");
    let step = Duration::from_millis(20);
    loop {
        let wait = within.map_or(step, |t| t.saturating_sub(start.elapsed()).min(step));
        match rx.recv_timeout(wait) {
            Ok(done) => return Ok(done),
            Err(RecvTimeoutError::Disconnected) => match worker.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => unreachable!("the worker sends what it did"),
            },
            Err(RecvTimeoutError::Timeout) => {
                if within.is_some_and(|t| start.elapsed() >= t) {
                    return Err("the time budget (--timeout) ran out");
                }
                if crate::engine::search::INTERRUPTED.load(Relaxed) {
                    return Err("an interrupt came");
                }
            }
        }
    }
}

/// Checks `p` on the machine the options describe: as it is on the
/// papers' perfect machine (where one run decides the properties
/// `decided`, bit each, for every run), else wrapped in `models::Faulty`.
fn on_machine<P: Protocol + 'static>(
    p: P,
    subject: &Subject,
    options: &Options,
    plan: Plan<()>,
    decided: u64,
) -> Result<Outcome, CheckError> {
    let machine = &options.machine;
    if machine.perfect() {
        let plan = plan.cover(&p, subject, options)?;
        let one_run = (decided != 0).then_some(run::StandIn::OneRun(decided));
        return run::check_with(Arc::new(p), one_run, subject, options, plan);
    }
    machine.refuse(plan.engine, subject.family)?;
    let faulty = machine.wrap(p)?;
    let on_time = faulty.on_time().map(|q| run::StandIn::OnTime(Arc::new(q)));
    let faulty = Arc::new(faulty);
    // Node logic written for the papers' machine may fail outright on
    // this one (a schedule indexing by the slot a value came in): said in
    // one line, as what the machine did to it.
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let plan = plan.cover(&*faulty, subject, options)?;
        run::check_with(faulty, on_time, subject, options, plan)
    }));
    std::panic::set_hook(quiet);
    run.unwrap_or_else(|e| {
        let why = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(CheckError::Usage(format!(
            "{}'s node logic failed on this machine (its step panicked: {why}); it assumes \
             the papers' perfect machine",
            subject.name
        )))
    })
}

/// Checks a protocol of the user's own, named and sized by `subject`,
/// with every property of the catalogue's algorithms: the engines, the
/// report and the exit verdicts are the same.
///
/// ```
/// use commcheck::check::{check_protocol, Options, Subject};
/// use commcheck::engine::Engine;
/// use models::lecture_notes::sbt::Sbt;
/// use models::catalog::Algorithm;
///
/// // SBT on the 3-cube, as a user would check a protocol of their own.
/// let sbt = Sbt::new(Algorithm::Sbt.config(3, None, None).unwrap());
/// let subject = Subject::own("my-sbt", &sbt);
/// let options = Options { engine: Some(Engine::Lockstep), ..Options::default() };
/// let outcome = check_protocol(sbt, &subject, &options).unwrap();
/// assert!(!outcome.refuted());
/// ```
pub fn check_protocol<P: Protocol + 'static>(
    protocol: P,
    subject: &Subject,
    options: &Options,
) -> Result<Outcome, CheckError> {
    check_deciding(protocol, subject, options, 0)
}

/// [`check_protocol`] where one run, every node taking its first choice,
/// decides the properties `decided` (bit `p as usize` each) for every run
/// on the papers' perfect machine (a schedule's, by
/// `Scheduled::one_run_decides`): the lock-step search then looks only
/// for what is left.
pub fn check_deciding<P: Protocol + 'static>(
    protocol: P,
    subject: &Subject,
    options: &Options,
    decided: u64,
) -> Result<Outcome, CheckError> {
    let first = protocol.first_input();
    let plan = Plan::new(
        subject,
        options,
        Some(&|| crate::engine::executor::memory_needed(&protocol, &protocol.task(&first))),
    )?;
    on_machine(protocol, subject, options, plan, decided)
}
