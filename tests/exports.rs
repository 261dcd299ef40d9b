//! Exports of one run (`--dot`, `--svg-load`, `--trace`), each read back
//! and held against the others and against what the algorithm must do:
//! a broadcast's deliveries form a spanning tree of the source, the
//! heatmap's busy cells are the trace's resources slot by slot, and each
//! export refuses past its stated limit in one line, leaving no file.

use crate::cli::{check, refused, stderr};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// A fresh directory for one test's files.
fn dir(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("exports-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `check ARGS --trace FILE`, read back as JSON lines.
fn trace(args: &[&str], file: &std::path::Path) -> Vec<serde_json::Value> {
    let mut all = args.to_vec();
    all.extend(["--trace", file.to_str().unwrap()]);
    let o = check(&all);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// An SVG file that parses as XML, with its elements of `class`.
fn svg_cells(file: &std::path::Path, class: &str) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .map(|n| {
            n.children()
                .find(|c| c.tag_name().name() == "title")
                .and_then(|t| t.text())
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

/// nob 4 from 0000: the trace's receivers are every other node once, no
/// delivery later than NOB's two steps; the dot graph has the same edges.
#[test]
fn a_broadcast_traces_a_spanning_tree_and_the_graph_agrees() {
    let d = dir("tree");
    let lines = trace(&["nob", "4"], &d.join("nob.jsonl"));
    let mut edges = BTreeSet::new();
    let mut reached = BTreeMap::new();
    for l in &lines {
        assert!(l["slot"].as_u64().unwrap() <= 2, "{l}");
        assert_eq!(l["payload"], serde_json::json!(["the packet of 0000"]));
        let from = l["from"].as_str().unwrap().to_string();
        for r in l["receivers"].as_array().unwrap() {
            let r = r.as_str().unwrap().to_string();
            *reached.entry(r.clone()).or_insert(0) += 1;
            edges.insert((from.clone(), r, l["slot"].as_u64().unwrap()));
        }
    }
    let others: BTreeSet<String> = (1..16).map(|v| format!("{v:04b}")).collect();
    assert_eq!(
        reached.keys().cloned().collect::<BTreeSet<_>>(),
        others,
        "every node but the source"
    );
    assert!(reached.values().all(|&k| k == 1), "each once: {reached:?}");
    let o = check(&["nob", "4", "--dot", d.join("nob.dot").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let dot = std::fs::read_to_string(d.join("nob.dot")).unwrap();
    assert!(
        dot.contains("digraph {") && dot.trim_end().ends_with('}'),
        "{dot}"
    );
    let drawn: BTreeSet<(String, String, u64)> = dot
        .lines()
        .filter_map(|l| {
            let (a, rest) = l.trim().split_once(" -> ")?;
            let (b, label) = rest.split_once(" [label=")?;
            let slot = label.trim_matches(|c| c == '"').split('"').next()?;
            Some((
                a.trim_matches('"').to_string(),
                b.trim_matches('"').to_string(),
                slot.parse().ok()?,
            ))
        })
        .collect();
    assert_eq!(drawn, edges, "{dot}");
    let nodes = dot
        .lines()
        .filter(|l| l.starts_with("  \"") && l.ends_with("\";"));
    assert_eq!(nodes.count(), 16, "every node of Q4 once: {dot}");
}

/// naive-tree 3: the heatmap's cells are the trace's resources slot by
/// slot, the one contended cell is arc 000->100 in slot 1, and the graph
/// marks the two worms that share it in red.
#[test]
fn the_load_heatmap_agrees_with_the_trace() {
    let d = dir("load");
    let lines = trace(&["naive-tree", "3"], &d.join("t.jsonl"));
    let mut uses: BTreeMap<(u64, String), u32> = BTreeMap::new();
    for l in &lines {
        for r in l["resources"].as_array().unwrap() {
            *uses
                .entry((l["slot"].as_u64().unwrap(), r.as_str().unwrap().into()))
                .or_insert(0) += 1;
        }
    }
    let file = d.join("load.svg");
    let o = check(&["naive-tree", "3", "--svg-load", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let cell = |title: &String| {
        let (slot, resource) = title
            .strip_prefix("slot ")
            .unwrap()
            .split_once(": ")
            .unwrap();
        let resource = resource.rsplit_once(' ').unwrap().0;
        (slot.parse::<u64>().unwrap(), resource.to_string())
    };
    let busy: BTreeSet<_> = svg_cells(&file, "busy").iter().map(cell).collect();
    let contended: BTreeSet<_> = svg_cells(&file, "contended").iter().map(cell).collect();
    let idle = svg_cells(&file, "idle").len();
    let from_trace = |pred: fn(u32) -> bool| -> BTreeSet<(u64, String)> {
        uses.iter()
            .filter(|(_, &k)| pred(k))
            .map(|(c, _)| c.clone())
            .collect()
    };
    assert_eq!(busy, from_trace(|k| k == 1));
    assert_eq!(contended, from_trace(|k| k > 1));
    assert_eq!(contended, BTreeSet::from([(1, "arc 000->100".to_string())]));
    // 24 arcs of Q3, over the 2 slots that deliver.
    assert_eq!(busy.len() + contended.len() + idle, 24 * 2);
    let o = check(&[
        "naive-tree",
        "3",
        "--dot",
        d.join("n.dot").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let dot = std::fs::read_to_string(d.join("n.dot")).unwrap();
    let red: Vec<&str> = dot.lines().filter(|l| l.contains("color=red")).collect();
    assert_eq!(red.len(), 2, "{dot}");
    assert!(red.iter().all(|l| l.contains("\"000\" -> ")), "{red:?}");
}

/// A mesh-bus write is one line with every receiver on its bus; a mesh's
/// worm names its arcs. Past the limits: one line, exit 2, no file.
#[test]
fn traces_on_other_networks_and_the_limits() {
    let d = dir("limits");
    let lines = trace(&["simple", "3"], &d.join("s.jsonl"));
    let first = &lines[0];
    assert_eq!(first["slot"], 1);
    assert!(first["resources"].as_array().unwrap().len() == 1, "{first}");
    assert_eq!(first["receivers"].as_array().unwrap().len(), 2, "{first}");
    let lines = trace(&["recursive-doubling", "4x4"], &d.join("r.jsonl"));
    // The worm's two arcs, and the ports it takes (the notes' one-port).
    assert_eq!(
        lines[0]["resources"],
        serde_json::json!([
            "arc (0,0)->(1,0)",
            "arc (1,0)->(2,0)",
            "in-port of (2,0)",
            "out-port of (0,0)"
        ])
    );
    let file = d.join("big.jsonl");
    let f = file.to_str().unwrap();
    refused(
        &["total-exchange", "10", "--trace", f],
        &[
            "--trace writes up to 1000000 transmissions",
            "at least 1047552",
        ],
    );
    refused(
        &["nob", "17", "--trace", f],
        &["--trace", "65536 nodes", "131072"],
    );
    assert!(!file.exists(), "no partial trace");
    // A trace that fails never removes what is not a regular file: here a
    // link to the process's stdout, as /dev/stdout is.
    let stdout = d.join("stdout");
    std::os::unix::fs::symlink("/proc/self/fd/1", &stdout).unwrap();
    let s = stdout.to_str().unwrap();
    refused(
        &["total-exchange", "10", "--trace", s],
        &["--trace writes up to"],
    );
    assert!(
        std::fs::symlink_metadata(&stdout).is_ok(),
        "the link to stdout is still there"
    );
    refused(
        &["nob", "13", "--dot", f],
        &["--dot draws up to 4096 nodes", "8192"],
    );
    refused(
        &["nob", "10", "--svg-load", f],
        &["--svg-load draws up to 4096 resources", "10240"],
    );
}

/// `--svg` rings in red a node that received a packet twice (flood 3: 011
/// in step 2) or that the run left without it (nob-appendix 3: 011), says
/// why in red under the picture, and counts the packets held where a node
/// must hold several (mnb 3: 8 of 8 at the end).
#[test]
fn pictures_mark_duplicates_and_missing_nodes_and_count_packets() {
    let d = dir("marks");
    let svg = |args: &[&str], name: &str| {
        let file = d.join(name);
        let mut all = args.to_vec();
        all.extend(["--svg", file.to_str().unwrap()]);
        let o = check(&all);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        file
    };
    let flood = svg(&["flood", "3"], "flood.svg");
    assert_eq!(
        svg_cells(&flood, "broken"),
        ["011 received again in step 2"]
    );
    let text = std::fs::read_to_string(&flood).unwrap();
    assert!(
        text.contains("no-duplication: step 2: node 011 receives the packet"),
        "{text}"
    );
    let missing = svg(&["nob-appendix", "3"], "missing.svg");
    assert_eq!(svg_cells(&missing, "broken"), ["011 left without a packet"]);
    let mnb = svg(&["mnb", "3"], "mnb.svg");
    let text = std::fs::read_to_string(&mnb).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    let held: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("held"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(held, ["8/8"; 8], "every node holds all 8 packets");
    // A one-packet broadcast shows no counts.
    assert!(svg_cells(&flood, "held").is_empty());
}

/// The same exports of a schedule (`check schedule FILE --svg ...`): the
/// tutorial's ring allreduce both ways round on the DGX-1. The trace has
/// its 224 messages, 16 a slot for 14 slots; in its first slot two worms
/// cross QPI from cpu0 to cpu1 (the dot graph's red edges), and QPI is
/// contended both ways in every slot, the heatmap's only red rows; the
/// picture of that slot is docs/schedules.md's (tests/pages.rs holds it
/// to the file). What a schedule does not export is refused in one line.
#[test]
fn a_schedule_exports_as_an_algorithm_does() {
    let d = dir("schedule");
    let schedule = [
        "schedule",
        "examples/schedules/allreduce_ring_8_both_ways.xml",
        "--switching",
        "wh",
        "--network",
        "dgx1",
    ];
    let lines = trace(&schedule, &d.join("t.jsonl"));
    assert_eq!(lines.len(), 224);
    for slot in 1..=14 {
        assert_eq!(
            lines.iter().filter(|l| l["slot"] == slot).count(),
            16,
            "slot {slot}"
        );
    }
    let over_qpi: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["slot"] == 1)
        .filter(|l| {
            l["resources"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r == "arc cpu0->cpu1")
        })
        .collect();
    assert_eq!(over_qpi.len(), 2, "{over_qpi:?}");
    let (load, dot, svg) = (d.join("load.svg"), d.join("s.dot"), d.join("s.svg"));
    let mut args = schedule.to_vec();
    args.extend([
        "--svg-load",
        load.to_str().unwrap(),
        "--dot",
        dot.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let o = check(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let contended: BTreeSet<String> = svg_cells(&load, "contended").into_iter().collect();
    let expected: BTreeSet<String> = (1..=14)
        .flat_map(|k| {
            ["cpu0->cpu1", "cpu1->cpu0"].map(|arc| format!("slot {k}: arc {arc} contended"))
        })
        .collect();
    assert_eq!(contended, expected);
    let dot = std::fs::read_to_string(dot).unwrap();
    let red: Vec<&str> = dot.lines().filter(|l| l.contains("color=red")).collect();
    assert_eq!(red.len(), 2, "{dot}");
    let picture = std::fs::read_to_string(svg).unwrap();
    assert!(picture.contains("arc cpu0-&gt;cpu1"), "{picture}");
    for (extra, expected) in [
        (vec!["--write-goal", "x.goal"], "does not take --write-goal"),
        (
            vec!["--svg", "x.svg", "--engine", "executor"],
            "neither --json, --explore nor --engine",
        ),
        (vec!["--slot", "2"], "give --svg FILE too"),
    ] {
        let mut args = schedule.to_vec();
        args.extend(extra);
        refused(&args, &[expected]);
    }
}
