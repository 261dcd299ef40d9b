//! NCCL/RCCL topology XML read into a machine's parts; refusals placed.
//! (These tests were inside `src/import/topo_xml.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::import::topo_xml::*;
use models::config::{Ports, Switching};
use models::topology::parts::{LinkAttrs, LinkKind, NodeKind, Parts};
use properties::NodeId;

/// Two sm 80 GPUs under one PCIe switch under a CPU, each with 12
/// NVLinks to an NVSwitch, and a NIC beside them.
const NCCL: &str = r#"<system version="1">
  <cpu numaid="0" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="85">
    <pci busid="0000:10:00.0" class="0x060400" link_speed="16 GT/s" link_width="16">
      <pci busid="0000:11:00.0" class="0x030200" link_speed="16.0 GT/s PCIe" link_width="16">
        <gpu dev="0" sm="80" rank="0" gdr="1">
          <nvlink target="0000:a0:00.0" count="12" tclass="0x068000"/>
        </gpu>
      </pci>
      <pci busid="0000:12:00.0" class="0x030200" link_speed="16 GT/s" link_width="16">
        <gpu dev="1" sm="80" rank="1" gdr="1">
          <nvlink target="0000:a0:00.0" count="12" tclass="0x068000"/>
        </gpu>
      </pci>
      <pci busid="0000:13:00.0" class="0x020000" link_speed="16 GT/s" link_width="16">
        <nic>
          <net name="ib0" dev="0" speed="200000" port="1" latency="0.0" guid="0x1" maxconn="1" gdr="1"/>
        </nic>
      </pci>
    </pci>
  </cpu>
</system>
"#;

fn node(parts: &Parts, name: &str) -> NodeId {
    parts.nodes.iter().position(|v| v.name == name).unwrap() as NodeId
}

fn arc(parts: &Parts, u: &str, v: &str) -> LinkAttrs {
    let (u, v) = (node(parts, u), node(parts, v));
    parts
        .arcs
        .iter()
        .find(|a| (a.from, a.to) == (u, v))
        .unwrap()
        .attrs
}

fn refusal(text: &str) -> String {
    read(text, "t.xml").unwrap_err().to_string()
}

#[test]
fn nccl_gpus_under_a_switch_with_an_nvswitch() {
    assert!(is_topology(NCCL));
    let parts = read(NCCL, "t.xml").unwrap();
    let names: Vec<&str> = parts.nodes.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "gpu0",
            "gpu1",
            "nvs",
            "cpu0",
            "pcie-0000:10:00.0",
            "nic0",
            "net"
        ]
    );
    let kinds: Vec<NodeKind> = parts.nodes.iter().map(|v| v.kind).collect();
    use NodeKind::*;
    assert_eq!(kinds, [Gpu, Gpu, NvSwitch, Cpu, PcieSwitch, Nic, Switch]);
    assert_eq!(parts.nodes[3].forwards, Some(true));
    assert_eq!(parts.nodes[6].forwards, Some(false));
    for gpu in ["gpu0", "gpu1"] {
        for (u, v) in [(gpu, "nvs"), ("nvs", gpu)] {
            assert_eq!(
                arc(&parts, u, v),
                LinkAttrs::new(LinkKind::NvLink, 12, 240.0)
            );
        }
        let pcie = LinkAttrs::new(LinkKind::Pcie, 1, 24.0);
        assert_eq!(arc(&parts, gpu, "pcie-0000:10:00.0"), pcie);
    }
    assert_eq!(
        arc(&parts, "pcie-0000:10:00.0", "cpu0"),
        LinkAttrs::new(LinkKind::Pcie, 1, 24.0)
    );
    assert_eq!(
        arc(&parts, "nic0", "net"),
        LinkAttrs::new(LinkKind::Net, 1, 25.0)
    );
    let graph = parts.build("x", Switching::Wh, Ports::All).unwrap();
    assert_eq!(graph.rank_nodes(), [0, 1]);
    // Two hops through the PCIe switch too: the lowest-numbered
    // neighbour, nvs, wins.
    assert_eq!(graph.worm_path(0, 1), Some(vec![0, 2, 1]));
    assert_eq!(graph.worm_path(1, 0), Some(vec![1, 2, 0]));
}

