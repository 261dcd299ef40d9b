//! Exports of one run, for other tools: `--dot` (the schedule as a
//! Graphviz graph), `--svg-load` (which resource is busy in which slot),
//! `--trace` (one JSON line per transmission). `--svg` draws one slot of
//! the same run (`check::svg`).
//!
//! The run is the one the executor makes: from `--source`, else the first
//! input, every open choice at its first option. It is replayed slot by
//! slot through the lock-step model, which hands over each slot's
//! transmissions (tests pin that this run is the executor's). Each export
//! states its size limit and refuses past it before the run starts, or
//! stops with an error where only the run can tell (its length).

use crate::check::schedule::ScheduleRequest;
use crate::check::{CheckError, Request};
use crate::engine::lockstep::{LockStep, RunState};
use models::{with_protocol, Protocol, ProtocolExt, Topology};
use properties::{PropertyName, ResourceId, Route, Slot, Violation};
use std::fmt::Write as _;
use std::io::Write;
use std::sync::Arc;

/// `--dot` draws networks of up to this many nodes (Graphviz lays out a
/// few thousand).
pub const MAX_DOT_NODES: u32 = 4096;
/// `--svg-load` draws up to this many resources (rows) ...
pub const MAX_LOAD_RESOURCES: u64 = 4096;
/// ... and this many slots (columns).
pub const MAX_LOAD_SLOTS: Slot = 1024;
/// `--trace` follows networks of up to this many nodes ...
pub const MAX_TRACE_NODES: u32 = 1 << 16;
/// ... and writes up to this many transmissions (about 150 MB).
pub const MAX_TRACE_LINES: u64 = 1_000_000;

