//! The Explorer: stateright's web page over a check's model, with the
//! report printed first and a link to each counterexample, and the page's
//! own check started where the model is small.

use crate::check::plan::plan;
use crate::check::{check, CheckError, Request, Subject};
use crate::engine::lockstep::LockStep;
use crate::engine::Engine;
use models::with_protocol;
use stateright::Model;
use std::sync::Arc;
use std::time::Duration;

/// Largest n the Explorer serves (a picture of 2^n nodes stays readable
/// only so far).
pub const EXPLORER_REACH: u32 = 10;

/// Serves the lock-step model of `req` in stateright's Explorer on `addr`
/// (the inputs the check would cover); returns only on error.
pub fn serve(req: &Request, addr: &str) -> Result<(), CheckError> {
    let reach = req.algorithm.reach().lockstep.min(EXPLORER_REACH);
    if req.config.n > reach {
        return Err(CheckError::ExplorerReach {
            model: "lock-step model",
            algorithm: req.algorithm.name().to_string(),
            n: req.config.n,
            reach,
        });
    }
    // stateright panics if the address is taken: try it first.
    let fail = |why: String| CheckError::Explorer {
        addr: addr.to_string(),
        why,
    };
    drop(std::net::TcpListener::bind(addr).map_err(|e| fail(e.to_string()))?);
    // What the page will show, found first by commcheck's own search: the
    // report, with a link to each counterexample.
    let mut lockstep = req.clone();
    lockstep.options.engine = Some(Engine::Lockstep);
    let outcome = check(&lockstep)?;
    eprint!("{}", outcome.text());
    for p in &outcome.properties {
        if let Some(path) = &p.explorer_path {
            eprintln!("{} is violated: open http://{addr}/#/steps/{path}", p.name);
        }
    }
    let states = outcome.states.unwrap_or(u64::MAX);
    let finished = outcome.search.as_ref().is_some_and(|c| c.cut.is_none());
    let auto = finished && states <= EXPLORER_AUTO_RUN;
    with_protocol!(req.algorithm, req.config.clone(), |p| {
        let p = Arc::new(p);
        let inputs = plan(&*p, &Subject::of(&lockstep), &lockstep.options)?.inputs;
        eprintln!(
            "Explorer for `{}` on http://{addr}/ (Ctrl-C to stop)",
            req.command(None)
        );
        if auto {
            eprintln!(
                "The page checks the model itself ({states} states), so its Properties \
                 list links each violation."
            );
            run_to_completion(addr.to_string());
        } else {
            eprintln!(
                "The page checks nothing until Run to completion is pressed \
                 ({} states; it starts by itself up to {EXPLORER_AUTO_RUN}).",
                match finished {
                    true => states.to_string(),
                    false => "more than the search's budget".to_string(),
                }
            );
        }
        LockStep::new(p, inputs)
            .labelled()
            .drawn(crate::show::picture::draw)
            .checker()
            .threads(req.options.threads)
            .serve(addr);
        Ok(())
    })
}

/// Most states for which `--explore` starts the page's own check by
/// itself (stateright keeps every state in memory, about a kilobyte each).
pub const EXPLORER_AUTO_RUN: u64 = 200_000;

/// Presses the page's "Run to completion" once the Explorer listens at
/// `addr`.
fn run_to_completion(addr: String) {
    use std::io::Write;
    std::thread::spawn(move || {
        for _ in 0..200 {
            std::thread::sleep(Duration::from_millis(50));
            let Ok(mut s) = std::net::TcpStream::connect(&addr) else {
                continue;
            };
            let post = format!(
                "POST /.runtocompletion HTTP/1.0\r\nHost: {addr}\r\nContent-Length: 0\r\n\r\n"
            );
            if s.write_all(post.as_bytes()).is_ok() {
                let mut reply = String::new();
                let _ = std::io::Read::read_to_string(&mut s, &mut reply);
                if reply.starts_with("HTTP/1.1 200") || reply.starts_with("HTTP/1.0 200") {
                    return;
                }
            }
        }
        eprintln!("could not start the page's check: press Run to completion");
    });
}
