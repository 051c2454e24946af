//! The log lines a test's process writes, kept for the test to read:
//! `tracing` formatted into memory instead of onto stderr.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Every formatted log line so far.
#[derive(Clone, Default)]
pub struct Caught(Arc<Mutex<Vec<u8>>>);

impl Write for Caught {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Caught {
    /// Makes `tracing` write every event of INFO and above here (once per
    /// test process: a test file that catches its log has one test).
    pub fn install() -> Caught {
        let caught = Caught::default();
        let writer = caught.clone();
        tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::INFO)
            .init();
        caught
    }

    /// The lines written so far.
    pub fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .map(str::to_owned)
            .collect()
    }
}
