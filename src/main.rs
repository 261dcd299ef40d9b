//! `check`: the command line of commcheck.
//!
//! `main` reads the command line once into a typed command (`cli`), runs
//! it, and turns the verdict into the exit code, as ripgrep's: 0 every
//! claim holds, 1 a claim is violated (the counterexample is printed), 2
//! bad usage or an error (one line), 3 a claim is left unknown (a budget
//! ran out, Ctrl-C, or the engine cannot judge it).

use clap::Parser;
use commcheck::check::{self, CheckError, Request};
use commcheck::cli::{self, Command, Exported, Exports};
use commcheck::engine::search::INTERRUPTED;
use commcheck::show::{as_schedule, explore, export};
use models::catalog::Algorithm;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering::Relaxed;

fn main() -> ExitCode {
    // `check ALG --help`: that algorithm's page, not only the options.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        if let Some(algorithm) = args.first().and_then(|a| Algorithm::parse(a).ok()) {
            return match write_out(&cli::help::algorithm_help(algorithm)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => usage(e),
            };
        }
    }
    let parsed = match cli::args::Cli::try_parse() {
        Ok(parsed) => parsed,
        Err(e) => {
            let command = args.iter().find(|a| !a.starts_with('-'));
            return refused(&e, command.map_or("", String::as_str));
        }
    };
    #[cfg(feature = "mpi")]
    let _ranks = match over_ranks() {
        Ok(universe) => universe,
        Err(e) => return usage(e),
    };
    match cli::resolve(parsed).and_then(run) {
        Ok(code) => code,
        Err(e) => match e.downcast_ref::<cli::Refused>() {
            Some(r) => refused(&r.error, &r.command),
            None => usage(e),
        },
    }
}

/// clap's refusal of `check COMMAND ...`: one line where `cli::refusal`
/// tells it, else clap's own message whole (help and version on stdout,
/// exit 0; usage with its hint on stderr, exit 2).
fn refused(e: &clap::Error, command: &str) -> ExitCode {
    if let Some(line) = cli::refusal(e, command) {
        return usage(line);
    }
    let _ = e.print();
    match e.use_stderr() {
        true => ExitCode::from(2),
        false => ExitCode::SUCCESS,
    }
}

/// Under `mpirun`: MPI started (ended when the returned universe drops),
/// and every rank but rank 0 silent, since each computes what rank 0
/// prints (docs/scale.md). Only `check` runs over several ranks.
#[cfg(feature = "mpi")]
fn over_ranks() -> anyhow::Result<Option<mpi::environment::Universe>> {
    use commcheck::engine::group;
    let launched = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some());
    if !launched {
        return Ok(None);
    }
    let universe = group::init();
    let world = group::world().ok_or_else(|| anyhow::anyhow!("MPI did not start"))?;
    if world.rank != 0 {
        // SAFETY: open and dup2 on this process's own descriptors, before
        // any other thread runs.
        unsafe {
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
            libc::dup2(null, 1);
            libc::dup2(null, 2);
        }
    }
    Ok(universe)
}

/// Refuses, over several ranks, what does not run over them.
#[cfg(feature = "mpi")]
fn refuse_over_ranks(command: &Command) -> anyhow::Result<()> {
    let size = commcheck::engine::group::world().map_or(1, |w| w.size);
    if size > 1 && !matches!(command, Command::Check(..)) {
        anyhow::bail!("under mpirun ({size} ranks) only `check` runs; run this without mpirun");
    }
    Ok(())
}

/// `print!` that gives an error instead of a panic where standard output
/// cannot be written (a full disk, a closed pipe).
macro_rules! out {
    ($($arg:tt)*) => {
        write_out(&format!($($arg)*))?
    };
}

/// Writes `text` to standard output, or says in one line why it cannot.
fn write_out(text: &str) -> anyhow::Result<()> {
    commcheck::import::write_to(Path::new(commcheck::import::STDOUT), text)
        .map_err(|e| anyhow::anyhow!("cannot write the standard output: {e}"))
}

/// A usage error or a refusal: one short line on stderr, exit code 2.
fn usage(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!(
        "{}",
        commcheck::import::one_line(&format!("error: {msg:#}"))
    );
    ExitCode::from(2)
}

