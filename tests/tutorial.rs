//! docs/tutorial.md stays true: every `$ check ...` block in it is run,
//! every line it quotes must be in the output (timings aside), and every
//! picture it shows must be what the tool exports today, byte for byte.

use crate::cli::{check, stderr, stdout};
use std::path::PathBuf;

const TUTORIAL: &str = include_str!("../docs/tutorial.md");

/// The quoted commands with the lines quoted under each.
fn blocks() -> Vec<(Vec<String>, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut lines = TUTORIAL.lines();
    while let Some(line) = lines.next() {
        if line != "```text" {
            continue;
        }
        let body: Vec<String> = lines
            .by_ref()
            .take_while(|l| *l != "```")
            .map(str::to_string)
            .collect();
        if let Some(command) = body.first().and_then(|l| l.strip_prefix("$ check ")) {
            let args = command.split_whitespace().map(str::to_string).collect();
            blocks.push((args, body[1..].to_vec()));
        }
    }
    blocks
}

#[test]
fn the_tutorial_shows_what_the_tool_does() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tutorial");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let here = format!("{}/", out.display());
    let blocks = blocks();
    assert!(blocks.len() >= 8, "the tutorial's commands: {blocks:?}");
    let mut pictures = 0;
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
        for line in quoted.iter().filter(|l| !l.starts_with("elapsed:")) {
            assert!(
                said.lines().any(|l| l == line),
                "`check {}` no longer says {line:?}; it says:\n{said}",
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
                TUTORIAL.contains(&format!("tutorial/{name}")),
                "{name} is shown"
            );
            pictures += 1;
        }
    }
    assert_eq!(pictures, 4, "three pictures and the graph");
}
