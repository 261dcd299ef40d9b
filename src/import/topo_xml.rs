//! NCCL's and RCCL's topology XML (what `NCCL_TOPO_FILE` reads and
//! `NCCL_TOPO_DUMP_FILE` writes) as a machine's parts
//! ([`models::topology::parts`]): `<system version>` holding `<cpu>`s,
//! their trees of `<pci>` elements, and in them `<gpu>`s with their
//! `<nvlink>`s (NCCL) or `<xgmi>`s (RCCL) and `<nic>`s with their `<net>`s.
//! `version="1"` is NCCL's, `version="2"` RCCL's; both are read, no other.
//!
//! The rules are NCCL's (src/graph/topo.cc, ncclTopoGetSystemFromXml and
//! the functions it calls; src/graph/xml.cc writes the file) and RCCL's
//! (its src/graph/topo.cc, for xGMI), restated here, not copied:
//!
//! * **Nodes.** The GPUs come first, in the order of their `rank`
//!   attribute (ranks go on the accelerators in node order), named
//!   `gpu<rank>`; then `nvs`, if there is one; then every other part in
//!   document order: `cpu<numaid>` (kind CPU, and it forwards: it is the
//!   PCIe root complex), `pcie-<busid>` (a PCIe switch), `nic<k>` (the
//!   k-th NIC of the file, from 0) and `net`. `nvs` comes before the PCIe
//!   parts so that where a path through it and one through a PCIe switch
//!   are equally short (two GPUs under one switch), worms, which take the
//!   lowest-numbered neighbour, take NVLink, as NCCL prefers it. A GPU without a rank, two GPUs with one
//!   rank, or ranks that are not 0 to g-1 are refused (NCCL skips a GPU
//!   with no rank silently; commcheck does not).
//! * **PCIe.** Each `<pci>`'s `link_width` and `link_speed` are its link
//!   to its parent (the enclosing `<pci>` or `<cpu>`), both ways, of
//!   width x speed / 80 GB/s, one lane, where the speed strings are
//!   NCCL's: 2.5, 5, 8, 16, 32 and 64 GT/s give 15, 30, 60, 120, 240 and
//!   480 (with or without the newer kernels' " PCIe" suffix and ".0");
//!   an unknown or missing speed gives 60 and a width of 0 or none gives
//!   16, as in NCCL. So Gen4 x16 is 24 GB/s, Gen5 x16 48. A `<pci>` that
//!   holds a `<gpu>` is that GPU and one that holds a `<nic>` that NIC;
//!   any other is a PCIe switch node, whatever its class, except that a
//!   GPU's, NIC's, NVSwitch's or CPU's class (0x03, 0x12, 0x02, 0x068000,
//!   0x068001) with no `<gpu>` or `<nic>` in it is refused (NCCL skips
//!   it). **Switches are kept as nodes**: NCCL flattens Broadcom's
//!   two-level Gen4 switches into one (ncclTopoFlattenBcmSwitches) and
//!   its paths (src/graph/paths.cc) reduce a chain of switches to one
//!   path type; commcheck keeps each switch, which adds hops a worm
//!   crosses within its slot and changes no bandwidth.
//! * **NVLink.** Each `<nvlink target count tclass>` of a GPU is NVLink of
//!   `count` lanes and `count` x the per-link rate of the GPU's `sm`:
//!   40.1 GB/s from sm 100, 20.6 from 90, 12.0 at 86, 20.0 from 80 and from
//!   70, 18.0 from 60 (NVLink needs sm 60; less is refused). A `tclass`
//!   of a GPU (0x03..., or RCCL's 0x12...) links to the GPU whose `<pci>`
//!   has bus id `target` (none is refused); 0x068001 links to the GPU's
//!   own CPU; any other target, NVSwitches (0x068000) above all, is the
//!   one node `nvs`, kind NVSwitch, shared by all the host's GPUs, as
//!   NCCL draws it. A link to a GPU is one **directed** arc, from the GPU
//!   that lists it (the other GPU lists its own; NCCL adds one direction
//!   per listing and so does commcheck: a link listed on one side only is
//!   one arc); a link to `nvs` or a CPU goes both ways. Listings of one
//!   pair add up (lanes and bandwidth), as NCCL's do: six `<nvlink>`s of
//!   count 2 to six NVSwitch bus ids are one GPU-`nvs` link of 12 lanes.
//! * **xGMI** (RCCL). `<xgmi target count tclass>` is as `<nvlink>` to a
//!   GPU, of kind xGMI and `count` x the rate of the GPU's `gcn`: 36 GB/s
//!   for gfx90a, 48 for gfx940, gfx941 and gfx942, 24 for any other. An
//!   xGMI target that is not a GPU is refused.
//! * **C2C.** `<c2c bw count>` on a GPU is a link both ways between the
//!   GPU and its CPU, `count` lanes of `bw` MB/s each (bw x count / 1000
//!   GB/s), of kind NVLink (NCCL's LINK_NVL; newer NCCLs call it C2C).
//!   NCCL keeps links of different kinds between one pair apart; a
//!   commcheck graph has one arc a pair, so a GPU whose `<pci>` sits
//!   right under its `<cpu>` and that has a `<c2c>` too is refused.
//! * **NICs and the network.** A NIC is a node of kind NIC. A file
//!   describes one host, so the outside network is one node `net` of kind
//!   Switch that **does not forward**: each NIC with `<net>`s has a link
//!   both ways to it of kind Net, one lane a `<net>` and their summed
//!   bandwidth (`speed` is in Mb/s: speed / 8000 GB/s; a speed of 0, less
//!   or none is 10000 Mb/s, NCCL's default). It keeps the NICs' bandwidth
//!   for the cost models without offering worms a way out of one NIC and
//!   back into another, which NCCL never takes within a host. A `<nic>`
//!   directly under a `<cpu>` has a PCIe link to it of NCCL's local
//!   bandwidth, 5000 GB/s (LOC_BW: not a bottleneck).
//! * **CPUs.** Every CPU has a link of kind Sys to every other, one lane,
//!   each direction at the bandwidth NCCL gives its first end
//!   (ncclTopoGetInterCpuBw): x86_64 Intel 10 GB/s (NCCL's Skylake figure,
//!   used here for every Intel model: a simplification, as NCCL has other
//!   figures for Broadwell, Emerald and Sapphire Rapids), x86_64 AMD 16,
//!   ppc64 (POWER) 32, arm64 6; another `arch` or `vendor` is refused when
//!   the file has more than one CPU.
//! * **Refused.** `<pcilink>` (NCCL's links between PCIe switches, which
//!   commcheck does not read), any other unknown element, any unknown
//!   attribute, a bus id given twice, counts of 0 or over
//!   [`MAX_LANES`], a link's summed lanes over it, two links of different
//!   kinds between one pair of nodes, non-blank text, more than
//!   [`MAX_ELEMENTS`] elements or nesting deeper than [`MAX_DEPTH`]: in one
//!   line with the file, line and column and what was expected.
//! * **Ignored attributes**, which change no topology: `affinity`,
//!   `familyid`, `modelid`, `host_hash` of `<cpu>`; `vendor`, `device`,
//!   `subsystem_vendor`, `subsystem_device` of `<pci>`; `dev`, `gdr` and
//!   RCCL's numeric `arch` of `<gpu>`; `name`, `dev`, `port`, `latency`,
//!   `guid`, `maxconn`, `gdr`, `coll` of `<net>`. Bus ids are compared
//!   without regard to case.

