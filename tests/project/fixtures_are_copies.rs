//! `tests/fixtures/` is a copy of `../shared/fixtures/` so that a fresh clone
//! tests itself; this keeps the copy identical whenever the original is there.

use std::fs;
use std::path::{Path, PathBuf};

fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn fixtures_match_shared_when_present() {
    let ours = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
    let our_files = files(&ours);
    assert!(our_files.len() >= 20, "fixtures missing: {our_files:?}");
    if !shared.is_dir() {
        eprintln!("../shared/fixtures is absent: only our copy is checked");
        return;
    }
    assert_eq!(our_files, files(&shared), "fixture file lists differ");
    for rel in our_files {
        assert_eq!(
            fs::read(ours.join(&rel)).unwrap(),
            fs::read(shared.join(&rel)).unwrap(),
            "tests/fixtures/{} differs from ../shared/fixtures",
            rel.display()
        );
    }
}
