//! Files only the server's user may read (the access tokens, the links
//! with their tokens): written whole through a temporary and a rename, so
//! a crash never leaves half a file, created owner-only (0600) and
//! exclusively, never following a link planted where the temporary goes.

use std::io::Write;
use std::path::Path;

/// Writes `parts`, one after the other, as the file `path`, owner-only.
/// A leftover temporary (a crash, or something planted) is removed, never
/// reused.
pub fn write(path: &Path, parts: &[&[u8]]) -> std::io::Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    match std::fs::remove_file(&tmp) {
        Ok(()) => tracing::warn!("removed a leftover {}", tmp.display()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    }
    let mut out = options.open(&tmp)?;
    for part in parts {
        out.write_all(part)?;
    }
    out.sync_all()?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    #[test]
    fn written_owner_only_through_a_temporary_that_is_never_followed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("links.txt");
        let planted = dir.path().join("elsewhere");
        std::fs::write(&planted, "keep").unwrap();
        std::os::unix::fs::symlink(&planted, dir.path().join("links.txt.tmp")).unwrap();
        super::write(&path, &[b"a", b"b"]).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "ab");
        assert_eq!(std::fs::read_to_string(&planted).unwrap(), "keep");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
