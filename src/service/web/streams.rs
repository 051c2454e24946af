//! Live streams cannot starve the players' requests. A stream holds its
//! connection for hours; a visitor on the hall's Wi-Fi opening hundreds of
//! them would fill the connection limits and leave the assistant's next
//! move without a slot. So streams opened without a ticket are capped
//! far below the connection limit: per client (an IPv4 address, an IPv6
//! /64), per table, and in all. A page with a token first asks its
//! table for a ticket (`POST /api/tables/{id}/stream-ticket`, the token in
//! the header as for every write), then opens its stream with `?ticket=`:
//! such a stream is not capped (tokens are never put in a URL; a ticket is
//! single-use and lasts a minute). Every count is released when its
//! stream ends.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::table::id::TableId;

/// Streams without a ticket from one client (IPv4 address, IPv6 /64).
pub const PER_CLIENT: usize = 8;
/// Streams without a ticket watching one table.
pub const PER_TABLE: usize = 32;
/// Streams without a ticket in all (of 1024 connections by default).
pub const TOTAL: usize = 128;
/// Tickets waiting to be used; beyond, the oldest are dropped.
pub const MAX_TICKETS: usize = 4096;
/// How long a ticket may wait before its stream opens.
pub const TICKET_LIFE: Duration = Duration::from_secs(60);

#[derive(Default)]
struct Counts {
    by_client: HashMap<IpAddr, usize>,
    by_table: HashMap<TableId, usize>,
    total: usize,
    tickets: HashMap<String, (TableId, Instant)>,
}

/// The live streams' counts and the tickets, shared by the routes.
#[derive(Default, Clone)]
pub struct StreamGate {
    counts: Arc<Mutex<Counts>>,
}

/// Why a stream without a ticket was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Full {
    #[error("this device has {PER_CLIENT} live streams open already: close a page first")]
    Client,
    #[error(
        "table `{0}` has {PER_TABLE} live streams from pages without a token: pages with a token still connect"
    )]
    Table(TableId),
    #[error(
        "the server has {TOTAL} live streams from pages without a token: pages with a token still connect"
    )]
    Total,
}

/// A stream's place in the counts, given back when it ends.
pub struct Permit {
    gate: StreamGate,
    client: IpAddr,
    table: TableId,
    counted: bool,
}

impl Permit {
    /// The stream came with a valid ticket (which only a token can get).
    pub fn ticketed(&self) -> bool {
        !self.counted
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if !self.counted {
            return;
        }
        let mut c = self.gate.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.total = c.total.saturating_sub(1);
        for (map, key) in [(&mut c.by_client, self.client)] {
            if let Some(n) = map.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&key);
                }
            }
        }
        if let Some(n) = c.by_table.get_mut(&self.table) {
            *n -= 1;
            if *n == 0 {
                c.by_table.remove(&self.table);
            }
        }
    }
}

impl StreamGate {
    /// A new ticket for one stream of table `table`.
    pub fn ticket(&self, table: &TableId) -> Result<String, getrandom::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)?;
        let ticket: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let now = Instant::now();
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.tickets
            .retain(|_, (_, at)| now.duration_since(*at) < TICKET_LIFE);
        if c.tickets.len() >= MAX_TICKETS
            && let Some(oldest) = c
                .tickets
                .iter()
                .min_by_key(|(_, (_, at))| *at)
                .map(|(k, _)| k.clone())
        {
            c.tickets.remove(&oldest);
        }
        c.tickets.insert(ticket.clone(), (table.clone(), now));
        Ok(ticket)
    }

    /// A stream of `table` for `client`: with a valid ticket (used up
    /// here) it is not capped; without, it takes a place under every cap.
    pub fn admit(
        &self,
        client: IpAddr,
        table: &TableId,
        ticket: Option<&str>,
    ) -> Result<Permit, Full> {
        let client = super::listener::client_key(client);
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let permit = |counted| Permit {
            gate: self.clone(),
            client,
            table: table.clone(),
            counted,
        };
        if let Some(t) = ticket
            && let Some((for_table, at)) = c.tickets.remove(t)
            && &for_table == table
            && at.elapsed() < TICKET_LIFE
        {
            return Ok(permit(false));
        }
        if c.by_client.get(&client).copied().unwrap_or(0) >= PER_CLIENT {
            return Err(Full::Client);
        }
        if c.by_table.get(table).copied().unwrap_or(0) >= PER_TABLE {
            return Err(Full::Table(table.clone()));
        }
        if c.total >= TOTAL {
            return Err(Full::Total);
        }
        c.total += 1;
        *c.by_client.entry(client).or_insert(0) += 1;
        *c.by_table.entry(table.clone()).or_insert(0) += 1;
        Ok(permit(true))
    }

    /// Streams without a ticket open now (for the tests and the figures).
    pub fn open(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cap_holds_and_a_ticket_passes_them_once() {
        let gate = StreamGate::default();
        let one: TableId = "1".parse().unwrap();
        let me: IpAddr = "192.168.1.9".parse().unwrap();
        let mine: Vec<Permit> = (0..PER_CLIENT)
            .map(|_| gate.admit(me, &one, None).unwrap())
            .collect();
        assert_eq!(gate.admit(me, &one, None).err(), Some(Full::Client));
        // An IPv6 laptop counts once per /64.
        let v6 = |n: u16| -> IpAddr { format!("2001:db8:0:1::{n:x}").parse().unwrap() };
        let laptop: Vec<Permit> = (0..PER_CLIENT as u16)
            .map(|n| gate.admit(v6(n), &one, None).unwrap())
            .collect();
        assert_eq!(gate.admit(v6(99), &one, None).err(), Some(Full::Client));
        // A ticket passes, once, for its table only.
        let t = gate.ticket(&one).unwrap();
        let other: TableId = "2".parse().unwrap();
        assert_eq!(gate.admit(me, &other, Some(&t)).err(), Some(Full::Client));
        let t = gate.ticket(&one).unwrap();
        let _ok = gate.admit(me, &one, Some(&t)).unwrap();
        assert_eq!(gate.admit(me, &one, Some(&t)).err(), Some(Full::Client));
        assert_eq!(gate.open(), 2 * PER_CLIENT);
        // The table's cap, from many clients.
        let many: Vec<Permit> = (0..(PER_TABLE - 2 * PER_CLIENT))
            .map(|n| {
                gate.admit(format!("10.0.{}.1", n).parse().unwrap(), &one, None)
                    .unwrap()
            })
            .collect();
        assert_eq!(
            gate.admit("10.9.9.9".parse().unwrap(), &one, None).err(),
            Some(Full::Table(one.clone()))
        );
        // Released as the streams end.
        drop((mine, laptop, many));
        assert_eq!(gate.open(), 0);
        assert!(gate.admit(me, &one, None).is_ok());
    }

    #[test]
    fn tickets_are_bounded() {
        let gate = StreamGate::default();
        let one: TableId = "1".parse().unwrap();
        let first = gate.ticket(&one).unwrap();
        for _ in 0..MAX_TICKETS {
            gate.ticket(&one).unwrap();
        }
        let c = gate.counts.lock().unwrap();
        assert_eq!(c.tickets.len(), MAX_TICKETS);
        assert!(!c.tickets.contains_key(&first), "the oldest dropped");
    }
}
