//! A set of small numbers: the ranks whose contributions a partial sum
//! combines, and the chunks a message carries (by their distance from its
//! first).
//!
//! Both travel in messages, and a protocol's messages are `Copy`, so a
//! set must be a fixed, small value. Sets of numbers below
//! [`INLINE`] are their own bits (a `u128` less its top bit: every
//! schedule of up to 127 ranks, and so every search, which cannot go
//! that far anyway). A set with a larger rank is *interned*: its words
//! are kept once, process-wide, and the value names them by number,
//! so equal sets share a number and equality stays a comparison of
//! `u128`s. Hashing, order and serialisation go by the ranks, never by
//! the number, so the processes of one run (`--features mpi`) agree on
//! them. Interned sets are never freed: a run of R ranks makes at most
//! one per partial sum it forms (a ring allreduce of 512 ranks, about
//! 2.6 x 10^5 of 64 bytes).

use super::Rank;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock, RwLock};

/// Numbers below this are kept inline.
pub const INLINE: u32 = 127;

/// The top bit: set where the low 32 bits number an interned set.
const INTERNED: u128 = 1 << 127;

/// A set of ranks (see the module's header).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct IdSet(u128);

/// The interned sets: their words (trimmed of high zero words) by number,
/// and the numbers by words.
#[derive(Default)]
struct Table {
    words: Vec<Arc<[u64]>>,
    numbers: HashMap<Arc<[u64]>, u32>,
}

fn table() -> &'static RwLock<Table> {
    static TABLE: OnceLock<RwLock<Table>> = OnceLock::new();
    TABLE.get_or_init(Default::default)
}

impl IdSet {
    /// No rank.
    pub const EMPTY: IdSet = IdSet(0);

    /// Rank `r` alone.
    pub fn one(r: Rank) -> IdSet {
        match r < INLINE {
            true => IdSet(1 << r),
            false => {
                let mut words = vec![0u64; r as usize / 64 + 1];
                words[r as usize / 64] = 1 << (r % 64);
                IdSet::of_words(words)
            }
        }
    }

    /// The numbers `0..n`.
    pub fn below(n: u32) -> IdSet {
        match n <= INLINE {
            true => IdSet((1u128 << n) - 1),
            false => {
                let mut words = vec![u64::MAX; n as usize / 64];
                if !n.is_multiple_of(64) {
                    words.push((1 << (n % 64)) - 1);
                }
                IdSet::of_words(words)
            }
        }
    }

    /// The set of these words (bit `r % 64` of word `r / 64` for rank r).
    fn of_words(mut words: Vec<u64>) -> IdSet {
        while words.last() == Some(&0) {
            words.pop();
        }
        if words.len() <= 2 && words.get(1).is_none_or(|&w| w >> 63 == 0) {
            let lo = words.first().copied().unwrap_or(0) as u128;
            let hi = words.get(1).copied().unwrap_or(0) as u128;
            return IdSet(lo | hi << 64);
        }
        let words: Arc<[u64]> = words.into();
        if let Some(&n) = table()
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .numbers
            .get(&words)
        {
            return IdSet(INTERNED | n as u128);
        }
        let mut t = table().write().unwrap_or_else(|e| e.into_inner());
        if let Some(&n) = t.numbers.get(&words) {
            return IdSet(INTERNED | n as u128);
        }
        let n = t.words.len() as u32;
        t.words.push(words.clone());
        t.numbers.insert(words, n);
        IdSet(INTERNED | n as u128)
    }

    /// The set's words, trimmed of high zero words.
    fn words(self) -> Arc<[u64]> {
        match self.0 & INTERNED == 0 {
            true => {
                let (lo, hi) = (self.0 as u64, (self.0 >> 64) as u64);
                let words: &[u64] = match (lo, hi) {
                    (0, 0) => &[],
                    (_, 0) => &[lo],
                    _ => &[lo, hi],
                };
                words.into()
            }
            false => table().read().unwrap_or_else(|e| e.into_inner()).words
                [self.0 as u32 as usize]
                .clone(),
        }
    }

    /// True if it has no rank.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many numbers it has.
    pub fn len(self) -> u32 {
        match self.0 & INTERNED == 0 {
            true => self.0.count_ones(),
            false => self.words().iter().map(|w| w.count_ones()).sum(),
        }
    }

