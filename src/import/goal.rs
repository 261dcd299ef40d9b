//! GOAL, LogGOPSim's schedule format (docs/import-formats.md, section 1):
//! `num_ranks N`, then `rank R { ... }` blocks of labelled operations
//! (`l1: send 4b to 3 tag 0`, `l2: recv 4b from -1`, `l3: calc 100`) and
//! dependencies (`l2 requires l1`: l2 starts after l1 completes; `l2
//! irequires l1`: after l1 starts), read line by line.
//!
//! What GOAL does not say, and how commcheck reads it:
//! * **Data.** A GOAL message has a size, no content: it carries
//!   everything its sender holds when it leaves (the *knowledge* reading,
//!   docs/schedules.md), and the collective, named on the command line
//!   (`--collective`), says what each rank starts with and must end with.
//!   A message is one packet whatever its size.
//! * **Order.** Only `requires` and `irequires` order a rank's operations
//!   (GOAL has no program order: LogGOPSim starts every operation without
//!   a dependency at once).
//! * `cpu` and `nic` are accepted and ignored (one processor and one
//!   network interface a rank); `calc` takes no time.
//! * Comments: `//` to the end of a line and `/* ... */`, also after a
//!   statement (LogGOPSim's own reader takes them only where a statement
//!   starts).
//!
//! * **Reductions.** A reduce (`--collective reduce:ROOT`) is read as
//!   partial sums: a message carries its sender's partial sum when it
//!   leaves, and a receive adds the sum it brings to the receiver's, so a
//!   contribution that reaches the root twice is counted twice. The report
//!   names the collective with this reading. Other reductions are refused:
//!   where a rank receives a sum that already holds its own contribution
//!   (the broadcast half of an allreduce), GOAL does not say whether the
//!   receive adds or replaces.
//!
//! Refused, in one line naming the construct and its line: a send to any
//! rank or with any tag (`-1`), a rank out of range or listed twice, a
//! label defined twice on a rank, a dependency on a label its rank does
//! not define or defines only on a later line (LogGOPSim's parser resolves
//! a dependency when it reads it), and anything that is not GOAL.

use super::collective::Collective;
use super::{ImportError, WriteError};
use models::schedule::{Data, Kind, Op, OpId, Rank, Schedule, MAX_CHUNKS_A_MESSAGE};

/// How a reduce read as partial sums is named in reports.
const SUMS_READING: &str =
    "messages read as partial sums: each carries its sender's sum, each receive adds it";
use std::collections::HashMap;

/// Most ranks a GOAL file may declare.
pub const MAX_RANKS: u32 = 1 << 20;

/// Most operations a GOAL file may have.
pub const MAX_OPS: usize = 1 << 26;

/// Most bytes of one line of a GOAL file.
pub const MAX_LINE_BYTES: usize = 1 << 24;

/// The schedule in GOAL `text`, read from `file`, for `collective` (None:
/// the one commcheck wrote on its [`COLLECTIVE_LINE`]), a message one
/// packet a `packet_bytes` bytes or part (None: one packet).
pub fn read(
    text: &str,
    file: &str,
    collective: Option<&Collective>,
    packet_bytes: Option<u64>,
) -> Result<Schedule, ImportError> {
    read_from(text.as_bytes(), file, collective, packet_bytes)
}

