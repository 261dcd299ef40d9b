//! The named collectives (docs/schedules.md, "Collectives"): each one's
//! chunks, where they start and where they must end, on R ranks with one
//! position per chunk (position c holds chunk c).

use models::schedule::{Chunks, IdSet, Rank, Value, MAX_REDUCED_RANKS};

/// A collective by name, with its root and chunk count where it has them
/// (read as commcheck's format writes it: `{"name": "broadcast", "root":
/// 0}`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case", tag = "name")]
pub enum Collective {
    /// `chunks` chunks from `root` to every rank.
    Broadcast {
        /// The root.
        root: Rank,
        /// The chunks it broadcasts.
        #[serde(default = "one")]
        chunks: u32,
    },
    /// Every rank's contribution to each of `chunks` chunks, summed at `root`.
    Reduce {
        /// The root.
        root: Rank,
        /// The reduced chunks.
        #[serde(default = "one")]
        chunks: u32,
    },
    /// Chunk r from `root` to rank r.
    Scatter {
        /// The root.
        root: Rank,
    },
    /// Chunk r from rank r to `root`.
    Gather {
        /// The root.
        root: Rank,
    },
    /// Chunk r from rank r to every rank.
    Allgather,
    /// Chunk r summed over every rank, at rank r.
    ReduceScatter,
    /// Each of `chunks` chunks summed over every rank, at every rank.
    Allreduce {
        /// The reduced chunks.
        #[serde(default = "one")]
        chunks: u32,
    },
    /// Chunk s R + d from rank s to rank d.
    Alltoall,
    /// Every rank hears, directly or not, from every rank: rank r's token
    /// (chunk r) reaches every rank; a message carries everything its
    /// sender holds.
    Barrier,
    /// Postconditions written out: `chunks` chunks, where each starts and
    /// what each rank must end holding.
    Explicit {
        /// The chunks (position c holds chunk c).
        chunks: u32,
        /// Where each chunk starts.
        start: Vec<Start>,
        /// What ranks must end holding.
        end: Vec<End>,
    },
}

fn one() -> u32 {
    1
}

/// Why text names no collective, or a collective has no chunks on so
/// many ranks, or chunks have no postcondition commcheck's format
/// writes: one line for the person who gave them.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum CollectiveError {
    /// `--collective NAME:ROOT` whose root is not a number.
    #[error("--collective {text}: the root '{root}' is not a rank")]
    Root {
        /// The text given.
        text: String,
        /// The root as given.
        root: String,
    },
    /// A rooted collective named without its root.
    #[error("--collective {name} names its root: --collective {name}:0")]
    NoRoot {
        /// The collective's name.
        name: String,
    },
    /// A root given to a collective without one.
    #[error("--collective {name} has no root: --collective {name}")]
    Unrooted {
        /// The collective's name.
        name: String,
    },
    /// A name that is not a collective's.
    #[error(
        "--collective '{text}' is not a collective; accepted: {}",
        Collective::NAMES
    )]
    Unknown {
        /// The text given.
        text: String,
    },
    /// A root out of the ranks.
    #[error("root rank {root}: ranks are 0 to {}", .ranks.saturating_sub(1))]
    RootOutOfRange {
        /// The root.
        root: Rank,
        /// The ranks.
        ranks: u32,
    },
    /// A reduction over more ranks than a partial sum holds.
    #[error("a {name} over {ranks} ranks: commcheck combines at most {MAX_REDUCED_RANKS}")]
    Combines {
        /// The collective's name in reports.
        name: String,
        /// The ranks.
        ranks: u32,
    },
    /// A named collective of no chunks or more than 2^20.
    #[error("{count} chunks: 1 to 2^20")]
    Chunks {
        /// The chunks.
        count: u64,
    },
    /// A postcondition written out of more than 2^20 chunks.
    #[error("{count} chunks: 0 to 2^20")]
    ExplicitChunks {
        /// The chunks.
        count: u32,
    },
    /// More values than commcheck keeps ([`models::schedule::too_large`]).
    #[error("{0}")]
    TooLarge(String),
    /// A postcondition written out that is wrong: where, and why.
    #[error("{what}: {why}")]
    Explicit {
        /// Where (`start of chunk 2`, `end of chunk 1 at rank 0`).
        what: String,
        /// What is wrong there.
        why: String,
    },
    /// Positions that are not one a chunk, which commcheck's format
    /// cannot write out.
    #[error(
        "{positions} positions for {chunks} chunks: commcheck's format keeps chunk c at \
         position c"
    )]
    Positions {
        /// The positions.
        positions: u32,
        /// The chunks.
        chunks: usize,
    },
    /// A position that holds another chunk than its own.
    #[error(
        "rank {rank}'s position {position} holds another chunk: commcheck's format keeps chunk \
         c at position c"
    )]
    NotItsChunk {
        /// The rank.
        rank: usize,
        /// The position.
        position: u32,
    },
}