    /// Both sets' ranks.
    pub fn union(self, other: IdSet) -> IdSet {
        if (self.0 | other.0) & INTERNED == 0 {
            return IdSet(self.0 | other.0);
        }
        let (a, b) = (self.words(), other.words());
        let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
        let mut words = long.to_vec();
        words
            .iter_mut()
            .zip(short.iter())
            .for_each(|(w, s)| *w |= s);
        IdSet::of_words(words)
    }

    /// The least rank in both, if any.
    pub fn first_common(self, other: IdSet) -> Option<Rank> {
        if (self.0 | other.0) & INTERNED == 0 {
            let both = self.0 & other.0;
            return (both != 0).then(|| both.trailing_zeros());
        }
        let (a, b) = (self.words(), other.words());
        a.iter()
            .zip(b.iter())
            .enumerate()
            .find(|(_, (x, y))| *x & *y != 0)
            .map(|(i, (x, y))| i as u32 * 64 + (x & y).trailing_zeros())
    }

    /// True if every rank of `self` is in `other`.
    pub fn is_subset(self, other: IdSet) -> bool {
        if (self.0 | other.0) & INTERNED == 0 {
            return self.0 & !other.0 == 0;
        }
        let (a, b) = (self.words(), other.words());
        a.iter()
            .enumerate()
            .all(|(i, &x)| x & !b.get(i).copied().unwrap_or(0) == 0)
    }

    /// Calls `f` with each rank, in increasing order.
    #[inline]
    pub fn each(self, mut f: impl FnMut(Rank)) {
        self.each_run(|first, n| (first..first + n).for_each(&mut f));
    }

    /// Calls `f` with each run of consecutive ranks (its first, its
    /// length), in increasing order, each run as long as it goes: a sum
    /// of ranks 0..512 is one run, found a word at a time.
    #[inline]
    pub fn each_run(self, mut f: impl FnMut(Rank, u32)) {
        let mut run: Option<(Rank, u32)> = None;
        let mut word = |mut w: u64, base: u32| {
            let mut at = 0;
            while w != 0 {
                let skip = w.trailing_zeros();
                (w, at) = (w >> skip, at + skip);
                let len = w.trailing_ones();
                let start = base + at;
                match &mut run {
                    Some((first, n)) if *first + *n == start => *n += len,
                    _ => {
                        if let Some((first, n)) = run.replace((start, len)) {
                            f(first, n);
                        }
                    }
                }
                (w, at) = (w.checked_shr(len).unwrap_or(0), at + len);
            }
        };
        match self.0 & INTERNED == 0 {
            true => {
                word(self.0 as u64, 0);
                word((self.0 >> 64) as u64, 64);
            }
            false => {
                for (i, &w) in self.words().iter().enumerate() {
                    word(w, i as u32 * 64);
                }
            }
        }
        if let Some((first, n)) = run {
            f(first, n);
        }
    }

    /// The ranks, in increasing order.
    pub fn to_vec(self) -> Vec<Rank> {
        let mut out = Vec::new();
        self.each(|r| out.push(r));
        out
    }
}

impl FromIterator<Rank> for IdSet {
    fn from_iter<I: IntoIterator<Item = Rank>>(ranks: I) -> IdSet {
        // Inline until a number past INLINE comes (no allocation for
        // the sets of every small schedule).
        let mut ranks = ranks.into_iter();
        let mut small = 0u128;
        let mut words: Vec<u64> = loop {
            match ranks.next() {
                None => return IdSet(small),
                Some(r) if r < INLINE => small |= 1 << r,
                Some(r) => {
                    let mut words = vec![small as u64, (small >> 64) as u64];
                    let i = r as usize / 64;
                    words.resize(words.len().max(i + 1), 0);
                    words[i] |= 1 << (r % 64);
                    break words;
                }
            }
        };
        for r in ranks {
            let i = r as usize / 64;
            if words.len() <= i {
                words.resize(i + 1, 0);
            }
            words[i] |= 1 << (r % 64);
        }
        IdSet::of_words(words)
    }
}

impl std::ops::BitOr for IdSet {
    type Output = IdSet;
    fn bitor(self, other: IdSet) -> IdSet {
        self.union(other)
    }
}

impl std::ops::BitOrAssign for IdSet {
    fn bitor_assign(&mut self, other: IdSet) {
        *self = self.union(other);
    }
}

/// By the ranks: equal sets hash alike in every process.
impl Hash for IdSet {
    fn hash<H: Hasher>(&self, h: &mut H) {
        match self.0 & INTERNED == 0 {
            true => self.0.hash(h),
            false => self.words().hash(h),
        }
    }
}

