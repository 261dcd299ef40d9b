//! Chakra execution traces (docs/schedules.md, "Chakra"), as ASTRA-sim
//! and MLCommons exchange them: one `.et` file per rank, named
//! `PREFIX.R.et`, each a sequence of protobuf messages, every one
//! preceded by its length as a varint: first the trace's
//! `GlobalMetadata`, then its `Node`s. The schema is MLCommons Chakra's
//! `et_def.proto`; the messages below are the part of it commcheck reads,
//! derived with prost (no `protoc`: fields commcheck does not read are
//! skipped as protobuf skips unknown fields). A gzip-compressed file is
//! read as well.
//!
//! How a trace is read:
//! * A rank's nodes are its operations: `COMM_SEND_NODE` a send to
//!   `comm_dst` with tag `comm_tag`, `COMM_RECV_NODE` a receive from
//!   `comm_src`, `COMP_NODE` and the memory and metadata nodes local work
//!   (no time in slots); `ctrl_deps` and `data_deps` order them, by node
//!   id, within the rank. A `COMM_COLL_NODE` is refused: it names a
//!   collective, not the algorithm that runs it.
//! * **Data.** A trace's messages have sizes, not content. Where the
//!   metadata embeds the MSCCL-IR the trace was converted from
//!   (`input_file`, as ASTRA-sim's converter writes it), that file is the
//!   schedule checked, once every rank's sends and receives in the trace
//!   are found to be its steps' (the same peers, as many times), and the
//!   report's collective says so. Otherwise the trace is read as GOAL is
//!   ([`super::goal`]): a message carries all its sender holds, for the
//!   collective `--collective` or the metadata's `collective` names.

use super::collective::Collective;
use super::ImportError;
use models::schedule::{Data, Kind, Op, OpId, Rank, Schedule};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Most ranks a trace may have (files read).
pub const MAX_RANKS: u32 = 1 << 12;

/// Most bytes of one trace file, decompressed.
pub const MAX_TRACE_BYTES: u64 = 1 << 28;

/// An attribute (`AttributeProto`): its name and the value types traces
/// use for communication.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Attribute {
    /// Its name (`comm_dst`).
    #[prost(string, tag = "1")]
    pub name: String,
    /// `int32_val`.
    #[prost(int32, optional, tag = "7")]
    pub int32: Option<i32>,
    /// `int64_val`.
    #[prost(int64, optional, tag = "9")]
    pub int64: Option<i64>,
    /// `uint32_val`.
    #[prost(uint32, optional, tag = "11")]
    pub uint32: Option<u32>,
    /// `uint64_val`.
    #[prost(uint64, optional, tag = "13")]
    pub uint64: Option<u64>,
    /// `string_val`.
    #[prost(string, optional, tag = "29")]
    pub string: Option<String>,
}

impl Attribute {
    /// Its value as an integer, whichever integer type it is.
    fn integer(&self) -> Option<i64> {
        self.int32
            .map(i64::from)
            .or(self.int64)
            .or(self.uint32.map(i64::from))
            .or(self.uint64.and_then(|v| i64::try_from(v).ok()))
    }
}

/// The trace's `GlobalMetadata`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Metadata {
    /// The schema's version.
    #[prost(string, tag = "1")]
    pub version: String,
    /// Its attributes (`schema`, `input_file`, `collective`).
    #[prost(message, repeated, tag = "2")]
    pub attr: Vec<Attribute>,
}

/// A trace `Node`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Node {
    /// Its id, unique in its file.
    #[prost(uint64, tag = "1")]
    pub id: u64,
    /// Its name.
    #[prost(string, tag = "2")]
    pub name: String,
    /// Its type (`NodeType`: 4 computation, 5 send, 6 receive, 7
    /// collective).
    #[prost(int32, tag = "3")]
    pub kind: i32,
    /// Nodes it waits for (control).
    #[prost(uint64, repeated, tag = "4")]
    pub ctrl_deps: Vec<u64>,
    /// Nodes it waits for (data).
    #[prost(uint64, repeated, tag = "5")]
    pub data_deps: Vec<u64>,
    /// How long it runs.
    #[prost(uint64, tag = "7")]
    pub duration_micros: u64,
    /// Its attributes (`comm_src`, `comm_dst`, `comm_size`, `comm_tag`).
    #[prost(message, repeated, tag = "10")]
    pub attr: Vec<Attribute>,
}

