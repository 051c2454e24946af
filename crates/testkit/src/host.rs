//! A host for board tests: a driver on a port and an inference engine, and
//! waiting with generous deadlines for what they report (no timing luck).

use std::time::{Duration, Instant};

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};
use shakmaty::{Move, Square};
use tactus_board::event::{BoardEvent, Protocol};
use tactus_board::infer::{Inference, Inferred, Settings};
use tactus_board::link::Port;
use tactus_board::serial::{Driver, DriverConfig, DriverEvent};
use tactus_board::sim::Simulator;

pub const PATIENCE: Duration = Duration::from_secs(15);

#[derive(Debug, Clone)]
pub enum Seen {
    Board(BoardEvent),
    Unreadable,
    Inferred(Inferred),
}

pub struct Host {
    pub driver: Driver,
    pub inf: Inference,
    pub epoch: Instant,
    pub seen: Vec<Seen>,
    /// Index into `seen` up to which `expect_*` has consumed.
    cursor: usize,
}

impl Host {
    pub fn new(sim: &Simulator, protocol: Protocol, pos: Chess, settings: Settings) -> Host {
        Host::on(sim.path().into(), protocol, pos, settings)
    }

    /// A host whose driver opens `port`.
    pub fn on(port: Port, protocol: Protocol, pos: Chess, settings: Settings) -> Host {
        let mut config = DriverConfig::new(port, protocol);
        config.retry_max = Duration::from_millis(200);
        Host {
            driver: Driver::spawn(config).unwrap(),
            inf: Inference::new(pos, protocol, settings),
            epoch: Instant::now(),
            seen: Vec::new(),
            cursor: 0,
        }
    }

    /// Pumps events until `pred` holds for something seen after the cursor;
    /// moves the cursor past it and returns it.
    pub async fn until(&mut self, what: &str, pred: impl Fn(&Seen) -> bool) -> Seen {
        let give_up = tokio::time::Instant::now() + PATIENCE;
        loop {
            if let Some(i) = self.seen[self.cursor..].iter().position(&pred) {
                let found = self.seen[self.cursor + i].clone();
                self.cursor += i + 1;
                return found;
            }
            // The board is read once the driver has passed on everything
            // it sent until the settling time ran out.
            self.driver
                .read_until(self.inf.deadline().map(|d| self.epoch + d));
            match tokio::time::timeout_at(give_up, self.driver.next()).await {
                Ok(Some(stamped)) => {
                    let now = stamped.at - self.epoch;
                    match stamped.event {
                        DriverEvent::Board(e) => {
                            let out = self.inf.event(&e, now);
                            self.seen.push(Seen::Board(e));
                            self.seen.extend(out.into_iter().map(Seen::Inferred));
                        }
                        DriverEvent::ReadUpTo => {
                            let out = self.inf.tick(now);
                            self.seen.extend(out.into_iter().map(Seen::Inferred));
                        }
                        DriverEvent::Unreadable(_) => self.seen.push(Seen::Unreadable),
                    }
                }
                Ok(None) => panic!("driver stopped while waiting for {what}"),
                Err(_) => panic!(
                    "no {what} within {PATIENCE:?}; seen: {:#?}; before: {:?}",
                    &self.seen[self.cursor..],
                    &self.seen[self.cursor.saturating_sub(8)..self.cursor]
                ),
            }
        }
    }

    /// Waits for the connection and the full scan (peg) or dump that
    /// follows it.
    pub async fn connected(&mut self, _protocol: Protocol) {
        self.until("connection", |s| {
            matches!(s, Seen::Board(BoardEvent::Connected))
        })
        .await;
        self.until("full scan", |s| {
            matches!(s, Seen::Board(BoardEvent::Scan(_) | BoardEvent::Dump(_)))
        })
        .await;
    }

    /// The next move made or confirmed, in SAN.
    pub async fn moved(&mut self) -> String {
        self.next_move().await.1.to_string()
    }

    pub fn touches(&self) -> Vec<Square> {
        self.seen
            .iter()
            .filter_map(|s| match s {
                Seen::Inferred(Inferred::Touched { square, .. }) => Some(*square),
                _ => None,
            })
            .collect()
    }

    /// The next move made or confirmed, in UCI.
    pub async fn moved_uci(&mut self) -> String {
        let (mv, _) = self.next_move().await;
        UciMove::from_move(mv, CastlingMode::Standard).to_string()
    }

    /// The next move the host's engine made or confirmed.
    async fn next_move(&mut self) -> (Move, SanPlus) {
        match self
            .until("move", |s| {
                matches!(
                    s,
                    Seen::Inferred(Inferred::Moved { .. } | Inferred::Confirmed { .. })
                )
            })
            .await
        {
            Seen::Inferred(Inferred::Moved { mv, san } | Inferred::Confirmed { mv, san }) => {
                (mv, san)
            }
            other => unreachable!("{other:?}"),
        }
    }
}

pub fn zero() -> Settings {
    Settings {
        settle: Duration::ZERO,
        auto_correct: false,
    }
}