/// Runs a resolved command.
fn run(command: Command) -> anyhow::Result<ExitCode> {
    #[cfg(feature = "mpi")]
    refuse_over_ranks(&command)?;
    if !matches!(
        command,
        Command::List { .. }
            | Command::Help(..)
            | Command::Explore(..)
            | Command::ExploreSchedule(..)
    ) {
        // Ctrl-C, SIGTERM (what `timeout`, CI and job schedulers send) or
        // SIGHUP: stop at the next budget check (a search, an executor
        // slot, a trace line, an optimum's solver, a table's row, a
        // claim) and report; a second one ends at once. The Explorer
        // stops at the first.
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Relaxed) {
                std::process::exit(130);
            }
        });
    }
    match command {
        Command::List { long, markdown } => match markdown {
            true => out!("{}", cli::help::catalogue_markdown()),
            false => out!("{}", cli::help::list(long)),
        },
        Command::Help(page) => out!("{page}"),
        Command::Table {
            table,
            format,
            max_side,
            timeout,
            progress,
            announce,
        } => {
            if let Some(note) = table.foretold(max_side, timeout).filter(|_| announce) {
                eprintln!("{note}");
            }
            let mut show = |line: &str| {
                if progress {
                    eprint!("\r\x1b[2K{line}");
                }
            };
            let (sheet, cut) = table.sheet(max_side, timeout, &run_command, &mut show);
            if progress {
                eprint!("\r\x1b[2K");
            }
            out!("{}", sheet.render(format));
            if cut {
                return Ok(ExitCode::from(3));
            }
        }
        Command::Claims {
            papers,
            format,
            progress,
        } => return claims(&papers, format, progress),
        Command::Export(exported, exports) => write_exports(&exported, &exports)?,
        Command::Explore(req, addr) => explore::serve(&req, &addr)?,
        Command::Check(requests, json, timing) => return check_all(&requests, json, timing),
        Command::ExploreSchedule(request, addr) => explore::serve_schedule(&request, &addr)?,
        Command::Optimal(request, json) => {
            let found = commcheck::check::optimal::optimal(&request)?;
            match json {
                true => out!("{}\n", serde_json::to_string_pretty(&found)?),
                false => out!("{}", found.text()),
            }
            return Ok(match found.stands() {
                true => ExitCode::SUCCESS,
                false => ExitCode::from(3),
            });
        }
        Command::Schedule(request, json) => {
            let outcome = match check::schedule::check_schedule(&request) {
                // Cut short while the file was read: nothing judged (exit 3).
                Err(unbuilt @ CheckError::Unbuilt { .. }) => {
                    eprintln!("{unbuilt}");
                    return report(&[], json, true);
                }
                result => result?,
            };
            if !json {
                out!("{}", outcome.text());
            }
            return report(&[outcome], json, false);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `check COMMAND` through this command line's own parser, quietly:
/// how the claims ledger and `check table optimal` run the papers'
/// algorithms.
fn run_command(command: &str) -> Result<Vec<commcheck::report::Outcome>, String> {
    let words = std::iter::once("check").chain(command.split_whitespace());
    let parsed = cli::args::Cli::try_parse_from(words).map_err(|e| e.kind().to_string())?;
    match cli::resolve(parsed).map_err(|e| format!("{e:#}"))? {
        Command::Check(requests, ..) => requests
            .into_iter()
            .map(|mut r| {
                r.options.progress = false;
                r.options.announce = false;
                check::check(&r).map_err(|e| e.to_string())
            })
            .collect(),
        Command::Schedule(r, _) => check::schedule::check_schedule(&r)
            .map(|o| vec![o])
            .map_err(|e| e.to_string()),
        _ => Err(format!("`check {command}` is not a check")),
    }
}

/// `check claims`: judges the papers' claims by running the commands
/// each names through this command line's own parser, and prints the
/// ledger; exit code 3 if a check could not reach its verdict.
fn claims(
    papers: &[commcheck::claims::Paper],
    format: commcheck::table::Format,
    progress: bool,
) -> anyhow::Result<ExitCode> {
    use commcheck::claims::{self, Verdict};
    let run = run_command;
    let mut show = |line: &str| {
        if progress {
            eprint!("\r\x1b[2K{line}");
        }
    };
    let entries = claims::ledger(papers, &run, &mut show);
    if progress {
        eprint!("\r\x1b[2K");
    }
    out!("{}", claims::render(&entries, format));
    let unknown = entries
        .iter()
        .any(|e| matches!(e.verdict, Verdict::Unknown { .. }));
    Ok(ExitCode::from(if unknown { 3 } else { 0 }))
}

/// Checks each request in turn and prints its report (the reports of a
/// sweep as one JSON array); the exit code is the worst verdict.
fn check_all(
    requests: &[Request],
    json: bool,
    timing: Option<cli::args::Timing>,
) -> anyhow::Result<ExitCode> {
    let mut failed = None;
    let mut print = |outcome: &commcheck::report::Outcome| {
        if !json && failed.is_none() {
            failed = write_out(&outcome.text()).err();
        }
    };
    let (outcomes, cut) = cli::checks(requests, timing.as_ref(), &mut print)?;
    if let Some(e) = failed {
        return Err(e);
    }
    if let Some(words) = &cut {
        eprintln!("{words}");
    }
    report(&outcomes, json, cut.is_some())
}

/// Prints the reports as JSON (the text was printed as each came) and
/// gives the exit code: the worst verdict.
fn report(
    outcomes: &[commcheck::report::Outcome],
    json: bool,
    cut: bool,
) -> anyhow::Result<ExitCode> {
    if json {
        match outcomes {
            [one] => out!("{}\n", serde_json::to_string_pretty(one)?),
            all => out!("{}\n", serde_json::to_string_pretty(all)?),
        }
    }
    Ok(if outcomes.iter().any(|o| o.refuted()) {
        ExitCode::from(1)
    } else if cut || outcomes.iter().any(|o| o.undecided()) || INTERRUPTED.load(Relaxed) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// A schedule's writer in one format.
type Writer = fn(&models::schedule::Schedule) -> Result<String, commcheck::import::WriteError>;

/// Writes the files of one run that the command line asks for (`-`:
/// standard output).
fn write_exports(exported: &Exported, exports: &Exports) -> anyhow::Result<()> {
    let of = exported.of();
    let write = |option: &str, file: &Path, text: String, what: String| {
        commcheck::import::write_to(file, &text)
            .map_err(|e| anyhow::anyhow!("{option} {}: {e}", file.display()))?;
        eprintln!("wrote {}: {what}", commcheck::import::shown(file));
        Ok::<(), anyhow::Error>(())
    };
    if let Some((file, slot)) = &exports.svg {
        let (picture, what) = export::svg(of, *slot)?;
        write("--svg", file, picture, what)?;
    }
    if let Some(file) = &exports.dot {
        let (graph, what) = export::dot(of)?;
        write("--dot", file, graph, what)?;
    }
    if let Some(file) = &exports.svg_load {
        let (picture, what) = export::load(of)?;
        write("--svg-load", file, picture, what)?;
    }
    if exports.write_schedule.is_some()
        || exports.write_goal.is_some()
        || exports.write_msccl.is_some()
        || exports.write_mscclpp.is_some()
    {
        let run = match exported {
            Exported::Algorithm(req) => as_schedule::run_as_schedule(req)?,
            Exported::Schedule(req) => as_schedule::schedule_run(req)?,
        };
        let writers: [(&str, &Option<PathBuf>, Writer); 4] = [
            (
                "--write-schedule",
                &exports.write_schedule,
                commcheck::import::commcheck::write,
            ),
            (
                "--write-goal",
                &exports.write_goal,
                commcheck::import::goal::write,
            ),
            (
                "--write-msccl",
                &exports.write_msccl,
                commcheck::import::msccl::write,
            ),
            (
                "--write-mscclpp",
                &exports.write_mscclpp,
                commcheck::import::mscclpp::write,
            ),
        ];
        for (option, file, writer) in writers {
            if let Some(file) = file {
                let text = writer(&run.schedule)?;
                let check = run.check.replace("FILE", &file.display().to_string());
                write(
                    option,
                    file,
                    text,
                    format!("{}; check it with {check}", run.what),
                )?;
            }
        }
    }
    if let Some(file) = exports
        .trace
        .as_deref()
        .filter(|f| commcheck::import::is_stdout(f))
    {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let what = export::trace(of, &mut out)
            .map_err(anyhow::Error::from)
            .and_then(|what| Ok(std::io::Write::flush(&mut out).map(|()| what)?))
            .map_err(|e| anyhow::anyhow!("--trace -: {e}"))?;
        eprintln!("wrote {}: {what}", commcheck::import::shown(file));
    } else if let Some(file) = &exports.trace {
        let f = std::fs::File::create(file)
            .map_err(|e| anyhow::anyhow!("--trace {}: {e}", file.display()))?;
        let mut out = std::io::BufWriter::new(f);
        let written = export::trace(of, &mut out)
            .map_err(anyhow::Error::from)
            .and_then(|what| {
                std::io::Write::flush(&mut out)?;
                Ok(what)
            });
        match written {
            Ok(what) => eprintln!("wrote {}: {what}", file.display()),
            Err(e) => {
                // No partial trace left behind to be mistaken for a whole
                // one (a regular file: never /dev/stdout).
                drop(out);
                if std::fs::metadata(file).is_ok_and(|m| m.is_file()) {
                    let _ = std::fs::remove_file(file);
                }
                // Say which file could not be written (a full disk).
                return Err(match e.to_string().starts_with("--trace") {
                    true => e,
                    false => anyhow::anyhow!("--trace {}: {e}", file.display()),
                });
            }
        }
    }
    Ok(())
}
