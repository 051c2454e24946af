//! The boards wired to a table: their events, what the inference engine
//! concludes from them, and keeping every board in step with the game.

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

use super::actions::{Action, PersonRole};
use super::actor::{Reply, TableActor};
use super::id::TableId;
use super::timebase::Timebase;
use tactus_board::event::{BoardEvent, Protocol};
use tactus_board::infer::{Inference, Inferred, Settings, promotion_button};
use tactus_board::serial::{Driver, DriverEvent, Stamped};
use tactus_board::sim::Simulator;
use tactus_rules::clock::ClockSetting;
use tactus_rules::clock_announce::Shown;
use tactus_rules::event::GameEvent;
use tactus_rules::game::NoticeKind;
use tactus_rules::time_control::Bonus;
use tactus_rules::token::Word;

/// A board wired to the table.
pub struct BoardLink {
    pub driver: Driver,
    pub protocol: Protocol,
    pub settings: Settings,
    /// A simulated board on which moves not made on it are carried out, as
    /// a blind player would (the demo and tests without hardware).
    pub mirror: Option<Simulator>,
    /// The hello (`H` line: the firmware's name and serial number) the
    /// venue pinned: a board that answers with another, or not at all, is
    /// not followed. Across the hall (`rfc2217://table3.local`) anyone may
    /// answer a name; the pin says which board is the blind player's.
    pub pin: Option<String>,
}

/// Whether a pinned board has said who it is since it connected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Identity {
    /// Not pinned, or pinned and its hello matched: followed.
    Known,
    /// Pinned, and no hello yet since it connected: not followed.
    Unsaid,
    /// Pinned, and it said another hello: refused, named.
    Other(String),
}

pub(super) struct LiveBoard {
    /// Whose moves are made on this board.
    pub(super) side: Color,
    pub(super) driver: Driver,
    pub(super) mirror: Option<Simulator>,
    pub(super) protocol: Protocol,
    pub(super) inference: Inference,
    pub(super) connected: bool,
    /// Squares the board differs at, once it has been still and wrong.
    pub(super) differs: Vec<String>,
    /// The pinned hello, if the venue gave one.
    pub(super) pin: Option<String>,
    pub(super) identity: Identity,
}

/// The boards wired to a table, the blind player's first, then the
/// opponent's, if any: each with its driver, what its inference engine
/// concludes and where it differs. Indexed as the table knows them (the
/// index a board event comes with).
#[derive(Default)]
pub(super) struct Boards {
    all: Vec<LiveBoard>,
}