/// Where an explicit postcondition's chunk starts.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// The chunk.
    pub chunk: u32,
    /// A plain chunk: the rank that starts with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<Rank>,
    /// A reduced chunk: the ranks that contribute to it, each starting
    /// with its own contribution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduced_over: Option<Vec<Rank>>,
}

/// What a rank must end holding at a chunk's position.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    /// The rank.
    pub rank: Rank,
    /// The chunk.
    pub chunk: u32,
    /// A reduced chunk: the ranks whose contributions the sum combines,
    /// each once (left out: all that contribute).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sum_over: Option<Vec<Rank>>,
}

impl Collective {
    /// The names [`Collective::parse`] takes.
    pub const NAMES: &'static str = "broadcast:ROOT, reduce:ROOT, scatter:ROOT, gather:ROOT, \
         allgather, reduce-scatter, allreduce, alltoall, barrier";

    /// `NAME[:ROOT]` as `--collective` gives it (one chunk where a
    /// collective has a chunk count).
    pub fn parse(text: &str) -> Result<Collective, CollectiveError> {
        let (name, root) = match text.split_once(':') {
            Some((name, root)) => (name, Some(root)),
            None => (text, None),
        };
        let rooted = matches!(name, "broadcast" | "reduce" | "scatter" | "gather");
        let root = match (rooted, root) {
            (true, Some(r)) => r.parse::<Rank>().map_err(|_| CollectiveError::Root {
                text: text.to_string(),
                root: r.to_string(),
            })?,
            (true, None) => {
                return Err(CollectiveError::NoRoot {
                    name: name.to_string(),
                })
            }
            (false, Some(_)) => {
                return Err(CollectiveError::Unrooted {
                    name: name.to_string(),
                })
            }
            (false, None) => 0,
        };
        Ok(match name {
            "broadcast" => Collective::Broadcast { root, chunks: 1 },
            "reduce" => Collective::Reduce { root, chunks: 1 },
            "scatter" => Collective::Scatter { root },
            "gather" => Collective::Gather { root },
            "allgather" => Collective::Allgather,
            "reduce-scatter" => Collective::ReduceScatter,
            "allreduce" => Collective::Allreduce { chunks: 1 },
            "alltoall" => Collective::Alltoall,
            "barrier" => Collective::Barrier,
            _ => {
                return Err(CollectiveError::Unknown {
                    text: text.to_string(),
                })
            }
        })
    }

    /// Its `--collective` argument, where it has one (a named collective
    /// of one chunk a root).
    pub fn arg(&self) -> Option<String> {
        Some(match self {
            Collective::Broadcast { root, chunks: 1 } => format!("broadcast:{root}"),
            Collective::Reduce { root, chunks: 1 } => format!("reduce:{root}"),
            Collective::Scatter { root } => format!("scatter:{root}"),
            Collective::Gather { root } => format!("gather:{root}"),
            Collective::Allgather => "allgather".into(),
            Collective::ReduceScatter => "reduce-scatter".into(),
            Collective::Allreduce { chunks: 1 } => "allreduce".into(),
            Collective::Alltoall => "alltoall".into(),
            Collective::Barrier => "barrier".into(),
            _ => return None,
        })
    }

