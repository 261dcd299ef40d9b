//! Assembling a report: what the engines found, per property, with its
//! counterexample in the paper's words, the engine that found it and the
//! command that reproduces it; the time, counts, coverage and notes.

use super::request::Options;
use super::results::Results;
use super::subject::Subject;
use crate::engine::executor::Run;
use crate::engine::exhaustive::{Finding, Search};
use crate::engine::search::Cut;
use crate::report::{
    counterexample, Counterexample, Coverage, Distribution, Finder, LinkLoad, MachineReport,
    NamedBound, Outcome, Params, PropertyReport, Time, TimeRow, ValueRow, LISTED,
};
use models::catalog::{Ports, Switching};
use models::{Protocol, ProtocolExt, Topology};
use properties::{PropertyName, Status, Task};
use std::time::Instant;

/// Turns what the engines found into the report.
pub fn assemble<P: Protocol>(
    p: &P,
    subject: &Subject,
    options: &Options,
    inputs: &[P::Input],
    results: Results,
    notes: Vec<String>,
    start: Instant,
) -> Outcome {
    let claims = p.claims();
    let topology = p.topology();
    let Results {
        lock,
        actors,
        executed,
        label,
        late,
        ..
    } = results;
    // The command of the run from input `ix`: its source, and on an
    // imperfect machine its faults, delays and skew.
    let command = |ix: usize| {
        let input = &inputs[ix];
        let machine = options.machine.reproduce_args(topology, p.faults(input));
        subject.command(p.source_of(input)).map(|c| c + &machine)
    };
    let describe_finding = |f: &Finding, by: Finder| -> Option<Counterexample> {
        let v = f.violation.as_ref()?;
        let input = &inputs[f.input.unwrap_or(0)];
        let order = match by {
            Finder::ActorModel => " (some delivery order)",
            _ => "",
        };
        let mut c = counterexample(topology, &p.task(input), p.describe_input(input), order, v);
        c.faults = fault_args(p, input);
        c.reproduce = command(f.input.unwrap_or(0));
        // A search may stop once the claims have verdicts: where this one
        // was cut, the run that shows an observation is searched to the
        // end (a search that ended had a claim that held in every run,
        // and so has the run's).
        let cut = match by {
            Finder::LockStep => lock.as_ref().is_some_and(|s| s.cut.is_some()),
            _ => actors.as_ref().is_some_and(|s| s.cut.is_some()),
        };
        if !claims.claims(f.property) && (cut || options.observe_all) {
            c.reproduce = c.reproduce.map(|line| line + " --observe-all");
        }
        if by == Finder::LockStep {
            c.late = late.get(f.property as usize).cloned().unwrap_or_default();
        }
        Some(c)
    };
    let optimal = claims
        .transmissions
        .or_else(|| inputs.first().and_then(|i| p.task(i).least_transmissions()));
    // The bound each input's run was judged against, by input.
    let bound_of: Vec<Option<properties::Slot>> = inputs.iter().map(|i| p.bound(i)).collect();
    let bounds: Vec<properties::Slot> = bound_of.iter().flatten().copied().collect();
    let (least, most) = (bounds.iter().min().copied(), bounds.iter().max().copied());
    let limited = inputs.iter().any(|i| p.task(i).message_limit().is_some());
    let mut reports = Vec::new();
    let mut reproduce = None;
    for (i, &prop) in PropertyName::ALL.iter().enumerate() {
        let claimed = claims.claims(prop);
        let mut report = PropertyReport {
            name: prop.as_str(),
            claimed,
            status: Status::Holds,
            reason: None,
            counterexample: None,
            found_by: None,
            explorer_path: None,
        };
        if let Some(run) = &executed {
            let ev = &run.record.evidence(&claims)[i];
            report.status = ev.status;
            report.counterexample = ev.violation.map(|v| {
                let input = &inputs[0];
                let task = p.task(input);
                let mut c = counterexample(topology, &task, p.describe_input(input), "", &v);
                c.faults = fault_args(p, input);
                c.reproduce = command(0);
                c
            });
            report.found_by = ev.violation.map(|_| Finder::Executor);
        }
        let mut unknown = false;
        let mut unjudged = false;
        let searches = [
            (lock.as_ref(), Finder::LockStep),
            (actors.as_ref(), Finder::ActorModel),
        ];
        for (search, by) in searches {
            let Some(f) = search.map(|s| &s.findings[i]) else {
                continue;
            };
            let judged = !(by == Finder::ActorModel && prop == PropertyName::ContentionFreedom);
            if !judged {
                unjudged |= lock.is_none() && executed.is_none();
                continue;
            }
            match f.status {
                Status::Violated if report.counterexample.is_none() => {
                    report.status = Status::Violated;
                    report.counterexample = describe_finding(f, by);
                    report.found_by = Some(by);
                    report.explorer_path = f.path.clone();
                }
                Status::Unknown => unknown = true,
                _ => {}
            }
        }
        if unknown && report.counterexample.is_none() {
            report.status = Status::Unknown;
        }
        // A "holds" is earned only where a judge had something to judge.
        let nothing = match prop {
            _ if unjudged => {
                Some("the actor model has no common slot: contention is judged in lock step".into())
            }
            PropertyName::TimeBound if bounds.is_empty() => Some("no time is claimed".into()),
            PropertyName::MessageLength if !limited => {
                Some("no message length limit: no bus".into())
            }
            // A reduced chunk's sum comes back to the ranks whose terms it
            // holds: a term received again is the design, and a term
            // summed twice is a wrong result, which completeness judges.
            // (Where nothing came back, it holds.)
            PropertyName::NoDuplication
                if !claimed
                    && report.status == Status::Violated
                    && matches!(inputs.first().map(|i| p.task(i)), Some(Task::Schedule(_))) =>
            {
                Some(
                    "a reduced chunk's sum returns to the ranks it sums; completeness judges \
                     each term summed once"
                        .into(),
                )
            }
            _ => None,
        };
        match nothing {
            Some(why) if report.status != Status::Violated || !claimed => {
                report.status = Status::NotJudged;
                report.reason = Some(why);
                report.counterexample = None;
                report.found_by = None;
                report.explorer_path = None;
            }
            _ if prop == PropertyName::TimeBound => {
                // Over several inputs: how many were judged, how many late.
                let late = lock.as_ref().filter(|s| s.cut.is_none()).map(|s| {
                    let late = |&(ix, (_, hi)): &(usize, (_, properties::Slot))| {
                        bound_of[ix].is_some_and(|b| b < hi)
                    };
                    s.by_input.iter().filter(|x| late(x)).count()
                });
                let mut why = Vec::new();
                let what = match p.source_input(0) {
                    Some(_) => "sources",
                    None => "inputs",
                };
                if bounds.len() < inputs.len() {
                    why.push(format!(
                        "judged at {} of {} {what}; no time is claimed at the others",
                        bounds.len(),
                        inputs.len()
                    ));
                }
                if let Some(late) = late.filter(|&l| l > 0 && bounds.len() > 1) {
                    why.push(format!("late at {late} of {}", bounds.len()));
                }
                report.reason = (!why.is_empty()).then(|| why.join("; "));
            }
            _ => {}
        }
        if claimed && reproduce.is_none() {
            reproduce = report
                .counterexample
                .as_ref()
                .and_then(|c| c.reproduce.clone());
        }
        // Matching is a schedule's: reported where claimed or broken.
        if prop == PropertyName::Matching && !claimed && report.status != Status::Violated {
            continue;
        }
        // Without an optimum there is nothing to judge the count by; the
        // report's transmissions line says so.
        if prop == PropertyName::Transmissions && optimal.is_none() && !claimed {
            continue;
        }
        // The protocol's own words, where it has them (a schedule's
        // operations by label and line).
        let found = match &executed {
            Some(run) => run.record.violation(prop),
            None => lock.as_ref().and_then(|s| s.findings[i].violation),
        };
        if let (Some(c), Some(words)) = (
            report.counterexample.as_mut(),
            found.and_then(|v| p.explain(&v)),
        ) {
            c.text = format!("{}: {words}", c.input.as_deref().unwrap_or_default());
        }
        if let (Some(c), Some(v)) = (report.counterexample.as_mut(), found) {
            *c = std::mem::take(c).located(p.locate(&v));
        }
        reports.push(report);
    }

    if let Some(forced) = p.forced() {
        reports.push(forced_report(p, inputs, forced, lock.as_ref()));
    }
    let (measured, termination, tx) = match (&executed, &lock) {
        // A run cut short measured neither.
        (Some(run), _) if run.cut.is_some() => (None, None, None),
        (Some(run), _) => (
            Some(run.record.completion),
            Some(run.record.last_delivery),
            Some((run.record.transmissions, run.record.transmissions)),
        ),
        (None, Some(s)) => (s.worst_time, s.worst_termination, s.transmissions),
        _ => (None, None, None),
    };
    let coverage = |s: &Search| Coverage {
        generated: s.generated,
        unique: s.unique_states,
        depth: s.depth as u64,
        inputs_done: s.inputs_done,
        inputs_total: s.inputs_total,
        cut: s.cut.map(Cut::name),
    };
    let mesh = matches!(subject.family, models::Family::MeshBus { .. });
    // Transmissions go on until the last delivery, news or not: the
    // slots they are spread over end there (never above 100%).
    let busy = measured.max(termination);
    let utilized = utilization(topology, mesh, busy, tx.map(|t| t.1).filter(|&t| t > 0));
    Outcome {
        algorithm: subject.name.clone(),
        params: Params {
            n: subject.config.n,
            source: options.source.map(|s| topology.node_label(s)),
            switching: switching_name(subject.config.switching).into(),
            ports: ports_name(subject.config.ports).into(),
            k: subject.config.params.k,
            ell: subject.config.params.ell.or(mesh.then(|| {
                inputs
                    .first()
                    .and_then(|i| p.task(i).message_limit())
                    .map_or(0, u64::from)
            })),
            network: topology.network().or_else(|| {
                mesh.then(|| {
                    models::Family::MeshBus { min: 0 }
                        .network(subject.config.n)
                        .trim_start_matches("the ")
                        .to_string()
                })
            }),
        },
        engine: label,
        properties: reports,
        worst_input: lock
            .as_ref()
            .filter(|_| inputs.len() > 1)
            .and_then(|s| s.worst_input)
            .map(|ix| p.describe_input(&inputs[ix])),
        time: Time {
            measured,
            termination: termination.filter(|&t| Some(t) > measured),
            at_least: executed.is_none() && lock.as_ref().is_some_and(|s| s.cut.is_some()),
            bound: least.filter(|_| least == most),
            bounds: least.zip(most).filter(|(lo, hi)| lo != hi),
            lower_bound: claims.lower_bound,
            lower_bounds: p
                .lower_bounds()
                .into_iter()
                .map(|(name, steps)| NamedBound { name, steps })
                .collect(),
        },
        // A store-and-forward transmission is one link-slot (a worm is more);
        // a bus write one bus-step.
        bus_utilization: utilized.filter(|_| mesh),
        link_utilization: utilized.filter(|_| !mesh && subject.config.switching == Switching::Sf),
        transmissions: tx.map(|t| t.1),
        transmissions_min: tx.map(|t| t.0),
        optimal_transmissions: optimal,
        distribution: lock
            .as_ref()
            .filter(|_| options.distribution)
            .map(|s| distribution(&*p, inputs, s)),
        control_messages: match (&executed, &lock) {
            (Some(run), _) => Some(run.record.control),
            (None, Some(s)) => Some(s.control),
            _ => None,
        }
        .filter(|&c| c > 0),
        link_load: crate::engine::search::most_load(
            executed.as_ref().and_then(|r| r.record.load()),
            lock.as_ref().and_then(|s| s.load),
        )
        .map(|l| LinkLoad {
            most: l.most,
            slot: l.slot,
            resource: topology.resource_label(l.resource),
        }),
        states: lock.as_ref().map(|s| s.unique_states),
        actor_states: actors.as_ref().map(|s| s.unique_states),
        search: lock.as_ref().map(coverage),
        actor_search: actors.as_ref().map(coverage),
        sources_total: topology.nodes(),
        inputs_total: p.inputs_total(),
        sourced: p.source_input(0).is_some(),
        symmetric: p.symmetry().is_some(),
        inputs_checked: inputs.len(),
        inputs: inputs
            .iter()
            .take(LISTED)
            .map(|i| p.describe_input(i))
            .collect(),
        elapsed_ms: start.elapsed().as_millis(),
        notes,
        reproduce,
        machine: machine_report(
            options,
            executed.as_ref(),
            inputs.first().map_or(0, |i| p.task(i).needed_deliveries()),
        ),
        cost: None,
    }
}