/// As the numbers whose bits they are: an inline set is below every
/// interned one (which has a rank of at least [`INLINE`]).
impl Ord for IdSet {
    fn cmp(&self, other: &IdSet) -> std::cmp::Ordering {
        match (self.0 & INTERNED == 0, other.0 & INTERNED == 0) {
            (true, true) => self.0.cmp(&other.0),
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            (false, false) if self == other => std::cmp::Ordering::Equal,
            (false, false) => {
                let (a, b) = (self.words(), other.words());
                a.len()
                    .cmp(&b.len())
                    .then_with(|| a.iter().rev().cmp(b.iter().rev()))
            }
        }
    }
}

impl PartialOrd for IdSet {
    fn partial_cmp(&self, other: &IdSet) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Debug for IdSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.to_vec()).finish()
    }
}

/// As the list of its ranks.
impl serde::Serialize for IdSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.to_vec())
    }
}

impl<'de> serde::Deserialize<'de> for IdSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<IdSet, D::Error> {
        let ranks: Vec<Rank> = Vec::deserialize(d)?;
        Ok(ranks.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sets past the inline ranks equal, union, meet and order as the
    /// same sets of small ranks do, shifted.
    #[test]
    fn large_sets_behave_as_small_ones() {
        for base in [0, 200, 1000] {
            let set = |rs: &[Rank]| rs.iter().map(|r| r + base).collect::<IdSet>();
            let (a, b) = (set(&[1, 5, 70]), set(&[5, 90]));
            assert_eq!(a | b, set(&[1, 5, 70, 90]));
            assert_eq!(a | b, b | a);
            assert_eq!(a.first_common(b), Some(5 + base));
            assert_eq!(a.first_common(set(&[2])), None);
            assert!(set(&[5]).is_subset(a) && !b.is_subset(a));
            assert!(a < a | b && set(&[90]) > a, "ordered as numbers");
            assert_eq!((a | b).to_vec().len(), 4);
            assert_eq!(set(&[3]), IdSet::one(3 + base));
        }
        assert_eq!(IdSet::below(300).to_vec(), (0..300).collect::<Vec<_>>());
        assert_eq!(IdSet::below(127), (0..127).collect());
        assert!(IdSet::one(126) < IdSet::one(127));
        // Collected inline until a large number comes, in any order.
        let mixed: IdSet = [5, 300, 1, 126].into_iter().collect();
        assert_eq!(mixed, [300, 126, 5, 1].into_iter().collect());
        assert_eq!(mixed.to_vec(), vec![1, 5, 126, 300]);
        assert_eq!((mixed.len(), IdSet::below(300).len()), (4, 300));
    }

    /// A set's runs are its ranks, each run as long as it goes (the next
    /// starts past a rank not in the set), on random sets inline and
    /// interned, across word boundaries.
    #[test]
    fn runs_are_the_ranks_maximal() {
        let mut seed = 3u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for case in 0..400 {
            let top = [100, 127, 300, 700][case % 4];
            let density = 1 + next(8);
            let members: Vec<Rank> = (0..top).filter(|_| next(8) < density).collect();
            let set: IdSet = members.iter().copied().collect();
            let mut runs = Vec::new();
            set.each_run(|first, n| runs.push((first, n)));
            let expanded: Vec<Rank> = runs.iter().flat_map(|&(f, n)| f..f + n).collect();
            assert_eq!(expanded, members, "case {case}");
            for pair in runs.windows(2) {
                let ((a, n), (b, _)) = (pair[0], pair[1]);
                assert!(n > 0 && a + n < b, "case {case}: {runs:?} not maximal");
            }
        }
    }

    /// An interned set, sent as its ranks and read back, is the same set
    /// with the same hash.
    #[test]
    fn sets_survive_serialisation() {
        use std::collections::hash_map::DefaultHasher;
        let hash = |r: IdSet| {
            let mut h = DefaultHasher::new();
            r.hash(&mut h);
            h.finish()
        };
        for set in [
            IdSet::EMPTY,
            IdSet::one(7),
            IdSet::below(500) | IdSet::one(700),
        ] {
            let text = serde_json::to_string(&set).unwrap();
            let back: IdSet = serde_json::from_str(&text).unwrap();
            assert_eq!(back, set);
            assert_eq!(hash(back), hash(set));
        }
    }
}
