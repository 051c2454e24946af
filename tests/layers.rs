//! The layers hold: `rules` ← `speech`, `board`, `braille` ← `table` ←
//! `service` ← `cli` (see `docs/architecture.md`). A file of a lower layer
//! that names a module of a higher one fails here, naming the file, the line
//! and the module.
//!
//! A source scan, not the compiler: it reads every `crate::…` and
//! `super::…` path (in `use` lists too) of `src/<layer>/**.rs`, resolves it
//! to the top-level module it names and checks that module against the
//! layer's list.

use std::fs;
use std::path::{Path, PathBuf};

/// What each lower layer must not name: the layers above it and those
/// beside it.
const FORBIDDEN: &[(&str, &[&str])] = &[
    (
        "rules",
        &[
            "speech", "board", "braille", "table", "service", "bench", "cli",
        ],
    ),
    (
        "speech",
        &["board", "braille", "table", "service", "bench", "cli"],
    ),
    (
        "board",
        &["speech", "braille", "table", "service", "bench", "cli"],
    ),
    (
        "braille",
        &["speech", "board", "table", "service", "bench", "cli"],
    ),
    ("table", &["service", "bench", "cli"]),
];

/// The module path of a file under `src/`: `src/table/actor.rs` is
/// `["table", "actor"]`, `src/service/web/mod.rs` is `["service", "web"]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("a file under src/");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The top-level modules that `code` (the text of the file whose module
/// path is `module`) names, with their line numbers.
fn named_modules(module: &[String], code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let line = match line.find("//") {
            // Plain comments are prose; doc comments and code are kept.
            Some(i) if !line[i..].starts_with("///") && !line[i..].starts_with("//!") => &line[..i],
            _ => line,
        };
        for (start, _) in line.match_indices("crate::") {
            for first in first_segments(&line[start + "crate::".len()..]) {
                found.push((n + 1, first));
            }
        }
        for (start, _) in line.match_indices("super::") {
            // Only the first `super::` of a chain starts a path.
            if line[..start].ends_with("super::") {
                continue;
            }
            let mut rest = &line[start..];
            let mut depth = 0;
            while let Some(r) = rest.strip_prefix("super::") {
                depth += 1;
                rest = r;
            }
            // `super` from a file's module goes to its parent.
            let Some(base) = module.len().checked_sub(depth) else {
                continue;
            };
            for first in first_segments(rest) {
                let absolute = match base {
                    0 => first,
                    _ => module[0].clone(),
                };
                found.push((n + 1, absolute));
            }
        }
    }
    found
}

/// The first path segment(s) at the start of `rest`: `table::x` gives
/// `table`, `{table::x, rules}` gives both.
fn first_segments(rest: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    match rest.strip_prefix('{') {
        Some(list) => {
            let list = &list[..list.find('}').unwrap_or(list.len())];
            list.split(',')
                .map(|item| ident(item.trim()))
                .filter(|s| !s.is_empty())
                .collect()
        }
        None => {
            let first = ident(rest);
            if first.is_empty() {
                vec![]
            } else {
                vec![first]
            }
        }
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every breach of the layers under `src`, as `file:line names module`.
fn breaches(src: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for (layer, forbidden) in FORBIDDEN {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        for file in files {
            let code = fs::read_to_string(&file).expect("a readable source file");
            let module = module_of(src, &file);
            for (line, named) in named_modules(&module, &code) {
                if forbidden.contains(&named.as_str()) {
                    out.push(format!(
                        "{}:{line} names `{named}`, a layer `{layer}` must not know",
                        file.display()
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn no_lower_layer_names_a_higher_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = breaches(&src);
    assert!(
        found.is_empty(),
        "layers pointing up:\n{}",
        found.join("\n")
    );
}

/// The scan sees the forms a path takes, so the test above can fail.
#[test]
fn the_scan_finds_every_form_of_path() {
    let module = ["table".to_owned(), "actor".to_owned()];
    let named = |code: &str| -> Vec<String> {
        named_modules(&module, code)
            .into_iter()
            .map(|(_, m)| m)
            .collect()
    };
    assert_eq!(named("use crate::service::tokens::Role;"), ["service"]);
    assert_eq!(
        named("use crate::{rules::game::Game, service::journal};"),
        ["rules", "service"]
    );
    assert_eq!(
        named("let j = super::super::service::journal::x();"),
        ["service"]
    );
    // `super::` from table/actor.rs stays in the table.
    assert_eq!(named("use super::boards::BoardLink;"), ["table"]);
    assert_eq!(
        named("// crate::service in a plain comment is prose"),
        Vec::<String>::new()
    );
    assert_eq!(named("/// See [`crate::service::web`]."), ["service"]);
    let top = ["table".to_owned()];
    assert_eq!(
        named_modules(&top, "use super::service::x;")[0].1,
        "service"
    );
}

/// `anyhow` only in the command line (`src/cli/`, `src/main.rs`): the
/// library's errors are enums that say what failed, which the CLI turns
/// into its messages.
#[test]
fn anyhow_only_in_the_command_line() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let cli = src.join("cli");
    let found: Vec<String> = files
        .iter()
        .filter(|f| !f.starts_with(&cli) && !f.ends_with("main.rs"))
        .flat_map(|f| {
            let code = fs::read_to_string(f).expect("a readable source file");
            code.lines()
                .enumerate()
                .filter(|(_, l)| l.contains("anyhow"))
                .map(|(n, _)| format!("{}:{}", f.display(), n + 1))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        found.len() < files.len(),
        "the scan reads files, not one name"
    );
    assert!(
        found.is_empty(),
        "anyhow in the library:\n{}",
        found.join("\n")
    );
}
