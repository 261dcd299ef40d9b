//! The pages stay true: every `$ check ...` block of README.md,
//! docs/tour.md, docs/tutorial.md, docs/schedules.md and docs/cost.md is run and its output must be the
//! block, whole: line for line, an `elapsed:` line matching any timing,
//! and a line `...` standing for lines left out (the one way a block may
//! drop any). Every picture it writes must be what the tool exports today,
//! byte for byte.

use crate::cli::{check, stderr, stdout};
use std::path::PathBuf;

/// The pages whose commands are run, with their text.
const PAGES: [(&str, &str); 5] = [
    ("README.md", include_str!("../README.md")),
    ("docs/tour.md", include_str!("../docs/tour.md")),
    ("docs/tutorial.md", include_str!("../docs/tutorial.md")),
    ("docs/schedules.md", include_str!("../docs/schedules.md")),
    ("docs/cost.md", include_str!("../docs/cost.md")),
];

/// A page's quoted commands (a line ending in `\` goes on) with the lines
/// quoted under each.
fn blocks(page: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        if line != "```text" {
            continue;
        }
        let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        let Some(first) = body.first().and_then(|l| l.strip_prefix("$ check ")) else {
            continue;
        };
        let mut command = first.to_string();
        let mut rest = body[1..].iter();
        while let Some(part) = command.strip_suffix('\\') {
            command = format!("{part} {}", rest.next().expect("a continued command"));
        }
        let args = command.split_whitespace().map(str::to_string).collect();
        blocks.push((args, rest.map(|l| l.to_string()).collect()));
    }
    blocks
}

#[test]
fn the_pages_show_what_the_tool_does() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pages");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let here = format!("{}/", out.display());
    let mut pictures = 0;
    for (page, text) in PAGES {
        let blocks = blocks(text);
        assert!(!blocks.is_empty(), "{page} quotes commands");
        for (args, quoted) in blocks {
            if args.iter().any(|a| a == "--explore") {
                continue; // serves until stopped; tests/browser.rs follows it
            }
            let args: Vec<String> = args
                .iter()
                .map(|a| a.replace("docs/tutorial/", &here))
                .collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = check(&args);
            let said = format!("{}{}", stdout(&o), stderr(&o)).replace(&here, "docs/tutorial/");
            let said_lines: Vec<&str> = said.lines().collect();
            let quoted: Vec<&str> = quoted.iter().map(String::as_str).collect();
            assert!(
                matches(&quoted, &said_lines),
                "{page}: `check {}` does not print its block (whole, `...` for lines left \
                 out); it says:\n{said}",
                args.join(" ")
            );
            for file in args.iter().filter(|a| a.starts_with(&here)) {
                let name = file.strip_prefix(&here).unwrap();
                let committed = std::fs::read_to_string(format!(
                    "{}/docs/tutorial/{name}",
                    env!("CARGO_MANIFEST_DIR")
                ))
                .unwrap_or_else(|e| panic!("docs/tutorial/{name}: {e}"));
                let exported = std::fs::read_to_string(file).unwrap();
                assert!(
                    committed == exported,
                    "docs/tutorial/{name} is not what `check {}` exports today; regenerate it",
                    args.join(" ")
                );
                assert!(
                    text.contains(&format!("tutorial/{name}")),
                    "{name} is shown"
                );
                pictures += 1;
            }
        }
    }
    assert_eq!(pictures, 5, "four pictures and the graph");
}

/// True if `said` is `quoted`, line for line, where a quoted `...` stands
/// for any run of lines and a quoted `elapsed:` line for any timing.
fn matches(quoted: &[&str], said: &[&str]) -> bool {
    match quoted.split_first() {
        None => said.is_empty(),
        Some((&"...", rest)) => (0..=said.len()).any(|i| matches(rest, &said[i..])),
        Some((q, rest)) => said.split_first().is_some_and(|(l, said)| {
            let same = match q.starts_with("elapsed:") {
                true => l.starts_with("elapsed:"),
                false => l == q,
            };
            same && matches(rest, said)
        }),
    }
}

