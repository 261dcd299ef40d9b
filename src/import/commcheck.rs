//! commcheck's own schedule format, version 1 (docs/schedules.md,
//! "commcheck's schedule format"; its JSON Schema is
//! docs/schedule.schema.json): JSON read with serde, each operation's
//! line and column kept so that what is wrong with it is said there.

use super::collective::Collective;
use super::{at_line, line_column, ImportError, WriteError};
use models::schedule::{Data, Kind, Op, OpId, Rank, Schedule};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::collections::HashMap;

/// Most ranks a schedule file may have.
pub const MAX_RANKS: u32 = 1 << 20;

/// Most operations a schedule file may have.
pub const MAX_OPS: usize = 1 << 26;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File<'a> {
    format: String,
    version: u32,
    ranks: u32,
    collective: Collective,
    #[serde(borrow)]
    ops: Vec<&'a RawValue>,
}

// The operations as written; `write` writes them back with the same
// structs, leaving out what is at its default.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct OpSpec {
    rank: Rank,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    after: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    started_after: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    slot: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    send: Option<SendSpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recv: Option<RecvSpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    copy: Option<LocalSpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reduce: Option<LocalSpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    calc: Option<CalcSpec>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct SendSpec {
    to: Receivers,
    #[serde(skip_serializing_if = "Option::is_none")]
    chunks: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "is_zero")]
    tag: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<Vec<u32>>,
}

/// A send's receivers: one rank, or the readers of one bus write.
#[derive(Deserialize, Serialize)]
#[serde(untagged)]
enum Receivers {
    One(Rank),
    Several(Vec<Rank>),
}

