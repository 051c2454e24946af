//! The layers hold: `tactus-rules` ← `tactus-speech`, `tactus-board`,
//! `tactus-braille` (and `tactus-backoff`) ← this crate's `table` ←
//! `service` ← `cli` (see `docs/architecture.md`).
//!
//! Between crates the compiler holds them: a crate can name only what its
//! `Cargo.toml` depends on, and [`each_crate_depends_only_on_lower_ones`]
//! reads those files. Inside this crate, where `table` and `service` are
//! modules, each file of `src/<layer>/**.rs` is parsed (`syn`), so every
//! path is seen whatever its layout: `use` trees wrapped and nested by
//! rustfmt, paths in types, expressions and macro bodies, and doc links.
//! Each `crate::…` or `super::…` path is resolved to the top-level module it
//! names and checked against the layer's list.

use std::fs;
use std::path::{Path, PathBuf};

/// What each lower layer of this crate must not name: the layers above it.
pub(crate) const FORBIDDEN: &[(&str, &[&str])] = &[
    ("table", &["service", "bench", "cli"]),
    ("service", &["bench", "cli"]),
];

/// The tactus crates each crate of the workspace may depend on (normal or
/// dev): only those below it, never one beside it.
pub(crate) const MAY_DEPEND_ON: &[(&str, &[&str])] = &[
    ("rules", &[]),
    ("backoff", &[]),
    ("speech", &["tactus-rules", "tactus-backoff"]),
    ("board", &["tactus-rules", "tactus-backoff"]),
    ("braille", &["tactus-rules"]),
    ("testkit", &["tactus-rules", "tactus-board"]),
    // Above the server, for the fuzzers and the tests alone.
    (
        "fuzz-checks",
        &[
            "tactus",
            "tactus-rules",
            "tactus-board",
            "tactus-braille",
            "tactus-speech",
        ],
    ),
];

/// The crates beside the layers: the harness and the fuzz checks, which
/// only the tests, the fuzzers and `tactus bench` use.
pub(crate) const BESIDE: &[&str] = &["testkit", "fuzz-checks"];

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
/// path is `module`) names, with their line numbers: every path of the
/// parsed file (`use` trees however rustfmt wraps and nests them, types,
/// expressions, patterns, macros' paths) that starts `crate::` or
/// `super::`, and the `crate::` paths of doc comments' links.
fn named_modules(module: &[String], code: &str) -> Vec<(usize, String)> {
    let file = syn::parse_file(code)
        .unwrap_or_else(|e| panic!("{}: not Rust syn can read: {e}", module.join("/")));
    let mut scan = Scan {
        module,
        found: Vec::new(),
    };
    syn::visit::visit_file(&mut scan, &file);
    scan.found.sort();
    scan.found.dedup();
    scan.found
}

struct Scan<'a> {
    module: &'a [String],
    found: Vec<(usize, String)>,
}

impl Scan<'_> {
    /// A path of identifiers starting at `line`: `crate::x::…` names `x`;
    /// `super::…::x` names what the `super`s reach.
    fn path(&mut self, line: usize, segments: &[String]) {
        match segments.first().map(String::as_str) {
            Some("crate") => {
                if let Some(first) = segments.get(1) {
                    self.found.push((line, first.clone()));
                }
            }
            Some("super") => {
                let depth = segments.iter().take_while(|s| *s == "super").count();
                // `super` from a file's module goes to its parent.
                let Some(base) = self.module.len().checked_sub(depth) else {
                    return;
                };
                let named = match base {
                    0 => segments.get(depth).cloned(),
                    _ => Some(self.module[0].clone()),
                };
                if let Some(named) = named {
                    self.found.push((line, named));
                }
            }
            _ => {}
        }
    }

    /// Every path a `use` tree spells out: `crate::{a::X, b::{c, d}}`
    /// gives `crate::a::X`, `crate::b::c`, `crate::b::d`.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
            syn::UseTree::Name(n) => self.leaf(prefix, n.ident.to_string(), tree),
            syn::UseTree::Rename(r) => self.leaf(prefix, r.ident.to_string(), tree),
            syn::UseTree::Glob(_) => self.leaf(prefix, "*".to_owned(), tree),
        }
    }

    fn leaf(&mut self, prefix: &[String], last: String, tree: &syn::UseTree) {
        let mut full = prefix.to_vec();
        full.push(last);
        let line = syn::spanned::Spanned::span(tree).start().line;
        self.path(line, &full);
    }
}