#[test]
fn a_block_is_compared_whole() {
    let said = ["a", "b", "elapsed: 3 ms", "c"];
    assert!(matches(&["a", "b", "elapsed: 9 ms", "c"], &said));
    assert!(matches(&["a", "...", "c"], &said));
    assert!(matches(&["...", "c"], &said));
    assert!(matches(&["a", "..."], &said));
    // A line dropped from the middle without a mark fails, as does one
    // changed or added.
    assert!(!matches(&["a", "elapsed: 1 ms", "c"], &said));
    assert!(!matches(&["a", "b", "elapsed: 1 ms"], &said));
    assert!(!matches(&["a", "x", "elapsed: 1 ms", "c"], &said));
    assert!(!matches(&["a", "b", "elapsed: 1 ms", "c", "d"], &said));
}

/// The figures the pages state in words agree with the tool: the
/// tutorial's count of worms in `nob 4`'s last step is the caption of the
/// picture the tool exports (held byte for byte above), and README's
/// `check nob 30` is within the executor's reach that `check help nob`
/// prints.
#[test]
fn the_pages_figures_are_the_tools() {
    let tutorial = include_str!("../docs/tutorial.md");
    let svg = include_str!("../docs/tutorial/nob-4.svg");
    let caption = svg
        .split("after step 2: ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .expect("the picture's caption counts the step's transmissions");
    let words = [
        "", "one", "two", "three", "four", "five", "six", "seven", "eight",
    ];
    let words = [&words[..], &["nine", "ten", "eleven", "twelve", "thirteen"]].concat();
    let count: usize = caption.parse().unwrap();
    assert!(
        tutorial.contains(&format!("the {} worms of step 2", words[count])),
        "docs/tutorial.md counts the worms of nob 4's step 2 as the picture does ({count})"
    );
    let help = stdout(&check(&["help", "nob"]));
    assert!(
        help.contains("every dimension up to 30 in 24 GB"),
        "check help nob: {help}"
    );
    let readme = include_str!("../README.md");
    assert!(
        readme.contains("`check nob 30`"),
        "README names nob 30's run"
    );
}

/// Every erratum of docs/errata.md (a `###` section) quotes at least one
/// command that reproduces it, `$ check ...` indented as code, with the
/// lines the tool prints that say so (its verdicts, its times), or says
/// in a line `No run:` why none exists. Each command is run: the quoted
/// lines are what it prints, in order (the erratum quotes the lines that
/// matter, not the whole report; a `...` inside a line stands for the
/// rest of it).
#[test]
fn every_erratum_reproduces_by_its_command() {
    let page = include_str!("../docs/errata.md");
    let sections: Vec<&str> = page.split("\n### ").skip(1).collect();
    assert!(sections.len() >= 25, "{} errata", sections.len());
    let mut commands = 0;
    for section in sections {
        let title = section.lines().next().unwrap_or_default();
        let lines: Vec<&str> = section.lines().collect();
        let mut ran = 0;
        for (i, line) in lines.iter().enumerate() {
            let Some(command) = line.trim_start().strip_prefix("$ check ") else {
                continue;
            };
            let indent = line.len() - line.trim_start().len();
            assert!(indent >= 4, "{title}: `{line}` is not quoted as code");
            let quoted: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| !l.trim().is_empty() && !l.trim_start().starts_with("$ "))
                .map(|l| l.trim())
                .collect();
            assert!(!quoted.is_empty(), "{title}: `{command}` quotes no output");
            let args: Vec<&str> = command.split_whitespace().collect();
            let o = check(&args);
            let said = format!("{}{}", stdout(&o), stderr(&o));
            let mut said_lines = said
                .lines()
                .map(|l| l.split_whitespace().collect::<Vec<_>>());
            for q in &quoted {
                // The words of the quoted line, the `...` parts in order.
                let parts: Vec<String> = q
                    .split("...")
                    .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
                    .collect();
                let fits = |line: &str| {
                    if parts.len() == 1 {
                        return line == parts[0];
                    }
                    let mut rest = line;
                    parts
                        .iter()
                        .enumerate()
                        .all(|(j, p)| match rest.find(p.as_str()) {
                            Some(k) if j > 0 || k == 0 => {
                                rest = &rest[k + p.len()..];
                                true
                            }
                            _ => false,
                        })
                };
                let found = said_lines.any(|words| fits(&words.join(" ")));
                assert!(
                    found,
                    "{title}: `check {command}` does not print, in order:\n{q}\n\n{said}"
                );
            }
            ran += 1;
        }
        commands += ran;
        assert!(
            ran > 0 || section.contains("\nNo run: "),
            "{title}: no command reproduces it and no `No run:` says why"
        );
    }
    assert!(commands >= 30, "{commands} commands");
}