/// [`read`] from `input` a line at a time (a file's text is never held
/// whole; a line past [`MAX_LINE_BYTES`] is refused before it is).
pub fn read_from(
    mut input: impl std::io::BufRead,
    file: &str,
    collective: Option<&Collective>,
    packet_bytes: Option<u64>,
) -> Result<Schedule, ImportError> {
    let mut reader = Reader {
        file,
        packet_bytes,
        ranks: None,
        rank: None,
        ops: Vec::new(),
        labels: HashMap::default(),
        seen: Vec::new(),
        deps: Vec::new(),
    };
    let mut in_comment = false;
    let mut own: Option<Collective> = None;
    let mut bytes = Vec::new();
    let mut last = 0u32;
    loop {
        bytes.clear();
        let read = std::io::BufRead::read_until(
            &mut std::io::Read::take(&mut input, MAX_LINE_BYTES as u64 + 1),
            b'\n',
            &mut bytes,
        )
        .map_err(|e| ImportError::Unreadable {
            file: file.to_string(),
            why: e.to_string(),
        })?;
        if read == 0 {
            break;
        }
        last += 1;
        let line = last;
        // A byte-order mark is no part of the text.
        if line == 1 && bytes.starts_with(b"\xef\xbb\xbf") {
            bytes.drain(..3);
        }
        if bytes.len() > MAX_LINE_BYTES {
            return Err(reader.error(line, format!("a line of more than {MAX_LINE_BYTES} bytes")));
        }
        let raw = std::str::from_utf8(&bytes)
            .map_err(|_| reader.error(line, "not UTF-8 text"))?
            .trim_end_matches(['\n', '\r']);
        if let Some(json) = raw.trim_start().strip_prefix(COLLECTIVE_LINE) {
            if collective.is_none() && !in_comment {
                let c = serde_json::from_str(json).map_err(|e| {
                    reader.error(
                        line,
                        format!("the collective commcheck wrote: {}", super::serde_words(&e)),
                    )
                })?;
                own = Some(c);
            }
        }
        let stripped = strip_comments(raw, &mut in_comment);
        let words: Vec<&str> = stripped.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        reader.statement(&words, line)?;
    }
    if in_comment {
        return Err(reader.error(last, "a /* comment is not closed"));
    }
    if reader.rank.is_some() {
        return Err(reader.error(last, "a rank block is not closed with }"));
    }
    let ranks = reader
        .ranks
        .ok_or_else(|| reader.error(0, "no num_ranks line"))?;
    let collective = match (collective, &own) {
        (Some(c), _) | (None, Some(c)) => c,
        (None, None) => {
            return Err(ImportError::Usage(format!(
                "{file} is GOAL, which does not say what the schedule computes: name it with \
                 --collective ({})",
                Collective::NAMES
            )))
        }
    };
    reader.finish(ranks, collective)
}

/// Removes `//` and `/* */` comments from `line`, carrying an open block
/// comment over lines: one pass, left to right, so a line of n openers
/// and closers takes time n.
pub fn strip_comments(line: &str, in_comment: &mut bool) -> String {
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    // The start of the text not yet copied (outside a comment).
    let mut from = 0;
    let mut i = 0;
    while i < b.len() {
        let pair = (b[i], b.get(i + 1).copied());
        match (*in_comment, pair) {
            (true, (b'*', Some(b'/'))) => {
                *in_comment = false;
                i += 2;
                from = i;
            }
            (false, (b'/', Some(b'/'))) => {
                out.push_str(&line[from..i]);
                return out;
            }
            (false, (b'/', Some(b'*'))) => {
                out.push_str(&line[from..i]);
                out.push(' ');
                *in_comment = true;
                i += 2;
            }
            _ => i += 1,
        }
    }
    if !*in_comment {
        out.push_str(&line[from..]);
    }
    out
}

/// A dependency as read: the rank, its two labels, whether it is on the
/// start, and its line.
struct Dep {
    rank: Rank,
    later: String,
    earlier: String,
    on_start: bool,
    line: u32,
}

struct Reader<'a> {
    file: &'a str,
    packet_bytes: Option<u64>,
    ranks: Option<u32>,
    /// The rank whose block is open.
    rank: Option<Rank>,
    /// Every operation read, with its rank, in file order.
    ops: Vec<Op>,
    /// (rank, label) to the operation's first and last packet in `ops`.
    labels: HashMap<(Rank, String), (usize, usize), ahash::RandomState>,
    /// Ranks whose block has been read.
    seen: Vec<bool>,
    deps: Vec<Dep>,
}

