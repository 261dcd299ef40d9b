//! Schedules and networks from files (docs/schedules.md): `--network`
//! and graph files ([`network`]), commcheck's own schedule format
//! ([`commcheck`]), LogGOPSim's GOAL ([`goal`]), msccl-tools' MSCCL-IR
//! ([`msccl`]), Chakra execution traces ([`chakra`]) and the named
//! collectives they share ([`collective`]);
//! and machines' parts from NCCL's and RCCL's topology XML
//! ([`topo_xml`]) and ASTRA-sim's analytical network YAML ([`astra`]).
//!
//! Every reader refuses bad input in one line, naming the file, the line
//! and column where it knows them, and what was expected; none panics,
//! and none allocates by a count it has not checked. Every file written
//! goes through [`write_to`], where `-` is standard output.

pub mod astra;
pub mod chakra;
pub mod collective;
pub mod commcheck;
pub mod goal;
pub mod msccl;
pub mod mscclpp;
pub mod network;
pub mod topo_xml;

use std::path::Path;

/// Largest file a reader takes whole (GOAL is read a line at a time; a
/// 64-GPU MSCCL-IR alltoall is a few megabytes).
pub const MAX_FILE_BYTES: u64 = 1 << 28;

/// The file name of an export that means standard output.
pub const STDOUT: &str = "-";

/// Whether an export's `file` is standard output (`-`).
pub fn is_stdout(file: &std::path::Path) -> bool {
    file == std::path::Path::new(STDOUT)
}

/// Writes `text` to `file`, or to standard output where `file` is `-`.
pub fn write_to(file: &std::path::Path, text: &str) -> std::io::Result<()> {
    match is_stdout(file) {
        true => {
            let mut out = std::io::stdout().lock();
            std::io::Write::write_all(&mut out, text.as_bytes())?;
            std::io::Write::flush(&mut out)
        }
        false => std::fs::write(file, text),
    }
}

/// How a message names `file`: `standard output` for `-`.
pub fn shown(file: &std::path::Path) -> String {
    match is_stdout(file) {
        true => "standard output".into(),
        false => file.display().to_string(),
    }
}

/// Why a file or a `--network` cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ImportError {
    /// A bad flag value.
    #[error("{0}")]
    Usage(String),
    /// A file that cannot be read at all.
    #[error("{file}: {}", short(.why))]
    Unreadable {
        /// The file.
        file: String,
        /// The system's reason.
        why: String,
    },
    /// A file that is not what it should be: where, and what was expected.
    #[error("{}", located(.file, *.line, *.column, .why))]
    File {
        /// The file.
        file: String,
        /// Its line, from 1 (0: the file as a whole).
        line: u32,
        /// Its column, from 1 (0: the line as a whole).
        column: u32,
        /// What is wrong, and what was expected.
        why: String,
    },
}

/// Why a schedule cannot be written in a format ([`commcheck::write`],
/// [`goal::write`]): what the format cannot hold, in one line.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Its postcondition has no form in the file.
    #[error(transparent)]
    Collective(#[from] collective::CollectiveError),
    /// Partial sums, which a GOAL message cannot carry.
    #[error("a GOAL message names no data, so it cannot carry partial sums")]
    PartialSums,
    /// An operation the format cannot say.
    #[error("{op}: {why}")]
    NoForm {
        /// The operation ([`models::schedule::Schedule::where_is`]).
        op: String,
        /// What the format lacks for it.
        why: &'static str,
    },
    /// A schedule whose chunks are neither at positions of their own
    /// number nor in the buffers of a file it was read from.
    #[error(
        "this schedule keeps {chunks} chunks in {positions} positions, and no file's buffers \
         say where they are: commcheck writes MSCCL-IR and MSCCL++ of runs whose chunk c is at \
         position c (catalogue runs, commcheck's format, GOAL) or that keep an MSCCL-IR file's \
         or MSCCL++ plan's buffers"
    )]
    OwnBuffers {
        /// Its chunks.
        chunks: usize,
        /// Its positions.
        positions: u32,
    },
    /// An MSCCL++ plan whose thread-block groups cut its chunks.
    #[error(
        "its thread-block groups cut each chunk into {pieces} pieces; MSCCL-IR's steps and \
         the ops commcheck writes move whole chunks"
    )]
    Pieces {
        /// Pieces a chunk.
        pieces: u32,
    },
    /// A collective with no form in MSCCL-IR or MSCCL++.
    #[error("{collective}: {format} has no form for it")]
    NoCollective {
        /// The collective.
        collective: String,
        /// The format.
        format: &'static str,
    },
    /// A one-sided access (MSCCL++), which neither commcheck's format nor
    /// GOAL can say.
    #[error(
        "{op}: a one-sided access (a put, a get, a remote reduction) has no form in \
         commcheck's format or GOAL"
    )]
    OneSided {
        /// The operation ([`models::schedule::Schedule::where_is`]).
        op: String,
    },
    /// A thread block longer than MSCCL++'s executor runs.
    #[error(
        "GPU {gpu}'s thread block {block} would have {ops} ops; MSCCL++'s executor runs at most \
         64 a thread block"
    )]
    LongBlock {
        /// The GPU.
        gpu: models::schedule::Rank,
        /// The thread block.
        block: usize,
        /// Its ops.
        ops: usize,
    },
    /// A label used twice on one rank.
    #[error(
        "label {label} is used twice on rank {rank}: commcheck's format names an operation by \
         its rank and label"
    )]
    LabelTwice {
        /// The label.
        label: String,
        /// The rank.
        rank: models::schedule::Rank,
    },
    /// JSON that could not be written.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// Most characters of a reason an error quotes (a file may put a
