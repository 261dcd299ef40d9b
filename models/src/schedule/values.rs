//! What a rank's positions hold, and what the operations of a schedule do
//! to them: the data half of both semantics (lock-step slots in
//! [`super::scheduled`], every relative speed in [`super::causal`]), so
//! that a copy, a reduction, a message and a wrong result mean one thing.

use super::{Chunks, Data, IdSet, Pos, Rank, Value};

/// What a message carries.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Payload {
    /// Nothing: its positions were empty when it was sent.
    Nothing,
    /// Plain chunks `first + i`, one per number i of `rest`, in
    /// increasing order (they land in the receiver's positions in that
    /// order).
    Chunks {
        /// The lowest chunk.
        first: u32,
        /// The chunks, by their distance from it (inline within 127 of
        /// it: no allocation for a message of nearby chunks).
        rest: IdSet,
    },
    /// One partial sum.
    Sum {
        /// The chunk.
        chunk: u32,
        /// The ranks it combines.
        ranks: IdSet,
    },
}

/// A rank's positions, and the first contribution it combined twice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Values {
    /// Per position, its value.
    held: Box<[Value]>,
    /// The first contribution combined twice (position, chunk, rank).
    twice: Option<(Pos, u32, Rank)>,
}

impl Values {
    /// Rank `r`'s positions as the collective starts them.
    pub fn initial(chunks: &Chunks, r: Rank) -> Values {
        let mut held = vec![Value::Empty; chunks.positions as usize];
        for &(p, v) in &chunks.initial[r as usize] {
            held[p as usize] = v;
        }
        Values {
            held: held.into(),
            twice: None,
        }
    }

    /// What position `p` holds.
    pub fn at(&self, p: Pos) -> Value {
        self.held[p as usize]
    }

    /// Copies position `from` to `to`.
    pub fn copy(&mut self, from: Pos, to: Pos) {
        self.held[to as usize] = self.held[from as usize];
    }

    /// Adds position `from`'s partial sum to `to`'s.
    pub fn reduce(&mut self, from: Pos, to: Pos) {
        self.add(to, self.held[from as usize]);
    }

    /// Puts `v` at position `p`, adding it to the partial sum there
    /// where `add`, else replacing what is there.
    pub fn store(&mut self, p: Pos, v: Value, add: bool) {
        match add {
            true => self.add(p, v),
            false => self.held[p as usize] = v,
        }
    }

    /// Adds `v` to position `p`: partial sums of one chunk combine (a
    /// term in both is counted twice, and the first such is kept); else
    /// `v` replaces what is there.
    fn add(&mut self, p: Pos, v: Value) {
        let here = &mut self.held[p as usize];
        match (*here, v) {
            (
                Value::Sum { chunk, ranks },
                Value::Sum {
                    chunk: other,
                    ranks: more,
                },
            ) if chunk == other => {
                if self.twice.is_none() {
                    if let Some(r) = ranks.first_common(more) {
                        self.twice = Some((p, chunk, r));
                    }
                }
                *here = Value::Sum {
                    chunk,
                    ranks: ranks | more,
                };
            }
            (_, Value::Empty) => {}
            _ => *here = v,
        }
    }

    /// What a send of `data` carries from these positions.
    pub fn payload(&self, data: &Data) -> Payload {
        let values: &mut dyn Iterator<Item = Value> = match data {
            Data::At(at) => &mut at.iter().map(|&p| self.held[p as usize]),
            Data::Nothing => &mut std::iter::empty(),
            Data::Everything => &mut self.held.iter().copied(),
        };
        let mut chunks = Vec::new();
        let mut sum = None;
        for v in values {
            match v {
                Value::Empty => {}
                Value::Chunk(c) => chunks.push(c),
                Value::Sum { chunk, ranks } => sum = Some(Payload::Sum { chunk, ranks }),
            }
        }
        if let Some(sum) = sum {
            return sum;
        }
        let Some(&first) = chunks.iter().min() else {
            return Payload::Nothing;
        };
        let rest = chunks.iter().map(|&c| c - first).collect();
        Payload::Chunks { first, rest }
    }