use super::{line_column, ImportError};
use models::topology::parts::{Arc, LinkAttrs, LinkKind, Node as Part, NodeKind, Parts, MAX_LANES};
use properties::NodeId;
use roxmltree::{Document, Node, ParsingOptions};
use std::collections::HashMap;

/// Most elements a topology file may have.
pub const MAX_ELEMENTS: usize = 4096;

/// Deepest nesting of elements a topology file may have.
pub const MAX_DEPTH: usize = 64;

/// NCCL's local bandwidth (LOC_BW), GB/s: a `<nic>` directly under a
/// `<cpu>` is linked to it at this.
pub const LOCAL_GB_S: f64 = 5000.0;

/// True when `text` is XML whose root element is `<system`: NCCL's or
/// RCCL's topology, for guessing a file's format.
pub fn is_topology(text: &str) -> bool {
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        let (open, close) = if rest.starts_with("<?") {
            ("<?", "?>")
        } else if rest.starts_with("<!--") {
            ("<!--", "-->")
        } else if rest.starts_with("<!") {
            ("<!", ">")
        } else {
            break;
        };
        match rest[open.len()..].find(close) {
            Some(i) => rest = &rest[open.len() + i + close.len()..],
            None => return false,
        }
    }
    rest.strip_prefix("<system")
        .is_some_and(|r| r.starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/'))
}