    /// Its name in reports.
    pub fn name(&self) -> String {
        match self {
            Collective::Broadcast { root, chunks: 1 } => format!("broadcast from rank {root}"),
            Collective::Broadcast { root, chunks } => {
                format!("broadcast of {chunks} chunks from rank {root}")
            }
            Collective::Reduce { root, .. } => format!("reduce to rank {root}"),
            Collective::Scatter { root } => format!("scatter from rank {root}"),
            Collective::Gather { root } => format!("gather to rank {root}"),
            Collective::Allgather => "allgather".into(),
            Collective::ReduceScatter => "reduce-scatter".into(),
            Collective::Allreduce { .. } => "allreduce".into(),
            Collective::Alltoall => "alltoall".into(),
            Collective::Barrier => "barrier".into(),
            Collective::Explicit { .. } => "the postcondition written out".into(),
        }
    }

    /// The collective whose chunks are `chunks` on `ranks` ranks: the
    /// named one, where one is (a broadcast or scatter from its first
    /// chunk's origin, a gather or reduce to the first rank that must end
    /// with something, an allgather, alltoall, allreduce or
    /// reduce-scatter), else written out.
    pub fn of(chunks: &Chunks, ranks: u32) -> Result<Collective, CollectiveError> {
        let root = chunks.origin.first().copied().unwrap_or(0);
        let count = chunks.reduced.len() as u32;
        let sink = chunks
            .expect
            .iter()
            .position(|e| !e.is_empty())
            .unwrap_or(0) as Rank;
        let named = [
            Collective::Broadcast {
                root,
                chunks: count,
            },
            Collective::Scatter { root },
            Collective::Allgather,
            Collective::Gather { root: sink },
            Collective::Alltoall,
            Collective::Allreduce { chunks: count },
            Collective::ReduceScatter,
            Collective::Reduce {
                root: sink,
                chunks: count,
            },
        ];
        for c in named {
            if c.chunks(ranks).is_ok_and(|mine| mine == *chunks) {
                return Ok(c);
            }
        }
        Collective::written_out(chunks)
    }

