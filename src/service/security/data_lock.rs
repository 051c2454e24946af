//! One server per data folder: an exclusive `flock` on `<data>/lock`, taken
//! before the journal is opened and held for the life of the process. The
//! kernel drops it when the process ends, however it ends (even `kill -9`),
//! so a stale lock cannot keep a venue from restarting.
//!
//! The folder is kept private (0700), since it holds the access tokens and
//! every game; a folder others can read is fixed with a warning.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The lock, held until dropped (or the process ends).
#[derive(Debug)]
pub struct DataLock {
    file: File,
    path: PathBuf,
}

/// Why the data folder could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "the data folder {folder} is in use by another tactus serve{}: stop it, or give this one another --data",
        .pid.map(|p| format!(" (pid {p})")).unwrap_or_default()
    )]
    InUse { folder: PathBuf, pid: Option<u32> },
    #[error("data folder {folder}: {source}")]
    Io {
        folder: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl DataLock {
    /// Creates `folder` if needed (owner-only), makes it owner-only if it
    /// was not (with a warning), and takes its lock without waiting. Another
    /// process holding it is [`LockError::InUse`] with its pid where the lock
    /// file tells it; nothing in the folder is written then.
    pub fn acquire(folder: &Path) -> Result<DataLock, LockError> {
        let io = |source| LockError::Io {
            folder: folder.to_path_buf(),
            source,
        };
        create_private_dir(folder).map_err(io)?;
        let path = folder.join("lock");
        let mut options = OpenOptions::new();
        // No truncation: the holder's pid stays readable until we hold it.
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
        }
        let mut file = options.open(&path).map_err(io)?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: flock on a descriptor we own; no memory is involved.
            let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if rc != 0 {
                let e = std::io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                    let mut text = String::new();
                    let _ = file.read_to_string(&mut text);
                    return Err(LockError::InUse {
                        folder: folder.to_path_buf(),
                        pid: text.trim().parse().ok(),
                    });
                }
                return Err(io(e));
            }
        }
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        writeln!(file, "{}", std::process::id()).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(DataLock { file, path })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The open lock file (held for as long as it is open).
    pub fn file(&self) -> &File {
        &self.file
    }
}

/// Creates `dir` owner-only, or makes an existing one owner-only (warning
/// that it was not).
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        let mode = std::fs::metadata(dir)?.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            tracing::warn!(
                "data folder {} was readable by others (mode {mode:o}): made owner-only (0700)",
                dir.display()
            );
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
        Ok(())
    }
    #[cfg(not(unix))]
    std::fs::create_dir_all(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_folder_is_refused_naming_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let first = DataLock::acquire(&data).unwrap();
        let err = DataLock::acquire(&data).unwrap_err();
        match &err {
            LockError::InUse { folder, pid } => {
                assert_eq!(folder, &data);
                assert_eq!(*pid, Some(std::process::id()));
            }
            other => panic!("{other}"),
        }
        assert!(err.to_string().contains(&data.display().to_string()));
        drop(first);
        DataLock::acquire(&data).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn an_open_folder_is_made_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir(&data).unwrap();
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
        let _lock = DataLock::acquire(&data).unwrap();
        let mode = std::fs::metadata(&data).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }
}
