//! Runs and states in the paper's words: a packet, a violation, a
//! message, and the Explorer's state pane (the lock-step page and the
//! actor page share it; reports and pictures quote the same words).

use models::{Protocol, ProtocolExt, Topology};
use properties::{Claims, Holdings, PropertyName, Record, Task, Violation};

/// `msg` in the paper's words: the packets it carries, or that it is a
/// control message (in the protocol's own name for it: `Prefix(3)`).
pub fn message<P: Protocol>(p: &P, task: &Task, msg: &P::Msg) -> String {
    if p.control(msg) {
        return format!("control {msg:?}");
    }
    let mut packets = Vec::new();
    p.packets(msg, |x| packets.push(x));
    let one = |x| packet_words(p.topology(), task, x);
    match packets[..] {
        [] => "nothing".to_string(),
        [x] => one(x),
        [x, y] => format!("{} and {}", one(x), one(y)),
        _ => format!("{} packets", packets.len()),
    }
}

/// How many nodes hold all the task asks of them, and the first 32 that
/// do not yet.
pub fn holdings<T: Topology>(t: &T, holdings: &Holdings) -> String {
    let nodes = t.nodes();
    let lacking: Vec<String> = (0..nodes)
        .filter(|&v| !holdings.complete_at(v))
        .map(|v| t.node_label(v))
        .collect();
    let mut out = format!(
        "holding all they must: {} of {nodes} nodes\n",
        nodes as usize - lacking.len()
    );
    if !lacking.is_empty() {
        let shown = lacking.len().min(32);
        out += &format!("  not yet: {}", lacking[..shown].join(" "));
        if shown < lacking.len() {
            out += &format!(" and {} more", lacking.len() - shown);
        }
        out += "\n";
    }
    out
}

/// What the paper claims and the run broke so far, then what it does not
/// claim and the run shows: an observation, never a counterexample. Each
/// in the protocol's own words where `explain` has them (a schedule's
/// ranks, buffers and operations), else the network's.
pub fn record<T: Topology>(
    t: &T,
    task: &Task,
    claims: &Claims,
    record: &Record,
    explain: &dyn Fn(&Violation) -> Option<String>,
) -> String {
    let mut out = String::new();
    for (claimed, heading) in [(true, "violated so far"), (false, "observed so far")] {
        let found: Vec<String> = PropertyName::ALL
            .into_iter()
            .filter(|&q| claims.claims(q) == claimed)
            .filter_map(|q| {
                let v = record.violation(q)?;
                let words = explain(&v).unwrap_or_else(|| describe(t, task, &v));
                Some(format!("\n  {}: {words}", q.as_str()))
            })
            .collect();
        match (claimed, found.is_empty()) {
            (true, true) => out += &format!("\n{heading}: nothing"),
            (false, true) => {}
            _ => out += &format!("\n{heading}:{}", found.concat()),
        }
    }
    out
}

/// Packet `p` of `task` in the paper's words (`the packet of 0000`,
/// `token t(1,2)`).
pub fn packet_words<T: Topology>(t: &T, task: &Task, p: u32) -> String {
    let node = |v: u32| t.node_label(v);
    match task.destination(p) {
        None if task.message_limit().is_some() => format!("token t{}", node(p)),
        None => format!("the packet of {}", node(task.origin(p))),
        Some(d) if task.combining() => {
            format!("the term of {} for {}", node(task.origin(p)), node(d))
        }
        Some(d) => format!("the packet from {} to {}", node(task.origin(p)), node(d)),
    }
}

/// A violation in the paper's words (`step 2: arc 0000->0010 used by
/// worms 0000->0011 and 0000->0010`).
pub fn describe<T: Topology>(t: &T, task: &Task, v: &Violation) -> String {
    let node = |v: u32| t.node_label(v);
    let packet = |p: u32| packet_words(t, task, p);
    match *v {
        Violation::Missing { node: v, packet: p } => {
            format!("the run ends with node {} lacking {}", node(v), packet(p))
        }
        Violation::WrongResult { node: v, .. } => {
            format!("node {} ends with a wrong result", node(v))
        }
        Violation::Unmatched { node: v, op } => {
            format!("node {}: operation {op} never completes", node(v))
        }
        Violation::NotTerminated { slot } => format!("the run is still active after step {slot}"),
        Violation::Duplicate {
            slot,
            node: v,
            packet: p,
            from,
        } => format!(
            "step {slot}: node {} receives {} again, from {}",
            node(v),
            packet(p),
            node(from)
        ),
        Violation::OwnPacket {
            slot,
            node: v,
            from,
            ..
        } => format!(
            "step {slot}: node {} receives its own packet back, from {}",
            node(v),
            node(from)
        ),
        Violation::Conflict {
            slot,
            resource,
            first,
            second,
        } => {
            let kind = |r: &properties::Route| match r {
                properties::Route::Worm { .. } => "worm",
                properties::Route::Link { .. } => "link",
                properties::Route::Bus { .. } => "write",
                properties::Route::Fan { .. } => "fan-out",
            };
            let first = first.map_or("another transmission".to_string(), |f| {
                format!("{} {}", kind(&f), t.route_label(&f))
            });
            format!(
                "step {slot}: {} used by {first} and {} {}",
                t.resource_label(resource),
                kind(&second),
                t.route_label(&second)
            )
        }
        Violation::Bundled {
            slot,
            node: v,
            packets,
        } => format!(
            "step {slot}: node {} sends {packets} packets as one transmission, where the \
             task does not combine packets",
            node(v)
        ),
        Violation::NotHeld {
            slot,
            node: v,
            packet: p,
        } => {
            format!(
                "step {slot}: node {} sends {} before holding it",
                node(v),
                packet(p)
            )
        }
        Violation::Late {
            slot,
            bound,
            node: v,
        } => format!(
            "step {slot}: node {} is reached after the claimed bound of {bound} steps",
            node(v)
        ),
        Violation::NotOptimal { count, optimum } => {
            format!("{count} transmissions where {optimum} deliveries are needed")
        }
        Violation::TooLong {
            slot,
            node: v,
            tokens,
            limit,
        } => format!(
            "step {slot}: node {} sends {tokens} tokens in one message, where at most {limit} fit",
            node(v)
        ),
    }
}