impl Reader<'_> {
    fn error(&self, line: u32, why: impl Into<String>) -> ImportError {
        ImportError::File {
            file: self.file.to_string(),
            line,
            column: 0,
            why: why.into(),
        }
    }

    fn number(&self, word: &str, what: &str, line: u32) -> Result<u32, ImportError> {
        word.parse::<u32>()
            .map_err(|_| self.error(line, format!("expected {what}, found '{word}'")))
    }

    fn statement(&mut self, words: &[&str], line: u32) -> Result<(), ImportError> {
        match words {
            ["num_ranks", n] => {
                if self.ranks.is_some() {
                    return Err(self.error(line, "num_ranks is given twice"));
                }
                let n = self.number(n, "the number of ranks", line)?;
                if n == 0 || n > MAX_RANKS {
                    return Err(self.error(line, format!("{n} ranks: 1 to {MAX_RANKS}")));
                }
                self.ranks = Some(n);
                self.seen = vec![false; n as usize];
                Ok(())
            }
            // LogGOPSim's scanner takes a statement after the `{`.
            ["rank", r, "{", rest @ ..] => {
                self.open(r, line)?;
                match rest {
                    [] => Ok(()),
                    rest => self.statement(rest, line),
                }
            }
            ["rank", r] if r.ends_with('{') => self.open(r.trim_end_matches('{'), line),
            ["}"] => match self.rank.take() {
                Some(_) => Ok(()),
                None => Err(self.error(line, "} closes no rank block")),
            },
            [later, dep @ ("requires" | "irequires"), earlier] => {
                let rank = self.in_block(line, "a dependency")?;
                self.deps.push(Dep {
                    rank,
                    later: later.to_string(),
                    earlier: earlier.to_string(),
                    on_start: *dep == "irequires",
                    line,
                });
                Ok(())
            }
            _ => self.operation(words, line),
        }
    }

    fn open(&mut self, r: &str, line: u32) -> Result<(), ImportError> {
        if self.rank.is_some() {
            return Err(self.error(line, "a rank block opens inside another"));
        }
        let ranks = self
            .ranks
            .ok_or_else(|| self.error(line, "a rank block before num_ranks"))?;
        let r = self.number(r, "a rank number", line)?;
        if r >= ranks {
            return Err(self.error(line, format!("rank {r}: ranks are 0 to {}", ranks - 1)));
        }
        if std::mem::replace(&mut self.seen[r as usize], true) {
            return Err(self.error(line, format!("rank {r} has two blocks")));
        }
        self.rank = Some(r);
        Ok(())
    }

    fn in_block(&self, line: u32, what: &str) -> Result<Rank, ImportError> {
        self.rank
            .ok_or_else(|| self.error(line, format!("{what} outside a rank block")))
    }

    /// `[label:] send|recv|calc ...`.
    fn operation(&mut self, words: &[&str], line: u32) -> Result<(), ImportError> {
        let Some(rank) = self.rank else {
            return Err(self.error(
                line,
                format!(
                    "expected num_ranks N or rank R {{, found '{}'",
                    words.join(" ")
                ),
            ));
        };
        let (label, rest) = match words {
            [first, rest @ ..] if first.ends_with(':') && first.len() > 1 => {
                (Some(first.trim_end_matches(':').to_string()), rest)
            }
            [first, ":", rest @ ..] => (Some(first.to_string()), rest),
            _ => (None, words),
        };
        if self.ops.len() >= MAX_OPS {
            return Err(self.error(line, format!("more than {MAX_OPS} operations")));
        }
        let ranks = self.ranks.unwrap_or(0);
        let peer = |word: &str, any: bool| -> Result<Option<Rank>, ImportError> {
            if word == "-1" {
                return match any {
                    true => Ok(None),
                    false => Err(self.error(line, "a send to any rank (-1)")),
                };
            }
            let p = self.number(word, "a rank", line)?;
            if p >= ranks || p == rank {
                return Err(self.error(
                    line,
                    format!("peer rank {p}: ranks are 0 to {}, another rank", ranks - 1),
                ));
            }
            Ok(Some(p))
        };
        let mut packets = 1;
        let op_bytes;
        let kind = match rest {
            [op @ ("send" | "recv"), size, dir, who, options @ ..] => {
                let send = *op == "send";
                let Some(bytes) = size.strip_suffix('b').and_then(|b| b.parse::<u64>().ok()) else {
                    return Err(self.error(
                        line,
                        format!("expected a size in bytes such as 8b, found '{size}'"),
                    ));
                };
                if let Some(b) = self.packet_bytes {
                    packets = bytes.div_ceil(b).max(1);
                }
                op_bytes = bytes;
                if *dir != if send { "to" } else { "from" } {
                    return Err(self.error(
                        line,
                        format!(
                            "expected '{}' after the size, found '{dir}'",
                            if send { "to" } else { "from" }
                        ),
                    ));
                }
                let who = peer(who, !send)?;
                let tag = self.options(options, line, true)?;
                match send {
                    true => Kind::Send {
                        to: who.unwrap_or(0),
                        also: Vec::new(),
                        tag: tag.ok_or_else(|| self.error(line, "a send with any tag (-1)"))?,
                        data: Data::Everything,
                        path: None,
                    },
                    false => Kind::Recv {
                        from: who,
                        tag,
                        data: Data::Everything,
                        reduce: false,
                    },
                }
            }
            ["calc", n, options @ ..] => {
                op_bytes = self.number(n, "a computation's length", line)? as u64;
                self.options(options, line, false)?;
                Kind::Calc
            }
            _ => {
                return Err(self.error(
                    line,
                    format!(
                        "expected send, recv, calc, a dependency, rank or }}; found '{}'",
                        words.join(" ")
                    ),
                ))
            }
        };
        if self.ops.len() as u64 + packets > MAX_OPS as u64 {
            return Err(self.error(
                line,
                format!("more than {MAX_OPS} operations, counting a packet each"),
            ));
        }
        let index = self.ops.len();
        let last = index + packets as usize - 1;
        let label = match label {
            Some(l) => {
                if self
                    .labels
                    .insert((rank, l.clone()), (index, last))
                    .is_some()
                {
                    return Err(
                        self.error(line, format!("label {l} is defined twice on rank {rank}"))
                    );
                }
                l
            }
            None => format!("line {line}"),
        };
        // A message of several packets: one after the other, its data
        // with the last (a message is received when all of it is).
        for k in 0..packets as usize {
            let kind = match &kind {
                Kind::Send {
                    to,
                    also,
                    tag,
                    path,
                    ..
                } if k + 1 < packets as usize => Kind::Send {
                    to: *to,
                    also: also.clone(),
                    tag: *tag,
                    data: Data::Nothing,
                    path: path.clone(),
                },
                Kind::Recv {
                    from, tag, reduce, ..
                } if k + 1 < packets as usize => Kind::Recv {
                    from: *from,
                    tag: *tag,
                    data: Data::Nothing,
                    reduce: *reduce,
                },
                kind => kind.clone(),
            };
            self.ops.push(Op {
                rank,
                kind,
                after: (k > 0)
                    .then(|| (index + k - 1) as OpId)
                    .into_iter()
                    .collect(),
                started_after: Vec::new(),
                // A packet's share of the message: the whole of it for
                // all but the last.
                bytes: match (packets, self.packet_bytes) {
                    (1, _) | (_, None) => op_bytes,
                    (_, Some(b)) => b.min(op_bytes - b * k as u64),
                },
                slot: None,
                label: match packets {
                    1 => label.clone(),
                    _ => format!("{label} (packet {} of {packets})", k + 1),
                },
                line,
            });
        }
        Ok(())
    }

    /// `[tag T] [cpu C] [nic K]` (only `cpu` after `calc`): the tag, None
    /// for any (`-1`), 0 if not given.
    fn options(&self, words: &[&str], line: u32, comm: bool) -> Result<Option<u32>, ImportError> {
        let mut tag = Some(0);
        let mut i = 0;
        let order = ["tag", "cpu", "nic"];
        let mut last = None;
        while i < words.len() {
            let key = words[i];
            let Some(place) = order.iter().position(|&k| k == key) else {
                return Err(self.error(line, format!("expected tag, cpu or nic, found '{key}'")));
            };
            if !comm && key != "cpu" {
                return Err(self.error(line, format!("calc takes only cpu, not {key}")));
            }
            if last.is_some_and(|l| place <= l) {
                return Err(self.error(line, format!("{key} out of order: tag, cpu, nic")));
            }
            last = Some(place);
            let value = words
                .get(i + 1)
                .ok_or_else(|| self.error(line, format!("{key} without a value")))?;
            match (key, *value) {
                ("tag", "-1") => tag = None,
                ("tag", v) => tag = Some(self.number(v, "a tag", line)?),
                (_, v) => {
                    self.number(v, key, line)?;
                }
            }
            i += 2;
        }
        Ok(tag)
    }

    /// Groups the operations by rank (each rank's in file order) and
    /// resolves the dependencies.
    fn finish(mut self, ranks: u32, collective: &Collective) -> Result<Schedule, ImportError> {
        let mut order: Vec<usize> = (0..self.ops.len()).collect();
        order.sort_by_key(|&i| self.ops[i].rank);
        let mut new_index = vec![0 as OpId; self.ops.len()];
        for (k, &i) in order.iter().enumerate() {
            new_index[i] = k as OpId;
        }
        let mut first = vec![0 as OpId; ranks as usize + 1];
        for op in &self.ops {
            first[op.rank as usize + 1] += 1;
        }
        for r in 0..ranks as usize {
            first[r + 1] += first[r];
        }
        // The same stable order as `order`'s, moving the operations.
        let mut ops = std::mem::take(&mut self.ops);
        ops.sort_by_key(|op| op.rank);
        for op in &mut ops {
            op.after
                .iter_mut()
                .for_each(|a| *a = new_index[*a as usize]);
        }
        for d in std::mem::take(&mut self.deps) {
            let find = |label: String| {
                let line = d.line;
                let key = (d.rank, label);
                let &(first, last) = self.labels.get(&key).ok_or_else(|| {
                    self.error(
                        line,
                        format!("no operation labelled {} on rank {}", key.1, d.rank),
                    )
                })?;
                let (first, last) = (new_index[first], new_index[last]);
                let defined = ops[first as usize].line;
                if defined > line {
                    return Err(self.error(
                        line,
                        format!(
                            "{} is defined later, on line {defined}: LogGOPSim reads a \
                             dependency only on a label defined before it",
                            key.1
                        ),
                    ));
                }
                Ok((first, last))
            };
            let (later, earlier) = (find(d.later)?, find(d.earlier)?);
            // After the earlier one completes: its last packet; after it
            // starts: its first. The later one starts with its first.
            let op = &mut ops[later.0 as usize];
            match d.on_start {
                true => op.started_after.push(earlier.0),
                false => op.after.push(earlier.1),
            }
        }
        let name = super::file_name(self.file);
        knowledge(ops, first, ranks, collective, name, "a GOAL message")
            .map_err(|why| self.error(0, why))
    }
}