    /// The postcondition `chunks` holds, written out (the inverse of
    /// [`Collective::chunks`] on explicit ones), or why it cannot be: a
    /// position that is not its chunk's.
    pub fn written_out(chunks: &Chunks) -> Result<Collective, CollectiveError> {
        if chunks.positions as usize != chunks.reduced.len() {
            return Err(CollectiveError::Positions {
                positions: chunks.positions,
                chunks: chunks.reduced.len(),
            });
        }
        let ranks_of = |m: IdSet| m.to_vec();
        let not_chunk =
            |rank: usize, position: u32| CollectiveError::NotItsChunk { rank, position };
        let mut contributors = vec![IdSet::EMPTY; chunks.reduced.len()];
        let mut start = Vec::new();
        for (r, values) in chunks.initial.iter().enumerate() {
            for &(p, v) in values {
                match v {
                    Value::Chunk(c) if c == p => start.push(Start {
                        chunk: c,
                        rank: Some(r as Rank),
                        reduced_over: None,
                    }),
                    Value::Sum { chunk, ranks } if chunk == p => contributors[p as usize] |= ranks,
                    Value::Empty => {}
                    _ => return Err(not_chunk(r, p)),
                }
            }
        }
        for (c, &m) in contributors
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.is_empty())
        {
            start.push(Start {
                chunk: c as u32,
                rank: None,
                reduced_over: Some(ranks_of(m)),
            });
        }
        start.sort_by_key(|s| s.chunk);
        let mut end = Vec::new();
        for (r, values) in chunks.expect.iter().enumerate() {
            for &(p, v) in values {
                let sum_over = match v {
                    Value::Chunk(c) if c == p => None,
                    Value::Sum { chunk, ranks } if chunk == p => {
                        (ranks != contributors[p as usize]).then(|| ranks_of(ranks))
                    }
                    _ => return Err(not_chunk(r, p)),
                };
                end.push(End {
                    rank: r as Rank,
                    chunk: p,
                    sum_over,
                });
            }
        }
        Ok(Collective::Explicit {
            chunks: chunks.positions,
            start,
            end,
        })
    }

    /// Its chunks on `ranks` ranks, or why it has none there (a root out
    /// of range, a reduction over more than 4096 ranks, too many chunks).
    pub fn chunks(&self, ranks: u32) -> Result<Chunks, CollectiveError> {
        if let Collective::Explicit { chunks, start, end } = self {
            return explicit(ranks, *chunks, start, end);
        }
        let root = match self {
            Collective::Broadcast { root, .. }
            | Collective::Reduce { root, .. }
            | Collective::Scatter { root }
            | Collective::Gather { root } => Some(*root),
            _ => None,
        };
        if let Some(root) = root.filter(|&r| r >= ranks) {
            return Err(CollectiveError::RootOutOfRange { root, ranks });
        }
        let reduced = matches!(
            self,
            Collective::Reduce { .. } | Collective::ReduceScatter | Collective::Allreduce { .. }
        );
        if reduced && ranks > MAX_REDUCED_RANKS {
            return Err(CollectiveError::Combines {
                name: self.name(),
                ranks,
            });
        }
        let count: u64 = match self {
            Collective::Broadcast { chunks, .. }
            | Collective::Reduce { chunks, .. }
            | Collective::Allreduce { chunks } => *chunks as u64,
            Collective::Alltoall => ranks as u64 * ranks as u64,
            _ => ranks as u64,
        };
        if count == 0 || count > 1 << 20 {
            return Err(CollectiveError::Chunks { count });
        }
        if let Some(why) = models::schedule::too_large(ranks, count) {
            return Err(CollectiveError::TooLarge(why));
        }
        let count = count as u32;
        let r = ranks as usize;
        let mut initial = vec![Vec::new(); r];
        let mut expect = vec![Vec::new(); r];
        let mut origin = vec![0; count as usize];
        let all = IdSet::below(ranks);
        let everyone = |expect: &mut Vec<Vec<(u32, Value)>>, c: u32, v: Value| {
            for e in expect.iter_mut() {
                e.push((c, v));
            }
        };
        for c in 0..count {
            match *self {
                Collective::Explicit { .. } => unreachable!("read by explicit() above"),
                Collective::Broadcast { root, .. } => {
                    origin[c as usize] = root;
                    initial[root as usize].push((c, Value::Chunk(c)));
                    everyone(&mut expect, c, Value::Chunk(c));
                }
                Collective::Scatter { root } => {
                    origin[c as usize] = root;
                    initial[root as usize].push((c, Value::Chunk(c)));
                    expect[c as usize].push((c, Value::Chunk(c)));
                }
                Collective::Gather { root } => {
                    origin[c as usize] = c;
                    initial[c as usize].push((c, Value::Chunk(c)));
                    expect[root as usize].push((c, Value::Chunk(c)));
                }
                Collective::Allgather | Collective::Barrier => {
                    origin[c as usize] = c;
                    initial[c as usize].push((c, Value::Chunk(c)));
                    everyone(&mut expect, c, Value::Chunk(c));
                }
                Collective::Alltoall => {
                    let (s, d) = (c / ranks, c % ranks);
                    origin[c as usize] = s;
                    initial[s as usize].push((c, Value::Chunk(c)));
                    expect[d as usize].push((c, Value::Chunk(c)));
                }
                Collective::Reduce { .. }
                | Collective::ReduceScatter
                | Collective::Allreduce { .. } => {
                    for (q, init) in initial.iter_mut().enumerate() {
                        let ranks = IdSet::one(q as Rank);
                        init.push((c, Value::Sum { chunk: c, ranks }));
                    }
                    let total = Value::Sum {
                        chunk: c,
                        ranks: all,
                    };
                    match *self {
                        Collective::Reduce { root, .. } => expect[root as usize].push((c, total)),
                        Collective::ReduceScatter => expect[c as usize].push((c, total)),
                        _ => everyone(&mut expect, c, total),
                    }
                }
            }
        }
        Ok(Chunks {
            reduced: vec![reduced; count as usize],
            positions: count,
            initial,
            expect,
            origin,
            buffers: Vec::new(),
            layout: None,
            pieces: 1,
        })
    }
}

