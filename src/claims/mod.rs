//! The claims ledger (`check claims [PAPER]`): every quantitative claim
//! of the five papers, each with a status that running the checks makes,
//! never one written by hand.
//!
//! A [`Claim`] is the paper's words and a [`Judge`]: `check` commands
//! whose properties must hold, a literal variant beside the reading
//! commcheck implements, a computation (a sweep, a ratio, a table), a
//! sentence saying why no run can judge it, or, while no check exists
//! yet, what one would need. [`ledger`] runs the judges through a
//! [`Runner`] (the command line's own parser, so a command printed is the
//! command run) and gives one [`Entry`] per claim; docs/claims.md is its
//! Markdown, and a test fails when the two differ.

pub mod bertsekas;
pub mod fujita;
pub mod lecture_notes;
pub mod stamoulis;
pub mod wang_ku;

use crate::report::Outcome;
use crate::table::{Format, Grid, Sheet};
use properties::Status;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::atomic::Ordering::Relaxed;

/// The five papers, as `check claims PAPER` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Paper {
    /// Wang and Ku, ICS'95: near-optimal broadcast (NOB).
    WangKu,
    /// Bertsekas, Ozveren, Stamoulis, Tseng and Tsitsiklis (1991).
    Bertsekas,
    /// Stamoulis and Tsitsiklis (1993): K simultaneous broadcasts.
    Stamoulis,
    /// Fujita: gossiping on mesh-bus computers with l-token messages.
    Fujita,
    /// The lecture notes on one-to-all broadcast.
    Lecture,
}

impl Paper {
    /// Every paper, in the order the ledger prints them.
    pub const ALL: [Paper; 5] = [
        Paper::WangKu,
        Paper::Bertsekas,
        Paper::Stamoulis,
        Paper::Fujita,
        Paper::Lecture,
    ];
    /// Names `check claims` accepts, in the order of [`Paper::ALL`].
    pub const NAMES: [&'static str; 5] = [
        "wang-ku",
        "bertsekas",
        "stamoulis",
        "fujita",
        "lecture-notes",
    ];

    /// The paper called `name`.
    pub fn parse(name: &str) -> Option<Paper> {
        let i = Paper::NAMES.iter().position(|&n| n == name)?;
        Some(Paper::ALL[i])
    }

    /// The paper's name on the command line.
    pub fn name(self) -> &'static str {
        Paper::NAMES[Paper::ALL.iter().position(|&p| p == self).expect("listed")]
    }

    /// The paper, cited.
    pub fn title(self) -> &'static str {
        match self {
            Paper::WangKu => "Wang and Ku (ICS'95), near-optimal broadcast in all-port wormhole hypercubes",
            Paper::Bertsekas => "Bertsekas, Ozveren, Stamoulis, Tseng and Tsitsiklis (1991), optimal communication algorithms for hypercubes",
            Paper::Stamoulis => "Stamoulis and Tsitsiklis (1993), efficient algorithms for multiple broadcasts in the hypercube",
            Paper::Fujita => "Fujita, gossiping in mesh-bus computers by packets with bounded length",
            Paper::Lecture => "lecture notes, one-to-all broadcast on hypercubes, meshes and tori",
        }
    }

    /// The paper's claims, in the order of its text.
    pub fn claims(self) -> Vec<Claim> {
        match self {
            Paper::WangKu => wang_ku::claims(),
            Paper::Bertsekas => bertsekas::claims(),
            Paper::Stamoulis => stamoulis::claims(),
            Paper::Fujita => fujita::claims(),
            Paper::Lecture => lecture_notes::claims(),
        }
    }
}

/// One claim of a paper.
pub struct Claim {
    /// A short name, unique within the paper.
    pub id: &'static str,
    /// Where the paper makes it.
    pub section: &'static str,
    /// The claim in the paper's words (symbols the extraction lost are
    /// restored, as docs/errata.md reads them).
    pub words: &'static str,
    /// How commcheck judges it.
    pub judge: Judge,
}