/// The schedule of `ops` (rank by rank, rank r's from `first[r]`) whose
/// messages name no data (`what`: GOAL's, a Chakra trace's), for
/// `collective`: each message carries all its sender holds when it
/// leaves; for a reduce of one chunk, its sender's partial sum, which
/// each receive adds (the report's collective says so). Or why the
/// messages cannot be read so.
pub(super) fn knowledge(
    mut ops: Vec<Op>,
    first: Vec<OpId>,
    ranks: u32,
    collective: &Collective,
    name: String,
    what: &str,
) -> Result<Schedule, String> {
    let chunks = collective.chunks(ranks).map_err(|why| why.to_string())?;
    let sums = chunks.reduced.iter().any(|&r| r);
    if sums && !(matches!(collective, Collective::Reduce { .. }) && chunks.positions == 1) {
        return Err(format!(
            "{what} names no data: commcheck reads such messages as partial sums for a \
             reduce, but in {} the sums may hold the receiver's own part: write it in \
             commcheck's format, which says",
            collective.name()
        ));
    }
    if chunks.positions > MAX_CHUNKS_A_MESSAGE {
        return Err(format!(
            "{what} carries all its sender holds, here up to {} chunks of a {} on {ranks} \
             ranks: commcheck carries at most {MAX_CHUNKS_A_MESSAGE} in one",
            chunks.positions,
            collective.name()
        ));
    }
    if sums {
        // The one position holds the partial sum: a message carries it, a
        // receive adds to it.
        for op in &mut ops {
            match &mut op.kind {
                Kind::Send { data, .. } if *data == Data::Everything => *data = Data::At(vec![0]),
                Kind::Recv { data, reduce, .. } if *data == Data::Everything => {
                    *data = Data::At(vec![0]);
                    *reduce = true;
                }
                _ => {}
            }
        }
    }
    Schedule {
        name,
        ranks,
        ops,
        first,
        chunks,
        collective: match sums {
            true => format!("{} ({SUMS_READING})", collective.name()),
            false => collective.name(),
        },
        parallel_ranks: false,
        relaxed: Vec::new(),
    }
    .validated()
    .map_err(|why| why.to_string())
}

