//! Who holds a connection slot, and who makes way for whom.
//!
//! A visitor on the hall's Wi-Fi must not be able to take the slots the
//! players, assistants and arbiters need, however many addresses they
//! bring. Each open connection has a [`Standing`]:
//!
//! - **silent**: it has not sent a request head yet. Capped per client
//!   address at [`AdmissionLimits::max_silent_per_address`], far below the
//!   total, and closed by hyper's header timeout if its head does not come.
//! - **anonymous**: it sent requests, none with a token this venue knows.
//! - **known**: one of its requests carried a known token (or a stream
//!   ticket, which only a token can get).
//!
//! When every slot is taken, a new connection makes room by closing the
//! oldest silent connection, or failing that the oldest anonymous one; a
//! known connection is never closed for a newcomer. A player's request
//! therefore always finds a slot unless every slot is held by people with
//! tokens, whatever a flood's number of addresses. A connection refused at
//! the door is answered 503 and closed at once.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

/// How a connection has shown itself, from least to most trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    Silent,
    Anonymous,
    Known,
}

/// The counts the door keeps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdmissionLimits {
    /// Open connections in all.
    pub max_connections: usize,
    /// Open connections from one client (an IPv4 address, an IPv6 /64).
    pub max_per_address: usize,
    /// Connections from one client that have not sent a request yet.
    pub max_silent_per_address: usize,
}

/// Why a connection was refused at the door.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("this address has its connections without a request open already")]
    SilentAtAddress,
    #[error("this address has its connections open already")]
    Address,
    #[error("every connection is held by someone with a token")]
    Full,
}

struct Entry {
    ip: IpAddr,
    standing: Standing,
    evict: Arc<Notify>,
}

#[derive(Default, Clone, Copy)]
struct PerAddress {
    open: usize,
    silent: usize,
}

#[derive(Default)]
struct Registry {
    next: u64,
    /// By the order they came: the first of a standing is its oldest.
    open: BTreeMap<u64, Entry>,
    per: HashMap<IpAddr, PerAddress>,
    /// Connections closed to make room, since start (for the log and the
    /// tests' figures).
    evicted: u64,
}

impl Registry {
    fn remove(&mut self, id: u64) -> Option<Entry> {
        let entry = self.open.remove(&id)?;
        if let Some(p) = self.per.get_mut(&entry.ip) {
            p.open -= 1;
            if entry.standing == Standing::Silent {
                p.silent -= 1;
            }
            if p.open == 0 {
                self.per.remove(&entry.ip);
            }
        }
        Some(entry)
    }

    /// The oldest connection of the least trusted standing below `Known`.
    fn victim(&self) -> Option<u64> {
        [Standing::Silent, Standing::Anonymous]
            .into_iter()
            .find_map(|s| {
                self.open
                    .iter()
                    .find(|(_, e)| e.standing == s)
                    .map(|(id, _)| *id)
            })
    }
}

/// The door: every open connection and its standing.
#[derive(Clone)]
pub struct Admission {
    registry: Arc<Mutex<Registry>>,
    limits: AdmissionLimits,
}

/// A connection's slot: given back when dropped. The connection must close
/// when [`Held::evicted`] resolves (its slot was given to a newcomer).
pub struct Held {
    admission: Admission,
    id: u64,
    evict: Arc<Notify>,
    /// Whether the connection came when the server was nearly full (the
    /// last eighth of its slots): a request without a known token is
    /// refused there.
    pub crowded: bool,
}

/// A connection's mark, handed to its requests (an extension) so that the
/// routes can raise its standing once a token is checked.
#[derive(Clone)]
pub struct Mark {
    admission: Admission,
    id: u64,
}

