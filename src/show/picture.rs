//! Pictures of a run for the Explorer and `--svg`: the topology as SVG,
//! with the nodes that hold what they must (and, where a node must hold
//! several packets, how many it holds), the transmissions of the last
//! slot, and in red what broke a claim: a contended resource, a node that
//! received a packet twice, a node the run left without a packet.

use crate::engine::lockstep::{LockStep, RunState, State};
use models::Protocol;
use models::Topology;
use properties::{NodeId, PropertyName, Task, Violation};
use std::fmt::Write;

/// Largest network drawn; past it the picture says so.
pub const MAX_DRAWN: u32 = 128;

/// Colours of the worms of one slot, in turn.
const WORM_COLOURS: [&str; 6] = [
    "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

/// The SVG of `state`: nodes (filled when they hold every packet the task
/// requires), links, the transmissions of the last slot as arrows along
/// their paths, and the first conflict of this slot in red.
///
/// A bus write (mesh-bus) is drawn as its bus, thick in the writer's
/// colour, the writer ringed, and the tokens it carries (`tokens` of its
/// message) written beside the writer.
pub fn svg<T: Topology, S, M>(
    topology: &T,
    task: &Task,
    state: &RunState<S, M>,
    tokens: impl Fn(&M) -> Vec<u32>,
) -> String {
    let mut out = String::new();
    if topology.nodes() > MAX_DRAWN {
        let _ = write!(
            out,
            "<svg xmlns='http://www.w3.org/2000/svg' width='420' height='40'><text x='10' y='25'>\
             {} nodes: too many to draw (at most {MAX_DRAWN})</text></svg>",
            topology.nodes()
        );
        return out;
    }
    let unit = 60.0;
    let margin = 40.0;
    let (mut lo, mut hi) = ((f32::MAX, f32::MAX), (f32::MIN, f32::MIN));
    for v in 0..topology.nodes() {
        let (x, y) = topology.position(v);
        (lo, hi) = ((lo.0.min(x), lo.1.min(y)), (hi.0.max(x), hi.1.max(y)));
    }
    let at = |v| {
        let (x, y) = topology.position(v);
        (
            margin + (x - lo.0) * unit,
            margin + 20.0 + (y - lo.1) * unit,
        )
    };
    // What broke a claim, a red line each under the picture.
    let broken: Vec<Violation> = [
        PropertyName::ContentionFreedom,
        PropertyName::NoDuplication,
        PropertyName::Completeness,
    ]
    .into_iter()
    .filter_map(|q| state.record.violation(q))
    .collect();
    // Wide enough for the longest line of text (about 6.7 px a character).
    let text = broken
        .iter()
        .map(|v| crate::report::describe(topology, task, v).len() + 20)
        .chain([80])
        .max()
        .unwrap_or(80);
    let (width, height) = (
        ((hi.0 - lo.0) * unit + 2.0 * margin).max(20.0 + 6.7 * text as f32),
        (hi.1 - lo.1) * unit + 2.0 * margin + 26.0 + 14.0 * broken.len() as f32,
    );
    let _ = write!(
        out,
        "<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' \
         font-family='monospace' font-size='11'>\
         <defs><marker id='arrow' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='6' \
         markerHeight='6' orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z'/></marker></defs>\
         <rect width='100%' height='100%' fill='white'/><text x='10' y='16'>after step {}: {} transmissions in this step; {} of {} nodes informed</text>",
        state.slot,
        state.sent.len(),
        (0..topology.nodes()).filter(|&v| holds_all(state, v)).count(),
        topology.nodes()
    );
    topology.links(|u, v| {
        let ((x1, y1), (x2, y2)) = (at(u), at(v));
        let _ = write!(
            out,
            "<line x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='#ddd'/>"
        );
    });
    // A route as an arrow along its path (a fan-out as one per link).
    let arrow =
        |out: &mut String, route: &properties::Route, class: &str, style: &str, title: &str| {
            let mut legs = Vec::new();
            match *route {
                properties::Route::Fan { from, .. } => {
                    topology.receivers(route, |to| legs.push(vec![from, to]))
                }
                _ => legs.push(topology.path(route)),
            }
            for leg in legs {
                let points: Vec<String> = leg
                    .into_iter()
                    .map(|v| {
                        let (x, y) = at(v);
                        format!("{x},{y}")
                    })
                    .collect();
                let _ = write!(
                    out,
                    "<polyline class='{class}' points='{}' fill='none' stroke-width='2' \
                     {style} marker-end='url(#arrow)'><title>{title}{}</title></polyline>",
                    points.join(" "),
                    topology.route_label(route)
                );
            }
        };
    for (i, tx) in state.sent.iter().enumerate() {
        let colour = WORM_COLOURS[i % WORM_COLOURS.len()];
        let properties::Route::Bus { from, .. } = tx.route else {
            arrow(
                &mut out,
                &tx.route,
                "worm",
                &format!("stroke='{colour}'"),
                "",
            );
            continue;
        };
        let carried: Vec<String> = tokens(&tx.msg)
            .into_iter()
            .map(|t| format!("t{}", topology.node_label(t)))
            .collect();
        let carried = match carried.len() {
            0..=6 => carried.join(" "),
            n => format!("{} ... ({n} tokens)", carried[..4].join(" ")),
        };
        let path = topology.path(&tx.route);
        let (first, last) = (at(path[0]), at(*path.last().expect("a bus has nodes")));
        let (x, y) = at(from);
        let _ = write!(
            out,
            "<line class='bus' x1='{}' y1='{}' x2='{}' y2='{}' stroke='{colour}' stroke-width='5' \
             opacity='0.45'><title>{}: {carried}</title></line>\
             <circle class='writer' cx='{x}' cy='{y}' r='11' fill='none' stroke='{colour}' \
             stroke-width='3'/><text class='carried' x='{}' y='{}' fill='{colour}'>{carried}</text>",
            first.0,
            first.1,
            last.0,
            last.1,
            topology.route_label(&tx.route),
            x + 8.0,
            y + 16.0,
        );
    }
    // The first conflict of the run, whenever it happened: its two
    // transmissions dashed, the shared resource in red.
    if let Some(Violation::Conflict {
        slot,
        resource,
        first,
        second,
    }) = state.record.violation(PropertyName::ContentionFreedom)
    {
        for route in first.iter().chain([&second]) {
            let style = "stroke='#d62728' stroke-dasharray='6 3'";
            arrow(
                &mut out,
                route,
                "conflicting",
                style,
                &format!("step {slot}: "),
            );
        }
        if let Some((u, v)) = topology.arc_ends(resource) {
            let ((x1, y1), (x2, y2)) = (at(u), at(v));
            let _ = write!(
                out,
                "<line class='contended' x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='red' \
                 stroke-width='6' opacity='0.7'><title>contended in step {slot}: {}</title></line>",
                topology.resource_label(resource)
            );
        }
    }
    // A duplicate delivery or a node left without a packet: the node
    // ringed in red.
    let mut red_nodes: Vec<(NodeId, String)> = Vec::new();
    for v in &broken {
        match *v {
            Violation::Duplicate { slot, node, .. } | Violation::OwnPacket { slot, node, .. } => {
                red_nodes.push((node, format!("received again in step {slot}")))
            }
            Violation::Missing { node, .. } => {
                red_nodes.push((node, "left without a packet".to_string()))
            }
            _ => {}
        }
    }
    for (node, why) in &red_nodes {
        let (x, y) = at(*node);
        let _ = write!(
            out,
            "<circle class='broken' cx='{x}' cy='{y}' r='12' fill='none' stroke='red' \
             stroke-width='3'><title>{} {why}</title></circle>",
            topology.node_label(*node)
        );
    }
    for (i, v) in broken.iter().enumerate() {
        let _ = write!(
            out,
            "<text class='violation' x='10' y='{}' fill='red'>{}: {}</text>",
            height - 8.0 - 14.0 * (broken.len() - 1 - i) as f32,
            v.property().as_str(),
            escape(&crate::report::describe(topology, task, v))
        );
    }
    // Where a node must hold several packets, how many it holds.
    let required = |v: NodeId| {
        (0..task.packet_ids()).filter(move |&p| {
            task.is_packet(p as u32)
                && (task.is_broadcast() || task.destination(p as u32) == Some(v))
        })
    };
    let several = topology.nodes() <= MAX_DRAWN
        && (0..topology.nodes()).any(|v| required(v).nth(1).is_some());
    for v in 0..topology.nodes() {
        let (x, y) = at(v);
        let fill = if holds_all(state, v) {
            "#ffd54f"
        } else {
            "white"
        };
        let _ = write!(
            out,
            "<circle class='node' cx='{x}' cy='{y}' r='7' fill='{fill}' stroke='black'/>\
             <text x='{}' y='{}'>{}</text>",
            x + 8.0,
            y - 6.0,
            topology.node_label(v)
        );
        if several {
            let need: Vec<u64> = required(v).collect();
            let held = need
                .iter()
                .filter(|&&p| state.holdings.holds(v, p as u32))
                .count();
            let _ = write!(
                out,
                "<text class='held' x='{}' y='{}' fill='#555'>{held}/{}</text>",
                x + 8.0,
                y + 14.0,
                need.len()
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// `text` with XML's special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// True if `node` holds every packet the task requires of it.
fn holds_all<S, M>(state: &RunState<S, M>, node: u32) -> bool {
    state.holdings.complete_at(node)
}

/// The picture of `state` of `model` (the Explorer's, and `--svg`'s).
pub fn draw<P: Protocol>(model: &LockStep<P>, state: &State<P>) -> String {
    let p = &model.protocol;
    let tokens = |m: &P::Msg| {
        let mut t = Vec::new();
        p.packets(m, |x| t.push(x));
        t
    };
    svg(p.topology(), model.task(state), state, tokens)
}