impl Boards {
    /// Wires `links` (each with the side whose moves are made on it) to a
    /// game standing at `position`.
    pub(super) fn wire(links: [(Color, Option<BoardLink>); 2], position: &Chess) -> Boards {
        let live_board = |side: Color, mut b: BoardLink| LiveBoard {
            side,
            // A simulated board resumes at the game's position.
            mirror: b.mirror.take().map(|mut sim| {
                sim.set_board(position.board().clone());
                sim
            }),
            inference: Inference::new(position.clone(), b.protocol, b.settings),
            driver: b.driver,
            protocol: b.protocol,
            connected: false,
            differs: Vec::new(),
            identity: if b.pin.is_some() {
                Identity::Unsaid
            } else {
                Identity::Known
            },
            pin: b.pin,
        };
        let all = links
            .into_iter()
            .filter_map(|(side, b)| b.map(|b| live_board(side, b)))
            .collect();
        Boards { all }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    pub(super) fn len(&self) -> usize {
        self.all.len()
    }

    pub(super) fn get(&self, at: usize) -> Option<&LiveBoard> {
        self.all.get(at)
    }

    pub(super) fn get_mut(&mut self, at: usize) -> Option<&mut LiveBoard> {
        self.all.get_mut(at)
    }

    /// The board on which `side`'s moves are made, if any.
    pub(super) fn of(&self, side: Color) -> Option<&LiveBoard> {
        self.all.iter().find(|b| b.side == side)
    }

    /// The first board with a promotion waiting for its piece, among those
    /// of `own` (every board if `None`).
    pub(super) fn promotion_on(&self, own: Option<Color>) -> Option<usize> {
        self.all.iter().position(|b| {
            b.inference.promotion_pending().is_some() && own.is_none_or(|s| s == b.side)
        })
    }

    /// Whether any board has a promotion waiting for its piece.
    pub(super) fn promotion_waiting(&self) -> bool {
        self.all
            .iter()
            .any(|b| b.inference.promotion_pending().is_some())
    }

    /// A board whose driver stopped: the table goes on without it.
    pub(super) fn remove(&mut self, at: usize) {
        self.all.remove(at);
    }

    /// Has every board but `made_on` follow move `m` (`uci` as the journal
    /// writes it), just made at `now` in the game now at `position`.
    pub(super) fn follow(
        &mut self,
        m: Move,
        uci: UciMove,
        made_on: Option<usize>,
        position: &Chess,
        now: Duration,
        table: &TableId,
    ) {
        let squares = match UciMove::from_standard(m) {
            UciMove::Normal { from, to, .. } => Some((from, to)),
            _ => None,
        };
        for (i, board) in self.all.iter_mut().enumerate() {
            // A board with LEDs shows the move until it is carried out on it.
            let shown = if Some(i) == made_on { None } else { squares };
            board.driver.show_move(shown);
            if Some(i) == made_on {
                continue;
            }
            // The player at this board carries out the move on it; the
            // engine follows that.
            if board.inference.expect(m, now).is_err() {
                board.inference =
                    Inference::new(position.clone(), board.protocol, board.inference.settings());
            }
            if let Some(sim) = board.mirror.as_mut()
                && let Err(e) = sim.play(&uci.to_string(), false)
            {
                tracing::warn!(table = %table, "simulated board: {e}");
            }
        }
    }

    /// Starts following from `position` again (after a refused board move
    /// or a ruling): every board is read afresh.
    pub(super) fn resync(&mut self, position: &Chess) {
        for b in &mut self.all {
            let settings = b.inference.settings();
            b.inference = Inference::new(position.clone(), b.protocol, settings);
            b.driver
                .send(tactus_board::event::decoder(b.protocol).scan_request());
        }
    }

    /// A new game at `position` whose blind player plays `blind` (and
    /// played `blind_before`): the blind player's board stays theirs,
    /// whatever colour they have now; so does the opponent's.
    pub(super) fn new_game(&mut self, blind_before: Color, blind: Color, position: &Chess) {
        for b in &mut self.all {
            b.side = if b.side == blind_before {
                blind
            } else {
                !blind
            };
            if let Some(sim) = b.mirror.as_mut() {
                sim.set_board(position.board().clone());
            }
            b.differs.clear();
        }
    }

    /// The earliest settling time that no driver instant matches (on a
    /// manual time), for the table's timer. A board whose settling time
    /// an instant matches is told to read up to it (`ReadUpTo`).
    pub(super) fn settle_at(&self, time: &Timebase) -> Option<Duration> {
        self.all
            .iter()
            .filter_map(|b| {
                let d = b.inference.deadline();
                let at = d.and_then(|d| time.instant_of(d));
                b.driver.read_until(at);
                d.filter(|_| at.is_none())
            })
            .min()
    }

    /// What board `at` concludes if its settling time (one no driver
    /// instant matches) has run out by `now`.
    pub(super) fn settle_due(
        &mut self,
        at: usize,
        now: Duration,
        time: &Timebase,
    ) -> Vec<Inferred> {
        let board = &mut self.all[at];
        if board
            .inference
            .deadline()
            .is_some_and(|d| d <= now && time.instant_of(d).is_none())
        {
            board.inference.tick(now)
        } else {
            Vec::new()
        }
    }

    /// The next event of any board, with the board's index.
    pub(super) async fn next_event(&mut self) -> (usize, Option<Stamped>) {
        if self.all.is_empty() {
            return std::future::pending().await;
        }
        let next = self
            .all
            .iter_mut()
            .enumerate()
            .map(|(i, b)| Box::pin(async move { (i, b.driver.next().await) }));
        futures_util::future::select_all(next).await.0
    }
}

impl std::ops::Index<usize> for Boards {
    type Output = LiveBoard;
    fn index(&self, at: usize) -> &LiveBoard {
        &self.all[at]
    }
}

impl std::ops::IndexMut<usize> for Boards {
    fn index_mut(&mut self, at: usize) -> &mut LiveBoard {
        &mut self.all[at]
    }
}

impl TableActor {
    /// Has every board but `made_on` follow move `m`, just made.
    pub(super) fn follow(&mut self, m: Move, made_on: Option<usize>) {
        let uci = self.uci(m);
        let position = self.game.position();
        let (now, table) = (self.time.last(), &self.setup.id);
        self.boards.follow(m, uci, made_on, position, now, table);
    }

