//! The tree shows the architecture: inside each crate, imports between
//! files go one way, and so do imports between folders (a folder is a
//! top-level module: `check/`, `engine/`). A file's imports are the
//! `crate::` and `super::` paths in its code (not its comments), each
//! resolved to the file of the deepest module it names; a circle among
//! files, or among folders, fails the test with its members named.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src` (`["check", "plan"]`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The code of a file without its comments.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths `code` names from `module` (absolute, before
/// resolution to files): `crate::a::b::{c, d}` gives a::b::c and a::b::d.
fn named(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (prefix, base) in [
        ("crate::", Vec::new()),
        ("super::", {
            let mut m = module.to_vec();
            m.pop();
            m
        }),
    ] {
        let mut rest = code;
        while let Some(i) = rest.find(prefix) {
            // Not part of a longer word (`$crate::` is a macro's, of the crate).
            let before = rest[..i].chars().last();
            rest = &rest[i + prefix.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let path: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':' || *c == '{')
                .collect();
            let mut parts = base.clone();
            for p in path.split("::") {
                if p.starts_with('{') || p.is_empty() {
                    // A group: each member may be a module of its own.
                    let group: String = rest[rest.find('{').unwrap_or(0) + 1..]
                        .chars()
                        .take_while(|&c| c != '}')
                        .collect();
                    for member in group.split(',') {
                        let member = member.trim().split("::").next().unwrap_or("").trim();
                        if !member.is_empty() && member != "self" {
                            let mut m = parts.clone();
                            m.push(member.to_string());
                            out.push(m);
                        }
                    }
                    break;
                }
                parts.push(p.to_string());
            }
            out.push(parts);
        }
    }
    out
}

/// How finely imports are grouped before circles are looked for.
#[derive(Clone, Copy)]
enum Grain {
    File,
    /// A top-level module with its children; the crate root is left out
    /// (it declares every folder).
    Folder,
}

/// The circles among the files (or folders) of the crate rooted at `src`.
fn circles(src: &Path, grain: Grain) -> Vec<Vec<String>> {
    let mut all = Vec::new();
    files(src, &mut all);
    let modules: BTreeMap<Vec<String>, String> = all
        .iter()
        .map(|f| (module_of(src, f), f.display().to_string()))
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &all {
        let module = module_of(src, f);
        let from = f.display().to_string();
        let text = code(&std::fs::read_to_string(f).unwrap());
        for mut path in named(&module, &text) {
            // The deepest module the path names is the file it imports.
            while !path.is_empty() && !modules.contains_key(&path) {
                path.pop();
            }
            let to = &modules[&path];
            // A folder's mod.rs declares its children; naming the crate
            // root (lib.rs) is naming the crate.
            if path.is_empty() {
                continue;
            }
            let (from, to) = match grain {
                Grain::File => (from.clone(), to.clone()),
                Grain::Folder => match module.first() {
                    Some(folder) => (folder.clone(), path[0].clone()),
                    None => continue,
                },
            };
            if to != from {
                edges.entry(from).or_default().insert(to);
            }
        }
    }
    // Files that reach each other: the strongly connected groups.
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(at) = stack.pop() {
            for next in edges.get(&at).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|f| (f, reach(f))).collect();
    let mut groups = BTreeSet::new();
    for (&f, r) in &reaches {
        let group: Vec<String> = r
            .iter()
            .filter(|g| reaches.get(g).is_some_and(|back| back.contains(f)))
            .cloned()
            .collect();
        if !group.is_empty() {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}

#[test]
fn imports_between_files_go_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for krate in ["src", "models/src", "properties/src"] {
        let found = circles(&root.join(krate), Grain::File);
        assert!(found.is_empty(), "{krate}: import circles: {found:#?}");
    }
}

#[test]
fn imports_between_folders_go_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for krate in ["src", "models/src", "properties/src"] {
        let found = circles(&root.join(krate), Grain::Folder);
        assert!(found.is_empty(), "{krate}: folder circles: {found:#?}");
    }
}

/// The items of each `pub trait` in `text`: its methods and constants.
fn trait_items(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut traits = BTreeMap::new();
    let code = code(text);
    let mut rest = code.as_str();
    while let Some(i) = rest.find("\npub trait ") {
        rest = &rest[i + "\npub trait ".len()..];
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
        let body = &rest[..rest.find("\n}\n").unwrap_or(rest.len())];
        traits.insert(name, items(body));
    }
    traits
}

/// The `fn` and `const` names declared at one indent in `body`.
fn items(body: &str) -> Vec<String> {
    body.lines()
        .filter_map(|l| {
            let l = l.strip_prefix("    ")?;
            let l = l.strip_prefix("fn ").or_else(|| l.strip_prefix("const "))?;
            Some(
                l.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect(),
            )
        })
        .collect()
}

