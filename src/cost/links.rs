//! Link cost models over the slot run: the run gives the order, the
//! network's links the durations (docs/cost.md).
//!
//! A transmission of b bytes over a path of arcs costs the arcs'
//! latencies plus b over its bandwidth:
//!
//! * **alpha-beta**: the bandwidth is the path's bottleneck, where an arc
//!   that k transmissions of the slot cross gives each 1/k of its own (the
//!   bundle's: a link of 12 NVLinks at 240 GB/s gives one transmission
//!   240 and two 120 each). Cut-through: a worm's bytes cross its path
//!   once; under store-and-forward a transmission is one arc anyway.
//! * **astra**: ASTRA-sim's congestion-unaware analytical model, hops x
//!   latency + bytes / bandwidth, truncated to whole nanoseconds, no
//!   sharing. ASTRA-sim charges a multi-dimensional route only its first
//!   differing dimension; here every hop of the route is charged (the
//!   same on one dimension, more on several: docs/cost.md).
//!
//! A link that gives no bandwidth or latency (the papers' networks, a
//! version-1 graph) takes the model's parameters.
//!
//! **The critical path of the slot run.** A transmission of slot t starts
//! when everything its sender received in slots before t has arrived (the
//! slot order is the run's causality: what a node sends in slot t may
//! depend on anything it held before it), and ends when its bytes have
//! arrived. A node finishes at the latest end of what it sent or
//! received; the run at the latest node.

use models::topology::parts::LinkAttrs;
use properties::{NodeId, ResourceId};
use std::collections::HashMap;

/// The parameters of a link model: what a link that says nothing of
/// itself is taken to be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkModel {
    /// Latency of an arc, in nanoseconds.
    pub latency: f64,
    /// Bandwidth of a link, in GB/s (10^9 bytes a second).
    pub bandwidth: f64,
    /// ASTRA-sim's rules (no sharing, whole nanoseconds), else
    /// alpha-beta's.
    pub astra: bool,
}

impl LinkModel {
    /// `latency=NS,bandwidth=GBS`, each at most once; the others 500 ns
    /// and 50 GB/s (ASTRA-sim's example ring).
    pub fn parse(text: &str, astra: bool) -> Result<LinkModel, String> {
        let mut m = LinkModel {
            latency: 500.0,
            bandwidth: 50.0,
            astra,
        };
        for (name, value) in super::pairs(text, "latency=500")? {
            let value: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v >= 0.0 && *v <= 1e12)
                .ok_or_else(|| format!("{name}={value}: a parameter is a number, 0 to 10^12"))?;
            match name {
                "latency" => m.latency = value,
                "bandwidth" if value > 0.0 => m.bandwidth = value,
                "bandwidth" => return Err("a bandwidth of 0: expected a positive number".into()),
                _ => return Err(format!("{name}: the parameters are latency and bandwidth")),
            }
        }
        Ok(m)
    }

    /// Its name as `--cost` takes it.
    pub fn name(&self) -> &'static str {
        match self.astra {
            true => "astra",
            false => "alpha-beta",
        }
    }

    /// The parameters in words.
    pub fn describe(&self) -> String {
        format!(
            "links that give none: latency {} ns, bandwidth {} GB/s",
            self.latency, self.bandwidth
        )
    }

    /// The latency and bandwidth of a link described by `attrs`.
    fn of(&self, attrs: Option<LinkAttrs>) -> (f64, f64) {
        let a = attrs.unwrap_or(LinkAttrs::PLAIN);
        (
            a.latency.unwrap_or(self.latency),
            a.bandwidth.unwrap_or(self.bandwidth),
        )
    }
}

/// One transmission of the slot run.
#[derive(Clone, Debug, PartialEq)]
pub struct Sent {
    /// Its sender.
    pub from: NodeId,
    /// Its receivers.
    pub to: Vec<NodeId>,
    /// The arcs it crosses (each link's first lane), in path order.
    pub arcs: Vec<ResourceId>,
    /// Its bytes.
    pub bytes: u64,
}

/// When each of `nodes` nodes finishes (ns) in the run whose slots sent
/// `slots` (slot 1 first), its links as `link` describes them.
pub fn finish_times(
    model: &LinkModel,
    nodes: u32,
    slots: &[Vec<Sent>],
    link: impl Fn(ResourceId) -> Option<LinkAttrs>,
) -> Vec<f64> {
    let mut ready = vec![0f64; nodes as usize];
    let mut done = vec![0f64; nodes as usize];
    for sent in slots {
        let mut users: HashMap<ResourceId, u32> = HashMap::new();
        if !model.astra {
            for tx in sent {
                for &a in &tx.arcs {
                    *users.entry(a).or_default() += 1;
                }
            }
        }
        let mut arrived = Vec::new();
        for tx in sent {
            let mut latency = 0.0;
            let mut bandwidth = f64::INFINITY;
            for &a in &tx.arcs {
                let (lat, bw) = model.of(link(a));
                let share = users.get(&a).copied().unwrap_or(1).max(1) as f64;
                latency += lat;
                bandwidth = bandwidth.min(bw / share);
            }
            let mut took = match tx.arcs.is_empty() {
                true => 0.0,
                false => latency + tx.bytes as f64 / bandwidth,
            };
            if model.astra {
                took = took.trunc();
            }
            let end = ready[tx.from as usize] + took;
            done[tx.from as usize] = done[tx.from as usize].max(end);
            for &v in &tx.to {
                arrived.push((v, end));
            }
        }
        for (v, end) in arrived {
            ready[v as usize] = ready[v as usize].max(end);
            done[v as usize] = done[v as usize].max(end);
        }
    }
    done
}