/// The machine in NCCL's or RCCL's topology XML `text`, read from `file`:
/// its GPUs first, in rank order, then `nvs`, then its other parts in
/// document order (the module's documentation gives the rules).
pub fn read(text: &str, file: &str) -> Result<Parts, ImportError> {
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: (8 * MAX_ELEMENTS) as u32,
        ..ParsingOptions::default()
    };
    let doc = Document::parse_with_options(text, options).map_err(|e| {
        let why = match &e {
            roxmltree::Error::NodesLimitReached => {
                format!("too many XML nodes: a topology file has at most {MAX_ELEMENTS} elements")
            }
            _ => e
                .to_string()
                .split(" at ")
                .next()
                .unwrap_or_default()
                .to_string(),
        };
        let (line, column) = super::xml_position(text, &e);
        ImportError::File {
            file: file.to_string(),
            line,
            column,
            why,
        }
    })?;
    let r = Reader { text, file };
    let system = doc.root_element();
    r.shape(system)?;
    if system.tag_name().name() != "system" {
        return Err(r.at(
            system,
            format!(
                "<{}>: expected a <system> element (NCCL's or RCCL's topology)",
                system.tag_name().name()
            ),
        ));
    }
    r.attrs(system, &["version"], &[])?;
    match r.attr(system, "version")? {
        "1" | "2" => {}
        v => {
            return Err(r.at(
                system,
                format!("version \"{v}\": commcheck reads version 1 (NCCL's) and 2 (RCCL's)"),
            ))
        }
    }
    let mut m = Machine::new(r);
    for cpu in r.children(system, &["cpu"])? {
        m.cpu(cpu)?;
    }
    m.finish(system)
}

/// The file being read, for errors at an element's line and column.
#[derive(Clone, Copy)]
struct Reader<'t> {
    text: &'t str,
    file: &'t str,
}