/// How a claim is judged.
pub enum Judge {
    /// Every run of these `check` commands keeps the named properties
    /// (every claimed property where none is named): holds, or refuted
    /// by the first that breaks one.
    Runs(&'static [&'static str], &'static [&'static str]),
    /// The paper shows a flaw: every run of these commands breaks the
    /// property (holds when each does, refuted by the first that keeps it).
    Breaks(&'static [&'static str], &'static str),
    /// The text read literally (a named variant) beside the reading
    /// commcheck implements: both commands are run and both verdicts
    /// shown.
    Reading {
        /// The literal variant's command.
        literal: &'static str,
        /// The reading's command.
        reading: &'static str,
    },
    /// A computation over runs or formulas: a sweep, a ratio, a table.
    Computed(fn(&Judging) -> Judged),
    /// No run can judge it, in one sentence.
    NotEncodable(&'static str),
    /// No check judges it yet: what one needs (the ledger lists these
    /// apart, and the work is not done while any remain).
    Open(&'static str),
}

/// What a computed judge gives: its verdict, or `Err(why)` where a run it
/// needs gave none (the ledger shows it as unknown, with why).
pub type Judged = Result<Verdict, String>;

/// A claim's status, made by running its judge.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Verdict {
    /// It holds over everything `scope` covers.
    Holds {
        /// For which sizes, inputs and engines, with the commands.
        scope: String,
    },
    /// A run breaks it.
    Refuted {
        /// The counterexample's command and its one-line verdict.
        counterexample: String,
    },
    /// The literal text and the reading, each with its verdict.
    Reading {
        /// The literal variant: its command and verdict.
        literal: String,
        /// The reading commcheck implements: its command and verdict.
        reading: String,
    },
    /// No run can judge it.
    NotEncodable {
        /// Why, in one sentence.
        why: String,
    },
    /// No check judges it yet.
    Open {
        /// What a check needs.
        needs: String,
    },
    /// A budget or an error kept a check from its verdict.
    Unknown {
        /// What happened.
        why: String,
    },
}

impl Verdict {
    /// Holds when `holds`, else refuted; `text` says what was measured
    /// either way (a ratio, a count, the commands).
    pub fn measured(holds: bool, text: String) -> Verdict {
        match holds {
            true => Verdict::Holds { scope: text },
            false => Verdict::Refuted {
                counterexample: text,
            },
        }
    }

    /// The status's name.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Holds { .. } => "holds",
            Verdict::Refuted { .. } => "refuted",
            Verdict::Reading { .. } => "reading",
            Verdict::NotEncodable { .. } => "not encodable",
            Verdict::Open { .. } => "open",
            Verdict::Unknown { .. } => "unknown",
        }
    }

    /// What stands behind the status, in one line.
    pub fn evidence(&self) -> &str {
        match self {
            Verdict::Holds { scope } => scope,
            Verdict::Refuted { counterexample } => counterexample,
            Verdict::Reading { .. } => "",
            Verdict::NotEncodable { why } => why,
            Verdict::Open { needs } => needs,
            Verdict::Unknown { why } => why,
        }
    }

    /// The evidence, with both sides of a reading.
    pub fn how(&self) -> String {
        match self {
            Verdict::Reading { literal, reading } => {
                format!("as printed: {literal}; as read: {reading}")
            }
            other => other.evidence().to_string(),
        }
    }
}

pub use crate::report::Runner;

/// The runner, with the reports of commands already run (several claims
/// rest on one run).
pub struct Judging<'a> {
    run: Runner<'a>,
    seen: RefCell<HashMap<String, Result<Vec<Outcome>, String>>>,
}

/// One command's verdict on some properties.
pub enum Found {
    /// They hold in every run.
    Holds,
    /// This one breaks, with the report's sentence.
    Broken(String),
    /// No verdict: a budget, or the command was refused.
    Unknown(String),
}