/// megabyte into one word).
pub const MAX_REASON_CHARS: usize = 150;

/// Most characters of an error line, `error: ` included.
pub const MAX_LINE_CHARS: usize = 200;

/// An error line of at most [`MAX_LINE_CHARS`] characters, whatever its
/// parts quote: control characters escaped; where longer, its longest
/// quoted token ('...', "..." or `...`) is cut to its first characters
/// and its length, again while one is long; the tail is cut last.
pub fn one_line(line: &str) -> String {
    let mut line: Vec<char> = line
        .chars()
        .flat_map(|c| match c.is_control() {
            true => c.escape_default().collect::<Vec<_>>(),
            false => vec![c],
        })
        .collect();
    while line.len() > MAX_LINE_CHARS {
        let Some((open, close)) = longest_quoted(&line).filter(|(o, c)| c - o > 40) else {
            let more = line.len() - (MAX_LINE_CHARS - 30);
            line.truncate(MAX_LINE_CHARS - 30);
            line.extend(format!("... ({more} more characters)").chars());
            break;
        };
        let inner = close - open - 1;
        let mut cut: Vec<char> = line[..open + 1 + 24].to_vec();
        cut.extend(format!("...{} ({inner} characters)", line[close]).chars());
        cut.extend_from_slice(&line[close + 1..]);
        line = cut;
    }
    line.into_iter().collect()
}

/// The positions of the quotes around the longest quoted token of `line`
/// (a quote closed by the next of its kind).
fn longest_quoted(line: &[char]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < line.len() {
        let q = line[i];
        if matches!(q, '\'' | '"' | '`') {
            if let Some(j) = line[i + 1..].iter().position(|&c| c == q) {
                let close = i + 1 + j;
                if best.is_none_or(|(o, c)| close - i > c - o) {
                    best = Some((i, close));
                }
                i = close + 1;
                continue;
            }
        }
        i += 1;
    }
    best
}

/// `file:line:column: why`, leaving out what is not known; one short
/// line, whatever a file put into `why` (control characters escaped, past
/// [`MAX_REASON_CHARS`] cut).
fn located(file: &str, line: u32, column: u32, why: &str) -> String {
    let why = short(why);
    match (line, column) {
        (0, _) => format!("{file}: {why}"),
        (l, 0) => format!("{file}:{l}: {why}"),
        (l, c) => format!("{file}:{l}:{c}: {why}"),
    }
}

/// `why` on one line of at most [`MAX_REASON_CHARS`] characters (and a
/// count of those left out): control characters escaped.
pub fn short(why: &str) -> String {
    let mut out: String = why
        .chars()
        .flat_map(|c| match c.is_control() {
            true => c.escape_default().collect::<Vec<_>>(),
            false => vec![c],
        })
        .take(MAX_REASON_CHARS + 1)
        .collect();
    if out.chars().count() > MAX_REASON_CHARS {
        let cut: String = out.chars().take(MAX_REASON_CHARS).collect();
        let more = why.chars().count() - MAX_REASON_CHARS;
        out = format!("{cut}... ({more} more characters)");
    }
    out
}