impl Node {
    fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attr.iter().find(|a| a.name == name)
    }
}

/// The type names of `NodeType`, by number.
const NODE_TYPES: [&str; 8] = [
    "INVALID_NODE",
    "METADATA_NODE",
    "MEM_LOAD_NODE",
    "MEM_STORE_NODE",
    "COMP_NODE",
    "COMM_SEND_NODE",
    "COMM_RECV_NODE",
    "COMM_COLL_NODE",
];

/// Rank `r`'s file of the trace named `prefix`: `PREFIX.R.et`, as
/// ASTRA-sim names them.
pub fn rank_file(prefix: &Path, r: usize) -> PathBuf {
    PathBuf::from(format!("{}.{r}.et", prefix.display()))
}

/// The prefix of the trace `path` names, and its files rank by rank
/// ([`rank_file`]), for a path that is one of them or their prefix, or a
/// folder that holds one such series.
pub fn files(path: &Path) -> Result<(PathBuf, Vec<PathBuf>), ImportError> {
    let shown = path.display().to_string();
    let usage = |why: String| ImportError::Usage(format!("{shown}: {why}"));
    let prefix: PathBuf = if path.is_dir() {
        let mut prefixes: Vec<String> = std::fs::read_dir(path)
            .map_err(|e| usage(e.to_string()))?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let stem = name.strip_suffix(".0.et")?; // rank_file(stem, 0)
                Some(stem.to_string())
            })
            .collect();
        prefixes.sort();
        match prefixes.as_slice() {
            [one] => path.join(one),
            [] => return Err(usage("no trace in this folder (no NAME.0.et)".into())),
            _ => {
                return Err(usage(format!(
                    "{} traces in this folder ({}): name one by its prefix",
                    prefixes.len(),
                    prefixes.join(", ")
                )))
            }
        }
    } else {
        let text = path.to_string_lossy();
        match text.strip_suffix(".et") {
            Some(stem) => match stem.rsplit_once('.') {
                Some((prefix, r)) if r.parse::<u32>().is_ok() => PathBuf::from(prefix),
                _ => PathBuf::from(stem),
            },
            None => path.to_path_buf(),
        }
    };
    let mut files = Vec::new();
    loop {
        let file = rank_file(&prefix, files.len());
        if !file.is_file() {
            break;
        }
        if files.len() as u32 == MAX_RANKS {
            return Err(usage(format!("more than {MAX_RANKS} ranks' files")));
        }
        files.push(file);
    }
    if files.is_empty() {
        return Err(usage(format!(
            "no Chakra trace: expected {}.0.et, {}.1.et, ...",
            prefix.display(),
            prefix.display()
        )));
    }
    Ok((prefix, files))
}

/// One rank's trace: its metadata and nodes.
struct RankTrace {
    file: String,
    metadata: Metadata,
    nodes: Vec<Node>,
}

/// Reads the trace in `file` (gzip or not).
fn read_rank(file: &Path) -> Result<RankTrace, ImportError> {
    let name = file.display().to_string();
    let bad = |why: String| ImportError::File {
        file: name.clone(),
        line: 0,
        column: 0,
        why,
    };
    let raw = std::fs::File::open(file).map_err(|e| ImportError::Unreadable {
        file: name.clone(),
        why: e.to_string(),
    })?;
    let mut head = [0u8; 2];
    let mut bytes = Vec::new();
    let mut input = std::io::BufReader::new(raw);
    let got = input.read(&mut head).map_err(|e| bad(e.to_string()))?;
    let input = std::io::Cursor::new(head[..got].to_vec()).chain(input);
    let limit = MAX_TRACE_BYTES + 1;
    let read = match head == [0x1f, 0x8b] {
        true => flate2::read::GzDecoder::new(input)
            .take(limit)
            .read_to_end(&mut bytes),
        false => input.take(limit).read_to_end(&mut bytes),
    };
    read.map_err(|e| bad(format!("not a Chakra trace: {e}")))?;
    if bytes.len() as u64 > MAX_TRACE_BYTES {
        return Err(bad(format!("more than {MAX_TRACE_BYTES} bytes")));
    }
    let mut buf: &[u8] = &bytes;
    let at = |buf: &[u8]| bytes.len() - buf.len();
    let message = |what: &str, e: prost::DecodeError, offset: usize| {
        bad(format!(
            "not a Chakra trace: the {what} at byte {offset}: {}",
            e.to_string()
                .replace("failed to decode Protobuf message: ", "")
        ))
    };
    if buf.is_empty() {
        return Err(bad("empty: a Chakra trace opens with its metadata".into()));
    }
    let metadata = <Metadata as prost::Message>::decode_length_delimited(&mut buf)
        .map_err(|e| message("metadata", e, 0))?;
    let mut nodes = Vec::new();
    while !buf.is_empty() {
        let offset = at(buf);
        let node = <Node as prost::Message>::decode_length_delimited(&mut buf)
            .map_err(|e| message(&format!("node {}", nodes.len()), e, offset))?;
        nodes.push(node);
    }
    Ok(RankTrace {
        file: name,
        metadata,
        nodes,
    })
}