/// The line that names the collective of a GOAL file commcheck writes: a
/// comment to other tools, the collective to commcheck when
/// `--collective` is not given.
pub const COLLECTIVE_LINE: &str = "// commcheck collective:";

/// `schedule` as GOAL: each rank's operations in their order, a send
/// fixed to a slot after the receives of messages sent in earlier slots
/// and the sends of the rank's previous slot (GOAL has no slots: the
/// order is what it keeps), tag = the send's slot; the collective on
/// [`COLLECTIVE_LINE`]. Or why GOAL cannot say it: partial sums, copies,
/// a message to several ranks, a path, a send without a slot.
pub fn write(schedule: &Schedule) -> Result<String, WriteError> {
    let collective = Collective::of(&schedule.chunks, schedule.ranks)?;
    if schedule.chunks.reduced.iter().any(|&r| r) {
        return Err(WriteError::PartialSums);
    }
    let mut text = format!(
        "// {}: {}, written by commcheck\n{COLLECTIVE_LINE} {}\nnum_ranks {}\n",
        schedule.name,
        schedule.collective,
        serde_json::to_string(&collective)?,
        schedule.ranks
    );
    for r in 0..schedule.ranks {
        text += &format!("\nrank {r} {{\n");
        // Per operation: its GOAL label, its slot, whether a send.
        let mut written: Vec<(String, u32, bool)> = Vec::new();
        let mut deps = String::new();
        for q in schedule.rank_ops(r) {
            let op = &schedule.ops[q as usize];
            let no_form = |why| WriteError::NoForm {
                op: schedule.where_is(q),
                why,
            };
            let size = |data: &Data| match data {
                Data::At(at) => at.len().max(1),
                _ => 1,
            };
            let label = format!("l{}", written.len() + 1);
            let (line, slot, send) = match &op.kind {
                Kind::Send {
                    to,
                    also,
                    data,
                    path,
                    tag,
                } => {
                    if !also.is_empty() {
                        return Err(no_form(
                            "a bus write read by several ranks has no GOAL form",
                        ));
                    }
                    if path.is_some() {
                        return Err(no_form("a message over a path of its own has no GOAL form"));
                    }
                    let slot = op.slot.ok_or_else(|| no_form("a send without a slot"))?;
                    (
                        format!("send {}b to {to} tag {tag}", size(data)),
                        slot,
                        true,
                    )
                }
                Kind::Recv {
                    from: Some(from),
                    data,
                    reduce: false,
                    ..
                } => {
                    // The send it matches: its tag, and its slot for the order.
                    let send = schedule.matching_sends(q);
                    let (tag, slot) = send
                        .first()
                        .and_then(|&s| match &schedule.ops[s as usize] {
                            Op {
                                kind: Kind::Send { tag, .. },
                                slot: Some(slot),
                                ..
                            } => Some((*tag, *slot)),
                            _ => None,
                        })
                        .ok_or_else(|| no_form("a receive no fixed send matches"))?;
                    (
                        format!("recv {}b from {from} tag {tag}", size(data)),
                        slot,
                        false,
                    )
                }
                _ => {
                    return Err(no_form(
                        "GOAL has sends and receives of whole messages only",
                    ))
                }
            };
            if send {
                // After the receives of earlier slots' messages and the
                // sends of its rank's last earlier slot.
                let last_send = written
                    .iter()
                    .filter(|(_, s, is_send)| *is_send && *s < slot)
                    .map(|(_, s, _)| *s)
                    .max();
                for (l, s, is_send) in &written {
                    let needed = match is_send {
                        true => Some(*s) == last_send,
                        false => *s < slot && last_send.is_none_or(|last| *s >= last),
                    };
                    if needed {
                        deps += &format!("{label} requires {l}\n");
                    }
                }
            }
            text += &format!("{label}: {line}\n");
            written.push((label, slot, send));
        }
        text += &deps;
        text += "}\n";
    }
    Ok(text)
}