impl Reader<'_> {
    fn at(&self, node: Node, why: impl Into<String>) -> ImportError {
        super::at_offset(self.text, self.file, node.range().start, why)
    }

    /// Counts the elements and their depth, and refuses non-blank text.
    fn shape(&self, root: Node) -> Result<(), ImportError> {
        let mut elements = 0;
        let mut stack = vec![(root, 1)];
        while let Some((node, depth)) = stack.pop() {
            elements += 1;
            if elements > MAX_ELEMENTS {
                return Err(self.at(
                    node,
                    format!("more than {MAX_ELEMENTS} elements: a topology file has at most that"),
                ));
            }
            if depth > MAX_DEPTH {
                return Err(self.at(
                    node,
                    format!("elements nested deeper than {MAX_DEPTH}: a topology file is not"),
                ));
            }
            for child in node.children() {
                if child.is_element() {
                    stack.push((child, depth + 1));
                } else if child.is_text() && !child.text().unwrap_or("").trim().is_empty() {
                    return Err(self.at(child, "text where only elements were expected"));
                }
            }
        }
        Ok(())
    }

    /// The element children of `node`, refusing any not in `allowed`.
    fn children<'a, 'i>(
        &self,
        node: Node<'a, 'i>,
        allowed: &[&str],
    ) -> Result<Vec<Node<'a, 'i>>, ImportError> {
        let mut all = Vec::new();
        for child in node.children().filter(Node::is_element) {
            let name = child.tag_name().name();
            if name == "pcilink" {
                return Err(self.at(
                    child,
                    "<pcilink>: commcheck does not read NCCL's links between PCIe switches",
                ));
            }
            if !allowed.contains(&name) {
                let expected: Vec<String> = allowed.iter().map(|a| format!("<{a}>")).collect();
                let expected = match expected.is_empty() {
                    true => "nothing".to_string(),
                    false => expected.join(" or "),
                };
                return Err(self.at(
                    child,
                    format!(
                        "unknown element <{name}> in <{}>: expected {expected}",
                        node.tag_name().name()
                    ),
                ));
            }
            all.push(child);
        }
        Ok(all)
    }

    /// Refuses an attribute of `node` neither `used` nor `ignored`.
    fn attrs(&self, node: Node, used: &[&str], ignored: &[&str]) -> Result<(), ImportError> {
        for a in node.attributes() {
            if !used.contains(&a.name()) && !ignored.contains(&a.name()) {
                let mut known = used.to_vec();
                known.extend_from_slice(ignored);
                return Err(self.at(
                    node,
                    format!(
                        "unknown attribute {} of <{}>: commcheck reads {}",
                        a.name(),
                        node.tag_name().name(),
                        match known.is_empty() {
                            true => "none".to_string(),
                            false => known.join(", "),
                        }
                    ),
                ));
            }
        }
        Ok(())
    }

    fn attr<'a>(&self, node: Node<'a, '_>, name: &str) -> Result<&'a str, ImportError> {
        node.attribute(name)
            .ok_or_else(|| self.at(node, format!("<{}> has no {name}", node.tag_name().name())))
    }

    /// Attribute `name` of `node`, an integer in `lo..=hi`.
    fn number(&self, node: Node, name: &str, lo: u32, hi: u32) -> Result<u32, ImportError> {
        let text = self.attr(node, name)?;
        match text.trim().parse::<u32>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(self.at(node, format!("{name}=\"{text}\": expected {lo} to {hi}"))),
        }
    }
}

/// One end of a link while the file is read: a GPU (by its place in the
/// document) or another part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum End {
    Gpu(usize),
    Part(usize),
}

struct Gpu<'a, 'i> {
    node: Node<'a, 'i>,
    rank: u32,
    /// Its `<pci>`'s bus id, lower case.
    busid: String,
}

/// A link to a GPU named by bus id, resolved once every GPU is known.
struct ToGpu<'a, 'i> {
    from: usize,
    target: String,
    attrs: LinkAttrs,
    node: Node<'a, 'i>,
}

struct Machine<'a, 'i, 't> {
    r: Reader<'t>,
    gpus: Vec<Gpu<'a, 'i>>,
    parts: Vec<Part>,
    /// Directed links, in the order first given, and where each was.
    links: Vec<(End, End, LinkAttrs)>,
    index: HashMap<(End, End), usize>,
    to_gpus: Vec<ToGpu<'a, 'i>>,
    busids: HashMap<String, Node<'a, 'i>>,
    numaids: HashMap<u32, Node<'a, 'i>>,
    /// The CPUs (parts) and their elements.
    cpus: Vec<(usize, Node<'a, 'i>)>,
    nics: usize,
    nvs: Option<usize>,
    net: Option<usize>,
}

impl<'a, 'i, 't> Machine<'a, 'i, 't> {
    fn new(r: Reader<'t>) -> Self {
        Machine {
            r,
            gpus: Vec::new(),
            parts: Vec::new(),
            links: Vec::new(),
            index: HashMap::new(),
            to_gpus: Vec::new(),
            busids: HashMap::new(),
            numaids: HashMap::new(),
            cpus: Vec::new(),
            nics: 0,
            nvs: None,
            net: None,
        }
    }

    fn part(&mut self, name: String, kind: NodeKind, forwards: Option<bool>) -> usize {
        self.parts.push(Part {
            name,
            kind,
            forwards,
        });
        self.parts.len() - 1
    }