/// What exports are made of: a catalogue algorithm's request, or a
/// schedule's (`check schedule FILE --svg ...`).
#[derive(Clone, Copy)]
pub enum Of<'a> {
    /// `check ALG N ...`.
    Algorithm(&'a Request),
    /// `check schedule FILE ...`.
    Schedule(&'a ScheduleRequest),
}

/// Runs `$body` with `$p` bound to the protocol `$of` names, `$source`
/// to the input asked for (a schedule has one) and `$command` to the
/// command line that checks it.
macro_rules! with_run {
    ($of:expr, |$p:ident, $source:ident, $command:ident| $body:expr) => {
        match $of {
            Of::Algorithm(req) => {
                let $source = req.options.source;
                let machine = &req.options.machine;
                let $command = req.command(None) + &machine.flags();
                with_protocol!(req.algorithm, req.config.clone(), |q| {
                    match machine.perfect() {
                        true => {
                            let $p = q;
                            $body
                        }
                        false => {
                            machine.one_run()?;
                            let $p = machine.wrap(q)?;
                            $body
                        }
                    }
                })
            }
            Of::Schedule(req) => {
                let $source: Option<u32> = None;
                let $command = req.command();
                crate::with_scheduled!(req, |$p, _subject| $body)
            }
        }
    };
}

/// The model of the one run exports are made of, and its input in words.
pub(crate) fn one_run<P: Protocol>(p: P, source: Option<u32>) -> (LockStep<P>, String) {
    let input = source
        .and_then(|s| p.source_input(s))
        .unwrap_or_else(|| p.first_input());
    let what = p.describe_input(&input);
    (LockStep::new(Arc::new(p), vec![input]), what)
}

/// The transmissions of the run's first conflict if it happened in the
/// slot of `state`, to mark them.
fn conflicting<S, M>(state: &RunState<S, M>) -> Vec<Route> {
    match state.record.violation(PropertyName::ContentionFreedom) {
        Some(Violation::Conflict {
            slot,
            first,
            second,
            ..
        }) if slot == state.slot => first.into_iter().chain([second]).collect(),
        _ => Vec::new(),
    }
}

/// Graphviz quoting.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `--dot FILE`: the run as a directed graph: every node, and an edge from
/// sender to receiver per delivery labelled with its slot (and its packets
/// where a broadcast of one packet does not make them obvious); the
/// transmissions of the first conflict in red. Returns the graph and what
/// it shows.
pub fn dot(of: Of) -> Result<(String, String), CheckError> {
    with_run!(of, |p, source, command| {
        let nodes = p.topology().nodes();
        if nodes > MAX_DOT_NODES {
            return Err(CheckError::TooBigToDraw {
                option: "--dot",
                nodes,
                max: MAX_DOT_NODES,
            });
        }
        let (model, what) = one_run(p, source);
        let t = model.protocol.topology();
        let mut edges = String::new();
        let task = model.protocol.task(&model.inputs[0]);
        let single = task.is_broadcast() && task.packet_ids() == 1;
        let last = model.first_choice_each(0, |s: &RunState<_, _>| {
            for tx in &s.sent {
                let mut label = s.slot.to_string();
                if !single {
                    label += &format!(": {}", model.message_words(s, &tx.msg));
                }
                let red = conflicting(s).contains(&tx.route);
                let from = t.node_label(tx.route.from());
                t.receivers(&tx.route, |v| {
                    let _ = writeln!(
                        edges,
                        "  {} -> {} [label={}{}];",
                        quoted(&from),
                        quoted(&t.node_label(v)),
                        quoted(&label),
                        if red {
                            ", color=red, fontcolor=red"
                        } else {
                            ""
                        }
                    );
                });
            }
            Ok::<_, CheckError>(())
        })?;
        let mut out = format!(
            "// {}, {what}: an edge per delivery, labelled with its slot\ndigraph {{\n  \
             label={};\n  node [shape=circle, fontname=monospace];\n  \
             edge [fontname=monospace, fontsize=10];\n",
            command,
            quoted(&format!(
                "{} ({what}), {} slots",
                command, last.record.last_delivery
            )),
        );
        for v in 0..nodes {
            let _ = writeln!(out, "  {};", quoted(&t.node_label(v)));
        }
        out += &edges;
        out += "}\n";
        Ok((out, format!("{what}, {} slots", last.record.last_delivery)))
    })
}

/// `--svg-load FILE`: a heatmap of resource use, one row per resource
/// (a link of several lanes one row) and one column per slot; a cell is
/// white when the resource is idle, blue when it carries what its lanes
/// take (lighter where lanes are left), red when more contend for it.
/// A machine's links are grouped by kind (NVLink, PCIe, ...), each group
/// headed by its name.
pub fn load(of: Of) -> Result<(String, String), CheckError> {
    with_run!(of, |p, source, command| {
        let resources = p.topology().resources();
        if resources > MAX_LOAD_RESOURCES {
            return Err(CheckError::TooManyResources {
                resources,
                max: MAX_LOAD_RESOURCES,
            });
        }
        let (model, what) = one_run(p, source);
        let t = model.protocol.topology();
        // busy[slot - 1][resource]: how many transmissions hold it.
        let mut busy: Vec<Vec<u32>> = Vec::new();
        model.first_choice_each(0, |s: &RunState<_, _>| {
            if s.slot > MAX_LOAD_SLOTS {
                return Err(CheckError::TooLongToDraw {
                    max: MAX_LOAD_SLOTS,
                });
            }
            let mut column = vec![0u32; resources as usize];
            for tx in &s.sent {
                t.occupy(&tx.route, |r| column[r as usize] += 1);
            }
            busy.push(column);
            Ok(())
        })?;
        // The quiet slots in which the run ends are not drawn.
        while busy.last().is_some_and(|c| c.iter().all(|&k| k == 0)) {
            busy.pop();
        }
        // A row per resource that `occupy` names (a link's first lane),
        // grouped by the link's kind where the network gives one.
        let kind = |r: ResourceId| t.link_attrs(r).map(|a| a.kind.name());
        let mut rows: Vec<ResourceId> = (0..resources)
            .filter(|&r| r == 0 || t.arc_ends(r).is_none() || t.arc_ends(r) != t.arc_ends(r - 1))
            .collect();
        rows.sort_by_key(|&r| (kind(r).is_none(), kind(r), r));
        let mut lines: Vec<(Option<&str>, Option<ResourceId>)> = Vec::new();
        for &r in &rows {
            if kind(r).is_some() && lines.last().is_none_or(|l| l.0 != kind(r)) {
                lines.push((kind(r), None));
            }
            lines.push((kind(r), Some(r)));
        }
        let (cell, left, top) = (12.0f32, 210.0f32, 64.0f32);
        let slots = busy.len();
        let (width, height) = (
            (left + cell * slots as f32 + 20.0).max(640.0),
            top + cell * lines.len() as f32 + 30.0,
        );
        let held: u64 = rows
            .iter()
            .map(|&r| busy.iter().filter(|c| c[r as usize] > 0).count() as u64)
            .sum();
        let mut out = format!(
            "<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' \
             font-family='monospace' font-size='10'><rect width='100%' height='100%' fill='white'/>\
             <text x='10' y='16' font-size='12'>{} ({what}): {held} of {} resource-slots busy</text>\
             <text x='10' y='32'>white idle, blue busy (lighter: lanes left), red contended \
             (more than its lanes)</text><text x='{left}' y='{}'>slot</text>\
             <text x='{}' y='{}' text-anchor='end'>resource (lanes)</text>",
            command,
            rows.len() as u64 * slots as u64,
            top - 18.0,
            left - 4.0,
            top - 4.0,
        );
        for k in 0..slots {
            let x = left + cell * k as f32;
            let _ = write!(
                out,
                "<text x='{}' y='{}' text-anchor='middle'>{}</text>",
                x + cell / 2.0,
                top - 4.0,
                k + 1
            );
        }
        for (i, &(group, r)) in lines.iter().enumerate() {
            let y = top + cell * i as f32;
            let Some(r) = r else {
                let _ = write!(
                    out,
                    "<text class='kind' x='10' y='{}' font-weight='bold'>{}</text>",
                    y + cell - 2.0,
                    group.unwrap_or_default()
                );
                continue;
            };
            let lanes = t.lanes(r);
            let label = match lanes {
                1 => t.resource_label(r),
                k => format!("{} ({k})", t.resource_label(r)),
            };
            let _ = write!(
                out,
                "<text x='{}' y='{}' text-anchor='end'>{}</text>",
                left - 4.0,
                y + cell - 2.0,
                super::picture::escape(&label)
            );
            for (k, column) in busy.iter().enumerate() {
                let held = column[r as usize];
                let (class, fill) = match held {
                    0 => ("idle", "white"),
                    h if h > lanes => ("contended", "#d62728"),
                    h if h == lanes => ("busy", "#1f77b4"),
                    _ => ("busy", "#9ecae1"),
                };
                let _ = write!(
                    out,
                    "<rect class='{class}' x='{}' y='{y}' width='{cell}' height='{cell}' \
                     fill='{fill}' stroke='#ccc' stroke-width='0.5'><title>slot {}: {} {}</title></rect>",
                    left + cell * k as f32,
                    k + 1,
                    super::picture::escape(&t.resource_label(r)),
                    class
                );
            }
        }
        out += "</svg>\n";
        Ok((
            out,
            format!("{what}, {} slots x {} resources", busy.len(), rows.len()),
        ))
    })
}

/// One transmission of `--trace`.
#[derive(serde::Serialize)]
struct Line {
    slot: Slot,
    from: String,
    route: String,
    resources: Vec<String>,
    payload: Vec<String>,
    control: bool,
    receivers: Vec<String>,
}

/// `--trace FILE`: one JSON line per transmission, in slot order: slot,
/// sender, route, the resources it holds, the packets it carries (in the
/// paper's words), whether it is a control message, its receivers.
/// Returns how many lines it wrote and what run they trace.
pub fn trace(of: Of, out: &mut impl Write) -> Result<String, CheckError> {
    with_run!(of, |p, source, _command| {
        let nodes = p.topology().nodes();
        if nodes > MAX_TRACE_NODES {
            return Err(CheckError::TooBigToTrace {
                nodes,
                max: MAX_TRACE_NODES,
            });
        }
        let (model, what) = one_run(p, source);
        let task = model.protocol.task(&model.inputs[0]);
        let least = task.least_transmissions().unwrap_or(0);
        if least > MAX_TRACE_LINES {
            return Err(CheckError::TraceTooLong {
                least: Some(least),
                max: MAX_TRACE_LINES,
            });
        }
        let p = &model.protocol;
        let t = p.topology();
        let mut lines = 0u64;
        let last = model.first_choice_each(0, |s: &RunState<_, _>| {
            if crate::engine::search::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(CheckError::TraceInterrupted);
            }
            for tx in &s.sent {
                lines += 1;
                if lines > MAX_TRACE_LINES {
                    return Err(CheckError::TraceTooLong {
                        least: None,
                        max: MAX_TRACE_LINES,
                    });
                }
                let mut line = Line {
                    slot: s.slot,
                    from: t.node_label(tx.route.from()),
                    route: t.route_label(&tx.route),
                    resources: Vec::new(),
                    payload: Vec::new(),
                    control: p.control(&tx.msg),
                    receivers: Vec::new(),
                };
                t.occupy(&tx.route, |r| line.resources.push(t.resource_label(r)));
                if !line.control {
                    let task = model.task(s);
                    p.packets(&tx.msg, |x| {
                        line.payload
                            .push(crate::engine::words::packet_words(t, task, x))
                    });
                }
                t.receivers(&tx.route, |v| line.receivers.push(t.node_label(v)));
                let json = serde_json::to_string(&line).expect("a trace line serializes");
                writeln!(out, "{json}").map_err(|e| CheckError::Write(e.to_string()))?;
            }
            Ok(())
        })?;
        Ok(format!(
            "{lines} transmissions of {what}, {} slots",
            last.record.last_delivery
        ))
    })
}

