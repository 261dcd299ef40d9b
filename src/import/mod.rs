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

/// Writes `text` to `file`, or to standard output where `file` is `-`.
pub fn write_to(file: &std::path::Path, text: &str) -> std::io::Result<()> {
    match file == std::path::Path::new(STDOUT) {
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
    match file == std::path::Path::new(STDOUT) {
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
pub const MAX_REASON_CHARS: usize = 300;

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
    // A device or a pipe has no size: read no more than the limit.
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(
            std::fs::File::open(path).map_err(|e| unreadable(e.to_string()))?,
            MAX_FILE_BYTES + 1,
        ),
        &mut bytes,
    )
    .map_err(|e| unreadable(e.to_string()))?;
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

/// A JSON reader's error at its line and column.
pub fn at_line(file: &str, e: &serde_json::Error) -> ImportError {
    let why = e.to_string();
    // serde_json appends " at line L column C": the location is ours.
    let why = match why.rfind(" at line ") {
        Some(i) => why[..i].to_string(),
        None => why,
    };
    ImportError::File {
        file: file.to_string(),
        line: e.line() as u32,
        column: e.column() as u32,
        why,
    }
}

/// The check every commcheck file starts with: `"format": expected`
/// (a `what` file) and a `"version"` from 1 to `newest`.
pub fn header(
    file: &str,
    what: &str,
    expected: &str,
    format: &str,
    version: u32,
    newest: u32,
) -> Result<(), ImportError> {
    let why = if format != expected {
        format!("format \"{format}\": a {what} file says \"format\": \"{expected}\"")
    } else if !(1..=newest).contains(&version) {
        match newest {
            1 => format!("version {version}: this commcheck reads version 1"),
            _ => format!("version {version}: this commcheck reads versions 1 to {newest}"),
        }
    } else {
        return Ok(());
    };
    Err(ImportError::File {
        file: file.to_string(),
        line: 0,
        column: 0,
        why,
    })
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

#[cfg(test)]
mod tests {
    /// The line index agrees with counting newlines, at every offset.
    #[test]
    fn lines_find_what_counting_finds() {
        let text = "a\n\nbc\nd";
        let lines = super::Lines::new(text);
        for offset in 0..=text.len() {
            assert_eq!(
                lines.line(offset),
                super::line_column(text, offset).0,
                "{offset}"
            );
        }
    }
}