/// Four gfx942 GPUs, each with one xGMI link to each other, under two
/// AMD CPUs.
fn rccl() -> String {
    let bus = [
        "0000:0c:00.0",
        "0000:15:00.0",
        "0000:69:00.0",
        "0000:9f:00.0",
    ];
    let mut cpus = [String::new(), String::new()];
    for (rank, b) in bus.iter().enumerate() {
        let mut links = String::new();
        for (other, t) in bus.iter().enumerate() {
            if other != rank {
                links +=
                    &format!("        <xgmi target=\"{t}\" count=\"1\" tclass=\"0x120000\"/>\n");
            }
        }
        cpus[rank / 2] += &format!(
            "    <pci busid=\"{b}\" class=\"0x120000\" link_speed=\"32.0 GT/s PCIe\" \
             link_width=\"16\">\n      <gpu dev=\"{rank}\" sm=\"304\" gcn=\"gfx942\" \
             arch=\"1\" rank=\"{rank}\" gdr=\"1\">\n{links}      </gpu>\n    </pci>\n"
        );
    }
    format!(
        "<system version=\"2\">\n  <cpu numaid=\"0\" arch=\"x86_64\" vendor=\"AuthenticAMD\">\n{}  \
         </cpu>\n  <cpu numaid=\"1\" arch=\"x86_64\" vendor=\"AuthenticAMD\">\n{}  </cpu>\n\
         </system>\n",
        cpus[0], cpus[1]
    )
}

#[test]
fn rccl_fully_xgmi_connected() {
    let text = rccl();
    let parts = read(&text, "t.xml").unwrap();
    assert_eq!(parts.nodes.len(), 6);
    for u in 0..4 {
        for v in 0..4 {
            if u != v {
                let (gu, gv) = (format!("gpu{u}"), format!("gpu{v}"));
                assert_eq!(
                    arc(&parts, &gu, &gv),
                    LinkAttrs::new(LinkKind::Xgmi, 1, 48.0)
                );
            }
        }
    }
    assert_eq!(
        arc(&parts, "gpu0", "cpu0"),
        LinkAttrs::new(LinkKind::Pcie, 1, 48.0)
    );
    assert_eq!(
        arc(&parts, "cpu1", "cpu0"),
        LinkAttrs::new(LinkKind::Sys, 1, 16.0)
    );
    let graph = parts.build("x", Switching::Wh, Ports::All).unwrap();
    assert_eq!(graph.worm_path(0, 3), Some(vec![0, 3]));
}

