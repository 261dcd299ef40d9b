//! ASTRA-sim network files read into a machine's parts; refusals placed.
//! (These tests were inside `src/import/astra.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::import::astra::*;
use models::topology::parts::NodeKind;
use models::{Ports, Switching, Topology};

/// A ring of 8 NPUs at 50 GB/s (of 2^30 bytes) and 500 ns: 8 links,
/// 53.687 GB/s each, and a worm across goes through the NPUs between.
#[test]
fn a_ring_of_eight() {
    let yaml = "# a ring\ntopology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 50.0 ]  # GB/s\nlatency: [ 500.0 ]\n";
    assert!(is_astra(yaml));
    let parts = read(yaml, "r.yml").unwrap();
    assert_eq!(parts.nodes.len(), 8);
    assert_eq!(parts.arcs.len(), 16);
    let bw = parts.arcs[0].attrs.bandwidth.unwrap();
    assert!((bw - 53.687_091_2).abs() < 1e-6, "{bw}");
    assert_eq!(parts.arcs[0].attrs.latency, Some(500.0));
    let g = parts.build("r", Switching::Wh, Ports::All).unwrap();
    assert_eq!(g.worm_path(0, 2), Some(vec![0, 1, 2]));
    assert_eq!(g.worm_path(0, 7), Some(vec![0, 7]));
}

/// Two dimensions in block lists: a ring of 4 along dimension 0 and a
/// switch for each pair along dimension 1 (4 switches).
#[test]
fn a_ring_and_switches() {
    let yaml = "topology:\n  - Ring\n  - Switch\nnpus_count:\n  - 4\n  - 2\nbandwidth: [50, 25]\nlatency: [500, 700]\n";
    let parts = read(yaml, "t.yml").unwrap();
    assert_eq!(parts.nodes.len(), 8 + 4);
    assert_eq!(parts.arcs.len(), 2 * (2 * 4) + 2 * 8);
    let g = parts.build("t", Switching::Wh, Ports::All).unwrap();
    assert_eq!(g.node_label(8), "sw1.0");
    assert_eq!(g.worm_path(0, 4), Some(vec![0, 8, 4]), "through the switch");
    assert_eq!(g.kind(8), NodeKind::Switch);
    let full = "topology: [FullyConnected]\nnpus_count: [4]\nbandwidth: [1]\nlatency: [0]\n";
    assert_eq!(read(full, "f.yml").unwrap().arcs.len(), 12);
}

/// Refusals name the line and column and what was expected.
#[test]
fn bad_files_are_refused_where_they_go_wrong() {
    let why = |text: &str| read(text, "b.yml").unwrap_err().to_string();
    let good = [
        "topology: [ Ring ]",
        "npus_count: [ 8 ]",
        "bandwidth: [ 50 ]",
        "latency: [ 500 ]",
    ];
    let with = |k: usize, line: &str| {
        let mut lines = good.to_vec();
        lines[k] = line;
        lines.join("\n")
    };
    assert_eq!(
        why(&with(0, "topology: [ Torus ]")),
        "b.yml:1:13: topology Torus: expected Ring, FullyConnected or Switch"
    );
    assert!(why(&with(1, "npus_count: [ 1 ]")).starts_with("b.yml:2:15: npus_count 1"));
    assert!(why(&with(2, "bandwidth: [ 0 ]")).contains("expected a positive number"));
    assert!(why(&with(3, "latency: [ -1 ]")).contains("non-negative"));
    assert!(why(&with(3, "colour: [ 1 ]")).contains("colour: expected one of topology"));
    assert!(why(&with(2, "bandwidth: 50")).contains("expected a list such as [ 8 ]"));
    assert!(why(&with(2, "bandwidth: [ 50, 60 ]")).contains("bandwidth has 2 entries, topology 1"));
    assert!(why(&with(3, "- 5")).contains("a list item outside a list"));
    assert!(why(&good[..3].join("\n")).contains("latency: expected a list"));
    assert!(why(&format!("{}\ntopology: [ Ring ]", good.join("\n"))).contains("given twice"));
    let huge =
        "topology: [Ring, Ring]\nnpus_count: [2048, 1024]\nbandwidth: [1, 1]\nlatency: [0, 0]";
    assert!(why(huge).contains("more than 1048576 NPUs"));
}