    /// Puts a received payload into the positions `data` names (or, for
    /// everything, each chunk at its own position), replacing or adding.
    pub fn put(&mut self, data: &Data, payload: Payload, reduce: bool) {
        let mut values = Vec::new();
        match payload {
            Payload::Nothing => {}
            Payload::Chunks { first, rest } => rest.each(|i| values.push(Value::Chunk(first + i))),
            Payload::Sum { chunk, ranks } => values.push(Value::Sum { chunk, ranks }),
        }
        let everything: Vec<Pos>;
        let at: &[Pos] = match data {
            Data::At(at) => at,
            Data::Nothing => &[],
            Data::Everything => {
                everything = values
                    .iter()
                    .map(|v| match *v {
                        Value::Chunk(c) | Value::Sum { chunk: c, .. } => c,
                        Value::Empty => 0,
                    })
                    .collect();
                &everything
            }
        };
        for (&p, v) in at.iter().zip(values) {
            if (p as usize) >= self.held.len() {
                continue;
            }
            match reduce {
                true => self.add(p, v),
                false => self.held[p as usize] = v,
            }
        }
    }

    /// The first plain chunk `data` names at an empty position, where a
    /// position is its chunk (commcheck's format, GOAL): what a send
    /// claims and its sender does not hold.
    pub fn missing(&self, chunks: &Chunks, data: &Data) -> Option<u32> {
        let Data::At(at) = data else {
            return None;
        };
        if chunks.positions as usize != chunks.reduced.len() {
            return None;
        }
        at.iter()
            .copied()
            .find(|&p| self.held[p as usize] == Value::Empty && !chunks.reduced[p as usize])
    }

    /// Where rank `r`'s positions are not what the collective requires
    /// (each contribution combined once, each expected value in place):
    /// the first contribution combined twice, else the first position
    /// that holds something else, as one number ([`wrong_words`] reads it).
    pub fn wrong(&self, chunks: &Chunks, r: Rank) -> Option<u64> {
        if let Some((p, _, twice)) = self.twice {
            return Some(Wrong::Twice(twice).code(p));
        }
        chunks.expect[r as usize]
            .iter()
            .find(|&&(p, want)| self.held[p as usize] != want)
            .map(|&(p, want)| Wrong::of(self.held[p as usize], want).code(p))
    }
}

/// A wrong result ([`Values::wrong`]) in the file's words: `chunk 1 at
/// buffer o, offset 0, where chunk 0 is expected`; ranks named by `rank`.
pub fn wrong_words(chunks: &Chunks, r: Rank, code: u64, rank: &dyn Fn(Rank) -> String) -> String {
    let (p, wrong) = Wrong::decode(code);
    let at = chunks.place_words(p);
    let want = wanted(chunks, r, p);
    let found = match wrong {
        Wrong::Nothing => format!("nothing at {at}, where {want} is expected"),
        Wrong::Chunk(c) => format!(
            "{} at {at}, where {want} is expected",
            chunks.chunk_words(c)
        ),
        Wrong::SumOf(c) => format!(
            "a partial sum of {} at {at}, where {want} is expected",
            chunks.chunk_words(c)
        ),
        Wrong::Lacking(q) => format!("{want} at {at} lacking {}'s term", rank(q)),
        Wrong::Extra(q) => format!(
            "{want} at {at} with {}'s term, which it must not have",
            rank(q)
        ),
        Wrong::Twice(q) => format!("{}'s term counted twice at {at}", rank(q)),
    };
    format!("{} ends with {found}", rank(r))
}

/// What rank `r`'s position `p` must end with, in the file's words.
fn wanted(chunks: &Chunks, r: Rank, p: Pos) -> String {
    match chunks.expected(r, p) {
        Some(Value::Chunk(c)) => chunks.chunk_words(c),
        Some(Value::Sum { chunk, ranks }) => {
            format!(
                "the sum of {} over {} ranks",
                chunks.chunk_words(chunk),
                ranks.len()
            )
        }
        _ => "nothing".into(),
    }
}