    /// Adds the directed link `from -> to`, summing with one already given
    /// between them (as NCCL does), refusing different kinds.
    fn arc(&mut self, from: End, to: End, attrs: LinkAttrs, at: Node) -> Result<(), ImportError> {
        match self.index.get(&(from, to)) {
            None => {
                self.index.insert((from, to), self.links.len());
                self.links.push((from, to, attrs));
            }
            Some(&i) => {
                let old = self.links[i].2;
                if old.kind != attrs.kind {
                    return Err(self.r.at(
                        at,
                        format!(
                            "a {} link where a {} link joins the same two parts: commcheck \
                             takes one kind of link a pair",
                            attrs.kind.name(),
                            old.kind.name()
                        ),
                    ));
                }
                let lanes = old.lanes + attrs.lanes;
                if lanes > MAX_LANES {
                    return Err(self.r.at(
                        at,
                        format!("{lanes} lanes between two parts: a link has at most {MAX_LANES}"),
                    ));
                }
                let bandwidth = old.bandwidth.unwrap_or(0.0) + attrs.bandwidth.unwrap_or(0.0);
                self.links[i].2 = LinkAttrs::new(old.kind, lanes, bandwidth);
            }
        }
        Ok(())
    }

    fn link(&mut self, u: End, v: End, attrs: LinkAttrs, at: Node) -> Result<(), ImportError> {
        self.arc(u, v, attrs, at)?;
        self.arc(v, u, attrs, at)
    }

    fn busid(&mut self, pci: Node<'a, 'i>) -> Result<String, ImportError> {
        let busid = self.r.attr(pci, "busid")?.to_ascii_lowercase();
        if let Some(first) = self.busids.get(&busid) {
            let (line, column) = line_column(self.r.text, first.range().start);
            return Err(self.r.at(
                pci,
                format!("bus id {busid} is given twice (first at {line}:{column})"),
            ));
        }
        self.busids.insert(busid.clone(), pci);
        Ok(busid)
    }

    fn cpu(&mut self, cpu: Node<'a, 'i>) -> Result<(), ImportError> {
        let r = self.r;
        r.attrs(
            cpu,
            &["numaid", "arch", "vendor"],
            &["affinity", "familyid", "modelid", "host_hash"],
        )?;
        let numaid = r.number(cpu, "numaid", 0, u32::MAX)?;
        if let Some(first) = self.numaids.get(&numaid) {
            let (line, column) = line_column(r.text, first.range().start);
            return Err(r.at(
                cpu,
                format!("numaid {numaid} is given twice (first at {line}:{column})"),
            ));
        }
        self.numaids.insert(numaid, cpu);
        let me = self.part(format!("cpu{numaid}"), NodeKind::Cpu, Some(true));
        self.cpus.push((me, cpu));
        for child in r.children(cpu, &["pci", "nic"])? {
            match child.tag_name().name() {
                "pci" => self.pci(child, End::Part(me), me)?,
                _ => {
                    let nic = self.nic(child)?;
                    let attrs = LinkAttrs::new(LinkKind::Pcie, 1, LOCAL_GB_S);
                    self.link(End::Part(nic), End::Part(me), attrs, child)?;
                }
            }
        }
        Ok(())
    }