impl<'ast> syn::visit::Visit<'ast> for Scan<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let line = syn::spanned::Spanned::span(path).start().line;
        self.path(line, &segments);
        syn::visit::visit_path(self, path);
    }

    /// Macro bodies are tokens, not parsed paths: `crate :: x` in them is
    /// found by its tokens.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let tokens: Vec<proc_macro2::TokenTree> = flatten(mac.tokens.clone());
        for (i, t) in tokens.iter().enumerate() {
            if let proc_macro2::TokenTree::Ident(id) = t
                && (id == "crate" || id == "super")
            {
                let mut segments = vec![id.to_string()];
                let mut j = i + 1;
                while let (
                    Some(proc_macro2::TokenTree::Punct(a)),
                    Some(proc_macro2::TokenTree::Punct(b)),
                    Some(proc_macro2::TokenTree::Ident(next)),
                ) = (tokens.get(j), tokens.get(j + 1), tokens.get(j + 2))
                {
                    if a.as_char() != ':' || b.as_char() != ':' {
                        break;
                    }
                    segments.push(next.to_string());
                    j += 3;
                }
                self.path(id.span().start().line, &segments);
            }
        }
        syn::visit::visit_macro(self, mac);
    }

    /// Doc comments are attributes: the `crate::` paths of their links.
    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        if attr.path().is_ident("doc")
            && let syn::Meta::NameValue(nv) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) = &nv.value
        {
            let text = text.value();
            let line = syn::spanned::Spanned::span(attr).start().line;
            for (start, _) in text.match_indices("crate::") {
                let first: String = text[start + "crate::".len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !first.is_empty() {
                    self.found.push((line, first));
                }
            }
        }
        syn::visit::visit_attribute(self, attr);
    }
}

/// A macro's tokens with its groups opened, in order.
fn flatten(tokens: proc_macro2::TokenStream) -> Vec<proc_macro2::TokenTree> {
    let mut out = Vec::new();
    for t in tokens {
        match t {
            proc_macro2::TokenTree::Group(g) => out.extend(flatten(g.stream())),
            other => out.push(other),
        }
    }
    out
}