/// The schedule of the Chakra trace at `path`, for `collective` (None:
/// the one its metadata names).
pub fn read(path: &Path, collective: Option<&Collective>) -> Result<Schedule, ImportError> {
    let (prefix, files) = files(path)?;
    let traces: Vec<RankTrace> = files
        .iter()
        .map(|f| read_rank(f))
        .collect::<Result<_, _>>()?;
    let ranks = traces.len() as u32;
    let shown = path.display().to_string();
    let mut ops: Vec<Op> = Vec::new();
    let mut first: Vec<OpId> = vec![0];
    for (r, t) in traces.iter().enumerate() {
        let base = ops.len() as OpId;
        ops.extend(rank_ops(t, r as Rank, ranks, base)?);
        first.push(ops.len() as OpId);
    }
    let meta = |name: &str| {
        traces[0]
            .metadata
            .attr
            .iter()
            .find(|a| a.name == name)
            .and_then(|a| a.string.clone())
    };
    let name = super::file_name(&prefix.display().to_string());
    if let Some(source) = meta("input_file").filter(|s| s.trim_start().starts_with("<algo")) {
        return embedded(&shown, &source, &ops, ranks, name);
    }
    let named = meta("collective")
        .map(|c| {
            Collective::parse(&c).map_err(|e| ImportError::File {
                file: traces[0].file.clone(),
                line: 0,
                column: 0,
                why: format!("the metadata's collective: {e}"),
            })
        })
        .transpose()?;
    let Some(collective) = collective.or(named.as_ref()) else {
        return Err(ImportError::Usage(format!(
            "{shown}: a Chakra trace names no data and this one no collective: name it with \
             --collective ({})",
            Collective::NAMES
        )));
    };
    super::goal::knowledge(ops, first, ranks, collective, name, "a Chakra message").map_err(|why| {
        ImportError::File {
            file: shown.clone(),
            line: 0,
            column: 0,
            why,
        }
    })
}