impl Admission {
    pub fn new(limits: AdmissionLimits) -> Admission {
        Admission {
            registry: Arc::new(Mutex::new(Registry::default())),
            limits,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A slot for a new connection from `ip` (already a client key), or
    /// why not. At the total limit the oldest silent connection, or else
    /// the oldest anonymous one, is told to close and its slot is taken.
    pub fn admit(&self, ip: IpAddr) -> Result<Held, Refused> {
        let l = self.limits;
        let mut r = self.lock();
        let mine = r.per.get(&ip).copied().unwrap_or_default();
        if mine.silent >= l.max_silent_per_address {
            return Err(Refused::SilentAtAddress);
        }
        if mine.open >= l.max_per_address {
            return Err(Refused::Address);
        }
        if r.open.len() >= l.max_connections {
            let victim = r.victim().ok_or(Refused::Full)?;
            if let Some(gone) = r.remove(victim) {
                gone.evict.notify_one();
                r.evicted += 1;
            }
        }
        let id = r.next;
        r.next += 1;
        let evict = Arc::new(Notify::new());
        r.open.insert(
            id,
            Entry {
                ip,
                standing: Standing::Silent,
                evict: evict.clone(),
            },
        );
        let p = r.per.entry(ip).or_default();
        p.open += 1;
        p.silent += 1;
        let crowded = r.open.len() > l.max_connections - l.max_connections / 8;
        Ok(Held {
            admission: self.clone(),
            id,
            evict,
            crowded,
        })
    }

    /// Open connections now.
    pub fn open(&self) -> usize {
        self.lock().open.len()
    }

    /// Connections closed to make room since start.
    pub fn evicted(&self) -> u64 {
        self.lock().evicted
    }

    fn raise(&self, id: u64, to: Standing) {
        let mut r = self.lock();
        let Some(entry) = r.open.get_mut(&id) else {
            return;
        };
        if entry.standing >= to {
            return;
        }
        let was_silent = entry.standing == Standing::Silent;
        entry.standing = to;
        let ip = entry.ip;
        if was_silent && let Some(p) = r.per.get_mut(&ip) {
            p.silent -= 1;
        }
    }
}

impl Held {
    /// The mark its requests carry.
    pub fn mark(&self) -> Mark {
        Mark {
            admission: self.admission.clone(),
            id: self.id,
        }
    }

    /// Resolves when the connection's slot was given to a newcomer.
    pub async fn evicted(&self) {
        self.evict.notified().await;
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.admission.lock().remove(self.id);
    }
}

impl Mark {
    /// The connection sent a request head.
    pub fn spoke(&self) {
        self.admission.raise(self.id, Standing::Anonymous);
    }

    /// One of the connection's requests carried a token this venue knows:
    /// it is never closed to make room.
    pub fn known(&self) {
        self.admission.raise(self.id, Standing::Known);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn door(max: usize, per: usize, silent: usize) -> Admission {
        Admission::new(AdmissionLimits {
            max_connections: max,
            max_per_address: per,
            max_silent_per_address: silent,
        })
    }

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, n])
    }

    #[test]
    fn silent_connections_are_capped_per_address() {
        let d = door(100, 50, 4);
        let held: Vec<Held> = (0..4).map(|_| d.admit(ip(2)).unwrap()).collect();
        assert_eq!(d.admit(ip(2)).err(), Some(Refused::SilentAtAddress));
        // One of them speaks: the address may open another.
        held[0].mark().spoke();
        let fifth = d.admit(ip(2)).unwrap();
        assert_eq!(d.open(), 5);
        drop(held);
        drop(fifth);
        assert_eq!(d.open(), 0);
        assert!(d.admit(ip(2)).is_ok());
    }

    #[test]
    fn at_the_limit_the_oldest_silent_then_anonymous_make_way_never_the_known() {
        let now = |h: &Held| futures_util::FutureExt::now_or_never(h.evicted()).is_some();
        let d = door(4, 4, 4);
        let known = d.admit(ip(1)).unwrap();
        known.mark().known();
        let anon = d.admit(ip(2)).unwrap();
        anon.mark().spoke();
        let s1 = d.admit(ip(3)).unwrap();
        let s2 = d.admit(ip(4)).unwrap();
        // Full: the oldest silent ones go first.
        let n1 = d.admit(ip(5)).unwrap();
        assert!(now(&s1) && !now(&s2));
        let n2 = d.admit(ip(6)).unwrap();
        assert!(now(&s2));
        assert_eq!((d.evicted(), d.open()), (2, 4));
        // A dropped connection that was told to close changes nothing.
        drop((s1, s2));
        assert_eq!(d.open(), 4);
        // No silent one left: the oldest anonymous goes.
        n1.mark().spoke();
        n2.mark().spoke();
        let n3 = d.admit(ip(7)).unwrap();
        assert!(now(&anon) && !now(&n1));
        // A newcomer is silent: the next one makes it go first.
        let n4 = d.admit(ip(8)).unwrap();
        assert!(now(&n3) && !now(&n1));
        n4.mark().spoke();
        let _n5 = d.admit(ip(9)).unwrap();
        assert!(now(&n1) && !now(&known));
        // The known one stays through any number of newcomers.
        for n in 10..40 {
            drop(d.admit(ip(n)).unwrap());
        }
        assert!(!now(&known));
        // Every slot known: the door refuses.
        let d = door(2, 2, 2);
        let a = d.admit(ip(1)).unwrap();
        let b = d.admit(ip(2)).unwrap();
        a.mark().known();
        b.mark().known();
        assert_eq!(d.admit(ip(3)).err(), Some(Refused::Full));
    }

    #[test]
    fn the_last_eighth_of_the_slots_is_crowded() {
        let d = door(16, 16, 16);
        let held: Vec<Held> = (0..16).map(|n| d.admit(ip(n)).unwrap()).collect();
        let crowded: Vec<bool> = held.iter().map(|h| h.crowded).collect();
        assert_eq!(crowded.iter().filter(|c| **c).count(), 2);
        assert!(crowded[14] && crowded[15]);
    }

    #[test]
    fn connections_per_address_are_capped() {
        let d = door(100, 3, 3);
        let held: Vec<Held> = (0..3)
            .map(|_| {
                let h = d.admit(ip(2)).unwrap();
                h.mark().spoke();
                h
            })
            .collect();
        assert_eq!(d.admit(ip(2)).err(), Some(Refused::Address));
        assert!(d.admit(ip(3)).is_ok());
        drop(held);
    }
}