/// Every file under `dir`, its subfolders too, whose extension is `ext`.
pub(crate) fn files_ending(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files_ending(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// Every Rust file under `dir`.
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    files_ending(dir, "rs", out);
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
    assert_eq!(
        named("use crate::service::security::access::Role;"),
        ["service"]
    );
    assert_eq!(
        named("use crate::{rules::game::Game, service::store::journal};"),
        ["rules", "service"]
    );
    assert_eq!(
        named("fn f() { let j = super::super::service::store::journal::x(); }"),
        ["service"]
    );
    // `super::` from table/actor.rs stays in the table.
    assert_eq!(named("use super::boards::BoardLink;"), ["table"]);
    assert_eq!(
        named("// crate::service in a plain comment is prose"),
        Vec::<String>::new()
    );
    assert_eq!(
        named("/// See [`crate::service::web`].\nfn f() {}"),
        ["service"]
    );
    // rustfmt's wrapped and nested `use` lists (the old line scan missed
    // them), a path in an expression and in a macro.
    assert_eq!(
        named(
            "use crate::{\n    rules::game::Game,\n    table::{\n        view::View,\n        \
             x::{service_like, Y},\n    },\n    service::store::journal::Journal,\n};"
        ),
        ["rules", "table", "table", "service"]
    );
    assert_eq!(named("fn f() { let x = crate::cli::run(); }"), ["cli"]);
    assert_eq!(
        named("fn f() { tracing::info!(\"{}\", crate::bench::x()); }"),
        ["bench"]
    );
    let top = ["table".to_owned()];
    assert_eq!(
        named_modules(&top, "use super::service::x;")[0].1,
        "service"
    );
}

/// The tactus crates a manifest names in `[dependencies]` and
/// `[dev-dependencies]`, with whether each is optional.
fn tactus_dependencies(manifest: &Path) -> Vec<(String, bool)> {
    let text = fs::read_to_string(manifest).expect("a readable Cargo.toml");
    let doc: toml::Table = toml::from_str(&text).expect("a Cargo.toml toml reads");
    let mut out = Vec::new();
    for section in ["dependencies", "dev-dependencies"] {
        let Some(deps) = doc.get(section).and_then(toml::Value::as_table) else {
            continue;
        };
        for (name, spec) in deps {
            if name.starts_with("tactus") {
                let optional = spec
                    .get("optional")
                    .and_then(toml::Value::as_bool)
                    .unwrap_or(false);
                out.push((name.clone(), optional));
            }
        }
    }
    out
}

#[test]
fn each_crate_depends_only_on_lower_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut crates: Vec<String> = fs::read_dir(root.join("crates"))
        .expect("the crates folder")
        .map(|e| {
            e.expect("a folder entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    crates.sort();
    let mut listed: Vec<String> = MAY_DEPEND_ON.iter().map(|(c, _)| (*c).to_owned()).collect();
    listed.sort();
    assert_eq!(crates, listed, "every crate has its place in MAY_DEPEND_ON");
    let mut found = Vec::new();
    for (name, allowed) in MAY_DEPEND_ON {
        let manifest = root.join("crates").join(name).join("Cargo.toml");
        for (dep, _) in tactus_dependencies(&manifest) {
            if !allowed.contains(&dep.as_str()) {
                found.push(format!("crates/{name} depends on {dep}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "crates pointing up or sideways:\n{}",
        found.join("\n")
    );
    // The server reaches the test harness only through the `bench`
    // feature (and in its tests): the organisers' build leaves it out.
    let server = tactus_dependencies(&root.join("Cargo.toml"));
    let testkit: Vec<bool> = server
        .iter()
        .filter(|(d, _)| d == "tactus-testkit")
        .map(|(_, optional)| *optional)
        .collect();
    assert_eq!(
        testkit,
        [true, false],
        "tactus-testkit: optional, and a dev-dependency"
    );
}

/// `anyhow` only in the command line (`src/cli/`, `src/main.rs`): the
/// libraries' errors are enums that say what failed, which the CLI turns
/// into its messages.
#[test]
fn anyhow_only_in_the_command_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    rust_files(&root.join("crates"), &mut files);
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

/// The files that still pass a failure as a `String`: none; nothing may
/// join them.
const STRING_FAILURES_LEFT: &[&str] = &[];

/// Where `code` passes a failure as a string: a `Result` whose error type
/// is `String`, or an `Err = String` / `Error = String` of a trait.
fn string_failures(code: &str) -> Vec<usize> {
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    for (at, _) in code.match_indices("Result<") {
        // The arguments up to the matching `>`, split at top-level commas.
        let mut depth = 0usize;
        let mut last = String::new();
        // `io::Result<String>`: one argument, the error is not a string.
        let mut commas = 0;
        for c in code[at + "Result<".len()..].chars() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' if depth == 0 => break,
                '>' | ')' | ']' => depth -= 1,
                ',' if depth == 0 => {
                    commas += 1;
                    last.clear();
                    continue;
                }
                _ => {}
            }
            last.push(c);
        }
        if commas > 0 && last.trim() == "String" {
            found.push(line_of(at));
        }
    }
    for pattern in ["Err = String", "Error = String"] {
        found.extend(code.match_indices(pattern).map(|(at, _)| line_of(at)));
    }
    found
}

/// Failures are types that say what failed (`thiserror` enums), never a
/// formatted `String` a caller can only print.
#[test]
fn no_failure_is_a_string_in_the_libraries() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for krate in fs::read_dir(root.join("crates")).expect("the crates folder") {
        rust_files(
            &krate.expect("a folder entry").path().join("src"),
            &mut files,
        );
    }
    let mut found = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(root).unwrap().display().to_string();
        if STRING_FAILURES_LEFT.contains(&rel.as_str()) {
            continue;
        }
        let code = fs::read_to_string(file).expect("a readable source file");
        found.extend(
            string_failures(&code)
                .into_iter()
                .map(|line| format!("{rel}:{line}")),
        );
    }
    assert!(
        found.is_empty(),
        "failures passed as a String:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_string_failure_scan_sees_each_form() {
    assert_eq!(string_failures("fn f() -> Result<u8, String> {}"), [1]);
    assert_eq!(
        string_failures("fn f() -> Result<Vec<(u8, u8)>,\n    String> {}"),
        [1]
    );
    assert_eq!(string_failures("type Err = String;"), [1]);
    assert!(string_failures("fn f() -> Result<String, Fault> {}").is_empty());
    assert!(string_failures("fn f() -> io::Result<String> {}").is_empty());
}
