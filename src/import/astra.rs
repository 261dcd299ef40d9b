//! ASTRA-sim's analytical network YAML (`--network astra:FILE`,
//! docs/networks.md) as a machine's parts: one entry per dimension in
//! each of four lists,
//!
//! ```yaml
//! topology: [ Ring, Switch ]   # Ring, FullyConnected or Switch
//! npus_count: [ 4, 2 ]         # NPUs along each dimension
//! bandwidth: [ 50.0, 25.0 ]    # GB/s, ASTRA-sim's GB being 2^30 bytes
//! latency: [ 500.0, 700.0 ]    # ns a hop
//! ```
//!
//! (flow lists as above, or block lists of `- item` lines). NPUs are
//! numbered dimension 0 fastest (NPU Σ c_i · Π_{j<i} n_j), named `npu<k>`,
//! and forward (ASTRA-sim routes through them). Along dimension i, among
//! the NPUs that differ only there: a Ring links neighbours, wrapping
//! around (two NPUs: one link); FullyConnected links every pair; Switch
//! links each NPU to a switch of its own (`sw<i>.<k>`, the k-th group).
//! Bandwidths are converted to commcheck's GB (10^9 bytes): 50 there is
//! 53.687 here. Comments (`#`) and blank lines are skipped; any other
//! key, a list of another length, a count below 2, more than 2^20 NPUs, a
//! bandwidth that is not positive or a latency below 0 is refused in one
//! line with the file, line and column.

use super::ImportError;
use models::topology::graph::MAX_NODES;
use models::topology::parts::{LinkAttrs, LinkKind, Node, NodeKind, Parts};
use properties::NodeId;

/// The four keys, in the order the file's dimensions are read.
const KEYS: [&str; 4] = ["topology", "npus_count", "bandwidth", "latency"];

/// One list item and where it stands.
struct Item {
    text: String,
    line: u32,
    column: u32,
}

/// True where `text` looks like ASTRA-sim's network YAML: it has a
/// `topology:` and an `npus_count:` key.
pub fn is_astra(text: &str) -> bool {
    let has = |key: &str| text.lines().any(|l| l.trim_start().starts_with(key));
    has("topology:") && has("npus_count:")
}

