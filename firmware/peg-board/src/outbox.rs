//! The lines waiting for a port. A port may not take them as fast as they
//! come (a UART at 115200 baud takes about 11 bytes a millisecond; a USB
//! host may not be reading at all), so each port has a bounded queue of
//! [`CAPACITY`] bytes. A line that does not fit is not sent, and neither
//! is any later change: the queue is marked, and once there is room again
//! the port gets a scan (`S`) of the board as it stands instead, from which
//! the host reads what it missed (tactus follows a board from its scans).

use heapless::Deque;

/// Bytes waiting per port: about 80 lines of changes, several seconds of
/// the busiest hands.
pub const CAPACITY: usize = 512;

pub struct Outbox {
    bytes: Deque<u8, CAPACITY>,
    /// Lines were dropped: a scan is owed before any further change.
    owes_scan: bool,
}

impl Default for Outbox {
    fn default() -> Self {
        Self::new()
    }
}

impl Outbox {
    pub const fn new() -> Self {
        Outbox {
            bytes: Deque::new(),
            owes_scan: false,
        }
    }

    /// Queues a whole line, or none of it (and owes a scan).
    pub fn line(&mut self, line: &str) {
        if self.owes_scan {
            return;
        }
        if CAPACITY - self.bytes.len() < line.len() {
            self.owes_scan = true;
            return;
        }
        for &b in line.as_bytes() {
            let _ = self.bytes.push_back(b);
        }
    }

    /// Whether a scan is owed (lines were dropped); once the queue has
    /// room for it, `scan` gives the line to queue and clears the debt.
    pub fn owed_scan(&mut self, scan: impl FnOnce() -> crate::protocol::Line) {
        if self.owes_scan && CAPACITY - self.bytes.len() >= 20 {
            self.owes_scan = false;
            self.line(&scan());
        }
    }

    /// Whether anything waits.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Hands the waiting bytes, front first, to `write`, which says how
    /// many it took (0 when the port is full).
    pub fn drain(&mut self, mut write: impl FnMut(&[u8]) -> usize) {
        let mut chunk = [0u8; 64];
        while !self.bytes.is_empty() {
            let n = self.bytes.len().min(chunk.len());
            for (i, b) in self.bytes.iter().take(n).enumerate() {
                chunk[i] = *b;
            }
            let took = write(&chunk[..n]).min(n);
            for _ in 0..took {
                self.bytes.pop_front();
            }
            if took < n {
                break;
            }
        }
    }

    /// Drops everything waiting (a host went away), owing nothing: a host
    /// that connects asks for a scan.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.owes_scan = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol;

    #[test]
    fn a_full_queue_drops_whole_lines_and_owes_a_scan() {
        let mut o = Outbox::new();
        let mut n = 0;
        while !o.owes_scan {
            o.line(&protocol::put(n % 64));
            n += 1;
        }
        assert_eq!(o.bytes.len(), CAPACITY - CAPACITY % 5, "whole lines only");
        o.line(&protocol::lifted(3));
        // The port takes 100 bytes: room for the scan.
        let mut sent = Vec::new();
        o.drain(|b| {
            let take = b.len().min(100 - sent.len());
            sent.extend_from_slice(&b[..take]);
            take
        });
        assert_eq!(sent.len(), 100);
        o.owed_scan(|| protocol::scan(0xffff));
        let mut rest = Vec::new();
        o.drain(|b| {
            rest.extend_from_slice(b);
            b.len()
        });
        let text = String::from_utf8(rest).unwrap();
        let last = protocol::put((n - 2) % 64);
        assert!(
            text.ends_with(&format!("{last}S 000000000000ffff\n")),
            "{text}"
        );
        assert!(
            !text.contains("L d1"),
            "no change after a dropped one: {text}"
        );
    }

    #[test]
    fn a_slow_port_gets_the_bytes_in_order() {
        let mut o = Outbox::new();
        for i in 0..10 {
            o.line(&protocol::lifted(i));
        }
        let mut sent = Vec::new();
        while !o.is_empty() {
            o.drain(|b| {
                sent.push(b[0]);
                1
            });
        }
        assert_eq!(
            sent,
            (0..10)
                .flat_map(|i| protocol::lifted(i).into_bytes())
                .collect::<Vec<_>>()
        );
    }
}
