//! The pages stay true: every `$ check ...` block of README.md,
//! docs/tutorial.md and docs/schedules.md is run, every line it quotes
//! must be in the output, in the order quoted (timings aside), and every
//! picture it writes must be what the tool exports today, byte for byte.

use crate::cli::{check, stderr, stdout};
use std::path::PathBuf;

/// The pages whose commands are run, with their text.
const PAGES: [(&str, &str); 3] = [
    ("README.md", include_str!("../README.md")),
    ("docs/tutorial.md", include_str!("../docs/tutorial.md")),
    ("docs/schedules.md", include_str!("../docs/schedules.md")),
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
            // The quoted lines, in order, each a whole line of the output.
            let mut said_lines = said.lines();
            for line in quoted.iter().filter(|l| !l.starts_with("elapsed:")) {
                assert!(
                    said_lines.any(|l| l == line),
                    "{page}: `check {}` no longer says {line:?} (or not in that order); it says:\n{said}",
                    args.join(" ")
                );
            }
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
    assert_eq!(pictures, 4, "three pictures and the graph");
}