impl<'a> Judging<'a> {
    /// Judging through `run`.
    pub fn new(run: Runner<'a>) -> Self {
        Judging {
            run,
            seen: RefCell::new(HashMap::new()),
        }
    }

    /// The reports of `command`, run once.
    pub fn outcomes(&self, command: &str) -> Result<Vec<Outcome>, String> {
        if let Some(found) = self.seen.borrow().get(command) {
            return found.clone();
        }
        let found = (self.run)(command);
        self.seen
            .borrow_mut()
            .insert(command.to_string(), found.clone());
        found
    }

    /// The one report of `command` (the first of a sweep).
    pub fn outcome(&self, command: &str) -> Result<Outcome, String> {
        self.outcomes(command)?
            .into_iter()
            .next()
            .ok_or_else(|| format!("`check {command}` gave no report"))
    }

    /// What `field` reads off `command`'s report; an error naming `what`
    /// where the report has none.
    pub fn reported<T>(
        &self,
        command: &str,
        what: &str,
        field: impl FnOnce(Outcome) -> Option<T>,
    ) -> Result<T, String> {
        field(self.outcome(command)?).ok_or_else(|| format!("`check {command}` gave no {what}"))
    }

    /// `command`'s verdict on `properties` (every claimed one if empty).
    pub fn found(&self, command: &str, properties: &[&str]) -> Found {
        let outcomes = match self.outcomes(command) {
            Ok(o) => o,
            Err(e) => return Found::Unknown(format!("`check {command}`: {e}")),
        };
        for o in &outcomes {
            for p in &o.properties {
                let asked = match properties.is_empty() {
                    true => p.claimed,
                    false => properties.contains(&p.name),
                };
                match (asked, p.status) {
                    (true, Status::Violated) => {
                        let text = p.counterexample.as_ref().map_or("", |c| c.text.as_str());
                        return Found::Broken(format!("{}: {text}", p.name));
                    }
                    (true, Status::Unknown) => {
                        return Found::Unknown(format!(
                            "`check {command}`: {} unknown (a budget ran out)",
                            p.name
                        ))
                    }
                    // A property asked by name must have been judged.
                    (true, Status::NotJudged) if !properties.is_empty() || p.claimed => {
                        return Found::Unknown(format!(
                            "`check {command}`: {} not judged ({})",
                            p.name,
                            p.reason.as_deref().unwrap_or("no judge ran")
                        ))
                    }
                    _ => {}
                }
            }
        }
        Found::Holds
    }

    /// Holds when every command keeps `properties`, else the first
    /// counterexample.
    pub fn runs(&self, commands: &[&str], properties: &[&str]) -> Verdict {
        for c in commands {
            match self.found(c, properties) {
                Found::Holds => {}
                Found::Broken(why) => {
                    return Verdict::Refuted {
                        counterexample: format!("`check {c}`: {why}"),
                    }
                }
                Found::Unknown(why) => return Verdict::Unknown { why },
            }
        }
        let what = match properties {
            [] => "every claimed property".to_string(),
            named => named.join(", "),
        };
        Verdict::Holds {
            scope: format!("{what} in every run of {}", commands_text(commands)),
        }
    }

    /// The status `judge` gives.
    pub fn judge(&self, judge: &Judge) -> Verdict {
        match *judge {
            Judge::Runs(commands, properties) => self.runs(commands, properties),
            Judge::Breaks(commands, property) => self.breaks(commands, property),
            Judge::Reading { literal, reading } => Verdict::Reading {
                literal: self.said(literal),
                reading: self.said(reading),
            },
            Judge::Computed(f) => f(self).unwrap_or_else(|why| Verdict::Unknown { why }),
            Judge::NotEncodable(why) => Verdict::NotEncodable { why: why.into() },
            Judge::Open(needs) => Verdict::Open {
                needs: needs.into(),
            },
        }
    }