    pub(super) async fn board_event(&mut self, at: usize, stamped: Stamped) {
        // The instant the driver read the event, not when the table got to
        // it (never before an instant already used).
        let now = self.time.at(stamped.at);
        let stamped_unsure = stamped.unsure;
        let event = match stamped.event {
            // Counted and logged in summary by the driver (a noisy line
            // would otherwise write a log line per piece of garbage).
            DriverEvent::Unreadable(_) => return,
            // Everything the board sent until its settling time ran out has
            // been read: judge it now.
            DriverEvent::ReadUpTo => {
                for i in self.boards[at].inference.tick(now) {
                    self.inferred(at, i).await;
                }
                return;
            }
            DriverEvent::Board(e) => e,
        };
        // A pinned board is followed only once it has said the pinned
        // hello since it connected: anything else it sends is ignored.
        let pinned = self.boards[at].pin.clone();
        match (&event, &pinned) {
            (BoardEvent::Connected, Some(_)) => {
                self.boards[at].identity = Identity::Unsaid;
            }
            (BoardEvent::Hello(said), Some(pin)) => {
                let identity = if said == pin {
                    Identity::Known
                } else {
                    tracing::warn!(
                        table = %self.setup.id,
                        "a board answered `{said}`, not the pinned `{pin}`: not followed"
                    );
                    Identity::Other(said.clone())
                };
                if self.boards[at].identity != identity {
                    self.boards[at].identity = identity;
                    self.publish_state();
                }
                return;
            }
            (BoardEvent::Disconnected(_), _) => {}
            (_, Some(_)) if self.boards[at].identity != Identity::Known => return,
            _ => {}
        }
        match &event {
            BoardEvent::Connected => {
                self.boards[at].connected = true;
                self.announcer
                    .say(NoticeKind::Board, vec![Word::BoardConnected.into()]);
                self.publish_state();
            }
            BoardEvent::Disconnected(why) => {
                tracing::warn!(table = %self.setup.id, "board disconnected: {why}");
                self.boards[at].connected = false;
                self.announcer
                    .say(NoticeKind::Board, vec![Word::BoardDisconnected.into()]);
                self.publish_state();
            }
            BoardEvent::Button(n) => {
                // The hand is on the frame, off the pieces: a move (or a
                // promotion) the board shows is read now.
                for i in self.boards[at].inference.read_now(now) {
                    self.inferred(at, i).await;
                }
                let pending = self.boards[at].inference.promotion_pending().is_some();
                let action = match (pending, *n) {
                    (true, n) => promotion_button(n).map(Action::NamePromotion),
                    // The frame buttons: 1 the clock, 2 repeat, 3 which holes differ.
                    (false, 1) => Some(Action::SayClock { time: None }),
                    // 4: the other way (time used if the table tells the
                    // time left, and the reverse: D.2.6.1, D.2.10.4).
                    (false, 4) => Some(Action::SayClock {
                        time: Some(match self.shown {
                            Shown::Remaining => Shown::Used,
                            Shown::Used => Shown::Remaining,
                        }),
                    }),
                    (false, 2) => Some(Action::Repeat),
                    (false, 3) => Some(Action::BoardDifferences),
                    _ => None,
                };
                // The frame's buttons are its player's: the blind player's
                // board, or the second blind player's.
                let role = if self.boards[at].side == self.setup.blind {
                    PersonRole::Player
                } else {
                    PersonRole::Opponent
                };
                if let Some(action) = action
                    && let Err(e) = self.act(role, action).await
                {
                    tracing::info!(table = %self.setup.id, "frame button {n}: {e}");
                }
            }
            _ => {
                let inferred = self.boards[at]
                    .inference
                    .event_unsure(&event, now, stamped_unsure);
                for i in inferred {
                    self.inferred(at, i).await;
                }
            }
        }
    }

    /// Acts on what the inference engine concluded.
    pub(super) async fn inferred(&mut self, at: usize, inferred: Inferred) -> Option<Reply> {
        let side = self.boards.get(at)?.side;
        match inferred {
            Inferred::Moved { mv, .. } => {
                let theirs = self.game.position().turn() == side;
                let result = if theirs && self.game.result().is_none() {
                    self.play(mv, Some(at)).await
                } else {
                    Err(super::actor::Unprocessable::NotTheirMove { side }.into())
                };
                match result {
                    Ok(reply) => {
                        // The board shows the move made: a difference it
                        // showed on the way (a piece in a wrong hole) is gone.
                        if let Some(b) = self.boards.get_mut(at) {
                            b.differs.clear();
                        }
                        return Some(reply);
                    }
                    Err(e) => {
                        tracing::info!(table = %self.setup.id, "board move not made: {e}");
                        let text = self.uci(mv);
                        let _ = self
                            .commit(GameEvent::IllegalAttempt {
                                side,
                                text: format!("{text} ({e})"),
                            })
                            .await;
                        self.resync_board();
                    }
                }
            }
            Inferred::Confirmed { .. } | Inferred::Agrees => {
                if matches!(inferred, Inferred::Confirmed { .. }) {
                    self.boards[at].driver.show_move(None);
                }
                self.boards[at].differs.clear();
                self.publish_state();
            }
            Inferred::Touched { square, .. } => {
                let _ = self.commit(GameEvent::Touched { side, square }).await;
            }
            Inferred::PromotionPending { .. } => {
                return Some(
                    self.announcer
                        .say(NoticeKind::Board, vec![Word::Promotion.into()]),
                );
            }
            Inferred::Differs(fixes) => {
                self.boards[at].differs = fixes.squares().iter().map(|s| s.to_string()).collect();
                self.publish_state();
            }
            Inferred::Correction(tokens) => {
                return Some(self.announcer.say(NoticeKind::Board, tokens));
            }
            Inferred::Corrected { retracted, mv, .. } => {
                return self.correct_slide(at, retracted, mv).await;
            }
        }
        None
    }