/// The report of a sometimes claim ([`ProtocolExt::forced`](models::ProtocolExt::forced)): the lowest
/// input each of whose runs takes at least `forced` slots, if the search
/// found one.
fn forced_report<P: Protocol>(
    p: &P,
    inputs: &[P::Input],
    (forced, claimed): (properties::Slot, bool),
    lock: Option<&Search>,
) -> PropertyReport {
    let witness = lock.and_then(|s| s.by_input.iter().find(|(_, (lo, _))| *lo >= forced));
    let finished = lock.is_some_and(|s| s.cut.is_none());
    PropertyReport {
        name: "forced-slots",
        claimed,
        reason: None,
        status: match (witness, finished) {
            (Some(_), _) => Status::Holds,
            (None, true) => Status::Violated,
            (None, false) => Status::Unknown,
        },
        counterexample: match witness {
            Some((ix, (lo, _))) => Some(Counterexample {
                input: Some(p.describe_input(&inputs[*ix])),
                ..Counterexample::text(format!(
                    "witness: {} takes at least {lo} slots in every run (>= {forced})",
                    p.describe_input(&inputs[*ix])
                ))
            }),
            None if finished => Some(Counterexample::text(format!(
                "no input checked forces {forced} slots in every run"
            ))),
            None => None,
        },
        found_by: None,
        explorer_path: None,
    }
}