    /// Holds when every command breaks `property`, with the first
    /// command's counterexample; refuted by one that keeps it.
    pub fn breaks(&self, commands: &[&str], property: &str) -> Verdict {
        let mut first = None;
        for c in commands {
            match self.found(c, &[property]) {
                Found::Broken(why) => {
                    first.get_or_insert(format!("`check {c}`: {why}"));
                }
                Found::Holds => {
                    return Verdict::Refuted {
                        counterexample: format!("`check {c}`: {property} holds"),
                    }
                }
                Found::Unknown(why) => return Verdict::Unknown { why },
            }
        }
        Verdict::Holds {
            scope: format!(
                "{property} broken in every run of {}; the first: {}",
                commands_text(commands),
                first.unwrap_or_default()
            ),
        }
    }

    /// The worst completion time `command` measured.
    pub fn measured(&self, command: &str) -> Result<properties::Slot, String> {
        self.outcome(command)?
            .time
            .measured
            .ok_or_else(|| format!("`check {command}` measured no time"))
    }

    /// One command's verdict in words: `` `check C`: holds `` or the
    /// first broken property's sentence.
    fn said(&self, command: &str) -> String {
        match self.found(command, &[]) {
            Found::Holds => format!("`check {command}`: every claimed property holds"),
            Found::Broken(why) => format!("`check {command}`: {why}"),
            Found::Unknown(why) => why,
        }
    }
}

/// A lower bound over every algorithm, judged by the runs that could
/// refute it: refuted by the first command measured below its bound
/// (`runs`: the command and the bound there), else holds, naming those
/// that meet it; `bound` names it in the sentence.
pub fn no_run_below(j: &Judging, runs: &[(String, u64)], bound: &str) -> Judged {
    let mut met = Vec::new();
    for (c, b) in runs {
        let t = u64::from(j.measured(c)?);
        if t < *b {
            return Ok(Verdict::measured(
                false,
                format!("`check {c}` takes {t}, below {bound} = {b}"),
            ));
        }
        if t == *b {
            met.push(format!("`check {c}` {t}"));
        }
    }
    let names: Vec<&str> = runs.iter().map(|r| r.0.as_str()).collect();
    Ok(Verdict::measured(
        true,
        format!(
            "no run of {} is below {bound}, and {} meet it{}{} (a bound over every algorithm: \
             runs could refute it, not prove it)",
            commands_text(&names),
            met.len(),
            if met.is_empty() { "" } else { ": " },
            met.join(", ")
        ),
    ))
}

/// The exhaustive optimal search ([`crate::optimal`]) on the all-port
/// wormhole n-cube (its own e-cube routes) below `rounds`: a broadcast
/// from node 0 in fewer rounds if one exists (`Ok(None)` where none
/// does), or why the search did not finish.
pub fn faster_cube_broadcast(
    n: u32,
    rounds: u32,
) -> Result<Option<crate::optimal::Optimum>, String> {
    use models::config::{Ports, Switching};
    let cube = models::topology::hypercube::Hypercube::new(n, Switching::Wh, Ports::All);
    let model = crate::optimal::Model {
        wormhole: true,
        max_sends: None,
        bounds: true,
    };
    let o = crate::optimal::least_rounds(
        &cube,
        model,
        0,
        rounds.saturating_sub(1),
        crate::optimal::SEARCH_STATES,
    )
    .map_err(|e| e.to_string())?;
    Ok(o.rounds.is_some().then_some(o))
}

/// Commands as the ledger prints them.
pub fn commands_text(commands: &[&str]) -> String {
    let quoted: Vec<String> = commands.iter().map(|c| format!("`check {c}`")).collect();
    match quoted.len() {
        0..=8 => quoted.join(", "),
        n => format!(
            "{}, ... {} ({n} commands)",
            quoted[..2].join(", "),
            quoted[n - 1]
        ),
    }
}