/// The trait an `impl<..> Trait<..> for Type` header names: the first
/// word after `impl` and its generic parameters.
fn trait_named(header: &str) -> String {
    let mut rest = header.trim_start_matches("impl");
    if rest.starts_with('<') {
        let mut depth = 0;
        for (i, c) in rest.char_indices() {
            depth += match c {
                '<' => 1,
                '>' => -1,
                _ => 0,
            };
            if depth == 0 {
                rest = &rest[i + 1..];
                break;
            }
        }
    }
    rest.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric())
        .collect()
}

/// For each impl in `text` of one of `traits`: the trait and the items of
/// it that the impl does not write.
fn unwritten(traits: &BTreeMap<String, Vec<String>>, text: &str) -> Vec<(String, Vec<String>)> {
    let code = code(text);
    let mut found = Vec::new();
    for (i, _) in code.match_indices("\nimpl") {
        let header = &code[i + 1..][..code[i + 1..].find('{').unwrap()];
        if !header.contains(" for ") {
            continue;
        }
        let name = trait_named(header);
        let Some(wanted) = traits.get(&name) else {
            continue;
        };
        let start = i + 1 + header.len();
        let body = &code[start
            ..code[start..]
                .find("\n}\n")
                .map_or(code.len(), |j| start + j)];
        let written = items(body);
        let missing: Vec<String> = wanted
            .iter()
            .filter(|w| !written.contains(w))
            .cloned()
            .collect();
        if !missing.is_empty() {
            found.push((name, missing));
        }
    }
    found
}

/// The protocol's traits and aspects, from their source.
fn protocol_traits(root: &Path) -> BTreeMap<String, Vec<String>> {
    let mut traits = BTreeMap::new();
    for file in ["mod.rs", "aspects.rs"] {
        let text = std::fs::read_to_string(root.join("models/src/protocol").join(file)).unwrap();
        traits.extend(trait_items(&text));
    }
    traits
}

/// A wrapper of a protocol (a mutant, the faulty machine) writes every
/// item of the protocol and of each aspect it implements, so that none
/// falls back to its default by being forgotten (docs/architecture.md).
#[test]
fn wrappers_write_every_item_of_what_they_wrap() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let traits = protocol_traits(root);
    for name in [
        "Protocol", "Inputs", "Judging", "Choices", "Machine", "Codes",
    ] {
        assert!(traits.contains_key(name), "no trait {name} read");
    }
    for wrapper in ["models/src/mutant.rs", "models/src/imperfect.rs"] {
        let text = std::fs::read_to_string(root.join(wrapper)).unwrap();
        assert!(
            text.contains("Protocol for "),
            "{wrapper}: no Protocol impl read"
        );
        let missing = unwritten(&traits, &text);
        assert!(
            missing.is_empty(),
            "{wrapper} leaves to defaults: {missing:?}"
        );
    }
}

/// The check above finds a forgotten method (its seeded bug).
#[test]
fn a_forgotten_method_is_found() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let traits = protocol_traits(root);
    let text = std::fs::read_to_string(root.join("models/src/mutant.rs")).unwrap();
    let forgot = text.replacen("    fn drawn_tail(", "    fn drawn_tail_gone(", 1);
    let missing = unwritten(&traits, &forgot);
    assert_eq!(missing, vec![("Judging".into(), vec!["drawn_tail".into()])]);
    let forgot = text.replacen("    fn hints(", "    fn hints_gone(", 1);
    let missing = unwritten(&traits, &forgot);
    assert_eq!(missing, vec![("Protocol".into(), vec!["hints".into()])]);
}

/// The root library is built without a unit-test harness (Cargo.toml:
/// `[lib] test = false`, so the test build compiles it once): a test
/// written inside src/ would never run, so there is none; the library's
/// parts are tested in tests/parts.
#[test]
fn the_library_keeps_its_tests_in_tests_parts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let lib = manifest
        .split("\n[lib]\n")
        .nth(1)
        .expect("Cargo.toml has a [lib]");
    let lib = lib.split("\n[").next().unwrap();
    assert!(
        lib.contains("\ntest = false"),
        "[lib] builds a harness: {lib}"
    );
    let mut all = Vec::new();
    files(&root.join("src"), &mut all);
    assert!(all.len() > 50, "{} files under src", all.len());
    let with_tests: Vec<_> = all
        .iter()
        .filter(|f| {
            let text = code(&std::fs::read_to_string(f).unwrap());
            text.contains("#[test]") || text.contains("#[cfg(test)]")
        })
        .collect();
    assert!(
        with_tests.is_empty(),
        "tests that never run: {with_tests:?}"
    );
    // Its seeded bug: a test written into a file is found.
    assert!(code("fn f() {}\n#[cfg(test)]\nmod tests {}\n").contains("#[cfg(test)]"));
}
