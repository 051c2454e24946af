//! The documents name only what exists, and the map names everything:
//!
//! - every path of the tree a document names in code (`src/cli/say.rs`,
//!   `crates/rules/src/`) exists;
//! - every module path (`table::actions::Action`, `rules::clock::Clock`,
//!   `TableView::of`) resolves to a module of the workspace and an item of
//!   it;
//! - `docs/architecture.md`'s map has a section for every folder of
//!   `src/` and of each crate's `src/`, which names every module file and
//!   subfolder in it, and names none that is gone;
//! - its layers table numbers the layers as `layers.rs` enforces them: a
//!   crate depends only on crates of lower layers, a module of the root
//!   crate may not name one of a higher layer, and every "layer N of
//!   `architecture.md`" in a comment is that table's number.
//!
//! Links are `docs_links.rs`'s; this reads the code spans, which links do
//! not cover and which drifted unseen (`table::action`, a
//! `src/cli/reconcile.rs` long gone).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::layers::{BESIDE, FORBIDDEN, MAY_DEPEND_ON, files_ending, rust_files};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every Markdown page under `docs/`, its subfolders too.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md")];
    files_ending(&root().join("docs"), "md", &mut docs);
    docs.sort();
    docs
}

/// The inline code spans of a Markdown text outside fenced blocks, with the
/// line each starts on. A span may run over a line break (Markdown joins
/// it with a space).
fn code_spans(text: &str) -> Vec<(usize, String)> {
    let mut prose = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        prose.push((n + 1, if fenced { "" } else { line }));
    }
    let mut spans = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (n, line) in prose {
        // A blank line ends a paragraph, and an unclosed backtick with it.
        if line.trim().is_empty() {
            open = None;
            continue;
        }
        for (i, piece) in line.split('`').enumerate() {
            if i > 0 {
                open = match open.take() {
                    Some(span) => {
                        spans.push(span);
                        None
                    }
                    None => Some((n, String::new())),
                };
            }
            if let Some((_, span)) = open.as_mut() {
                if !span.is_empty() && i == 0 {
                    span.push(' ');
                }
                span.push_str(piece);
            }
        }
    }
    spans
}

/// The tree's top folders whose paths a document may name.
const TREE: &[&str] = &[
    "src/",
    "crates/",
    "tests/",
    "fuzz/",
    "scripts/",
    "firmware/",
    "benches/",
    "config/",
    "packaging/",
    "voices/",
    "docs/",
];

/// What a build or a test run makes, named by the documents but never in
/// the tree.
const MADE: &[&str] = &["tests/pages/node_modules", "tests/firmware/node_modules"];

/// A span that is a path of the tree (`src/cli/say.rs`, `src/table/`),
/// without what follows it (`:12`, ` (check)`); none for a pattern
/// (`locales/*.ftl`, `<data>/…`).
fn tree_path(span: &str) -> Option<&str> {
    if !TREE.iter().any(|t| span.starts_with(t)) {
        return None;
    }
    let path = span.split([' ', ':', ',']).next()?;
    if path.contains(['*', '<', '{', '…', '$']) {
        return None;
    }
    Some(path)
}

#[test]
fn every_path_the_documents_name_exists() {
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = fs::read_to_string(&doc).expect("a readable document");
        for (line, span) in code_spans(&text) {
            let Some(path) = tree_path(&span) else {
                continue;
            };
            checked += 1;
            if MADE.iter().any(|m| path.starts_with(m)) {
                continue;
            }
            if !root().join(path).exists() {
                missing.push(format!("{}:{line}: `{path}`", shown(&doc)));
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} paths found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "the documents name paths that do not exist:\n{}",
        missing.join("\n")
    );
}

/// Where a short path of a Rust file (`table/display.rs`,
/// `web/auth.rs`, `board/link.rs`) may be: under the server's `src/`, its
/// `service/`, or, by its first folder, a crate's `src/`.
fn short_path_exists(path: &str) -> bool {
    let (first, rest) = path.split_once('/').unwrap_or(("", path));
    [
        root().join("src").join(path),
        root().join("src/service").join(path),
        root().join("crates").join(first).join("src").join(rest),
    ]
    .iter()
    .any(|p| p.exists())
}

