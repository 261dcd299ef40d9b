//! A witness of `check optimal` as a schedule in commcheck's format
//! (docs/schedules.md): every transmission a send fixed to its slot and a
//! receive at each receiver, tagged by the sender's count of sends so each
//! receive matches one message; a worm off the network's own route names
//! its path, a bus write names its readers, and the packets one bus write
//! carries are one message. The ordinary checker then judges it with
//! every property.

use super::sat::Sent;
use super::task::{Instance, Task};
use serde_json::json;

/// `sends` of `task` on `inst` as a schedule file's text.
pub fn schedule(inst: &Instance, task: Task, sends: &[Sent]) -> String {
    let mut ops = Vec::new();
    let mut sent = vec![0u32; inst.nodes as usize];
    // One message per (slot, transmission), with every packet it carries.
    let mut messages: Vec<(&Sent, Vec<u32>)> = Vec::new();
    for s in sends {
        match messages
            .iter_mut()
            .find(|(m, _)| m.slot == s.slot && m.hop == s.hop)
        {
            Some((_, packets)) => packets.push(s.packet),
            None => messages.push((s, vec![s.packet])),
        }
    }
    for (s, mut packets) in messages {
        packets.sort_unstable();
        let hop = &s.hop;
        let tag = sent[hop.from as usize];
        sent[hop.from as usize] += 1;
        let to = match hop.to.as_slice() {
            [v] => json!(v),
            many => json!(many),
        };
        let mut send = json!({"to": to, "chunks": packets, "tag": tag});
        if !hop.own {
            send["path"] = json!(hop.path);
        }
        ops.push(json!({
            "rank": hop.from,
            "label": format!("slot {} send {}", s.slot, tag),
            "slot": s.slot,
            "send": send,
        }));
        for &v in &hop.to {
            ops.push(json!({
                "rank": v,
                "label": format!("slot {} from {} tag {}", s.slot, hop.from, tag),
                "recv": {"from": hop.from, "chunks": packets, "tag": tag},
            }));
        }
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