    /// The sighted player's move `retracted`, read on their board, was a
    /// slide resting on its way: the piece went on to make `mv`, one move.
    /// Journaled as a correction (the ply retracted with the clocks as
    /// they would have stood, then `mv` played), and said: the retraction's
    /// notice, then `mv` announced, before the blind player replies. If the
    /// game has moved on since (or `retracted` is not its last move), the
    /// boards are read afresh instead.
    async fn correct_slide(&mut self, at: usize, retracted: Move, mv: Move) -> Option<Reply> {
        let side = self.boards.get(at)?.side;
        let plies = self.game.plies();
        let last_is_it = plies.last().is_some_and(|p| p.uci == self.uci(retracted))
            && self.game.position().turn() != side
            && self.game.result().is_none()
            && self.announcer.announcing.is_none()
            && matches!(
                self.game.clock().state(),
                tactus_rules::clock::ClockState::Running { .. }
            );
        if !last_is_it {
            tracing::info!(table = %self.setup.id, "slide correction too late: boards read afresh");
            self.resync_board();
            return None;
        }
        let now = self.time.now();
        let clock = self.clock_before_slide(side, now);
        let n = self.game.plies().len();
        let undo = GameEvent::Retracted {
            plies: n - 1,
            clock: Some(clock),
            slid: true,
        };
        if let Err(e) = self.commit(undo).await {
            tracing::warn!(table = %self.setup.id, "slide correction refused: {e}");
            self.resync_board();
            return None;
        }
        if let Err(e) = self.commit(GameEvent::ClockResumed).await {
            tracing::warn!(table = %self.setup.id, "slide correction: clock not resumed: {e}");
        }
        match self.play(mv, Some(at)).await {
            Ok(reply) => {
                if let Some(b) = self.boards.get_mut(at) {
                    b.differs.clear();
                }
                Some(reply)
            }
            Err(e) => {
                tracing::warn!(table = %self.setup.id, "slide correction: {e}");
                self.resync_board();
                None
            }
        }
    }

    /// The clocks as they would stand now had the last move (the mover's,
    /// `mover`) not been made: the mover's clock running since their turn
    /// began, the other side's time as it was when the move was read.
    fn clock_before_slide(&self, mover: Color, now: std::time::Duration) -> ClockSetting {
        let clock = self.game.clock();
        let mut setting = clock.setting(now);
        let plies = self.game.plies();
        let n = plies.len();
        let left = |p: &tactus_rules::game::Ply, c: Color| match c {
            Color::White => p.white_left,
            Color::Black => p.black_left,
        };
        let last = &plies[n - 1];
        // The mover's time: from the ply before (the start of their turn),
        // less the time since; for the game's first move, the time the move
        // left them less the time since it and the increment it brought.
        let mover_time = match n.checked_sub(2).map(|i| &plies[i]) {
            Some(before) => left(before, mover).saturating_sub(now.saturating_sub(before.at)),
            None => {
                let inc = match clock.control().period(clock.period(mover)).bonus {
                    Bonus::Increment(inc) => inc,
                    _ => std::time::Duration::ZERO,
                };
                left(last, mover)
                    .saturating_sub(inc)
                    .saturating_sub(now.saturating_sub(last.at))
            }
        };
        let other_time = left(last, !mover);
        match mover {
            Color::White => {
                setting.white = mover_time;
                setting.black = other_time;
                setting.white_moves = setting.white_moves.saturating_sub(1);
            }
            Color::Black => {
                setting.black = mover_time;
                setting.white = other_time;
                setting.black_moves = setting.black_moves.saturating_sub(1);
            }
        }
        setting.to_move = mover;
        setting
    }

    /// Starts following from the game's position again (after a refused
    /// board move or a ruling).
    pub(super) fn resync_board(&mut self) {
        self.boards.resync(self.game.position());
    }
}
