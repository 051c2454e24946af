//! Debian's ser2net for the network tests: the library's own runner
//! (`tactus_testkit::ser2net`, which the network benchmark uses too), with
//! failures turned into test panics. `scripts/test` installs ser2net.

#![allow(dead_code)]

use std::path::Path;

use tactus_board::event::Protocol;
pub use tactus_testkit::ser2net::Kind;

/// A running ser2net; killed when dropped.
pub struct Ser2net {
    inner: tactus_testkit::ser2net::Ser2net,
    pub port: u16,
}

/// ser2net's line setting for `protocol`'s default framing.
pub fn line(protocol: Protocol) -> String {
    tactus_testkit::ser2net::line(protocol.framing(protocol.default_baud()))
}

impl Ser2net {
    /// Starts ser2net in `dir` serving `device` on a free loopback port.
    pub fn start(dir: &Path, device: &Path, line: &str, kind: Kind) -> Ser2net {
        let inner = tactus_testkit::ser2net::Ser2net::start(dir, device, line, kind)
            .unwrap_or_else(|e| panic!("{e} (scripts/test installs ser2net)"));
        Ser2net {
            port: inner.port,
            inner,
        }
    }

    /// Starts it again and waits until it listens.
    pub fn restart(&mut self) {
        self.inner.restart().unwrap();
    }

    /// Kills it (SIGKILL) and waits until its port is closed.
    pub fn kill(&mut self) {
        self.inner.kill().unwrap();
    }
}
