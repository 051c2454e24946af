//! brltty as the braille display tests run it: the Virtual driver (no
//! hardware, no X) drawing on a Unix socket the test listens on, and
//! BrlAPI on TCP port 4101 + `api` without authentication.

use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Starts brltty for the virtual display that will connect to `socket`,
/// its state in `dir`.
pub fn spawn(dir: &Path, socket: &Path, api: u16) -> Child {
    Command::new("brltty")
        .args([
            "-n",
            "-q",
            "-f",
            "/dev/null",
            "-b",
            "vr",
            "-x",
            "no",
            "-s",
            "no",
        ])
        .arg("-d")
        .arg(format!("client:{}", socket.display()))
        .arg("-A")
        .arg(format!("auth=none,host=127.0.0.1:{api}"))
        .arg("-W")
        .arg(dir)
        .arg("-P")
        .arg(dir.join("brltty.pid"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("brltty (Debian package brltty) must be installed")
}