/// Rank `r`'s nodes as operations, numbered from `base`, their
/// dependencies resolved.
fn rank_ops(t: &RankTrace, r: Rank, ranks: u32, base: OpId) -> Result<Vec<Op>, ImportError> {
    let bad = |node: &Node, why: String| ImportError::File {
        file: t.file.clone(),
        line: 0,
        column: 0,
        why: format!("node {} ({}): {why}", node.id, node.name),
    };
    let mut index: HashMap<u64, OpId> = HashMap::with_capacity(t.nodes.len());
    for (i, node) in t.nodes.iter().enumerate() {
        if index.insert(node.id, i as OpId).is_some() {
            return Err(bad(node, "a second node with this id".into()));
        }
    }
    let peer = |node: &Node, key: &str| -> Result<Rank, ImportError> {
        let v = node
            .attribute(key)
            .and_then(Attribute::integer)
            .ok_or_else(|| bad(node, format!("no {key}")))?;
        match u32::try_from(v) {
            Ok(p) if p < ranks && p != r => Ok(p),
            _ => Err(bad(
                node,
                format!(
                    "{key} {v}: ranks are 0 to {} (one file each), another rank",
                    ranks - 1
                ),
            )),
        }
    };
    let tag = |node: &Node| -> Result<u32, ImportError> {
        let v = node
            .attribute("comm_tag")
            .and_then(Attribute::integer)
            .unwrap_or(0);
        u32::try_from(v).map_err(|_| bad(node, format!("comm_tag {v}: 0 to {}", u32::MAX)))
    };
    let mut ops = Vec::with_capacity(t.nodes.len());
    for node in &t.nodes {
        let size = node
            .attribute("comm_size")
            .and_then(Attribute::integer)
            .unwrap_or(0)
            .max(0) as u64;
        let (kind, bytes) =
            match node.kind {
                5 => (
                    Kind::Send {
                        to: peer(node, "comm_dst")?,
                        also: Vec::new(),
                        tag: tag(node)?,
                        data: Data::Everything,
                        path: None,
                    },
                    size,
                ),
                6 => (
                    Kind::Recv {
                        from: Some(peer(node, "comm_src")?),
                        tag: Some(tag(node)?),
                        data: Data::Everything,
                        reduce: false,
                    },
                    size,
                ),
                1..=4 => (Kind::Calc, node.duration_micros.saturating_mul(1000)),
                7 => return Err(bad(
                    node,
                    "a collective (COMM_COLL_NODE) names no algorithm to check: give the trace \
                     of its sends and receives"
                        .into(),
                )),
                k => {
                    return Err(bad(
                        node,
                        format!("node type {k}: {} expected", NODE_TYPES[1..].join(", ")),
                    ))
                }
            };
        let mut after = Vec::new();
        for d in node.ctrl_deps.iter().chain(&node.data_deps) {
            match index.get(d) {
                Some(&i) if i != index[&node.id] => after.push(base + i),
                Some(_) => return Err(bad(node, "it depends on itself".into())),
                None => {
                    return Err(bad(
                        node,
                        format!("it depends on node {d}, not in the file"),
                    ))
                }
            }
        }
        after.sort_unstable();
        after.dedup();
        ops.push(Op {
            rank: r,
            kind,
            after,
            started_after: Vec::new(),
            slot: None,
            label: match node.name.is_empty() {
                true => format!("node {}", node.id),
                false => format!("node {} ({})", node.id, node.name),
            },
            bytes,
            line: 0,
        });
    }
    Ok(ops)
}

/// The MSCCL-IR `source` the trace embeds, checked in its place once the
/// trace's messages are found to be the source's: each rank sends to and
/// receives from each peer as many times in both.
fn embedded(
    shown: &str,
    source: &str,
    ops: &[Op],
    ranks: u32,
    name: String,
) -> Result<Schedule, ImportError> {
    let within = format!("{shown} (the MSCCL-IR its metadata embeds)");
    let mut schedule = super::msccl::read(source, &within)?;
    if schedule.ranks != ranks {
        return Err(ImportError::Usage(format!(
            "{shown}: {ranks} ranks' files, but the MSCCL-IR its metadata embeds has {} GPUs",
            schedule.ranks
        )));
    }
    // (rank, peer, is a send) -> count, over the trace's nodes and the
    // source's steps (a step of several chunks is one node).
    let count = |ops: &[Op], steps: bool| {
        let mut seen = std::collections::HashSet::new();
        let mut n: HashMap<(Rank, Rank, bool), u32> = HashMap::new();
        for o in ops {
            let key = match &o.kind {
                Kind::Send { to, .. } => (o.rank, *to, true),
                Kind::Recv { from: Some(f), .. } => (o.rank, *f, false),
                _ => continue,
            };
            if steps && !seen.insert((o.rank, o.label.clone(), key.2)) {
                continue;
            }
            *n.entry(key).or_default() += 1;
        }
        n
    };
    let (traced, stepped) = (count(ops, false), count(&schedule.ops, true));
    if traced != stepped {
        let mut keys: Vec<_> = traced.keys().chain(stepped.keys()).copied().collect();
        keys.sort_unstable();
        let (r, p, send) = keys
            .into_iter()
            .find(|k| traced.get(k) != stepped.get(k))
            .unwrap_or_default();
        let (a, b) = (
            traced.get(&(r, p, send)).copied().unwrap_or(0),
            stepped.get(&(r, p, send)).copied().unwrap_or(0),
        );
        return Err(ImportError::Usage(format!(
            "{shown}: rank {r} {} rank {p} {a} times in the trace and {b} in the MSCCL-IR its \
             metadata embeds: the trace is not of that file",
            match send {
                true => "sends to",
                false => "receives from",
            }
        )));
    }
    schedule.name = name;
    schedule.collective = format!(
        "{} (the MSCCL-IR the trace embeds, whose sends and receives the trace's are)",
        schedule.collective
    );
    Ok(schedule)
}