/// A claim and its status.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// The paper, by its command-line name.
    pub paper: &'static str,
    /// The claim's name.
    pub id: &'static str,
    /// Where the paper makes it.
    pub section: &'static str,
    /// The paper's words.
    pub words: &'static str,
    /// Its status and what stands behind it.
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// Judges every claim of `papers`, telling `progress` each claim's name.
pub fn ledger(papers: &[Paper], run: Runner, progress: &mut dyn FnMut(&str)) -> Vec<Entry> {
    let judging = Judging::new(run);
    let mut entries = Vec::new();
    for &paper in papers {
        for claim in paper.claims() {
            progress(&format!("{} {}", paper.name(), claim.id));
            // After an interrupt (Ctrl-C, SIGTERM, SIGHUP) every claim left
            // is unknown at once: the ledger so far is printed.
            let verdict = match crate::engine::search::INTERRUPTED.load(Relaxed) {
                true => Verdict::Unknown {
                    why: "not judged: the ledger was interrupted".into(),
                },
                false => judging.judge(&claim.judge),
            };
            entries.push(Entry {
                paper: paper.name(),
                id: claim.id,
                section: claim.section,
                words: claim.words,
                verdict,
            });
        }
    }
    entries
}

/// The statuses, in the order the totals print them.
const STATUSES: [&str; 6] = [
    "holds",
    "refuted",
    "reading",
    "not encodable",
    "open",
    "unknown",
];

/// How many entries have each status, in words.
fn totals(entries: &[Entry]) -> String {
    let counts: Vec<String> = STATUSES
        .iter()
        .map(|s| (s, entries.iter().filter(|e| e.verdict.name() == *s).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(s, n)| format!("{n} {s}"))
        .collect();
    format!("{} claims: {}", entries.len(), counts.join(", "))
}

/// The ledger printed: text as a block per claim, the other formats as a
/// table (one grid per paper).
pub fn render(entries: &[Entry], format: Format) -> String {
    match format {
        Format::Text => text(entries),
        Format::Json => serde_json::to_string_pretty(entries).expect("entries serialize") + "\n",
        other => sheet(entries).render(other),
    }
}

fn text(entries: &[Entry]) -> String {
    let mut s = String::new();
    let mut paper = "";
    for e in entries {
        if e.paper != paper {
            paper = e.paper;
            let title = Paper::parse(paper).map_or("", Paper::title);
            let _ = writeln!(s, "== {paper}: {title}\n");
        }
        let _ = writeln!(
            s,
            "{} ({}): {}",
            e.id,
            e.section,
            e.verdict.name().to_uppercase()
        );
        let _ = writeln!(s, "    claim: {}", e.words);
        match &e.verdict {
            Verdict::Reading { literal, reading } => {
                let _ = writeln!(s, "    as printed: {literal}");
                let _ = writeln!(s, "    as read: {reading}");
            }
            v => {
                let _ = writeln!(s, "    {}", v.evidence());
            }
        }
        s.push('\n');
    }
    let _ = writeln!(s, "{}", totals(entries));
    s
}

fn sheet(entries: &[Entry]) -> Sheet {
    let mut sheet = Sheet {
        title: "The papers' claims, judged by commcheck (`check claims`)".into(),
        legend: vec![
            "Status: holds (for what the commands cover), refuted (the counterexample's \
             command and verdict), reading (the text as printed, a variant of its own, beside \
             the reading commcheck implements), not encodable (why), open (no check judges \
             it yet: what one needs)."
                .into(),
        ],
        ..Default::default()
    };
    for paper in Paper::ALL {
        let mine: Vec<&Entry> = entries.iter().filter(|e| e.paper == paper.name()).collect();
        if mine.is_empty() {
            continue;
        }
        let columns = [
            "claim",
            "section",
            "the paper's words",
            "status",
            "how judged",
        ];
        let mut grid = Grid::new(
            Some(format!("{}: {}", paper.name(), paper.title())),
            1,
            columns.iter().map(|c| c.to_string()).collect(),
        );
        grid.prose = true;
        for e in mine {
            grid.rows.push(vec![
                e.id.into(),
                e.section.into(),
                e.words.into(),
                e.verdict.name().into(),
                e.verdict.how(),
            ]);
        }
        sheet.grids.push(grid);
    }
    sheet.notes.push(totals(entries));
    sheet
}

/// One transmission of a traced run: a line of `check ... --trace F`.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Sent {
    /// The slot it is sent in.
    pub slot: properties::Slot,
    /// Its sender, labelled as the network labels nodes.
    pub from: String,
    /// Its route, as the network labels routes.
    pub route: String,
    /// The resources it holds (arcs, buses).
    pub resources: Vec<String>,
    /// The packets it carries, in the paper's words.
    pub payload: Vec<String>,
    /// Whether it is a control message.
    pub control: bool,
    /// Its receivers.
    pub receivers: Vec<String>,
}

