//! A witness of `check optimal` as a schedule in commcheck's format
//! (docs/schedules.md): every transmission a send fixed to its slot and a
//! receive at its receiver, tagged by the sender's count of sends so each
//! receive matches one message; a worm off the network's own route names
//! its path. The ordinary checker then judges it with every property.

use super::sat::Sent;
use super::task::{Instance, Task};
use serde_json::json;

/// `sends` of `task` on `inst` as a schedule file's text.
pub fn schedule(inst: &Instance, task: Task, sends: &[Sent]) -> String {
    let mut ops = Vec::new();
    let mut sent = vec![0u32; inst.nodes as usize];
    for s in sends {
        let hop = &inst.hops[s.hop];
        let tag = sent[hop.from as usize];
        sent[hop.from as usize] += 1;
        let mut send = json!({"to": hop.to, "chunks": [s.packet], "tag": tag});
        if !hop.own {
            send["path"] = json!(hop.path);
        }
        ops.push(json!({
            "rank": hop.from,
            "label": format!("slot {} send {}", s.slot, tag),
            "slot": s.slot,
            "send": send,
        }));
        ops.push(json!({
            "rank": hop.to,
            "label": format!("slot {} from {} tag {}", s.slot, hop.from, tag),
            "recv": {"from": hop.from, "chunks": [s.packet], "tag": tag},
        }));
    }
    let file = json!({
        "format": "commcheck-schedule",
        "version": 1,
        "ranks": inst.nodes,
        "collective": task.collective(),
        "ops": ops,
    });
    let mut text = serde_json::to_string_pretty(&file).expect("a schedule serialises");
    text.push('\n');
    text
}