/// `--svg FILE`: the picture of one slot of the run from the given source
/// (else the first input), every open choice at its first option: slot
/// `slot` if given, else the slot of its first violation, else its last.
/// Returns the SVG and what it shows.
pub fn svg(of: Of, slot: Option<u32>) -> Result<(String, String), CheckError> {
    with_run!(of, |p, source, _command| {
        let nodes = p.topology().nodes();
        if nodes > super::picture::MAX_DRAWN {
            return Err(CheckError::TooBigToDraw {
                option: "--svg",
                nodes,
                max: super::picture::MAX_DRAWN,
            });
        }
        let (model, what) = one_run(p, source);
        let violated = |s: &crate::engine::lockstep::RunState<_, _>| {
            PropertyName::ALL
                .iter()
                .any(|&q| s.record.violation(q).is_some())
        };
        let state = match slot {
            Some(k) => model.first_choice_until(0, |s| s.slot >= k),
            None => {
                let state = model.first_choice_until(0, violated);
                match violated(&state) {
                    true => state,
                    // The last slot that delivered, not the quiet one after.
                    false => {
                        let last = state.record.last_delivery;
                        model.first_choice_until(0, |s| s.slot >= last)
                    }
                }
            }
        };
        let picture = super::picture::draw(&model, &state);
        // The picture counts time in steps; so does its line here.
        let why = match (slot, violated(&state)) {
            (Some(k), _) if k > state.slot => format!("the run ends before --slot {k}"),
            (Some(_), _) => "the step --slot asked for".to_string(),
            (None, true) => "the first violation".to_string(),
            (None, false) => "the last step".to_string(),
        };
        Ok((picture, format!("{what}, step {} ({why})", state.slot)))
    })
}
