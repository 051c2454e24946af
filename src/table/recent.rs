//! The table's last announcements, kept so a page that lost its connection
//! (a phone's Wi-Fi at the venue) is told on its return what was said
//! while it was away, in order and once.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;

use super::view::Announcement;

/// How many announcements are kept: about twenty moves with their clock
/// and draw notices, more than a phone misses in a Wi-Fi drop. Older ones
/// are forgotten; a page asking from before them is told some are lost.
pub const RECENT_LIMIT: usize = 64;

/// Shared by the table (which adds) and the web layer (which reads); the
/// lock is held only to copy a few announcements.
#[derive(Clone, Default)]
pub struct Recent {
    kept: Arc<Mutex<VecDeque<Announcement>>>,
}

/// What a returning page missed.
#[derive(Debug, Clone, Serialize)]
pub struct Missed {
    /// The announcements after the one the page had, oldest first.
    pub announcements: Vec<Announcement>,
    /// False when some were forgotten (more than [`RECENT_LIMIT`] since),
    /// or the page's number is not this table's (the service restarted
    /// and numbers began again).
    pub complete: bool,
}

impl Recent {
    /// Keeps `a`, forgetting the oldest beyond the limit.
    pub fn push(&self, a: Announcement) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() == RECENT_LIMIT {
            kept.pop_front();
        }
        kept.push_back(a);
    }

    /// The number of the newest announcement (0: none yet).
    pub fn newest(&self) -> u64 {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.back().map_or(0, |a| a.seq)
    }

    /// The announcements after number `seq` (the last one the page had).
    pub fn since(&self, seq: u64) -> Missed {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let newest = kept.back().map_or(0, |a| a.seq);
        if seq > newest {
            // A number this table never gave: the service restarted.
            return Missed {
                announcements: kept.iter().cloned().collect(),
                complete: false,
            };
        }
        let oldest = kept.front().map_or(newest + 1, |a| a.seq);
        Missed {
            announcements: kept.iter().filter(|a| a.seq > seq).cloned().collect(),
            complete: seq + 1 >= oldest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tactus_rules::game::NoticeKind;

    fn said(seq: u64) -> Announcement {
        Announcement {
            seq,
            kind: NoticeKind::Move,
            text: format!("move {seq}"),
            tokens: Vec::new(),
        }
    }

    fn seqs(m: &Missed) -> Vec<u64> {
        m.announcements.iter().map(|a| a.seq).collect()
    }

    #[test]
    fn a_page_gets_what_came_after_its_last_in_order() {
        let r = Recent::default();
        for seq in 1..=5 {
            r.push(said(seq));
        }
        let m = r.since(2);
        assert_eq!(seqs(&m), vec![3, 4, 5]);
        assert!(m.complete);
        let m = r.since(5);
        assert!(m.announcements.is_empty());
        assert!(m.complete);
    }

    #[test]
    fn at_the_limit_the_oldest_are_forgotten_and_the_page_is_told() {
        let r = Recent::default();
        let total = RECENT_LIMIT as u64 + 10;
        for seq in 1..=total {
            r.push(said(seq));
        }
        // Kept: 11 ..= total.
        let m = r.since(10);
        assert_eq!(m.announcements.len(), RECENT_LIMIT);
        assert!(m.complete, "nothing after 10 was forgotten");
        let m = r.since(3);
        assert_eq!(m.announcements.first().map(|a| a.seq), Some(11));
        assert!(!m.complete, "4 to 10 were forgotten");
    }

    #[test]
    fn a_number_from_before_a_restart_is_not_trusted() {
        let r = Recent::default();
        r.push(said(1));
        r.push(said(2));
        let m = r.since(40);
        assert_eq!(seqs(&m), vec![1, 2]);
        assert!(!m.complete);
        // An empty table (nothing said yet): nothing, and nothing lost but
        // the page's number is unknown here.
        let m = Recent::default().since(3);
        assert!(m.announcements.is_empty());
        assert!(!m.complete);
        assert!(Recent::default().since(0).complete);
    }
}