    /// A `<pci>` under `parent`, in the tree of CPU `cpu`.
    fn pci(&mut self, pci: Node<'a, 'i>, parent: End, cpu: usize) -> Result<(), ImportError> {
        let r = self.r;
        r.attrs(
            pci,
            &["busid", "class", "link_width", "link_speed"],
            &["vendor", "device", "subsystem_vendor", "subsystem_device"],
        )?;
        let busid = self.busid(pci)?;
        let class = r.attr(pci, "class")?.to_ascii_lowercase();
        let width = match pci.attribute("link_width") {
            None => 16,
            Some(_) => match r.number(pci, "link_width", 0, 1024)? {
                0 => 16,
                w => w,
            },
        };
        let speed = pci.attribute("link_speed").map_or(60, pcie_speed);
        let up = LinkAttrs::new(LinkKind::Pcie, 1, width as f64 * speed as f64 / 80.0);
        let children = r.children(pci, &["pci", "gpu", "nic"])?;
        let named = |name: &str| {
            children
                .iter()
                .filter(|c| c.tag_name().name() == name)
                .count()
        };
        let (gpus, nics) = (named("gpu"), named("nic"));
        if gpus + nics > 0 && children.len() > 1 {
            return Err(r.at(
                pci,
                "a <pci> holding a <gpu> or a <nic> holds nothing else: expected one child",
            ));
        }
        if gpus == 1 {
            let me = self.gpu(children[0], busid, cpu)?;
            return self.link(End::Gpu(me), parent, up, pci);
        }
        if nics == 1 {
            let me = self.nic(children[0])?;
            return self.link(End::Part(me), parent, up, pci);
        }
        let device = [
            ("0x03", "a GPU's", "<gpu>"),
            ("0x12", "a GPU's", "<gpu>"),
            ("0x02", "a NIC's", "<nic>"),
            ("0x068000", "an NVSwitch's", "element commcheck reads"),
            ("0x068001", "a CPU's", "element commcheck reads"),
        ];
        if let Some((_, what, missing)) = device.iter().find(|(p, ..)| class.starts_with(p)) {
            return Err(r.at(
                pci,
                format!(
                    "class {class} is {what} but this <pci> holds no {missing} (NCCL skips it; \
                     commcheck drops nothing)"
                ),
            ));
        }
        let me = self.part(format!("pcie-{busid}"), NodeKind::PcieSwitch, None);
        self.link(End::Part(me), parent, up, pci)?;
        for child in children {
            self.pci(child, End::Part(me), cpu)?;
        }
        Ok(())
    }

    fn gpu(&mut self, gpu: Node<'a, 'i>, busid: String, cpu: usize) -> Result<usize, ImportError> {
        let r = self.r;
        r.attrs(gpu, &["rank", "sm", "gcn"], &["dev", "gdr", "arch"])?;
        if gpu.attribute("rank").is_none() {
            return Err(r.at(
                gpu,
                "<gpu> has no rank: every GPU needs one (NCCL skips such a GPU; commcheck refuses)",
            ));
        }
        let rank = r.number(gpu, "rank", 0, MAX_ELEMENTS as u32)?;
        let me = self.gpus.len();
        self.gpus.push(Gpu {
            node: gpu,
            rank,
            busid,
        });
        for link in r.children(gpu, &["nvlink", "xgmi", "c2c"])? {
            let name = link.tag_name().name();
            if name == "c2c" {
                r.attrs(link, &["bw", "count"], &[])?;
                let count = r.number(link, "count", 1, MAX_LANES)?;
                let bw = r.number(link, "bw", 1, u32::MAX)?;
                let attrs =
                    LinkAttrs::new(LinkKind::NvLink, count, bw as f64 * count as f64 / 1000.0);
                self.link(End::Gpu(me), End::Part(cpu), attrs, link)?;
                continue;
            }
            r.attrs(link, &["target", "count", "tclass"], &[])?;
            let count = r.number(link, "count", 1, MAX_LANES)?;
            let target = r.attr(link, "target")?.to_ascii_lowercase();
            let tclass = r.attr(link, "tclass")?.to_ascii_lowercase();
            let (kind, rate) = match name {
                "nvlink" => (LinkKind::NvLink, self.nvlink_rate(gpu)?),
                _ => (LinkKind::Xgmi, self.xgmi_rate(gpu)?),
            };
            let attrs = LinkAttrs::new(kind, count, count as f64 * rate);
            if tclass.starts_with("0x03") || tclass.starts_with("0x12") {
                self.to_gpus.push(ToGpu {
                    from: me,
                    target,
                    attrs,
                    node: link,
                });
            } else if kind == LinkKind::Xgmi {
                return Err(r.at(
                    link,
                    format!("xgmi to tclass {tclass}: an xGMI link joins two GPUs (0x03 or 0x12)"),
                ));
            } else if tclass == "0x068001" {
                self.link(End::Gpu(me), End::Part(cpu), attrs, link)?;
            } else {
                let nvs = match self.nvs {
                    Some(n) => n,
                    None => {
                        let n = self.part("nvs".into(), NodeKind::NvSwitch, None);
                        self.nvs = Some(n);
                        n
                    }
                };
                self.link(End::Gpu(me), End::Part(nvs), attrs, link)?;
            }
        }
        Ok(me)
    }

