//! Pictures of a run for the Explorer and `--svg`: the topology as SVG,
//! with the nodes that hold what they must (and, where a node must hold
//! several packets, how many it holds), the transmissions of the last
//! slot, and in red what broke a claim: a contended resource, a node that
//! received a packet twice, a node the run left without a packet (in
//! orange, as an observation, where the paper claims nothing there). No
//! two texts overlap (a headless-Chromium test measures them).

use crate::engine::lockstep::{LockStep, RunState, State};
use models::Topology;
use models::{Protocol, ProtocolExt};
use properties::{Claims, NodeId, PropertyName, Task, Violation};
use std::fmt::Write;

/// Largest network drawn; past it the picture says so.
pub const MAX_DRAWN: u32 = 128;

/// Colours of the worms of one slot, in turn.
const WORM_COLOURS: [&str; 6] = [
    "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

/// Text metrics of the pictures' font (monospace at 11 px), a little over
/// the real ones (DejaVu Sans Mono and Liberation Mono advance 6.6 px a
/// character), so that boxes laid out apart are drawn apart.
const CHAR_WIDTH: f32 = 6.7;
/// Height of a text's box above its baseline.
const ASCENT: f32 = 10.5;
/// Depth of a text's box below its baseline.
const DESCENT: f32 = 3.0;
/// Distance between the baselines of two lines of text.
const LINE: f32 = 15.0;
/// Node spacings tried in turn, until every label finds a free place.
const UNITS: [f32; 5] = [60.0, 76.0, 96.0, 122.0, 156.0];

/// A text's box (x0, y0) to (x1, y1).
#[derive(Clone, Copy, Debug)]
struct Rect {
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
}

impl Rect {
    /// The box of `text` written at (x, y) (its baseline's start).
    fn text(x: f32, y: f32, text: &str) -> Rect {
        Rect {
            x0: x,
            y0: y - ASCENT,
            x1: x + CHAR_WIDTH * text.chars().count() as f32,
            y1: y + DESCENT,
        }
    }

    /// True if the two boxes share more than a line.
    fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// True if the box comes within `r` of (cx, cy) (a node's circle).
    fn near(&self, (cx, cy): (f32, f32), r: f32) -> bool {
        let dx = cx.clamp(self.x0, self.x1) - cx;
        let dy = cy.clamp(self.y0, self.y1) - cy;
        dx * dx + dy * dy < r * r
    }
}

/// Where the texts beside the nodes go: each node's label and, where a
/// node must hold several packets, its count, each at the first place
/// around its node that meets no other text and no node's circle.
struct Placed {
    /// Pixels between neighbours one unit apart.
    unit: f32,
    /// Each node's label's baseline start.
    labels: Vec<(f32, f32)>,
    /// Each node's count's baseline start (empty without counts).
    counts: Vec<(f32, f32)>,
    /// Every box placed, the caption's included.
    boxes: Vec<Rect>,
}

/// Places `labels` (and `counts`, if any) around nodes at `centres`
/// (circles of `radius`, `unit` pixels apart), clear of `taken`; None if
/// some text finds no free place.
fn place(
    unit: f32,
    centres: &[(f32, f32)],
    radius: &[f32],
    labels: &[String],
    counts: &[String],
    taken: &[Rect],
) -> Option<Placed> {
    let mut boxes = taken.to_vec();
    let floor = taken.iter().map(|r| r.y1).fold(0.0, f32::max) + 2.0;
    let mut put = |v: usize, text: &str, below_first: bool| -> Option<(f32, f32)> {
        let (x, y) = centres[v];
        let w = CHAR_WIDTH * text.chars().count() as f32;
        let r = radius[v];
        let mut spots = Vec::new();
        for d in [0.0, 3.0, 6.0] {
            // Beside the circle, a little above or below its centre.
            let (ne, se) = (
                (x + r + d, y - DESCENT - 6.0 - d),
                (x + r + d, y + ASCENT + 6.0 + d),
            );
            let (nw, sw) = ((x - r - d - w, ne.1), (x - r - d - w, se.1));
            let (n, s) = (
                (x - w / 2.0, y - r - DESCENT - 1.0 - d),
                (x - w / 2.0, y + r + ASCENT + 1.0 + d),
            );
            let (e, west) = ((x + r + 2.0 + d, y + 4.0), (x - r - 2.0 - d - w, y + 4.0));
            match below_first {
                false => spots.extend([ne, nw, n, e, west, se, sw, s]),
                true => spots.extend([se, sw, s, e, west, ne, nw, n]),
            }
        }
        spots.into_iter().find_map(|(tx, ty)| {
            let b = Rect::text(tx, ty, text);
            let free = b.x0 >= 2.0
                && b.y0 >= floor
                && !boxes.iter().any(|o| o.overlaps(&b))
                && !centres
                    .iter()
                    .zip(radius)
                    .any(|(&c, &rc)| b.near(c, rc + 1.0));
            free.then(|| {
                boxes.push(b);
                (tx, ty)
            })
        })
    };
    let mut at_labels = Vec::new();
    for (v, text) in labels.iter().enumerate() {
        at_labels.push(put(v, text, false)?);
    }
    let mut at_counts = Vec::new();
    for (v, text) in counts.iter().enumerate() {
        at_counts.push(put(v, text, true)?);
    }
    Some(Placed {
        unit,
        labels: at_labels,
        counts: at_counts,
        boxes,
    })
}

/// The caption's count in the task's own words: nodes informed (a
/// broadcast of one packet), nodes holding all packets or tokens (several
/// packets to every node), packets or terms delivered (a personalised
/// task).
fn progress<S, M>(topology: &impl Topology, task: &Task, state: &RunState<S, M>) -> String {
    let nodes = topology.nodes();
    let complete = (0..nodes).filter(|&v| holds_all(state, v)).count();
    if let Task::Schedule(_) = task {
        // A schedule's ranks: the nodes it requires something of.
        let any = task.requires_anything();
        let ranks: Vec<NodeId> = (0..nodes).filter(|&v| any[v as usize]).collect();
        let done = ranks.iter().filter(|&&v| holds_all(state, v)).count();
        let mut caption = format!("{done} of {} ranks hold every chunk they must", ranks.len());
        // Held is not placed: a rank can hold every chunk and end wrong.
        if let Some(Violation::WrongResult { node, .. }) =
            state.record.violation(PropertyName::Completeness)
        {
            caption += &format!(
                ", but {} ends with a wrong result",
                topology.node_label(node)
            );
        }
        return caption;
    }
    if task.is_broadcast() {
        return match task.broadcast_packets().len() {
            1 => format!("{complete} of {nodes} nodes informed"),
            k => {
                let what = match task.message_limit() {
                    Some(_) => "tokens",
                    None => "packets",
                };
                format!("{complete} of {nodes} nodes hold all {k} {what}")
            }
        };
    }
    let packets: Vec<u32> = (0..task.packet_ids() as u32)
        .filter(|&p| task.is_packet(p))
        .collect();
    let delivered = packets
        .iter()
        .filter(|&&p| {
            task.destination(p)
                .is_some_and(|d| state.holdings.holds(d, p))
        })
        .count();
    let what = match task.combining() {
        true => "terms",
        false => "packets",
    };
    format!("{delivered} of {} {what} delivered", packets.len())
}

/// The SVG of `state`: nodes (filled when they hold every packet the task
/// requires), links, the transmissions of the last slot as arrows along
/// their paths, and the first conflict of this slot in red; what the
/// paper does not claim but the run shows (`claims`) in orange, as an
/// observation.
///
/// A bus write (mesh-bus) is drawn as its bus, thick in the writer's
/// colour, the writer ringed, and listed under the picture in that colour
/// with the tokens it carries (`tokens` of its message).
///
/// No two texts overlap: each node's label (and count) takes the first
/// free place around its node, the nodes spread further apart until every
/// one finds one, and the lines under the picture are stacked.
///
/// On a machine with faults, failed links and arcs are drawn dashed and
/// crossed out at their middle, and crashed nodes crossed out (class
/// `failed`, `crashed`), from the slot they fail.
// One caller (draw); each argument is one thing the protocol tells.
#[allow(clippy::too_many_arguments)]
pub fn svg<T: Topology, S, M>(
    topology: &T,
    task: &Task,
    claims: &Claims,
    state: &RunState<S, M>,
    tokens: impl Fn(&M) -> Vec<u32>,
    faults: Option<&models::Faults>,
    late: &[(properties::Slot, properties::Route)],
    explain: &dyn Fn(&Violation) -> Option<String>,
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
    let nodes = topology.nodes();
    let margin = 40.0;
    let top = 64.0;
    let (mut lo, mut hi) = ((f32::MAX, f32::MAX), (f32::MIN, f32::MIN));
    for v in 0..nodes {
        let (x, y) = topology.position(v);
        (lo, hi) = ((lo.0.min(x), lo.1.min(y)), (hi.0.max(x), hi.1.max(y)));
    }
    // What broke a claim (red) or shows where nothing is claimed (orange),
    // a line each under the picture.
    let broken: Vec<Violation> = [
        PropertyName::ContentionFreedom,
        PropertyName::NoDuplication,
        PropertyName::Completeness,
    ]
    .into_iter()
    .filter_map(|q| state.record.violation(q))
    .collect();
    let claimed = |v: &Violation| claims.claims(v.property());
    // A duplicate delivery or a node left without a packet: the node
    // ringed.
    let mut ringed: Vec<(NodeId, String, bool)> = Vec::new();
    for v in &broken {
        match *v {
            Violation::Duplicate { slot, node, .. } | Violation::OwnPacket { slot, node, .. } => {
                ringed.push((node, format!("received again in step {slot}"), claimed(v)))
            }
            Violation::Missing { node, .. } => {
                ringed.push((node, "left without a packet".to_string(), claimed(v)))
            }
            Violation::WrongResult { node, .. } => {
                ringed.push((node, "ends with a wrong result".to_string(), claimed(v)))
            }
            _ => {}
        }
    }
    let writers: Vec<NodeId> = state
        .sent
        .iter()
        .filter_map(|tx| match tx.route {
            properties::Route::Bus { from, .. } => Some(from),
            _ => None,
        })
        .collect();
    // Where a node must hold several packets, how many it holds.
    let required = |v: NodeId| {
        (0..task.packet_ids())
            .filter(move |&p| task.is_packet(p as u32) && task.requires(v, p as u32))
    };
    // A machine's switches hold nothing: drawn as squares, uncounted; a
    // schedule's node without a rank, pale.
    let switch = |v: NodeId| topology.carries_only(v);
    let any = task.requires_anything();
    let idle = |v: NodeId| matches!(task, Task::Schedule(_)) && !any[v as usize];
    let several = (0..nodes).any(|v| required(v).nth(1).is_some());
    let labels: Vec<String> = (0..nodes).map(|v| topology.node_label(v)).collect();
    let counts: Vec<String> = match several {
        false => Vec::new(),
        true => (0..nodes)
            .map(|v| {
                let need: Vec<u64> = required(v).collect();
                if switch(v) || need.is_empty() {
                    return String::new();
                }
                let held = need
                    .iter()
                    .filter(|&&p| state.holdings.holds(v, p as u32))
                    .count();
                format!("{held}/{}", need.len())
            })
            .collect(),
    };
    let radius: Vec<f32> = (0..nodes)
        .map(
            |v| match writers.contains(&v) || ringed.iter().any(|(u, ..)| *u == v) {
                true => 13.5,
                false => 8.0,
            },
        )
        .collect();
    let caption = format!(
        "after step {}: {} transmissions in this step; {}",
        state.slot,
        state.sent.len(),
        progress(topology, task, state)
    );
    let caption_box = Rect::text(10.0, 16.0, &caption);
    // The closest spacing at which every text finds a free place (else the
    // widest, each text where it fits best).
    let centres_at = |unit: f32| -> Vec<(f32, f32)> {
        (0..nodes)
            .map(|v| {
                let (x, y) = topology.position(v);
                (margin + (x - lo.0) * unit, top + (y - lo.1) * unit)
            })
            .collect()
    };
    let placed = UNITS
        .iter()
        .find_map(|&unit| {
            let centres = centres_at(unit);
            place(unit, &centres, &radius, &labels, &counts, &[caption_box])
        })
        .unwrap_or_else(|| {
            let unit = UNITS[UNITS.len() - 1];
            let centres = centres_at(unit);
            let beside = |(x, y): (f32, f32), dy: f32| (x + 9.0, y + dy);
            Placed {
                unit,
                labels: centres.iter().map(|&c| beside(c, -6.0)).collect(),
                counts: match several {
                    true => centres.iter().map(|&c| beside(c, 14.0)).collect(),
                    false => Vec::new(),
                },
                boxes: vec![caption_box],
            }
        });
    let unit = placed.unit;
    let at = |v: NodeId| {
        let (x, y) = topology.position(v);
        (margin + (x - lo.0) * unit, top + (y - lo.1) * unit)
    };
    // The lines under the picture: each bus write with its tokens, then
    // what broke a claim or shows.
    let mut lines: Vec<(String, &str, String)> = Vec::new();
    for (i, tx) in state.sent.iter().enumerate() {
        let colour = WORM_COLOURS[i % WORM_COLOURS.len()];
        if let properties::Route::Bus { .. } = tx.route {
            let carried: Vec<String> = tokens(&tx.msg)
                .into_iter()
                .map(|t| format!("t{}", topology.node_label(t)))
                .collect();
            let carried = match carried.len() {
                0..=12 => carried.join(" "),
                n => format!("{} ... ({n} tokens)", carried[..8].join(" ")),
            };
            let text = format!("{}: {carried}", topology.route_label(&tx.route));
            lines.push((text, "carried", colour.to_string()));
        }
    }
    for (d, route) in late {
        let text = format!(
            "{}: landed {d} slot{} late",
            topology.route_label(route),
            if *d == 1 { "" } else { "s" }
        );
        lines.push((text, "late", "#7b1fa2".to_string()));
    }
    for v in &broken {
        let words = explain(v).unwrap_or_else(|| crate::engine::words::describe(topology, task, v));
        let (text, class, colour) = match claimed(v) {
            true => (
                format!("{}: {words}", v.property().as_str()),
                "violation",
                "red",
            ),
            false => (
                format!("observed (not claimed) {}: {words}", v.property().as_str()),
                "observation",
                OBSERVED,
            ),
        };
        lines.push((text, class, colour.to_string()));
    }
    // A legend for the marks this picture has.
    let mut marks = vec![match several {
        true => "yellow: holds all it must (held/needed beside)",
        false => "yellow: holds all it must",
    }];
    if (0..nodes).any(switch) {
        marks.push("grey square: a switch, NIC or CPU");
    }
    if (0..nodes).any(|v| idle(v) && !switch(v)) {
        marks.push("pale: no rank here");
    }
    if !state.sent.is_empty() {
        marks.push("arrow: sent this step");
    }
    if state
        .sent
        .iter()
        .any(|tx| matches!(tx.route, properties::Route::Bus { .. }))
    {
        marks.push("thick bar: a bus write");
    }
    if !broken.is_empty() {
        marks.push("red: breaks a claim (dashed: the pair)");
    }
    if faults.is_some_and(|f| !f.list().is_empty()) {
        marks.push("crossed: failed");
    }
    lines.push((
        format!("legend: {}", marks.join("; ")),
        "legend",
        "#555".to_string(),
    ));
    let lowest = (0..nodes).map(|v| at(v).1).fold(top, f32::max) + 24.0;
    let below = placed.boxes.iter().map(|b| b.y1).fold(lowest, f32::max);
    let first_line = below + ASCENT + 6.0;
    let rightmost = (0..nodes).map(|v| at(v).0).fold(0.0, f32::max) + margin;
    let width = placed
        .boxes
        .iter()
        .map(|b| b.x1)
        .chain(lines.iter().map(|(t, ..)| Rect::text(10.0, 0.0, t).x1))
        .fold(rightmost, f32::max)
        + 10.0;
    let height = first_line + LINE * lines.len() as f32 - LINE + DESCENT + 8.0;
    let height = height.max(lowest + 8.0);
    let _ = write!(
        out,
        "<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' \
         font-family='monospace' font-size='11'>\
         <defs><marker id='arrow' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='6' \
         markerHeight='6' orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z'/></marker></defs>\
         <rect width='100%' height='100%' fill='white'/><text class='caption' x='10' y='16'>{}</text>",
        escape(&caption)
    );
    // A link whose straight line would cross another node's circle (a
    // row of a server's GPUs) is drawn bowed, away from the middle.
    let centres: Vec<(f32, f32)> = (0..nodes).map(at).collect();
    let middle = centres
        .iter()
        .fold((0.0, 0.0), |m, c| (m.0 + c.0, m.1 + c.1));
    let middle = (middle.0 / nodes as f32, middle.1 / nodes as f32);
    let leg = |a: (f32, f32), b: (f32, f32)| match bow(a, b, &centres, middle) {
        Some((cx, cy)) => format!("Q{cx},{cy} {},{}", b.0, b.1),
        None => format!("L{},{}", b.0, b.1),
    };
    topology.links(|u, v| {
        let ((x1, y1), (x2, y2)) = (at(u), at(v));
        let _ = match bow(at(u), at(v), &centres, middle) {
            None => write!(
                out,
                "<line x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='#ddd'/>"
            ),
            Some(_) => write!(
                out,
                "<path d='M{x1},{y1} {}' fill='none' stroke='#ddd'/>",
                leg(at(u), at(v))
            ),
        };
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
            for nodes in legs {
                let (x0, y0) = at(nodes[0]);
                let d: Vec<String> = nodes.windows(2).map(|w| leg(at(w[0]), at(w[1]))).collect();
                let _ = write!(
                    out,
                    "<path class='{class}' d='M{x0},{y0} {}' fill='none' stroke-width='2' \
                     {style} marker-end='url(#arrow)'><title>{title}{}</title></path>",
                    d.join(" "),
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
        let path = topology.path(&tx.route);
        let (first, last) = (at(path[0]), at(*path.last().expect("a bus has nodes")));
        let (x, y) = at(from);
        let _ = write!(
            out,
            "<line class='bus' x1='{}' y1='{}' x2='{}' y2='{}' stroke='{colour}' stroke-width='5' \
             opacity='0.45'><title>{}: {}</title></line>\
             <circle class='writer' cx='{x}' cy='{y}' r='11' fill='none' stroke='{colour}' \
             stroke-width='3'/>",
            first.0,
            first.1,
            last.0,
            last.1,
            topology.route_label(&tx.route),
            carried.join(" "),
        );
    }
    for (d, route) in late {
        let style = "stroke='#7b1fa2' stroke-dasharray='2 3'";
        arrow(
            &mut out,
            route,
            "late",
            style,
            &format!("landed {d} late: "),
        );
    }
    // The first conflict of the run, where it happened in this step: its
    // two transmissions dashed, the shared resource in red (orange where
    // contention-freedom is not claimed). An earlier one is named in the
    // lines under the picture, not drawn over this step's transmissions.
    if let Some(
        conflict @ Violation::Conflict {
            slot,
            resource,
            first,
            second,
        },
    ) = state
        .record
        .violation(PropertyName::ContentionFreedom)
        .filter(|v| v.slot() == Some(state.slot))
    {
        let colour = match claimed(&conflict) {
            true => "#d62728",
            false => OBSERVED,
        };
        for route in first.iter().chain([&second]) {
            let style = format!("stroke='{colour}' stroke-dasharray='6 3'");
            arrow(
                &mut out,
                route,
                "conflicting",
                &style,
                &format!("step {slot}: "),
            );
        }
        if let Some((u, v)) = topology.arc_ends(resource) {
            let ((x1, y1), (x2, y2)) = (at(u), at(v));
            let colour = match claimed(&conflict) {
                true => "red",
                false => OBSERVED,
            };
            let _ = match bow(at(u), at(v), &centres, middle) {
                None => write!(
                out,
                "<line class='contended' x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='{colour}' \
                 stroke-width='6' opacity='0.7'><title>contended in step {slot}: {}</title></line>",
                topology.resource_label(resource)
            ),
                Some(_) => write!(
                    out,
                    "<path class='contended' d='M{x1},{y1} {}' fill='none' stroke='{colour}' \
                     stroke-width='6' opacity='0.7'><title>contended in step {slot}: {}</title></path>",
                    leg(at(u), at(v)),
                    topology.resource_label(resource)
                ),
            };
        }
    }
    for (node, why, claimed) in &ringed {
        let (x, y) = at(*node);
        let colour = match claimed {
            true => "red",
            false => OBSERVED,
        };
        let _ = write!(
            out,
            "<circle class='broken' cx='{x}' cy='{y}' r='12' fill='none' stroke='{colour}' \
             stroke-width='3'><title>{} {why}</title></circle>",
            topology.node_label(*node)
        );
    }
    for (i, (text, class, colour)) in lines.iter().enumerate() {
        let _ = write!(
            out,
            "<text class='{class}' x='10' y='{}' fill='{colour}'>{}</text>",
            first_line + LINE * i as f32,
            escape(text)
        );
    }
    for v in 0..nodes {
        let (x, y) = at(v);
        let fill = match (idle(v), holds_all(state, v)) {
            (true, _) => "#eee",
            (false, true) => "#ffd54f",
            (false, false) => "white",
        };
        let (lx, ly) = placed.labels[v as usize];
        let _ = match switch(v) {
            true => write!(
                out,
                "<rect class='switch' x='{}' y='{}' width='12' height='12' fill='#bbb' \
                 stroke='black'/>",
                x - 6.0,
                y - 6.0
            ),
            false => write!(
                out,
                "<circle class='node' cx='{x}' cy='{y}' r='7' fill='{fill}' stroke='black'/>"
            ),
        };
        let _ = write!(
            out,
            "<text class='label' x='{lx}' y='{ly}'>{}</text>",
            escape(&labels[v as usize])
        );
        if several && !counts[v as usize].is_empty() {
            let (cx, cy) = placed.counts[v as usize];
            let _ = write!(
                out,
                "<text class='held' x='{cx}' y='{cy}' fill='#555'>{}</text>",
                counts[v as usize]
            );
        }
    }
    let down = |from: u32| from <= state.slot.max(1);
    for f in faults.map_or(&[][..], |f| f.list()) {
        let cross = |out: &mut String, (x, y): (f32, f32), class: &str, title: String| {
            let _ = write!(
                out,
                "<path class='{class}' d='M{} {} L{} {} M{} {} L{} {}' stroke='#444' \
                 stroke-width='2.5'><title>{}</title></path>",
                x - 6.0,
                y - 6.0,
                x + 6.0,
                y + 6.0,
                x - 6.0,
                y + 6.0,
                x + 6.0,
                y - 6.0,
                escape(&title)
            );
        };
        if !down(f.from) {
            continue;
        }
        // A failed link, arc or bus (from its first node to its last):
        // dashed, and crossed out at `t` of the way.
        let line = |out: &mut String, u: NodeId, v: NodeId, t: f32| {
            let ((x1, y1), (x2, y2)) = (at(u), at(v));
            let _ = write!(
                out,
                "<line class='failed' x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='#444' \
                 stroke-dasharray='3 3'/>"
            );
            let mid = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t);
            cross(out, mid, "failed", f.words(topology));
        };
        match f.part {
            models::Part::Node(v) => cross(&mut out, at(v), "crashed", f.words(topology)),
            // An arc is crossed nearer its head, a link at its middle.
            models::Part::Arc(u, v) => line(&mut out, u, v, 0.7),
            models::Part::Link(u, v) => line(&mut out, u, v, 0.5),
            models::Part::Bus(b) => {
                let buses = topology.buses();
                let on = buses.iter().find(|m| m.resource == b).map(|m| &m.nodes);
                if let Some((&u, &v)) = on.and_then(|on| on.first().zip(on.last())) {
                    line(&mut out, u, v, 0.5);
                }
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// The control point of a link from `a` to `b` bowed clear of the other
/// nodes at `centres` (a quarter of its length aside, away from
/// `middle`), or None where the straight line passes 10 px clear of
/// every other node.
fn bow(
    a: (f32, f32),
    b: (f32, f32),
    centres: &[(f32, f32)],
    middle: (f32, f32),
) -> Option<(f32, f32)> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length2 = dx * dx + dy * dy;
    if length2 < 1.0 {
        return None;
    }
    let crosses = centres.iter().any(|&c| {
        let t = ((c.0 - a.0) * dx + (c.1 - a.1) * dy) / length2;
        let (px, py) = (a.0 + t * dx - c.0, a.1 + t * dy - c.1);
        t > 0.01 && t < 0.99 && px * px + py * py < 100.0
    });
    if !crosses {
        return None;
    }
    let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    // The normal, turned to point away from the middle of the picture.
    let (mut nx, mut ny) = (-dy / 4.0, dx / 4.0);
    if (mx - middle.0) * nx + (my - middle.1) * ny < 0.0 {
        (nx, ny) = (-nx, -ny);
    }
    Some((mx + nx, my + ny))
}

/// The colour of what a run shows where the paper claims nothing.
const OBSERVED: &str = "#c05800";

/// `text` with XML's special characters escaped.
pub(crate) fn escape(text: &str) -> String {
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
    svg(
        p.topology(),
        model.task(state),
        &model.claims,
        state,
        tokens,
        p.faults(&model.inputs[state.input]),
        &state
            .nodes
            .iter()
            .flat_map(|s| p.landed_late(s))
            .collect::<Vec<_>>(),
        &|v| p.explain(v),
    )
}