/// The documents shorten the paths of source files (`table/published.rs`,
/// `service/recorder/mod.rs`): each still names a file of the tree.
#[test]
fn every_short_source_path_the_documents_name_exists() {
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = fs::read_to_string(&doc).expect("a readable document");
        for (line, span) in code_spans(&text) {
            let Some(path) = span.split([' ', ':', ',']).next() else {
                continue;
            };
            let short = path.ends_with(".rs")
                && path.contains('/')
                && !path.contains(['*', '<', '{', '…', '$'])
                && tree_path(path).is_none();
            if !short {
                continue;
            }
            checked += 1;
            if !short_path_exists(path) {
                missing.push(format!("{}:{line}: `{path}`", shown(&doc)));
            }
        }
    }
    assert!(
        checked > 10,
        "only {checked} short paths found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "the documents name source files that do not exist:\n{}",
        missing.join("\n")
    );
}

/// Every module of the workspace: its path from its crate's root
/// (`["table", "actions"]`) and the crate's names (`tactus`, `rules`,
/// `tactus_rules`), to its file.
struct Modules {
    /// (crate names, module path) → file.
    files: BTreeMap<(usize, Vec<String>), PathBuf>,
    /// Each crate's names as the documents write them.
    crates: Vec<Vec<String>>,
}

impl Modules {
    fn read() -> Modules {
        let mut crates = vec![(
            vec!["tactus".to_owned(), "crate".to_owned()],
            root().join("src"),
        )];
        let mut dirs: Vec<PathBuf> = fs::read_dir(root().join("crates"))
            .expect("the crates folder")
            .map(|e| e.expect("a folder entry").path())
            .collect();
        dirs.sort();
        for dir in dirs {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            crates.push((vec![format!("tactus_{name}"), name], dir.join("src")));
        }
        // The test binaries (`tests/service/main.rs`): the documents name
        // their tests to run one (`audio_devices::move_to_first_sample_latency`).
        let mut binaries: Vec<PathBuf> = fs::read_dir(root().join("tests"))
            .expect("the tests folder")
            .map(|e| e.expect("a folder entry").path())
            .filter(|p| p.join("main.rs").is_file())
            .collect();
        binaries.sort();
        for dir in binaries {
            // Nameless: `table::` and `service::` are the server's modules,
            // not the test binaries of those names.
            crates.push((Vec::new(), dir));
        }
        let mut files = BTreeMap::new();
        for (index, (_, src)) in crates.iter().enumerate() {
            let mut found = Vec::new();
            rust_files(src, &mut found);
            for file in found {
                let mut path: Vec<String> = file
                    .strip_prefix(src)
                    .unwrap()
                    .iter()
                    .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
                    .collect();
                if matches!(
                    path.last().map(String::as_str),
                    Some("mod" | "lib" | "main")
                ) {
                    path.pop();
                }
                files.insert((index, path), file);
            }
        }
        Modules {
            files,
            crates: crates.into_iter().map(|(names, _)| names).collect(),
        }
    }

    /// Where `segments` (a span split at `::`) lead, or why not.
    fn resolve(&self, segments: &[&str]) -> Result<(), String> {
        let first = segments[0];
        // A crate by name, or else any module of that name (the documents
        // write `infer::Inferred`, `web::listener`), or a type anywhere.
        let starts: Vec<(usize, Vec<String>)> = match self
            .crates
            .iter()
            .position(|c| c.iter().any(|n| n == first))
        {
            Some(index) => vec![(index, Vec::new())],
            None => self
                .files
                .keys()
                .filter(|(_, path)| path.last().is_some_and(|p| p == first))
                .cloned()
                .collect(),
        };
        if starts.is_empty() {
            if is_type(first) {
                return self.item_anywhere(segments);
            }
            return Err(format!("no module `{first}`"));
        }
        let mut why = String::new();
        for start in starts {
            match self.walk(start, &segments[1..]) {
                Ok(()) => return Ok(()),
                Err(e) => why = e,
            }
        }
        Err(why)
    }