fn is_zero(tag: &u32) -> bool {
    *tag == 0
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RecvSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<Rank>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chunks: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tag: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    reduce: bool,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct LocalSpec {
    from: u32,
    to: u32,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct CalcSpec {}

/// The schedule in `text`, read from `file`, with the paths its sends
/// give (sender's rank, receiver's rank, the path's ranks... as nodes are
/// placed later: the path as written).
pub fn read(text: &str, file: &str) -> Result<Schedule, ImportError> {
    let f: File = serde_json::from_str(text).map_err(|e| at_line(file, &e))?;
    let whole = |why: String| ImportError::File {
        file: file.to_string(),
        line: 0,
        column: 0,
        why,
    };
    let at = |key: &str, why: String| super::at_field(file, text, &[super::Step::Key(key)], why);
    super::header(
        (file, text),
        "schedule",
        "commcheck-schedule",
        &f.format,
        f.version,
        1,
    )?;
    if f.ranks == 0 || f.ranks > MAX_RANKS {
        return Err(at("ranks", format!("{} ranks: 1 to {MAX_RANKS}", f.ranks)));
    }
    if f.ops.len() > MAX_OPS {
        return Err(at(
            "ops",
            format!("{} operations: at most {MAX_OPS}", f.ops.len()),
        ));
    }
    let collective = f.collective;
    let chunks = collective
        .chunks(f.ranks)
        .map_err(|e| at("collective", e.to_string()))?;
    let ranks = f.ranks;
    // Each operation with where it stands in the file: its line, found in
    // log time (a count from the start for each would take the square of
    // a long file's length), and its byte offset, turned into a column
    // only for an error.
    let lines = super::Lines::new(text);
    let at_op = |offset: usize, why: String| {
        let (line, column) = line_column(text, offset);
        ImportError::File {
            file: file.to_string(),
            line,
            column,
            why,
        }
    };
    let mut specs: Vec<(OpSpec, u32, usize)> = Vec::with_capacity(f.ops.len());
    for raw in &f.ops {
        let offset = raw.get().as_ptr() as usize - text.as_ptr() as usize;
        let line = lines.line(offset);
        let spec: OpSpec = serde_json::from_str(raw.get()).map_err(|e| {
            let (line, column) = line_column(text, offset);
            // A location inside the operation, moved to the file's.
            let (l, c) = (e.line() as u32, e.column() as u32);
            let mut err = at_line(file, &e);
            if let ImportError::File {
                line: el,
                column: ec,
                ..
            } = &mut err
            {
                *el = line + l - 1;
                *ec = if l == 1 { column + c - 1 } else { c };
            }
            err
        })?;
        if spec.rank >= ranks {
            return Err(at_op(
                offset,
                format!("rank {}: ranks are 0 to {}", spec.rank, ranks - 1),
            ));
        }
        specs.push((spec, line, offset));
    }
    // Grouped by rank, each rank's in file order.
    let mut order: Vec<usize> = (0..specs.len()).collect();
    order.sort_by_key(|&i| specs[i].0.rank);
    let mut first = vec![0 as OpId; ranks as usize + 1];
    for (spec, ..) in &specs {
        first[spec.rank as usize + 1] += 1;
    }
    for r in 0..ranks as usize {
        first[r + 1] += first[r];
    }
    let mut labels: HashMap<(Rank, String), OpId> = HashMap::new();
    for (k, &i) in order.iter().enumerate() {
        let (spec, _, offset) = &specs[i];
        let label = spec.label.clone().unwrap_or_else(|| format!("op {i}"));
        if labels
            .insert((spec.rank, label.clone()), k as OpId)
            .is_some()
        {
            return Err(at_op(
                *offset,
                format!("label {label} is used twice on rank {}", spec.rank),
            ));
        }
    }
    let mut ops = Vec::with_capacity(specs.len());
    for &i in &order {
        let (spec, line, offset) = &specs[i];
        let here = |why: String| at_op(*offset, why);
        let resolve = |names: &[String]| -> Result<Vec<OpId>, ImportError> {
            names
                .iter()
                .map(|n| {
                    labels.get(&(spec.rank, n.clone())).copied().ok_or_else(|| {
                        here(format!("no operation labelled {n} on rank {}", spec.rank))
                    })
                })
                .collect()
        };
        let at = |chunks: &Option<Vec<u32>>| match chunks {
            Some(c) if c.is_empty() => Data::Nothing,
            Some(c) => Data::At(c.clone()),
            None => Data::Everything,
        };
        let mut kinds = Vec::new();
        if let Some(s) = &spec.send {
            let (to, also) = match &s.to {
                Receivers::One(r) => (*r, Vec::new()),
                Receivers::Several(list) => match list.split_first() {
                    Some((first, rest)) => (*first, rest.to_vec()),
                    None => return Err(here("a send to no rank".into())),
                },
            };
            kinds.push(Kind::Send {
                to,
                also,
                tag: s.tag,
                data: at(&s.chunks),
                path: s.path.clone(),
            });
        }
        if let Some(r) = &spec.recv {
            kinds.push(Kind::Recv {
                from: r.from,
                tag: r.tag,
                data: at(&r.chunks),
                reduce: r.reduce,
            });
        }
        if let Some(c) = &spec.copy {
            kinds.push(Kind::Copy {
                from: c.from,
                to: c.to,
            });
        }
        if let Some(c) = &spec.reduce {
            kinds.push(Kind::Reduce {
                from: c.from,
                to: c.to,
            });
        }
        if spec.calc.is_some() {
            kinds.push(Kind::Calc);
        }
        if kinds.len() != 1 {
            return Err(here(
                "an operation is one of send, recv, copy, reduce or calc".into(),
            ));
        }
        ops.push(Op {
            rank: spec.rank,
            kind: kinds.remove(0),
            after: resolve(&spec.after)?,
            started_after: resolve(&spec.started_after)?,
            bytes: 0,
            slot: spec.slot,
            label: spec.label.clone().unwrap_or_else(|| format!("op {i}")),
            line: *line,
        });
    }
    Schedule {
        name: super::file_name(file),
        ranks,
        ops,
        first,
        chunks,
        collective: collective.name(),
        parallel_ranks: false,
        relaxed: Vec::new(),
    }
    .validated()
    .map_err(|e| whole(e.to_string()))
}

/// `schedule` in commcheck's format, version 1: its postcondition written
/// out, one operation a line. Or why the format cannot hold it: a
/// position that is not its chunk's (a buffer offset of MSCCL-IR), a
/// label used twice on a rank.
pub fn write(schedule: &Schedule) -> Result<String, WriteError> {
    let collective = Collective::of(&schedule.chunks, schedule.ranks)?;
    let label = |q: OpId| schedule.ops[q as usize].label.clone();
    let mut text = format!(
        "{{\n  \"format\": \"commcheck-schedule\",\n  \"version\": 1,\n  \"ranks\": {},\n  \
         \"collective\": {},\n  \"ops\": [",
        schedule.ranks,
        serde_json::to_string(&collective)?
    );
    for r in 0..schedule.ranks {
        let mut labels = std::collections::HashSet::new();
        for q in schedule.rank_ops(r) {
            let op = &schedule.ops[q as usize];
            if !labels.insert(&op.label) {
                return Err(WriteError::LabelTwice {
                    label: op.label.clone(),
                    rank: r,
                });
            }
            let chunks = |data: &Data| match data {
                Data::At(at) => Some(at.clone()),
                Data::Nothing => Some(Vec::new()),
                Data::Everything => None,
            };
            let mut spec = OpSpec {
                rank: r,
                label: Some(op.label.clone()),
                after: op.after.iter().map(|&q| label(q)).collect(),
                started_after: op.started_after.iter().map(|&q| label(q)).collect(),
                slot: op.slot,
                send: None,
                recv: None,
                copy: None,
                reduce: None,
                calc: None,
            };
            match &op.kind {
                Kind::Send {
                    to,
                    also,
                    tag,
                    data,
                    path,
                } => {
                    spec.send = Some(SendSpec {
                        to: match also.is_empty() {
                            true => Receivers::One(*to),
                            false => {
                                Receivers::Several([*to].into_iter().chain(also.clone()).collect())
                            }
                        },
                        chunks: chunks(data),
                        tag: *tag,
                        path: path.clone(),
                    })
                }
                Kind::Recv {
                    from,
                    tag,
                    data,
                    reduce,
                } => {
                    spec.recv = Some(RecvSpec {
                        from: *from,
                        chunks: chunks(data),
                        tag: *tag,
                        reduce: *reduce,
                    })
                }
                Kind::Copy { from, to } => {
                    spec.copy = Some(LocalSpec {
                        from: *from,
                        to: *to,
                    })
                }
                Kind::Reduce { from, to } => {
                    spec.reduce = Some(LocalSpec {
                        from: *from,
                        to: *to,
                    })
                }
                Kind::Calc => spec.calc = Some(CalcSpec {}),
                Kind::Move { .. } => {
                    return Err(WriteError::OneSided {
                        op: schedule.where_is(q),
                    })
                }
            }
            let line = serde_json::to_string(&spec)?;
            text += if text.ends_with('[') {
                "\n    "
            } else {
                ",\n    "
            };
            text += &line;
        }
    }
    text += "\n  ]\n}\n";
    Ok(text)
}