#[test]
fn refusals_name_line_and_column() {
    let no_rank = NCCL.replacen(" rank=\"1\"", "", 1);
    assert_eq!(
        refusal(&no_rank),
        "t.xml:10:9: <gpu> has no rank: every GPU needs one (NCCL skips such a GPU; commcheck \
         refuses)"
    );
    let twice = NCCL.replacen("rank=\"1\"", "rank=\"0\"", 1);
    assert_eq!(
        refusal(&twice),
        "t.xml:10:9: rank 0 is given twice (first at 5:9)"
    );
    let gap = NCCL.replacen("rank=\"1\"", "rank=\"2\"", 1);
    assert_eq!(
        refusal(&gap),
        "t.xml:10:9: rank 2 with 2 GPUs: their ranks are 0 to 1"
    );
    let unknown = NCCL.replacen("<nic>", "<nic><widget/>", 1);
    assert_eq!(
        refusal(&unknown),
        "t.xml:15:14: unknown element <widget> in <nic>: expected <net>"
    );
    let version = NCCL.replacen("version=\"1\"", "version=\"3\"", 1);
    assert_eq!(
        refusal(&version),
        "t.xml:1:1: version \"3\": commcheck reads version 1 (NCCL's) and 2 (RCCL's)"
    );
    let attr = NCCL.replacen(
        "sm=\"80\" rank=\"0\"",
        "sm=\"80\" rank=\"0\" speed=\"9\"",
        1,
    );
    assert!(refusal(&attr).starts_with("t.xml:5:9: unknown attribute speed of <gpu>"));
    let pcilink = NCCL.replacen("<nic>", "<pcilink target=\"0000:11:00.0\"/><nic>", 1);
    assert!(refusal(&pcilink).contains(":15:9: <pcilink>"));
    let lost = NCCL.replacen(
        "0000:a0:00.0\" count=\"12\" tclass=\"0x068000",
        "0000:99:00.0\" count=\"1\" tclass=\"0x030200",
        1,
    );
    assert!(refusal(&lost).starts_with("t.xml:6:11: target 0000:99:00.0: no <gpu>"));
    let not_xml = "<system version=\"1\">";
    assert!(refusal(not_xml).starts_with("t.xml:1:"));
    assert!(!is_topology("<algo ngpus=\"2\"/>"));
    assert!(is_topology(
        "<?xml version=\"1.0\"?>\n<!-- x -->\n<system version=\"1\"/>"
    ));
}

#[test]
fn limits() {
    let deep = format!(
        "<system version=\"1\">{}{}</system>",
        "<cpu>".repeat(70),
        "</cpu>".repeat(70)
    );
    assert!(refusal(&deep).contains("nested deeper than 64"));
    let wide = format!("<system version=\"1\">{}</system>", "<cpu/>".repeat(5000));
    assert!(refusal(&wide).contains("elements"));
    let lanes = NCCL.replacen("count=\"12\"", "count=\"2000\"", 1);
    assert!(refusal(&lanes).contains("count=\"2000\": expected 1 to 1024"));
}

#[test]
fn c2c_and_a_nic_under_the_cpu() {
    let text = r#"<system version="1">
  <cpu numaid="0" arch="arm64" vendor="ARM">
    <pci busid="0009:00:00.0" class="0x060400" link_speed="32.0 GT/s PCIe" link_width="16">
      <pci busid="0009:01:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="0" sm="90" rank="0" gdr="1">
          <c2c bw="40000" count="10"/>
        </gpu>
      </pci>
    </pci>
    <nic>
      <net name="eth0" dev="0" speed="-1"/>
      <net name="eth1" dev="1" speed="100000"/>
    </nic>
  </cpu>
</system>"#;
    let parts = read(text, "t.xml").unwrap();
    let c2c = LinkAttrs::new(LinkKind::NvLink, 10, 400.0);
    assert_eq!(arc(&parts, "gpu0", "cpu0"), c2c);
    assert_eq!(arc(&parts, "cpu0", "gpu0"), c2c);
    let pcie = LinkAttrs::new(LinkKind::Pcie, 1, 48.0);
    assert_eq!(arc(&parts, "gpu0", "pcie-0009:00:00.0"), pcie);
    // A GPU's <pci> right under its CPU and a c2c: two kinds of link
    // between one pair, refused.
    let direct = r#"<system version="1">
  <cpu numaid="0" arch="arm64" vendor="ARM">
    <pci busid="0009:01:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16">
      <gpu dev="0" sm="90" rank="0" gdr="1">
        <c2c bw="40000" count="10"/>
      </gpu>
    </pci>
  </cpu>
</system>"#;
    assert_eq!(
        refusal(direct),
        "t.xml:3:5: a pcie link where a nvlink link joins the same two parts: commcheck \
         takes one kind of link a pair"
    );
    let nic = LinkAttrs::new(LinkKind::Net, 2, 1.25 + 12.5);
    assert_eq!(arc(&parts, "nic0", "net"), nic);
    assert_eq!(
        arc(&parts, "nic0", "cpu0"),
        LinkAttrs::new(LinkKind::Pcie, 1, LOCAL_GB_S)
    );
}
