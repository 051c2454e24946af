//! Folders the server writes in: the data folder (there or creatable,
//! writable, its user's alone), and the probe file that shows a folder
//! writable.

use std::path::Path;

use super::faults::{DataFault, ProbeFault};

/// The data folder: there (or creatable), writable, the user's alone.
pub fn data_folder(dir: &Path) -> Result<String, DataFault> {
    use std::os::unix::fs::MetadataExt;
    let shown = dir.display();
    let owned = || dir.to_path_buf();
    let meta = match std::fs::metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return creatable(dir)
                .map(|()| format!("{shown} does not exist yet: tactus serve creates it"))
                .map_err(|fault| DataFault::CannotMake {
                    dir: owned(),
                    fault,
                });
        }
        Err(source) => {
            return Err(DataFault::Unreadable {
                dir: owned(),
                source,
            });
        }
    };
    if !meta.is_dir() {
        return Err(DataFault::NotAFolder { dir: owned() });
    }
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(DataFault::NotYours {
            dir: owned(),
            owner: meta.uid(),
            me,
        });
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(DataFault::OthersRead { dir: owned(), mode });
    }
    probe_dir(dir).map_err(|fault| DataFault::Probe {
        dir: owned(),
        fault,
    })?;
    Ok(format!("{shown}: writable, owner only (700)"))
}

/// A folder that does not exist can be made, as `create_dir_all` makes
/// it: its nearest existing ancestor is a folder we may write in.
pub(super) fn creatable(dir: &Path) -> Result<(), ProbeFault> {
    let mut up = dir;
    loop {
        up = match up.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        match std::fs::metadata(up) {
            Ok(m) if m.is_dir() => return probe_dir(up),
            Ok(_) => return Err(ProbeFault::NotAFolder(up.to_path_buf())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && up != Path::new(".") => {}
            Err(source) => {
                return Err(ProbeFault::Unreadable {
                    path: up.to_path_buf(),
                    source,
                });
            }
        }
    }
}

/// Writes and removes a probe file in `dir`.
pub(super) fn probe_dir(dir: &Path) -> Result<(), ProbeFault> {
    let probe = dir.join(format!(".tactus-check-{}", std::process::id()));
    std::fs::write(&probe, b"check").map_err(ProbeFault::NotWritable)?;
    std::fs::remove_file(&probe).map_err(ProbeFault::CannotRemove)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 36, item 9: the check predicts serve. A `wav:` folder or a data
    /// folder that serve would make (parents and all) passes, saying so; one
    /// under a file cannot be made and fails.
    #[test]
    fn a_folder_serve_would_make_passes_the_check() {
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("not/yet/here");
        assert!(creatable(&nested).is_ok());
        assert!(
            data_folder(&nested)
                .unwrap()
                .ends_with("does not exist yet: tactus serve creates it")
        );
        let file = dir.path().join("a-file");
        std::fs::write(&file, b"x").unwrap();
        assert!(creatable(&file.join("below")).is_err());
        assert!(data_folder(&file.join("below")).is_err());
    }
}