/// The machine the YAML in `text` (from `file`) describes.
pub fn read(text: &str, file: &str) -> Result<Parts, ImportError> {
    let bad = |line: u32, column: u32, why: String| ImportError::File {
        file: file.to_string(),
        line,
        column,
        why,
    };
    let mut lists: [Option<Vec<Item>>; 4] = Default::default();
    let mut open: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i as u32 + 1;
        let code = raw.split('#').next().unwrap_or("");
        let trimmed = code.trim();
        if trimmed.is_empty() {
            continue;
        }
        let indent = (code.len() - code.trim_start().len()) as u32;
        if let Some(item) = trimmed.strip_prefix('-') {
            let Some(k) = open else {
                return Err(bad(line, indent + 1, "a list item outside a list".into()));
            };
            let column = indent + 2 + (item.len() - item.trim_start().len()) as u32;
            let list = lists[k].get_or_insert_with(Vec::new);
            list.push(Item {
                text: item.trim().to_string(),
                line,
                column,
            });
            continue;
        }
        let Some((key, rest)) = trimmed.split_once(':') else {
            return Err(bad(
                line,
                indent + 1,
                format!("expected KEY: [ ... ], found '{trimmed}'"),
            ));
        };
        let key = key.trim();
        let Some(k) = KEYS.iter().position(|&want| want == key) else {
            return Err(bad(
                line,
                indent + 1,
                format!("{key}: expected one of {}", KEYS.join(", ")),
            ));
        };
        if lists[k].is_some() {
            return Err(bad(line, indent + 1, format!("{key} is given twice")));
        }
        let value_column = indent + (trimmed.len() - rest.len()) as u32 + 1;
        let rest_trim = rest.trim();
        if rest_trim.is_empty() {
            open = Some(k);
            lists[k] = Some(Vec::new());
            continue;
        }
        open = None;
        let Some(inner) = rest_trim
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
        else {
            return Err(bad(
                line,
                value_column + (rest.len() - rest.trim_start().len()) as u32,
                format!("{key}: expected a list such as [ 8 ], found '{rest_trim}'"),
            ));
        };
        let start = value_column + (rest.len() - rest.trim_start().len()) as u32 + 1;
        let mut offset = 0;
        let mut items = Vec::new();
        for part in inner.split(',') {
            if !part.trim().is_empty() {
                let lead = (part.len() - part.trim_start().len()) as u32;
                items.push(Item {
                    text: part.trim().to_string(),
                    line,
                    column: start + offset + lead,
                });
            }
            offset += part.len() as u32 + 1;
        }
        lists[k] = Some(items);
    }
    let mut got = Vec::new();
    for (k, list) in lists.into_iter().enumerate() {
        match list {
            Some(items) if !items.is_empty() => got.push(items),
            _ => {
                return Err(bad(
                    0,
                    0,
                    format!("{}: expected a list with one entry a dimension", KEYS[k]),
                ))
            }
        }
    }
    let dims = got[0].len();
    if let Some(k) = (1..4).find(|&k| got[k].len() != dims) {
        let first = &got[k][0];
        return Err(bad(
            first.line,
            first.column,
            format!(
                "{} has {} entries, topology {dims}: one entry a dimension",
                KEYS[k],
                got[k].len()
            ),
        ));
    }
    let mut kinds = Vec::new();
    for item in &got[0] {
        match item.text.as_str() {
            "Ring" | "FullyConnected" | "Switch" => kinds.push(item.text.as_str()),
            other => {
                return Err(bad(
                    item.line,
                    item.column,
                    format!("topology {other}: expected Ring, FullyConnected or Switch"),
                ))
            }
        }
    }
    let mut counts = Vec::new();
    let mut total: u64 = 1;
    for item in &got[1] {
        let n = item
            .text
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 2)
            .ok_or_else(|| {
                bad(
                    item.line,
                    item.column,
                    format!(
                        "npus_count {}: expected a whole number, at least 2",
                        item.text
                    ),
                )
            })?;
        total = total.saturating_mul(n as u64);
        if total > MAX_NODES as u64 {
            return Err(bad(
                item.line,
                item.column,
                format!("more than {MAX_NODES} NPUs"),
            ));
        }
        counts.push(n);
    }
    let number = |item: &Item, what: &str, positive: bool| -> Result<f64, ImportError> {
        item.text
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && (*x > 0.0 || (!positive && *x == 0.0)))
            .ok_or_else(|| {
                bad(
                    item.line,
                    item.column,
                    format!(
                        "{what} {}: expected a {} number",
                        item.text,
                        if positive { "positive" } else { "non-negative" }
                    ),
                )
            })
    };
    let mut links = Vec::new();
    for (b, l) in got[2].iter().zip(&got[3]) {
        // ASTRA-sim's GB/s are 2^30 bytes a second; commcheck's 10^9.
        let bandwidth = number(b, "bandwidth", true)? * (1u64 << 30) as f64 / 1e9;
        links.push((bandwidth, number(l, "latency", false)?));
    }
    Ok(build(&kinds, &counts, &links))
}

/// The NPUs and links of dimensions of `kinds` and `counts`, each of
/// (bandwidth, latency).
fn build(kinds: &[&str], counts: &[u32], links: &[(f64, f64)]) -> Parts {
    let total: u32 = counts.iter().product();
    let mut parts = Parts {
        width: (counts.len() > 1).then_some(counts[0]),
        ..Parts::default()
    };
    for k in 0..total {
        parts.nodes.push(Node {
            forwards: Some(true),
            ..Node::new(format!("npu{k}"), NodeKind::Npu)
        });
    }
    let mut stride = 1;
    for (d, (&kind, &n)) in kinds.iter().zip(counts).enumerate() {
        let (bandwidth, latency) = links[d];
        let npu_link = LinkAttrs::new(LinkKind::NpuLink, 1, bandwidth).with_latency(latency);
        let net = LinkAttrs::new(LinkKind::Net, 1, bandwidth).with_latency(latency);
        let groups = (0..total).filter(|&v| (v / stride) % n == 0);
        for (group, base) in groups.enumerate() {
            let member = |c: u32| -> NodeId { base + c * stride };
            match kind {
                "Ring" => {
                    for c in 0..n {
                        if n > 2 || c == 0 {
                            parts.link(member(c), member((c + 1) % n), npu_link);
                        }
                    }
                }
                "FullyConnected" => {
                    for c in 0..n {
                        for e in c + 1..n {
                            parts.link(member(c), member(e), npu_link);
                        }
                    }
                }
                _ => {
                    let sw = parts.node(format!("sw{d}.{group}"), NodeKind::Switch);
                    for c in 0..n {
                        parts.link(member(c), sw, net);
                    }
                }
            }
        }
        stride *= n;
    }
    parts
}
