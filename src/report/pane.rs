//! A state in the paper's words, as the Explorer's state pane tells it:
//! the pieces the lock-step page and the actor page share.

use models::{Protocol, Topology};
use properties::{Claims, Holdings, PropertyName, Record, Task};

/// `msg` in the paper's words: the packets it carries, or that it is a
/// control message (in the protocol's own name for it: `Prefix(3)`).
pub fn message<P: Protocol>(p: &P, task: &Task, msg: &P::Msg) -> String {
    if p.control(msg) {
        return format!("control {msg:?}");
    }
    let mut packets = Vec::new();
    p.packets(msg, |x| packets.push(x));
    let one = |x| super::packet_words(p.topology(), task, x);
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
/// claim and the run shows: an observation, never a counterexample.
pub fn record<T: Topology>(t: &T, task: &Task, claims: &Claims, record: &Record) -> String {
    let mut out = String::new();
    for (claimed, heading) in [(true, "violated so far"), (false, "observed so far")] {
        let found: Vec<String> = PropertyName::ALL
            .into_iter()
            .filter(|&q| claims.claims(q) == claimed)
            .filter_map(|q| {
                let v = record.violation(q)?;
                Some(format!(
                    "\n  {}: {}",
                    q.as_str(),
                    super::describe(t, task, &v)
                ))
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