    /// GB/s of one NVLink of `gpu`, by its `sm` (ncclTopoNVLinkBw).
    fn nvlink_rate(&self, gpu: Node) -> Result<f64, ImportError> {
        let sm = self.r.number(gpu, "sm", 0, u32::MAX)?;
        Ok(match sm {
            100.. => 40.1,
            90.. => 20.6,
            86 => 12.0,
            70.. => 20.0,
            60.. => 18.0,
            _ => {
                return Err(self.r.at(
                    gpu,
                    format!("sm {sm} with NVLinks: NVLink needs sm 60 or more"),
                ))
            }
        })
    }

    /// GB/s of one xGMI link of `gpu`, by its `gcn` (RCCL).
    fn xgmi_rate(&self, gpu: Node) -> Result<f64, ImportError> {
        let gcn = self.r.attr(gpu, "gcn")?;
        Ok(if gcn.starts_with("gfx90a") {
            36.0
        } else if ["gfx940", "gfx941", "gfx942"]
            .iter()
            .any(|g| gcn.starts_with(g))
        {
            48.0
        } else {
            24.0
        })
    }

    fn nic(&mut self, nic: Node<'a, 'i>) -> Result<usize, ImportError> {
        let r = self.r;
        r.attrs(nic, &[], &[])?;
        let me = self.part(format!("nic{}", self.nics), NodeKind::Nic, None);
        self.nics += 1;
        let nets = r.children(nic, &["net"])?;
        let mut bandwidth = 0.0;
        for &net in &nets {
            r.attrs(
                net,
                &["speed"],
                &[
                    "name", "dev", "port", "latency", "guid", "maxconn", "gdr", "coll",
                ],
            )?;
            let speed = match net.attribute("speed") {
                None => 10000,
                Some(s) => match s.trim().parse::<i64>() {
                    Ok(v) if v <= 0 => 10000,
                    Ok(v) if v <= u32::MAX as i64 => v,
                    _ => {
                        return Err(r.at(
                            net,
                            format!(
                                "speed=\"{s}\": expected Mb/s, an integer up to {}",
                                u32::MAX
                            ),
                        ))
                    }
                },
            };
            bandwidth += speed as f64 / 8000.0;
        }
        if let Some(&first) = nets.first() {
            if nets.len() > MAX_LANES as usize {
                return Err(r.at(
                    nic,
                    format!(
                        "{} <net>s: a link has at most {MAX_LANES} lanes",
                        nets.len()
                    ),
                ));
            }
            let net = match self.net {
                Some(n) => n,
                None => {
                    let n = self.part("net".into(), NodeKind::Switch, Some(false));
                    self.net = Some(n);
                    n
                }
            };
            let attrs = LinkAttrs::new(LinkKind::Net, nets.len() as u32, bandwidth);
            self.link(End::Part(me), End::Part(net), attrs, first)?;
        }
        Ok(me)
    }

