//! commcheck's own schedule format, version 1 (docs/schedules.md,
//! "commcheck's schedule format"; its JSON Schema is
//! docs/schedule.schema.json): JSON read with serde, each operation's
//! line and column kept so that what is wrong with it is said there.

use super::collective::Collective;
use super::{at_line, line_column, ImportError};
use models::schedule::{Data, Kind, Op, OpId, Rank, Schedule};
use serde::Deserialize;
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpSpec {
    rank: Rank,
    label: Option<String>,
    #[serde(default)]
    after: Vec<String>,
    #[serde(default)]
    started_after: Vec<String>,
    slot: Option<u32>,
    send: Option<SendSpec>,
    recv: Option<RecvSpec>,
    copy: Option<LocalSpec>,
    reduce: Option<LocalSpec>,
    calc: Option<CalcSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SendSpec {
    to: Rank,
    chunks: Option<Vec<u32>>,
    #[serde(default)]
    tag: u32,
    path: Option<Vec<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecvSpec {
    from: Option<Rank>,
    chunks: Option<Vec<u32>>,
    tag: Option<u32>,
    #[serde(default)]
    reduce: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LocalSpec {
    from: u32,
    to: u32,
}

#[derive(Deserialize)]
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
    super::header(file, "schedule", "commcheck-schedule", &f.format, f.version)?;
    if f.ranks == 0 || f.ranks > MAX_RANKS {
        return Err(whole(format!("{} ranks: 1 to {MAX_RANKS}", f.ranks)));
    }
    if f.ops.len() > MAX_OPS {
        return Err(whole(format!(
            "{} operations: at most {MAX_OPS}",
            f.ops.len()
        )));
    }
    let collective = f.collective;
    let chunks = collective.chunks(f.ranks).map_err(whole)?;
    let ranks = f.ranks;
    // Each operation with where it stands in the file.
    let mut specs: Vec<(OpSpec, u32, u32)> = Vec::with_capacity(f.ops.len());
    for raw in &f.ops {
        let offset = raw.get().as_ptr() as usize - text.as_ptr() as usize;
        let (line, column) = line_column(text, offset);
        let spec: OpSpec = serde_json::from_str(raw.get()).map_err(|e| {
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
            return Err(ImportError::File {
                file: file.to_string(),
                line,
                column,
                why: format!("rank {}: ranks are 0 to {}", spec.rank, ranks - 1),
            });
        }
        specs.push((spec, line, column));
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
        let (spec, line, column) = &specs[i];
        let label = spec.label.clone().unwrap_or_else(|| format!("op {i}"));
        if labels
            .insert((spec.rank, label.clone()), k as OpId)
            .is_some()
        {
            return Err(ImportError::File {
                file: file.to_string(),
                line: *line,
                column: *column,
                why: format!("label {label} is used twice on rank {}", spec.rank),
            });
        }
    }
    let mut ops = Vec::with_capacity(specs.len());
    for &i in &order {
        let (spec, line, column) = &specs[i];
        let here = |why: String| ImportError::File {
            file: file.to_string(),
            line: *line,
            column: *column,
            why,
        };
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
            Some(c) => Data::At(c.clone()),
            None => Data::Everything,
        };
        let mut kinds = Vec::new();
        if let Some(s) = &spec.send {
            kinds.push(Kind::Send {
                to: s.to,
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
    }
    .validated()
    .map_err(whole)
}