/// The run `check {command} --trace F` writes (the executor's run from
/// `--source`, else the first input, every open choice at its first
/// option), made in memory. `command` is an algorithm, its size and
/// any of --source (a number, or 0b and bits), --switching, --ports,
/// --k, --ell, --broadcasters, --multiset.
pub fn trace(command: &str) -> Result<Vec<Sent>, String> {
    use crate::check::Request;
    use models::catalog::{Algorithm, Params, Ports, Switching};
    let refused = |why: String| format!("`check {command} --trace F`: {why}");
    let words: Vec<&str> = command.split_whitespace().collect();
    let [name, size, flags @ ..] = words.as_slice() else {
        return Err(refused("an algorithm and a size are needed".into()));
    };
    let n: u64 = size
        .parse()
        .map_err(|_| refused(format!("size '{size}' is not a number")))?;
    let (mut switching, mut ports, mut source) = (None, None, None);
    let mut params = Params::default();
    let mut rest = flags.iter().copied();
    while let Some(flag) = rest.next() {
        if flag == "--multiset" {
            params.multiset = true;
            continue;
        }
        let value = rest
            .next()
            .ok_or_else(|| refused(format!("{flag} without its value")))?;
        let bad = || refused(format!("{flag} '{value}' is not accepted here"));
        let number = |v: &str| v.parse::<u64>().map_err(|_| bad());
        match flag {
            "--switching" => {
                switching = Some(match value {
                    "wh" => Switching::Wh,
                    "sf" => Switching::Sf,
                    _ => return Err(bad()),
                })
            }
            "--ports" => {
                ports = Some(match value {
                    "all" => Ports::All,
                    "one" => Ports::One,
                    _ => return Err(bad()),
                })
            }
            "--source" => {
                source = Some(match value.strip_prefix("0b") {
                    Some(bits) => u64::from_str_radix(bits, 2).map_err(|_| bad())?,
                    None => number(value)?,
                })
            }
            "--k" => params.k = Some(number(value)?),
            "--ell" => params.ell = Some(number(value)?),
            "--broadcasters" => {
                let list: Result<Vec<u64>, String> = value.split(',').map(number).collect();
                params.broadcasters = Some(list?.into_iter().map(|x| x as u32).collect());
            }
            _ => {
                return Err(refused(format!(
                    "{flag} is not a flag `Judging::trace` takes"
                )))
            }
        }
    }
    let mut request = Algorithm::parse(name)
        .and_then(|a| Request::new(a, n, switching, ports))
        .and_then(|r| r.with_params(params))
        .map_err(|e| refused(e.to_string()))?;
    if let Some(s) = source {
        request = request.with_source(s).map_err(|e| refused(e.to_string()))?;
    }
    let mut out: Vec<u8> = Vec::new();
    crate::show::export::trace(crate::show::export::Of::Algorithm(&request), &mut out)
        .map_err(|e| refused(e.to_string()))?;
    let text = String::from_utf8(out).map_err(|e| refused(e.to_string()))?;
    text.lines()
        .map(|line| serde_json::from_str(line).map_err(|e| refused(e.to_string())))
        .collect()
}

impl Judging<'_> {
    /// The run `check {command} --trace F` writes, in memory ([`trace`]).
    pub fn trace(&self, command: &str) -> Result<Vec<Sent>, String> {
        trace(command)
    }
}