/// The distribution of the drawn quantity and of the completion time over
/// the inputs a search covered, each weighted alike.
fn distribution<P: Protocol>(p: &P, inputs: &[P::Input], s: &Search) -> Distribution {
    use std::collections::BTreeMap;
    let total = s.by_input.len() as u64;
    let share = |c: u64| c as f64 / total.max(1) as f64;
    let mut values: BTreeMap<u64, u64> = BTreeMap::new();
    let mut times: BTreeMap<properties::Slot, u64> = BTreeMap::new();
    for &(ix, (_, t)) in &s.by_input {
        *values.entry(p.drawn(&inputs[ix]).unwrap_or(0)).or_default() += 1;
        *times.entry(t).or_default() += 1;
    }
    let mut above = total;
    let quantity = p.drawn_tail(0).0;
    let values = values
        .into_iter()
        .map(|(value, n)| {
            let row = ValueRow {
                value,
                inputs: n,
                p: share(n),
                p_at_least: share(above),
                bound: p.drawn_tail(value).1,
            };
            above -= n;
            row
        })
        .collect();
    let mut upto = 0;
    let times = times
        .into_iter()
        .map(|(slots, n)| {
            upto += n;
            TimeRow {
                slots,
                inputs: n,
                p: share(n),
                p_at_most: share(upto),
            }
        })
        .collect();
    Distribution {
        inputs: total,
        exact: total == p.inputs_total(),
        quantity,
        values,
        times,
    }
}