    /// From the module `at`, the rest of a path: modules down to an item.
    fn walk(&self, at: (usize, Vec<String>), rest: &[&str]) -> Result<(), String> {
        let Some((next, after)) = rest.split_first() else {
            return Ok(());
        };
        let mut child = at.1.clone();
        child.push((*next).to_owned());
        if self.files.contains_key(&(at.0, child.clone())) {
            return self.walk((at.0, child), after);
        }
        let file = &self.files[&at];
        let code = fs::read_to_string(file).expect("a readable source file");
        if defines(&code, next) || reexports(&code, next) {
            return match after.first() {
                // A type's member: a method, a variant, a field.
                Some(member) if is_type(next) => self.member(next, member),
                _ => Ok(()),
            };
        }
        Err(format!(
            "`{next}` is not in `{}` ({})",
            at.1.join("::"),
            shown(file)
        ))
    }

    /// `Type::member` where the type is defined anywhere in the workspace.
    fn item_anywhere(&self, segments: &[&str]) -> Result<(), String> {
        let ty = segments[0];
        if !self.files.values().any(|f| {
            let code = fs::read_to_string(f).expect("a readable source file");
            defines(&code, ty)
        }) {
            return Err(format!("no type `{ty}`"));
        }
        match segments.get(1) {
            Some(member) => self.member(ty, member),
            None => Ok(()),
        }
    }

    /// Some file that defines `ty` or implements something for it also
    /// names `member` as a word: a method, variant, field or constant.
    fn member(&self, ty: &str, member: &str) -> Result<(), String> {
        let found = self.files.values().any(|f| {
            let code = fs::read_to_string(f).expect("a readable source file");
            let of_type = defines(&code, ty)
                || code.contains(&format!("impl {ty}"))
                || code.contains(&format!(" for {ty}"));
            of_type && has_word(&code, member)
        });
        if found {
            Ok(())
        } else {
            Err(format!("`{ty}` has no `{member}`"))
        }
    }
}

fn is_type(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
}

fn has_word(code: &str, word: &str) -> bool {
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !part(before) && !part(after)
    })
}

