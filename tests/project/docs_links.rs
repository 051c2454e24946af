//! The documents hold together: every relative link in `README.md` and
//! `docs/*.md` names a file that exists, and every `#anchor` a heading of
//! the file it points into (as GitHub makes anchors from headings); and the
//! README's two developer commands are the scripts CI runs (`.ci/run` calls
//! the README's test command).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documents checked: the README and every page of `docs/`.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md")];
    let mut pages: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("docs/ is readable")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    docs.extend(pages);
    docs
}

/// The lines of a Markdown file outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            lines.push(line);
        }
    }
    lines
}

/// GitHub's anchor of a heading: lower case, spaces to `-`, every character
/// but letters, digits, `-` and `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .into_iter()
        .filter(|l| l.starts_with('#'))
        .map(|l| slug(l.trim_start_matches('#')))
        .collect()
}

/// Every `](target)` of a file's prose, with its line number; inline code
/// spans are left out.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop inline code: every other piece between backticks.
        let outside: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = outside.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            found.push((n + 1, rest[..end].trim().to_string()));
            rest = &rest[end..];
        }
    }
    found
}

#[test]
fn every_link_in_the_documents_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = fs::read_to_string(&doc).expect("a document is readable");
        let dir = doc.parent().expect("a document has a folder");
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let path: PathBuf = if file.is_empty() {
                doc.clone()
            } else {
                dir.join(file)
            };
            let name = format!("{}:{line}: {target}", shown(&doc));
            if !path.exists() {
                broken.push(format!("{name}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let Ok(target_text) = fs::read_to_string(&path) else {
                    broken.push(format!("{name}: an anchor into a folder"));
                    continue;
                };
                if !anchors(&target_text).contains(anchor) {
                    broken.push(format!("{name}: no heading with that anchor"));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the scan broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn the_readme_names_the_commands_ci_runs() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let commands: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("    scripts/"))
        .map(str::trim)
        .collect();
    assert_eq!(
        commands,
        ["scripts/run", "scripts/test"],
        "the README's two developer commands"
    );
    for command in &commands {
        assert!(root().join(command).is_file(), "{command} is not a file");
    }
    let ci = fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == "exec scripts/test"),
        ".ci/run runs the README's test command"
    );
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    assert_eq!(
        slug(" 4. Where a board is: serial device, raw TCP, RFC 2217"),
        "4-where-a-board-is-serial-device-raw-tcp-rfc-2217"
    );
    assert_eq!(slug(" Moves (D.2.1)"), "moves-d21");
    assert_eq!(slug(" `[[table]]`"), "table");
    assert_eq!(
        links("see [a](b.md#c) and `[x](y)` and [d](https://e)"),
        [(1, "b.md#c".to_string()), (1, "https://e".to_string())]
    );
}