/// The chunks of a postcondition written out, or what is wrong with it.
fn explicit(
    ranks: u32,
    count: u32,
    start: &[Start],
    end: &[End],
) -> Result<Chunks, CollectiveError> {
    // No chunks: a schedule of control messages only.
    if count > 1 << 20 {
        return Err(CollectiveError::ExplicitChunks { count });
    }
    if let Some(why) = models::schedule::too_large(ranks, count as u64) {
        return Err(CollectiveError::TooLarge(why));
    }
    let bad = |what: &str, why: String| CollectiveError::Explicit {
        what: what.to_string(),
        why,
    };
    let rank = |r: Rank, what: &str| match r < ranks {
        true => Ok(r),
        false => Err(bad(what, format!("rank {r}: ranks are 0 to {}", ranks - 1))),
    };
    let mask = |over: &[Rank], what: &str| -> Result<IdSet, CollectiveError> {
        over.iter().map(|&r| rank(r, what)).collect()
    };
    let n = count as usize;
    let mut contributors: Vec<Option<IdSet>> = vec![None; n];
    let mut origin: Vec<Option<Rank>> = vec![None; n];
    let mut initial = vec![Vec::new(); ranks as usize];
    for s in start {
        let what = format!("start of chunk {}", s.chunk);
        if s.chunk >= count {
            return Err(bad(&what, format!("chunks are 0 to {}", count - 1)));
        }
        let c = s.chunk as usize;
        if origin[c].is_some() || contributors[c].is_some() {
            return Err(bad(&what, "the chunk starts twice".into()));
        }
        match (s.rank, &s.reduced_over) {
            (Some(r), None) => {
                let r = rank(r, &what)?;
                origin[c] = Some(r);
                initial[r as usize].push((s.chunk, Value::Chunk(s.chunk)));
            }
            (None, Some(over)) => {
                let m = mask(over, &what)?;
                if m.is_empty() {
                    return Err(bad(&what, "no rank contributes".into()));
                }
                contributors[c] = Some(m);
                for &r in over {
                    initial[r as usize].push((
                        s.chunk,
                        Value::Sum {
                            chunk: s.chunk,
                            ranks: IdSet::one(r),
                        },
                    ));
                }
            }
            _ => {
                return Err(bad(
                    &what,
                    "a chunk starts at a \"rank\" or is \"reduced_over\" ranks, one of the two"
                        .into(),
                ))
            }
        }
    }
    let mut expect = vec![Vec::new(); ranks as usize];
    for e in end {
        let what = format!("end of chunk {} at rank {}", e.chunk, e.rank);
        let r = rank(e.rank, &what)?;
        let c = e.chunk as usize;
        if e.chunk >= count || (origin[c].is_none() && contributors[c].is_none()) {
            return Err(bad(&what, "the chunk does not start anywhere".into()));
        }
        let value = match (contributors[c], &e.sum_over) {
            (None, None) => Value::Chunk(e.chunk),
            (None, Some(_)) => return Err(bad(&what, "a plain chunk has no sum".into())),
            (Some(all), over) => {
                let m = match over {
                    Some(over) => mask(over, &what)?,
                    None => all,
                };
                if !m.is_subset(all) || m.is_empty() {
                    return Err(bad(
                        &what,
                        "the sum is over ranks that do not all contribute".into(),
                    ));
                }
                Value::Sum {
                    chunk: e.chunk,
                    ranks: m,
                }
            }
        };
        if expect[r as usize].iter().any(|&(p, _)| p == e.chunk) {
            return Err(bad(
                &what,
                "the rank's end for the chunk is given twice".into(),
            ));
        }
        expect[r as usize].push((e.chunk, value));
    }
    Ok(Chunks {
        reduced: contributors.iter().map(Option::is_some).collect(),
        positions: count,
        initial,
        expect,
        origin: origin.iter().map(|o| o.unwrap_or(0)).collect(),
        buffers: Vec::new(),
        layout: None,
        pieces: 1,
    })
}