    /// The GPUs' ranks checked, links to GPUs resolved, CPUs joined: the
    /// parts, GPUs first in rank order.
    fn finish(mut self, system: Node) -> Result<Parts, ImportError> {
        let r = self.r;
        let g = self.gpus.len();
        if g == 0 {
            return Err(r.at(
                system,
                "no <gpu>: ranks run on the GPUs, and this file has none",
            ));
        }
        let mut by_rank: Vec<Option<usize>> = vec![None; g];
        for (i, gpu) in self.gpus.iter().enumerate() {
            let rank = gpu.rank as usize;
            if rank >= g {
                return Err(r.at(
                    gpu.node,
                    format!("rank {rank} with {g} GPUs: their ranks are 0 to {}", g - 1),
                ));
            }
            if let Some(first) = by_rank[rank] {
                let (line, column) = line_column(r.text, self.gpus[first].node.range().start);
                return Err(r.at(
                    gpu.node,
                    format!("rank {rank} is given twice (first at {line}:{column})"),
                ));
            }
            by_rank[rank] = Some(i);
        }
        let gpu_at: HashMap<String, usize> = self
            .gpus
            .iter()
            .enumerate()
            .map(|(i, gpu)| (gpu.busid.clone(), i))
            .collect();
        for link in std::mem::take(&mut self.to_gpus) {
            let Some(&to) = gpu_at.get(&link.target) else {
                return Err(r.at(
                    link.node,
                    format!("target {}: no <gpu>'s <pci> has that bus id", link.target),
                ));
            };
            if to == link.from {
                return Err(r.at(link.node, "a link from a GPU to itself"));
            }
            self.arc(End::Gpu(link.from), End::Gpu(to), link.attrs, link.node)?;
        }
        if self.cpus.len() > 1 {
            for &(u, cpu) in &self.cpus.clone() {
                let bandwidth = inter_cpu(r, cpu)?;
                for &(v, _) in &self.cpus.clone() {
                    if u != v {
                        let attrs = LinkAttrs::new(LinkKind::Sys, 1, bandwidth);
                        self.arc(End::Part(u), End::Part(v), attrs, cpu)?;
                    }
                }
            }
        }
        let mut parts = Parts::default();
        let mut gpu_id = vec![0 as NodeId; g];
        for i in by_rank.into_iter().flatten() {
            gpu_id[i] = parts.node(format!("gpu{}", self.gpus[i].rank), NodeKind::Gpu);
        }
        // `nvs` right after the GPUs, then the rest in document order.
        let mut order: Vec<usize> = self.nvs.into_iter().collect();
        order.extend((0..self.parts.len()).filter(|&p| Some(p) != self.nvs));
        let mut part_id = vec![0 as NodeId; self.parts.len()];
        for (k, &p) in order.iter().enumerate() {
            part_id[p] = (g + k) as NodeId;
            parts.nodes.push(self.parts[p].clone());
        }
        let id = |e: End| match e {
            End::Gpu(i) => gpu_id[i],
            End::Part(p) => part_id[p],
        };
        parts.arcs = self
            .links
            .into_iter()
            .map(|(u, v, attrs)| Arc {
                from: id(u),
                to: id(v),
                attrs,
            })
            .collect();
        Ok(parts)
    }
}

/// NCCL's PCIe speed factor of `speed` (100 Mb/s a lane): 60 for a speed
/// it does not know.
fn pcie_speed(speed: &str) -> u32 {
    let s = speed.trim();
    let s = s.strip_suffix(" PCIe").unwrap_or(s);
    match s {
        "2.5 GT/s" => 15,
        "5 GT/s" | "5.0 GT/s" => 30,
        "8 GT/s" | "8.0 GT/s" => 60,
        "16 GT/s" | "16.0 GT/s" => 120,
        "32 GT/s" | "32.0 GT/s" => 240,
        "64 GT/s" | "64.0 GT/s" => 480,
        _ => 60,
    }
}

/// GB/s from CPU `cpu` to another of its host (ncclTopoGetInterCpuBw, with
/// every Intel model at Skylake's figure).
fn inter_cpu(r: Reader, cpu: Node) -> Result<f64, ImportError> {
    let arch = r.attr(cpu, "arch")?;
    Ok(match arch {
        "x86_64" => match r.attr(cpu, "vendor")? {
            "GenuineIntel" => 10.0,
            "AuthenticAMD" => 16.0,
            v => {
                return Err(r.at(
                    cpu,
                    format!(
                        "vendor \"{v}\": commcheck knows the inter-CPU bandwidth of GenuineIntel \
                         and AuthenticAMD x86_64 CPUs"
                    ),
                ))
            }
        },
        "ppc64" => 32.0,
        "arm64" => 6.0,
        a => {
            return Err(r.at(
                cpu,
                format!(
                    "arch \"{a}\": commcheck knows the inter-CPU bandwidth of x86_64, ppc64 and \
                     arm64"
                ),
            ))
        }
    })
}