/// A wrong result ([`Values::wrong`]) field by field: the rank, the
/// position's buffer and offset, what it must end with and what it ends
/// with (the parts [`wrong_words`] makes its sentence of).
pub fn wrong_located(
    chunks: &Chunks,
    r: Rank,
    code: u64,
    rank: &dyn Fn(Rank) -> String,
) -> crate::protocol::Located {
    let (p, wrong) = Wrong::decode(code);
    let want = wanted(chunks, r, p);
    let found = match wrong {
        Wrong::Nothing => "nothing".into(),
        Wrong::Chunk(c) => chunks.chunk_words(c),
        Wrong::SumOf(c) => format!("a partial sum of {}", chunks.chunk_words(c)),
        Wrong::Lacking(q) => format!("{want} lacking {}'s term", rank(q)),
        Wrong::Extra(q) => format!("{want} with {}'s term", rank(q)),
        Wrong::Twice(q) => format!("{}'s term counted twice", rank(q)),
    };
    let (buffer, offset) = chunks.place(p);
    crate::protocol::Located {
        rank: Some(r),
        buffer: buffer.map(str::to_string),
        offset: Some(offset),
        expected: Some(want),
        found: Some(found),
        operations: Vec::new(),
    }
}
/// What a rank's position ends with where it is wrong: the account
/// [`Judging::wrong_result`] gives, as one number with the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wrong {
    /// Nothing.
    Nothing,
    /// Plain chunk c.
    Chunk(u32),
    /// A partial sum of chunk c, where another chunk or a plain chunk is
    /// expected.
    SumOf(u32),
    /// The expected sum without rank r's term.
    Lacking(Rank),
    /// The expected sum with rank r's term, which it must not have.
    Extra(Rank),
    /// Rank r's term combined twice.
    Twice(Rank),
}

impl Wrong {
    /// What `found` is, where `want` is expected (they differ).
    fn of(found: Value, want: Value) -> Wrong {
        match (found, want) {
            (Value::Empty, _) => Wrong::Nothing,
            (Value::Chunk(c), _) => Wrong::Chunk(c),
            (
                Value::Sum { chunk, ranks },
                Value::Sum {
                    chunk: expected,
                    ranks: terms,
                },
            ) if chunk == expected => {
                let outside = |a: IdSet, b: IdSet| {
                    a.to_vec()
                        .into_iter()
                        .find(|&q| !IdSet::one(q).is_subset(b))
                };
                match outside(terms, ranks) {
                    Some(q) => Wrong::Lacking(q),
                    None => Wrong::Extra(outside(ranks, terms).unwrap_or(0)),
                }
            }
            (Value::Sum { chunk, .. }, _) => Wrong::SumOf(chunk),
        }
    }

    /// The position in the low 32 bits, the kind in the next 3, the
    /// chunk or rank above (both below 2^24: MAX_VALUES, MAX_REDUCED_RANKS).
    fn code(self, p: Pos) -> u64 {
        let (kind, x) = match self {
            Wrong::Nothing => (0, 0),
            Wrong::Chunk(c) => (1, c),
            Wrong::SumOf(c) => (2, c),
            Wrong::Lacking(r) => (3, r),
            Wrong::Extra(r) => (4, r),
            Wrong::Twice(r) => (5, r),
        };
        p as u64 | kind << 32 | (x as u64) << 35
    }

    /// The position and what it holds, from [`Wrong::code`].
    fn decode(code: u64) -> (Pos, Wrong) {
        let x = (code >> 35) as u32;
        let wrong = match code >> 32 & 7 {
            0 => Wrong::Nothing,
            1 => Wrong::Chunk(x),
            2 => Wrong::SumOf(x),
            3 => Wrong::Lacking(x),
            4 => Wrong::Extra(x),
            _ => Wrong::Twice(x),
        };
        (code as u32, wrong)
    }
}

#[cfg(test)]
mod tests {
    use super::{IdSet, Value, Wrong};

    /// Every account comes back from its number with its position, and
    /// a sum is told by the first term it lacks, else the first it must
    /// not have.
    #[test]
    fn a_wrong_result_is_told_back_as_it_was_found() {
        let sum = |rs: &[u32]| Value::Sum {
            chunk: 3,
            ranks: rs.iter().copied().collect::<IdSet>(),
        };
        for (p, w) in [
            (0, Wrong::Nothing),
            (7, Wrong::Chunk(1 << 23)),
            (u32::MAX, Wrong::SumOf(2)),
            (5, Wrong::Lacking(4095)),
            (1 << 20, Wrong::Extra(0)),
            (9, Wrong::Twice(17)),
        ] {
            assert_eq!(Wrong::decode(w.code(p)), (p, w));
        }
        assert_eq!(Wrong::of(sum(&[0, 2]), sum(&[0, 1, 2])), Wrong::Lacking(1));
        assert_eq!(Wrong::of(sum(&[0, 1, 2]), sum(&[0, 2])), Wrong::Extra(1));
        assert_eq!(Wrong::of(Value::Chunk(4), sum(&[0])), Wrong::Chunk(4));
        assert_eq!(Wrong::of(Value::Empty, Value::Chunk(4)), Wrong::Nothing);
        let other = Value::Sum {
            chunk: 8,
            ranks: IdSet::one(0),
        };
        assert_eq!(Wrong::of(other, sum(&[0])), Wrong::SumOf(8));
    }
}