/// The text of `path`, refusing a file past [`MAX_FILE_BYTES`] before
/// reading it.
pub fn read(path: &Path) -> Result<String, ImportError> {
    let file = path.display().to_string();
    let unreadable = |why: String| ImportError::Unreadable {
        file: file.clone(),
        why,
    };
    let size = std::fs::metadata(path)
        .map_err(|e| unreadable(e.to_string()))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(unreadable(format!(
            "{size} bytes: at most {MAX_FILE_BYTES} are read"
        )));
    }
    // A device or a pipe has no size: read no more than the limit, and
    // stop at the first block that is not text (/dev/zero, /dev/urandom)
    // rather than at the limit.
    let mut input = std::fs::File::open(path).map_err(|e| unreadable(e.to_string()))?;
    let mut bytes = Vec::new();
    let mut block = vec![0u8; 1 << 16];
    loop {
        let k = match std::io::Read::read(&mut input, &mut block) {
            Ok(0) => break,
            Ok(k) => k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(unreadable(e.to_string())),
        };
        if let Some(at) = block[..k].iter().position(|&b| b == 0) {
            return Err(unreadable(format!(
                "a NUL byte at byte {}: not a text file",
                bytes.len() + at
            )));
        }
        bytes.extend_from_slice(&block[..k]);
        if bytes.len() as u64 > MAX_FILE_BYTES {
            break;
        }
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(unreadable(format!(
            "more than {MAX_FILE_BYTES} bytes (a device or a pipe with no end?): at most \
             {MAX_FILE_BYTES} are read"
        )));
    }
    // A byte-order mark is no part of the text (XML, JSON and GOAL alike).
    if bytes.starts_with(b"\xef\xbb\xbf") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u32;
        ImportError::File {
            file: file.clone(),
            line,
            column: 0,
            why: "not UTF-8 text".into(),
        }
    })
}

/// Where an XML parser's error is: its own line and column, but the end
/// of the text where the text ends too soon (roxmltree says 1:1 there).
pub fn xml_position(text: &str, e: &roxmltree::Error) -> (u32, u32) {
    match e {
        roxmltree::Error::UnexpectedEndOfStream | roxmltree::Error::UnclosedRootNode => {
            let line = 1 + text.matches('\n').count() as u32;
            let last = text.rsplit('\n').next().unwrap_or_default();
            (line, 1 + last.chars().count() as u32)
        }
        _ => (e.pos().row, e.pos().col),
    }
}

/// A JSON reader's error at its line and column, in words (not
/// serde_json's, which name Rust types).
pub fn at_line(file: &str, e: &serde_json::Error) -> ImportError {
    let (mut line, mut column) = (e.line() as u32, e.column() as u32);
    // A raw newline in a string is seen once it is passed: at column 0 of
    // the next line; it ends the line before.
    if e.to_string().starts_with("control character") && column == 0 && line > 1 {
        (line, column) = (line - 1, 0);
    }
    ImportError::File {
        file: file.to_string(),
        line,
        column,
        why: serde_words(e),
    }
}

/// A JSON reader's reason without its location (" at line L column C",
/// which the caller places) in [`json_words`].
pub fn serde_words(e: &serde_json::Error) -> String {
    let why = e.to_string();
    match why.rfind(" at line ") {
        Some(i) => json_words(&why[..i]),
        None => json_words(&why),
    }
}