/// `code` declares `name` as an item: a function, type, trait, constant,
/// static, macro or inline module.
fn defines(code: &str, name: &str) -> bool {
    const KINDS: &[&str] = &[
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "type ",
        "const ",
        "static ",
        "mod ",
        "macro_rules! ",
        "union ",
    ];
    KINDS.iter().any(|kind| {
        code.match_indices(&format!("{kind}{name}")).any(|(at, _)| {
            let end = at + kind.len() + name.len();
            let after = code[end..].chars().next();
            !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

/// `code` brings `name` in with a `pub use`.
fn reexports(code: &str, name: &str) -> bool {
    code.split(';')
        .filter_map(|s| s.split_once("pub use "))
        .any(|(_, tree)| has_word(tree, name))
}

/// A span that is a Rust path (`a::b::C`, `TableView::of`, `f()`), split
/// at `::`; none for anything else (`cargo test --test x`, `"a::b"`).
fn rust_path(span: &str) -> Option<Vec<&str>> {
    let span = span.strip_suffix("()").unwrap_or(span);
    let segments: Vec<&str> = span.split("::").collect();
    let ident = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    (segments.len() > 1 && segments.iter().all(|s| ident(s))).then_some(segments)
}

#[test]
fn every_module_path_the_documents_name_resolves() {
    let modules = Modules::read();
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = fs::read_to_string(&doc).expect("a readable document");
        for (line, span) in code_spans(&text) {
            let Some(segments) = rust_path(&span) else {
                continue;
            };
            // Paths of the libraries tactus builds on are theirs to keep.
            if ["shakmaty", "std", "tokio", "axum", "serde"].contains(&segments[0]) {
                continue;
            }
            checked += 1;
            if let Err(why) = modules.resolve(&segments) {
                broken.push(format!("{}:{line}: `{span}`: {why}", shown(&doc)));
            }
        }
    }
    assert!(
        checked > 30,
        "only {checked} paths found: is the scan broken?"
    );
    assert!(
        broken.is_empty(),
        "the documents name modules or items that do not exist:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_resolver_refuses_what_is_gone() {
    let modules = Modules::read();
    let ok = |s: &str| modules.resolve(&rust_path(s).unwrap());
    assert_eq!(ok("table::actions::Action"), Ok(()));
    assert_eq!(ok("rules::clock::Clock"), Ok(()));
    assert_eq!(ok("tactus_board::rng"), Ok(()));
    assert_eq!(ok("TableView::of"), Ok(()));
    assert!(ok("table::action::Action").is_err());
    assert!(ok("table::actions::Nothing").is_err());
    assert!(ok("TableView::never_a_method").is_err());
    assert_eq!(rust_path("cargo test --test x"), None);
    assert_eq!(
        code_spans("a `b\nc` d\n```\n`e`\n```\n`f`"),
        [(1, "b c".to_owned()), (6, "f".to_owned())]
    );
}

/// The map's sections: each bold folder (`**`src/table/`**`) to the code
/// spans up to the next folder or heading.
fn map_sections(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut sections: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("**`")
            && let Some((folder, _)) = rest.split_once("`**")
            && folder.ends_with('/')
        {
            current = Some(folder.to_owned());
            sections.entry(folder.to_owned()).or_default();
        } else if line.starts_with('#') {
            current = None;
        }
        if let Some(folder) = &current {
            let spans = sections.get_mut(folder).unwrap();
            for (_, span) in code_spans(line) {
                spans.insert(span);
            }
        }
    }
    sections
}

/// Every folder of `src/` and of each crate's `src/` that holds Rust,
/// with its module files (but `lib.rs`, `main.rs` and `mod.rs`, which are
/// the folder's own) and its subfolders holding Rust (as `name/`).
fn source_folders() -> BTreeMap<String, BTreeSet<String>> {
    fn walk(dir: &Path, out: &mut BTreeMap<String, BTreeSet<String>>) -> bool {
        let mut entries = BTreeSet::new();
        for entry in fs::read_dir(dir).expect("a readable source folder") {
            let path = entry.expect("a folder entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if walk(&path, out) {
                    entries.insert(format!("{name}/"));
                }
            } else if name.ends_with(".rs") && !["lib.rs", "main.rs", "mod.rs"].contains(&&*name) {
                entries.insert(name);
            }
        }
        let holds_rust =
            !entries.is_empty() || dir.join("lib.rs").exists() || dir.join("mod.rs").exists();
        if holds_rust {
            let rel = dir.strip_prefix(root()).unwrap();
            out.insert(format!("{}/", rel.display()), entries);
        }
        holds_rust
    }
    let mut out = BTreeMap::new();
    walk(&root().join("src"), &mut out);
    for krate in fs::read_dir(root().join("crates")).expect("the crates folder") {
        walk(&krate.expect("a folder entry").path().join("src"), &mut out);
    }
    out
}

#[test]
fn the_map_names_every_module_and_no_other() {
    let text = fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let sections = map_sections(&text);
    let mut wrong = Vec::new();
    let folders = source_folders();
    for (folder, entries) in &folders {
        let Some(named) = sections.get(folder) else {
            wrong.push(format!("no section **`{folder}`**"));
            continue;
        };
        for entry in entries {
            if !named.contains(entry) {
                wrong.push(format!("{folder}: `{entry}` is not named"));
            }
        }
        // A module the section names that is not there: gone or renamed.
        for span in named {
            let module = span.ends_with(".rs") && !span.contains('/');
            let subfolder = span.ends_with('/') && span.matches('/').count() == 1;
            if (module || subfolder)
                && span != folder
                && !entries.contains(span)
                && !["lib.rs", "main.rs", "mod.rs"].contains(&span.as_str())
            {
                wrong.push(format!("{folder}: names `{span}`, which is not there"));
            }
        }
    }
    for folder in sections.keys() {
        if !folders.contains_key(folder) {
            wrong.push(format!("a section **`{folder}`** for no source folder"));
        }
    }
    assert!(
        folders.len() > 10,
        "only {} folders: is the walk broken?",
        folders.len()
    );
    assert!(
        wrong.is_empty(),
        "docs/architecture.md's map and the sources differ:\n{}",
        wrong.join("\n")
    );
}

/// The layers table: each row's number, and the crates (`tactus-rules`)
/// and modules (`tactus::table`, `cli`) it names. Rows beside the layers
/// have no number.
fn layer_rows(text: &str) -> BTreeMap<String, u32> {
    let mut layers = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let [_, number, who, ..] = cells[..] else {
            continue;
        };
        let Ok(number) = number.parse::<u32>() else {
            continue;
        };
        for (_, span) in code_spans(who) {
            let name = span
                .trim_start_matches("tactus::")
                .trim_start_matches("tactus-")
                .trim_start_matches("crates/")
                .trim_start_matches("src/")
                .to_owned();
            layers.insert(name, number);
        }
    }
    layers
}

#[test]
fn the_map_numbers_the_layers_as_they_are_enforced() {
    let text = fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let layers = layer_rows(&text);
    let layer = |name: &str| -> u32 {
        *layers
            .get(name)
            .unwrap_or_else(|| panic!("`{name}` has no row in the layers table"))
    };
    let mut wrong = Vec::new();
    // Crates: every tactus dependency layers.rs allows is of a lower layer,
    // and every crate of a lower layer that is not allowed is a sibling's
    // or above (none is forgotten); BESIDE sit beside the layers.
    for (krate, allowed) in MAY_DEPEND_ON {
        if BESIDE.contains(krate) {
            assert!(!layers.contains_key(*krate), "{krate} is beside the layers");
            continue;
        }
        for dep in *allowed {
            let dep = dep.trim_start_matches("tactus-");
            if layer(dep) >= layer(krate) {
                wrong.push(format!(
                    "{krate} (layer {}) may depend on {dep} (layer {})",
                    layer(krate),
                    layer(dep)
                ));
            }
        }
        for (other, _) in MAY_DEPEND_ON {
            if !BESIDE.contains(other)
                && layer(other) >= layer(krate)
                && allowed.contains(&format!("tactus-{other}").as_str())
            {
                wrong.push(format!("{krate} may depend on {other}, not below it"));
            }
        }
    }
    // The root crate's modules: each may not name those of higher layers,
    // and those it may not name are exactly the higher ones (bench is
    // beside the layers, forbidden to all).
    for (module, forbidden) in FORBIDDEN {
        for (other, _) in FORBIDDEN.iter().chain(&[("cli", &[][..])]) {
            let higher = layer(other) > layer(module);
            if higher != forbidden.contains(other) {
                wrong.push(format!(
                    "{module} (layer {}) and {other} (layer {}): layers.rs {} it",
                    layer(module),
                    layer(other),
                    if higher { "allows" } else { "forbids" }
                ));
            }
        }
    }
    // Every crate below the root crate is of a lower layer than `table`.
    for (krate, _) in MAY_DEPEND_ON {
        if !BESIDE.contains(krate) && layer(krate) >= layer("table") {
            wrong.push(format!("{krate} is not below the table"));
        }
    }
    assert!(
        wrong.is_empty(),
        "the layers table and layers.rs differ:\n{}",
        wrong.join("\n")
    );
}

/// Comments and documents that say "layer N of `architecture.md`" say
/// the number its table gives the module they are in.
#[test]
fn every_layer_number_quoted_is_the_maps() {
    let text = fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let layers = layer_rows(&text);
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    rust_files(&root().join("crates"), &mut files);
    files.extend(documents());
    let mut wrong = Vec::new();
    for file in files {
        let code = fs::read_to_string(&file).expect("a readable file");
        for (at, _) in code.match_indices(" of `architecture.md`") {
            let before = code[..at].trim_end();
            let Some(number) = before
                .rsplit_once("layer ")
                .and_then(|(_, n)| n.parse::<u32>().ok())
            else {
                continue;
            };
            // The module is the file's top folder under src/, or named in
            // the quote (docs/README.md: "… is the table").
            let rel = file.strip_prefix(root()).unwrap();
            let module = match rel.strip_prefix("src") {
                Ok(inside) => inside.iter().next().unwrap().to_string_lossy().into_owned(),
                Err(_) => code[at..]
                    .split_whitespace()
                    .nth(4)
                    .unwrap_or("")
                    .trim_matches(|c: char| !c.is_alphanumeric())
                    .to_owned(),
            };
            match layers.get(&module) {
                Some(&n) if n == number => {}
                other => wrong.push(format!(
                    "{}: says layer {number} for `{module}`, the map {other:?}",
                    rel.display()
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "layer numbers that disagree:\n{}",
        wrong.join("\n")
    );
}

fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}
