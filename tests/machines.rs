//! Machines as they are (docs/networks.md): switches that forward and
//! GPUs that do not, links of several lanes, graph files of version 2,
//! and ranks placed on the accelerators.

use crate::support::status_of as status;
use commcheck::check::schedule::{check_schedule, ScheduleRequest};
use commcheck::check::Options;
use commcheck::engine::Engine;
use models::{Ports, Switching};
use properties::Status;
use std::path::PathBuf;

/// A scratch directory for this test's files.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("commcheck-machines-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A version-2 graph of `gpus` GPUs on one NVSwitch, `lanes` NVLinks each
/// way, the switch numbered first (ranks still go on the GPUs), plus
/// `extra` links written as JSON.
pub(crate) fn switched(gpus: u32, lanes: u32, extra: &str) -> String {
    let mut nodes = vec![r#"{"name": "nvs", "kind": "nvswitch"}"#.to_string()];
    let mut links = Vec::new();
    for g in 0..gpus {
        nodes.push(format!(r#"{{"name": "gpu{g}", "kind": "gpu"}}"#));
        links.push(format!(
            r#"{{"between": ["gpu{g}", "nvs"], "kind": "nvlink", "lanes": {lanes}, "bandwidth": {}}}"#,
            25 * lanes
        ));
    }
    if !extra.is_empty() {
        links.push(extra.to_string());
    }
    format!(
        r#"{{"format": "commcheck-network", "version": 2, "nodes": [{}], "links": [{}]}}"#,
        nodes.join(", "),
        links.join(", ")
    )
}

/// The direct allgather on `ranks` ranks: every rank sends its chunk to
/// every other at once, in no order.
fn direct_allgather(ranks: u32) -> String {
    direct(ranks, "allgather", |s, _| s)
}

/// The check of `schedule` on the graph `net`, as worms, all-port.
fn run(
    d: &std::path::Path,
    net: &str,
    schedule: &str,
) -> Result<commcheck::report::Outcome, String> {
    let (n, s) = (d.join("net.json"), d.join("s.json"));
    std::fs::write(&n, net).unwrap();
    std::fs::write(&s, schedule).unwrap();
    let spec = format!("graph:{}", n.display()).parse().unwrap();
    let req = ScheduleRequest {
        switching: Switching::Wh,
        ports: Ports::All,
        options: Options {
            engine: Some(Engine::Exhaustive),
            ..Options::default()
        },
        ..ScheduleRequest::new(&s, spec)
    };
    check_schedule(&req).map_err(|e| e.to_string())
}

/// Four GPUs on an NVSwitch send their chunks to each other at once: 3
/// worms leave and 3 enter every GPU in the one slot, through the switch.
/// With 3 lanes a link, nothing contends and the allgather takes a slot;
/// with 2, a GPU sends two a slot and it takes two; with 1 lane each
/// sender's three worms take turns, and some orders put two worms into
/// one GPU's link at once.
#[test]
fn a_link_carries_as_many_worms_as_it_has_lanes() {
    let d = dir("lanes");
    let schedule = direct_allgather(4);
    let o = run(&d, &switched(4, 3, ""), &schedule).unwrap();
    assert_eq!(
        status(&o, "contention-freedom"),
        Status::Holds,
        "{}",
        o.text()
    );
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
    assert_eq!(o.time.measured, Some(1), "{}", o.text());
    // The lower bounds count a link's lanes: three arrive in one slot.
    assert_eq!(o.time.lower_bound, Some(1), "{}", o.text());
    let o = run(&d, &switched(4, 2, ""), &schedule).unwrap();
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
    assert_eq!(o.time.measured, Some(2), "{}", o.text());
    let o = run(&d, &switched(4, 1, ""), &schedule).unwrap();
    assert_eq!(
        status(&o, "contention-freedom"),
        Status::Violated,
        "{}",
        o.text()
    );
    let text = o.text();
    assert!(text.contains("arc nvs->gpu"), "{text}");
}

/// A GPU does not pass a worm on: on a ring of four GPUs with no switch,
/// a send to the GPU across is refused in one line that says why, where a
/// version-1 graph of the same ring (nodes without kinds) routes it
/// through a neighbour.
#[test]
fn gpus_do_not_forward_worms() {
    let d = dir("forward");
    let ring = |kinds: bool| {
        let nodes: Vec<String> = (0..4)
            .map(|g| match kinds {
                true => format!(r#"{{"name": "gpu{g}", "kind": "gpu"}}"#),
                false => format!(r#"{{"name": "gpu{g}", "kind": "node"}}"#),
            })
            .collect();
        let links: Vec<String> = (0..4)
            .map(|g| format!(r#"{{"between": [{g}, {}], "kind": "nvlink"}}"#, (g + 1) % 4))
            .collect();
        format!(
            r#"{{"format": "commcheck-network", "version": 2, "nodes": [{}], "links": [{}]}}"#,
            nodes.join(", "),
            links.join(", ")
        )
    };
    let across = r#"{"format": "commcheck-schedule", "version": 1, "ranks": 4,
        "collective": {"name": "broadcast", "root": 0}, "ops": [
        {"rank": 0, "label": "s", "send": {"to": 2, "chunks": [0]}},
        {"rank": 2, "label": "r", "recv": {"from": 0, "chunks": [0]}},
        {"rank": 0, "label": "s1", "send": {"to": 1, "chunks": [0]}, "after": ["s"]},
        {"rank": 1, "label": "r", "recv": {"from": 0, "chunks": [0]}},
        {"rank": 0, "label": "s3", "send": {"to": 3, "chunks": [0]}, "after": ["s1"]},
        {"rank": 3, "label": "r", "recv": {"from": 0, "chunks": [0]}}]}"#;
    let Err(e) = run(&d, &ring(true), across) else {
        panic!("a worm crossed a GPU")
    };
    assert!(e.contains("gpu0 cannot reach gpu2"), "{e}");
    assert!(e.contains("a gpu does not pass a worm on"), "{e}");
    let o = run(&d, &ring(false), across).unwrap();
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
}

/// A version-2 file that is not one is refused in one line naming what is
/// wrong; a version the reader does not know too.
#[test]
fn bad_machine_files_are_refused() {
    let d = dir("bad");
    let schedule = direct_allgather(2);
    let node = |kind: &str| {
        format!(r#"{{"name": "a", "kind": "{kind}"}}, {{"name": "b", "kind": "gpu"}}"#)
    };
    let file = |nodes: String, links: &str, version: u32| {
        format!(
            r#"{{"format": "commcheck-network", "version": {version}, "nodes": [{nodes}], "links": [{links}]}}"#
        )
    };
    let link = r#"{"between": ["a", "b"]}"#;
    for (net, expected) in [
        (
            file(node("tpu"), link, 2),
            "kind \"tpu\", expected one of node, gpu",
        ),
        (
            file(node("gpu"), r#"{"between": ["a", "c"]}"#, 2),
            "no node is named c",
        ),
        (
            file(node("gpu"), r#"{"between": [0, 7]}"#, 2),
            "node 7: nodes are numbered 0 to 1",
        ),
        (
            file(node("gpu"), r#"{"between": ["a", "b"], "kind": "wire"}"#, 2),
            "link kind \"wire\"",
        ),
        (
            file(node("gpu"), r#"{"between": ["a", "b"], "lanes": 0}"#, 2),
            "0 lanes",
        ),
        (
            file(
                node("gpu"),
                r#"{"between": ["a", "b"], "bandwidth": -1}"#,
                2,
            ),
            "expected a positive number",
        ),
        (
            file(
                r#"{"name": "a", "kind": "gpu"}, {"name": "a", "kind": "gpu"}"#.into(),
                link,
                2,
            ),
            "two nodes are named a",
        ),
        (
            file(node("gpu"), link, 3),
            "version 3: this commcheck reads versions 1 to 2",
        ),
        (
            file(node("gpu"), r#"{"between": ["a", "b"], "colour": 1}"#, 2),
            "unknown field `colour`",
        ),
    ] {
        let e = run(&d, &net, &schedule)
            .err()
            .unwrap_or_else(|| panic!("{net} was read"));
        assert!(e.contains(expected), "{net}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

/// Ranks go on the accelerators: two ranks on a machine of a switch and
/// one GPU are refused as too many, naming the nodes ranks run on, and a
/// map that puts a rank on the switch is refused naming it.
#[test]
fn ranks_go_on_the_accelerators() {
    let d = dir("ranks");
    let e = run(&d, &switched(1, 1, ""), &direct_allgather(2))
        .err()
        .unwrap();
    assert!(
        e.contains("2 ranks on graph net.json of 1 nodes ranks run on"),
        "{e}"
    );
    let (n, s, m) = (d.join("net.json"), d.join("s.json"), d.join("map.json"));
    std::fs::write(&n, switched(2, 1, "")).unwrap();
    std::fs::write(&s, direct_allgather(2)).unwrap();
    std::fs::write(&m, "[0, 1]").unwrap();
    let req = ScheduleRequest {
        switching: Switching::Wh,
        map: commcheck::check::schedule::Map::File(m),
        ..ScheduleRequest::new(&s, format!("graph:{}", n.display()).parse().unwrap())
    };
    let e = check_schedule(&req).err().unwrap().to_string();
    assert!(
        e.contains("--map places a rank on nvs, a nvswitch: ranks run on the accelerators"),
        "{e}"
    );
}

/// docs/network.schema.json names exactly the node and link kinds the
/// reader takes, and the most lanes.
#[test]
fn the_network_schema_names_what_the_reader_reads() {
    use models::topology::parts::{LinkKind, NodeKind, MAX_LANES};
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("docs/network.schema.json").unwrap())
            .unwrap();
    let v2 = &schema["oneOf"][1]["properties"];
    let names = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_string())
            .collect()
    };
    let nodes: Vec<String> = NodeKind::ALL.iter().map(|k| k.name().to_string()).collect();
    assert_eq!(
        names(&v2["nodes"]["items"]["properties"]["kind"]["enum"]),
        nodes
    );
    let link = &schema["$defs"]["link"]["properties"];
    let links: Vec<String> = LinkKind::ALL.iter().map(|k| k.name().to_string()).collect();
    assert_eq!(names(&link["kind"]["enum"]), links);
    assert_eq!(link["lanes"]["maximum"], MAX_LANES);
}

/// The direct allgather of 10^6-byte chunks on four GPUs whose NVSwitch
/// links have 3 lanes of 25 GB/s: each GPU's three worms share its link
/// up and each GPU's link down, 25 GB/s each, over two arcs of the
/// default 500 ns: 1000 + 10^6 / 25 = 41000 ns under alpha-beta. ASTRA's
/// model does not share: 1000 + 10^6 / 75, whole nanoseconds.
#[test]
fn link_models_time_the_run_on_the_machine() {
    let d = dir("cost");
    let (n, s) = (d.join("net.json"), d.join("s.json"));
    std::fs::write(&n, switched(4, 3, "")).unwrap();
    std::fs::write(&s, direct_allgather(4)).unwrap();
    let cost = |model: &str| {
        let mut req = ScheduleRequest {
            switching: Switching::Wh,
            ..ScheduleRequest::new(&s, format!("graph:{}", n.display()).parse().unwrap())
        };
        req.cost = Some(model.parse().unwrap());
        req.bytes = Some(1_000_000);
        check_schedule(&req).unwrap().cost.unwrap()
    };
    let ab = cost("alpha-beta");
    assert_eq!(ab.per_rank_us, vec![41.0; 4]);
    assert_eq!(ab.model, "alpha-beta");
    // Each GPU takes in 3 of the 4 chunks over 75 GB/s: 40 us; the
    // farthest pair is 2 hops of 500 ns.
    let bounds = ab.bounds.clone().unwrap();
    assert_eq!(bounds.bandwidth_us, Some(40.0), "{bounds:?}");
    assert_eq!(bounds.latency_us, 1.0);
    assert_eq!(ab.ratio, Some(41.0 / 40.0));
    let astra = cost("astra");
    assert_eq!(astra.time_us, 14.333);
    let slow = cost("alpha-beta:latency=0");
    assert_eq!(
        slow.time_us, 40.0,
        "the file's bandwidths, the model's latency"
    );
}

/// NCCL's topology XML of a 4-GPU server, written here in the form
/// `NCCL_TOPO_DUMP_FILE` writes: sm 90 GPUs under two PCIe switches, each
/// with 18 NVLinks to the NVSwitches, and a 400 Gb/s NIC.
pub(crate) const NCCL_TOPO: &str = r#"<system version="1">
  <cpu numaid="0" affinity="ff" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="143">
    <pci busid="0000:10:00.0" class="0x060400" link_speed="32.0 GT/s PCIe" link_width="16">
      <pci busid="0000:11:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="0" sm="90" rank="0" gdr="1">
          <nvlink target="0000:c0:00.0" count="18" tclass="0x068000"/>
        </gpu>
      </pci>
      <pci busid="0000:12:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="1" sm="90" rank="1" gdr="1">
          <nvlink target="0000:c0:00.0" count="18" tclass="0x068000"/>
        </gpu>
      </pci>
      <pci busid="0000:13:00.0" class="0x020000" link_speed="32.0 GT/s PCIe" link_width="16">
        <nic>
          <net name="mlx5_0" dev="0" speed="400000" port="1" latency="0.000000" guid="0x1" maxconn="131072" gdr="1"/>
        </nic>
      </pci>
    </pci>
    <pci busid="0000:20:00.0" class="0x060400" link_speed="32.0 GT/s PCIe" link_width="16">
      <pci busid="0000:21:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="2" sm="90" rank="2" gdr="1">
          <nvlink target="0000:c0:00.0" count="18" tclass="0x068000"/>
        </gpu>
      </pci>
      <pci busid="0000:22:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="3" sm="90" rank="3" gdr="1">
          <nvlink target="0000:c0:00.0" count="18" tclass="0x068000"/>
        </gpu>
      </pci>
    </pci>
  </cpu>
</system>
"#;

/// RCCL's topology XML (version 2) of four gfx942 GPUs, every pair joined
/// by one xGMI link.
pub(crate) const RCCL_TOPO: &str = r#"<system version="2">
  <cpu numaid="0" arch="x86_64" vendor="AuthenticAMD" familyid="25" modelid="17">
    <pci busid="0000:10:00.0" class="0x060400" link_speed="32.0 GT/s PCIe" link_width="16">
      <pci busid="0000:11:00.0" class="0x120000" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="0" sm="94" gcn="gfx942" rank="0" gdr="1">
          <xgmi target="0000:12:00.0" count="1" tclass="0x120000"/>
          <xgmi target="0000:13:00.0" count="1" tclass="0x120000"/>
          <xgmi target="0000:14:00.0" count="1" tclass="0x120000"/>
        </gpu>
      </pci>
      <pci busid="0000:12:00.0" class="0x120000" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="1" sm="94" gcn="gfx942" rank="1" gdr="1">
          <xgmi target="0000:11:00.0" count="1" tclass="0x120000"/>
          <xgmi target="0000:13:00.0" count="1" tclass="0x120000"/>
          <xgmi target="0000:14:00.0" count="1" tclass="0x120000"/>
        </gpu>
      </pci>
      <pci busid="0000:13:00.0" class="0x120000" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="2" sm="94" gcn="gfx942" rank="2" gdr="1">
          <xgmi target="0000:11:00.0" count="1" tclass="0x120000"/>
          <xgmi target="0000:12:00.0" count="1" tclass="0x120000"/>
          <xgmi target="0000:14:00.0" count="1" tclass="0x120000"/>
        </gpu>
      </pci>
      <pci busid="0000:14:00.0" class="0x120000" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="3" sm="94" gcn="gfx942" rank="3" gdr="1">
          <xgmi target="0000:11:00.0" count="1" tclass="0x120000"/>
          <xgmi target="0000:12:00.0" count="1" tclass="0x120000"/>
          <xgmi target="0000:13:00.0" count="1" tclass="0x120000"/>
        </gpu>
      </pci>
    </pci>
  </cpu>
</system>
"#;

/// The direct allgather on the servers NCCL's and RCCL's files describe:
/// on the NVSwitch server every worm crosses the switch, 18 lanes a GPU
/// carry its three, and under alpha-beta each worm has a third of
/// 18 x 20.6 GB/s up and down; on the xGMI server every pair is one
/// direct link of 48 GB/s. Both finish in a slot without contention;
/// `graph:` tells the format by the content.
#[test]
fn topology_files_are_the_servers_they_describe() {
    let d = dir("topo");
    let s = d.join("s.json");
    std::fs::write(&s, direct_allgather(4)).unwrap();
    for (name, text, spec, expected_us) in [
        (
            "nccl.xml",
            NCCL_TOPO,
            "nccl-topo",
            1000.0 + 1e6 / (18.0 * 20.6 / 3.0),
        ),
        ("rccl.xml", RCCL_TOPO, "graph", 500.0 + 1e6 / 48.0),
    ] {
        let file = d.join(name);
        std::fs::write(&file, text).unwrap();
        let mut req = ScheduleRequest {
            switching: Switching::Wh,
            options: Options {
                engine: Some(Engine::Exhaustive),
                ..Options::default()
            },
            ..ScheduleRequest::new(&s, format!("{spec}:{}", file.display()).parse().unwrap())
        };
        req.cost = Some("alpha-beta".parse().unwrap());
        req.bytes = Some(1_000_000);
        let o = check_schedule(&req).unwrap();
        assert_eq!(
            status(&o, "contention-freedom"),
            Status::Holds,
            "{name}: {}",
            o.text()
        );
        assert_eq!(
            status(&o, "completeness"),
            Status::Holds,
            "{name}: {}",
            o.text()
        );
        assert_eq!(o.time.measured, Some(1), "{name}");
        let cost = o.cost.unwrap();
        assert!(
            (cost.time_us - expected_us / 1000.0).abs() < 1e-6,
            "{name}: {cost:?}"
        );
    }
}

/// The built-in servers as `--network` names them: the direct allgather
/// of 8 GPUs is contention-free in one slot through the NVSwitch of a
/// DGX A100 (12 lanes a GPU carry its 7 worms) and over the xGMI mesh of
/// an MI300X platform; on the DGX-1's hybrid cube-mesh a GPU's NVLinks
/// reach 4 of the 7 others, and its worms to the other 3 share its one
/// PCIe link: contention; a bad name is refused when the command line is
/// read.
#[test]
fn built_in_servers_by_name() {
    let d = dir("builtin");
    let s = d.join("s.json");
    std::fs::write(&s, direct_allgather(8)).unwrap();
    let req = |net: &str| ScheduleRequest {
        switching: Switching::Wh,
        options: Options {
            engine: Some(Engine::Exhaustive),
            ..Options::default()
        },
        ..ScheduleRequest::new(&s, net.parse().unwrap())
    };
    for net in ["dgx-a100", "mi300x"] {
        let o = check_schedule(&req(net)).unwrap();
        assert_eq!(
            status(&o, "contention-freedom"),
            Status::Holds,
            "{net}: {}",
            o.text()
        );
        assert_eq!(o.time.measured, Some(1), "{net}");
    }
    let o = check_schedule(&req("dgx1")).unwrap();
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
    assert_eq!(
        status(&o, "contention-freedom"),
        Status::Violated,
        "{}",
        o.text()
    );
    assert!(o.text().contains("pcie"), "{}", o.text());
    crate::cli::refused(
        &["schedule", "x.json", "--network", "dgx1:2"],
        &["--network dgx1:2: dgx1 is one server here: it takes no :K"],
    );
}

/// The direct alltoall of `ranks` ranks in commcheck's format: rank s
/// sends chunk s x ranks + d to each other rank d.
fn direct_alltoall(ranks: u32) -> String {
    direct(ranks, "alltoall", |s, d| s * ranks + d)
}

/// A direct `collective` of `ranks` ranks in commcheck's format: each
/// rank s sends chunk `chunk(s, d)` to each other rank d.
fn direct(ranks: u32, collective: &str, chunk: impl Fn(u32, u32) -> u32) -> String {
    let mut ops = Vec::new();
    for s in 0..ranks {
        for d in (0..ranks).filter(|&d| d != s) {
            let c = chunk(s, d);
            ops.push(format!(
                r#"{{"rank": {s}, "label": "s{d}", "send": {{"to": {d}, "chunks": [{c}]}}}}"#
            ));
            ops.push(format!(
                r#"{{"rank": {d}, "label": "r{s}", "recv": {{"from": {s}, "chunks": [{c}]}}}}"#
            ));
        }
    }
    format!(
        r#"{{"format": "commcheck-schedule", "version": 1, "ranks": {ranks}, "collective": {{"name": "{collective}"}}, "ops": [{}]}}"#,
        ops.join(", ")
    )
}

/// An alltoall's bandwidth bound is the bisection's where that is the
/// narrower: on two DGX H100 the 64 chunks from one server's GPUs to the
/// other's cross its 8 NICs' links to the switch (8 x 50 GB/s), 160 us
/// for chunks of 10^6 bytes, where each GPU's own links in (18 NVLinks of
/// 25 GB/s and PCIe Gen5 at 48) would bound it at 15 x 10^6 / 498 GB/s,
/// 30 us.
#[test]
fn an_alltoall_is_bound_by_the_cut_between_servers() {
    let d = dir("alltoall");
    let s = d.join("a.json");
    std::fs::write(&s, direct_alltoall(16)).unwrap();
    let req = ScheduleRequest {
        switching: Switching::Wh,
        load: true,
        cost: Some("alpha-beta".parse().unwrap()),
        bytes: Some(1_000_000),
        options: Options {
            engine: Some(Engine::Executor),
            ..Options::default()
        },
        ..ScheduleRequest::new(&s, "dgx-h100:2".parse().unwrap())
    };
    let o = check_schedule(&req).unwrap();
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
    let bounds = o.cost.as_ref().unwrap().bounds.clone().unwrap();
    let bisection = 8.0 * 8.0 * 1e6 / (8.0 * 50.0) / 1000.0;
    let injection = 15.0 * 1e6 / (18.0 * 25.0 + 48.0) / 1000.0;
    assert!(bisection > injection);
    assert_eq!(bounds.bandwidth_us, Some(bisection), "{}", o.text());
    assert!(
        bounds.bandwidth_why.contains("across a cut of 400 GB/s"),
        "{bounds:?}"
    );
}