/// serde_json's reason in the words of a JSON file: JSON's types for
/// Rust's (`a whole number from 0 to 4294967295` for `u32`), and what the
/// end of the text or a raw control character means.
pub fn json_words(why: &str) -> String {
    if let Some(inside) = why.strip_prefix("EOF while parsing ") {
        return format!("the text ends inside {inside}");
    }
    if why.starts_with("control character") {
        return "a raw control character (a newline?) inside a string: write it escaped (\\n)"
            .into();
    }
    if why == "recursion limit exceeded" {
        return "values nested more than 128 deep".into();
    }
    const TYPES: [(&str, &str); 12] = [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number from 0 to 18446744073709551615"),
        ("usize", "a whole number from 0 to 18446744073709551615"),
        ("i32", "a whole number"),
        ("i64", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
        ("a sequence", "a list"),
        ("a map", "an object"),
        ("a borrowed string", "a string"),
    ];
    let mut out = why
        .replace("floating point `", "number `")
        .replace("unit value", "null");
    // `expected struct Op`, `expected u32`: the word after the last
    // `expected` (serde's own words come last, after any quoted input).
    if let Some(i) = out.rfind("expected ") {
        let (head, tail) = out.split_at(i + "expected ".len());
        let tail = match tail.strip_prefix("struct ") {
            Some(rest) => format!(
                "an object{}",
                &rest[rest
                    .find(|c: char| !c.is_alphanumeric())
                    .unwrap_or(rest.len())..]
            ),
            None => TYPES
                .iter()
                .find_map(|(rust, json)| {
                    let rest = tail.strip_prefix(rust)?;
                    (rest.is_empty() || rest.starts_with([',', ' ', ';']))
                        .then(|| format!("{json}{rest}"))
                })
                .unwrap_or_else(|| tail.to_string()),
        };
        out = format!("{head}{tail}");
    }
    match out.starts_with("data did not match any variant") {
        true => "a value of none of the accepted forms".into(),
        false => out,
    }
}

/// The check every commcheck file starts with: `"format": expected`
/// (a `what` file) and a `"version"` from 1 to `newest`; an error is
/// placed at the field in `text`.
pub fn header(
    (file, text): (&str, &str),
    what: &str,
    expected: &str,
    format: &str,
    version: u32,
    newest: u32,
) -> Result<(), ImportError> {
    let (key, why) = if format != expected {
        (
            "format",
            format!("format \"{format}\": a {what} file says \"format\": \"{expected}\""),
        )
    } else if !(1..=newest).contains(&version) {
        let why = match newest {
            1 => format!("version {version}: this commcheck reads version 1"),
            _ => format!("version {version}: this commcheck reads versions 1 to {newest}"),
        };
        ("version", why)
    } else {
        return Ok(());
    };
    Err(at_field(file, text, &[Step::Key(key)], why))
}

/// A step of a path into a JSON value: an object's field, a list's item.
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// The field of this name.
    Key(&'a str),
    /// The item at this index (from 0).
    Item(usize),
}

/// The error `why` of `file` at the value `path` names in its JSON
/// `text`: where a check made after parsing (a count, a range, a name)
/// finds it wrong; the file as a whole where the path is not there.
pub fn at_field(file: &str, text: &str, path: &[Step], why: String) -> ImportError {
    let place = json_place(text, path).filter(|_| !path.is_empty());
    let (line, column) = place.map_or((0, 0), |at| line_column(text, at));
    ImportError::File {
        file: file.to_string(),
        line,
        column,
        why,
    }
}

/// The byte offset in JSON `text` of the value `path` names, if there.
fn json_place(text: &str, path: &[Step]) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = skip_space(b, 0);
    for step in path {
        i = match (*step, *b.get(i)?) {
            (Step::Key(key), b'{') => {
                let mut at = skip_space(b, i + 1);
                loop {
                    if *b.get(at)? != b'"' {
                        return None;
                    }
                    let end = skip_value(b, at)?;
                    let name = &text[at + 1..end - 1];
                    at = skip_space(b, end);
                    if *b.get(at)? != b':' {
                        return None;
                    }
                    at = skip_space(b, at + 1);
                    if name == key {
                        break at;
                    }
                    at = skip_space(b, skip_value(b, at)?);
                    match *b.get(at)? {
                        b',' => at = skip_space(b, at + 1),
                        _ => return None,
                    }
                }
            }
            (Step::Item(k), b'[') => {
                let mut at = skip_space(b, i + 1);
                for _ in 0..k {
                    at = skip_space(b, skip_value(b, at)?);
                    match *b.get(at)? {
                        b',' => at = skip_space(b, at + 1),
                        _ => return None,
                    }
                }
                at
            }
            _ => return None,
        };
    }
    Some(i)
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

/// The offset just past the JSON value that starts at `i` (the text was
/// parsed already: it is JSON).
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let (mut depth, mut at) = (0usize, i);
            loop {
                match *b.get(at)? {
                    b'"' => {
                        at = skip_string(b, at)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        // A number, true, false or null.
        _ => {
            let mut at = i;
            while b
                .get(at)
                .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
            {
                at += 1;
            }
            Some(at)
        }
    }
}

/// The offset just past the JSON string whose quote is at `i`.
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    let mut at = i + 1;
    loop {
        match *b.get(at)? {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
}

/// The name a schedule from `file` goes by in reports: the file's name.
pub fn file_name(file: &str) -> String {
    Path::new(file)
        .file_name()
        .map_or(file.to_string(), |f| f.to_string_lossy().into_owned())
}

/// Where a text's lines start, to find many offsets' lines in log time
/// (a reader that numbers every element by line would otherwise count
/// the newlines before each, quadratic in the file).
pub struct Lines {
    /// The byte offset of each line's first byte.
    starts: Vec<usize>,
}

impl Lines {
    /// The lines of `text`.
    pub fn new(text: &str) -> Lines {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { starts }
    }

    /// The line of byte `offset`, from 1.
    pub fn line(&self, offset: usize) -> u32 {
        self.starts.partition_point(|&s| s <= offset) as u32
    }
}

/// The line and column of byte `offset` of `text`, from 1.
pub fn line_column(text: &str, offset: usize) -> (u32, u32) {
    let before = &text[..offset.min(text.len())];
    let line = 1 + before.matches('\n').count() as u32;
    let column = 1 + before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32;
    (line, column)
}

/// The error `why` at byte `offset` of `text`, read from `file`.
pub fn at_offset(text: &str, file: &str, offset: usize, why: impl Into<String>) -> ImportError {
    let (line, column) = line_column(text, offset);
    ImportError::File {
        file: file.to_string(),
        line,
        column,
        why: why.into(),
    }
}