/// The source node of an input, found by asking which source gives it
/// (a check covers few inputs; the executor's is source 0 or --source).
/// The faults of the run from `input`, as `--fault` takes them.
fn fault_args<P: Protocol>(p: &P, input: &P::Input) -> Vec<String> {
    p.faults(input)
        .map(|f| f.list().iter().map(|x| x.arg(p.topology())).collect())
        .unwrap_or_default()
}

/// The machine's part of the report: what it was, and in an executor
/// run what the faults cost.
fn machine_report(options: &Options, run: Option<&Run>, needed: u64) -> Option<MachineReport> {
    let machine = &options.machine;
    if machine.perfect() {
        return None;
    }
    let record = run.map(|r| &r.record);
    Some(MachineReport {
        described: machine.words(),
        lost: record.map(|r| r.lost),
        excused: record.map(|r| r.excused),
        missing: record.map(|r| r.missing),
        informed: record.map(|r| {
            let reach = needed.saturating_sub(r.excused).max(1);
            reach.saturating_sub(r.missing) as f64 / reach as f64
        }),
    })
}

pub(super) fn switching_name(s: Switching) -> &'static str {
    match s {
        Switching::Wh => "wormhole",
        Switching::Sf => "store-and-forward",
    }
}

pub(super) fn ports_name(p: Ports) -> &'static str {
    match p {
        Ports::All => "all",
        Ports::One => "one",
    }
}

/// Transmissions per directed link-slot of the run, or per bus-step on a
/// mesh-bus (see `Outcome::link_utilization`, `Outcome::bus_utilization`).
fn utilization<T: Topology>(t: &T, buses: bool, time: Option<u32>, tx: Option<u64>) -> Option<f64> {
    let links = match buses {
        // A mesh-bus's resources are its buses.
        true => t.resources(),
        false => 2 * t.link_count(),
    };
    let slots = time.filter(|&s| s > 0)? as u64;
    Some(tx? as f64 / (slots * links) as f64).filter(|_| links > 0)
}
