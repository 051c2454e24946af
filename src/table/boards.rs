//! The boards wired to a table: their events, what the inference engine
//! concludes from them, and keeping every board in step with the game.

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position, Role, Square};

use super::actions::Action;
use super::id::TableId;
use super::timebase::Timebase;
use super::view::BoardView;
use tactus_board::event::{BoardEvent, Protocol};
use tactus_board::follow::Physical;
use tactus_board::infer::{
    DEBOUNCED_SETTLE, InferError, Inference, Inferred, Settings, promotion_button,
};
use tactus_board::serial::{Driver, DriverEvent, Stamped};
use tactus_board::sim::Simulator;
use tactus_rules::clock_announce::Shown;
use tactus_rules::token::{Token, Word};

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
    /// The settling time was chosen for this board (the venue's
    /// `settle_ms`, a benchmark's): kept whatever the board says of its
    /// debouncing. Otherwise a peg board whose hello says it debounces
    /// is read without settling ([`DEBOUNCED_SETTLE`]).
    pub settle_chosen: bool,
}

/// Whether a pinned board has said who it is since it connected.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Identity {
    /// Not pinned, or pinned and its hello matched: followed.
    Known,
    /// Pinned, and no hello yet since it connected: not followed.
    Unsaid,
    /// Pinned, and it said another hello: refused, named.
    Other(String),
}

pub(super) struct LiveBoard {
    /// Whose moves are made on this board.
    side: Color,
    driver: Driver,
    mirror: Option<Simulator>,
    protocol: Protocol,
    inference: Inference,
    connected: bool,
    /// Squares the board differs at, once it has been still and wrong.
    differs: Vec<Square>,
    /// The pinned hello, if the venue gave one.
    pin: Option<String>,
    identity: Identity,
    /// The settling time it was wired with, read again whenever it
    /// connects (another board may be plugged in), and whether it was
    /// chosen for it ([`BoardLink::settle_chosen`]).
    settle: Duration,
    settle_chosen: bool,
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
            settle: b.settings.settle,
            settle_chosen: b.settle_chosen,
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

    /// Whether every board is connected (none being retried).
    pub(super) fn all_connected(&self) -> bool {
        self.all.iter().all(|b| b.connected)
    }

    pub(super) fn len(&self) -> usize {
        self.all.len()
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
                board.follow_afresh(position);
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
            b.follow_afresh(position);
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

/// What a board's event comes to, for the table to act on: the boards keep
/// their own state (connected, who the board is, where it differs) and
/// hand the table only what it must do something about.
pub(super) enum BoardNews {
    /// Nothing for the table: a line the driver could not read (it counts
    /// them), anything a pinned board sends before it says who it is.
    Nothing,
    /// What pages show of the board changed (who it says it is).
    Changed,
    Connected,
    Disconnected,
    /// What the inference engine concluded, in order.
    Inferred(Vec<Inferred>),
    /// Frame button `n` pressed, once what the board showed before it
    /// (`before`) has been acted on: the hand is on the frame, off the
    /// pieces.
    Button {
        before: Vec<Inferred>,
        n: u8,
    },
}

impl Boards {
    /// Takes board `at`'s event, read at `now`, and says what it comes to.
    pub(super) fn on_event(
        &mut self,
        at: usize,
        stamped: Stamped,
        now: Duration,
        table: &TableId,
    ) -> BoardNews {
        let Some(board) = self.all.get_mut(at) else {
            return BoardNews::Nothing;
        };
        let event = match stamped.event {
            // Counted and logged in summary by the driver (a noisy line
            // would otherwise write a log line per piece of garbage).
            DriverEvent::Unreadable(_) => return BoardNews::Nothing,
            // Everything the board sent until its settling time ran out has
            // been read: judge it now.
            DriverEvent::ReadUpTo => return BoardNews::Inferred(board.inference.tick(now)),
            DriverEvent::Board(e) => e,
        };
        match &event {
            BoardEvent::Connected => board.read_as_wired(table),
            BoardEvent::Hello(said) => board.read_as_said(said, table),
            _ => {}
        }
        // A pinned board is followed only once it has said the pinned
        // hello since it connected: anything else it sends is ignored.
        match (&event, &board.pin) {
            (BoardEvent::Connected, Some(_)) => board.identity = Identity::Unsaid,
            (BoardEvent::Hello(said), Some(pin)) => {
                let identity = if said == pin {
                    Identity::Known
                } else {
                    tracing::warn!(
                        table = %table,
                        "a board answered `{said}`, not the pinned `{pin}`: not followed"
                    );
                    Identity::Other(said.clone())
                };
                if board.identity == identity {
                    return BoardNews::Nothing;
                }
                board.identity = identity;
                return BoardNews::Changed;
            }
            (BoardEvent::Disconnected(_), _) => {}
            (_, Some(_)) if board.identity != Identity::Known => return BoardNews::Nothing,
            _ => {}
        }
        match event {
            BoardEvent::Connected => {
                board.connected = true;
                BoardNews::Connected
            }
            BoardEvent::Disconnected(why) => {
                tracing::warn!(table = %table, "board disconnected: {why}");
                board.connected = false;
                BoardNews::Disconnected
            }
            BoardEvent::Button(n) => BoardNews::Button {
                before: board.inference.read_now(now),
                n,
            },
            event => BoardNews::Inferred(board.inference.event_unsure(&event, now, stamped.unsure)),
        }
    }

    /// What frame button `n` of board `at` asks for, on a table that tells
    /// the time `shown`: with a promotion waiting, the piece; otherwise
    /// 1 the clock, 2 repeat, 3 which holes differ, 4 the clock the other
    /// way (time used if the table tells the time left, and the reverse:
    /// D.2.6.1, D.2.10.4).
    pub(super) fn button_action(&self, at: usize, n: u8, shown: Shown) -> Option<Action> {
        let pending = self.all.get(at)?.inference.promotion_pending().is_some();
        match (pending, n) {
            (true, n) => promotion_button(n).map(Action::NamePromotion),
            (false, 1) => Some(Action::SayClock { time: None }),
            (false, 4) => Some(Action::SayClock {
                time: Some(match shown {
                    Shown::Remaining => Shown::Used,
                    Shown::Used => Shown::Remaining,
                }),
            }),
            (false, 2) => Some(Action::Repeat),
            (false, 3) => Some(Action::BoardDifferences),
            _ => None,
        }
    }

    /// The side whose moves are made on board `at`.
    pub(super) fn side(&self, at: usize) -> Option<Color> {
        self.all.get(at).map(|b| b.side)
    }

    /// Board `at` shows the game as it stands (a move made on it, or the
    /// board put right): a difference it showed is gone; `confirmed`: the
    /// move it was shown has been carried out on it (its LEDs go out).
    pub(super) fn agrees(&mut self, at: usize, confirmed: bool) {
        if let Some(b) = self.all.get_mut(at) {
            if confirmed {
                b.driver.show_move(None);
            }
            b.differs.clear();
        }
    }

    /// Board `at` has been still and wrong: it differs at `squares`.
    pub(super) fn differs_at(&mut self, at: usize, squares: &[Square]) {
        if let Some(b) = self.all.get_mut(at) {
            b.differs = squares.to_vec();
        }
    }

    /// Names the piece of the promotion waiting on board `at`.
    pub(super) fn name_promotion(
        &mut self,
        at: usize,
        piece: Role,
    ) -> Result<Vec<Inferred>, InferError> {
        match self.all.get_mut(at) {
            Some(b) => b.inference.name_promotion(piece),
            None => Ok(Vec::new()),
        }
    }

    /// The words telling which holes of `side`'s board differ from the
    /// game ("board correct" if none); `None` if `side` has no board.
    pub(super) fn differences_words(&self, side: Color) -> Option<Vec<Token>> {
        let fixes = self.of(side)?.inference.fixes();
        Some(if fixes.is_empty() {
            vec![Word::BoardCorrect.into()]
        } else {
            fixes.tokens()
        })
    }
}

impl LiveBoard {
    /// A board (re)connected: it may be another one, so it is read with
    /// the settling time it was wired with until its hello says otherwise.
    fn read_as_wired(&mut self, table: &TableId) {
        if self.inference.settings().settle != self.settle {
            tracing::info!(table = %table, settle_ms = self.settle.as_millis() as u64, "board connected: read with its settling time until it says it debounces");
            self.inference.set_settle(self.settle);
        }
    }

    /// A peg board said `hello`: one that debounces its switches itself
    /// (the project's firmware) is read without settling on top, unless
    /// the venue chose this board's settling time.
    fn read_as_said(&mut self, hello: &str, table: &TableId) {
        if self.protocol != Protocol::Peg || self.settle_chosen {
            return;
        }
        let settle = match tactus_board::peg::debounced(hello) {
            Some(debounce) => {
                if self.inference.settings().settle != DEBOUNCED_SETTLE {
                    tracing::info!(table = %table, debounce_ms = debounce.as_millis() as u64, "the board debounces its switches: read without settling");
                }
                DEBOUNCED_SETTLE
            }
            None => self.settle,
        };
        self.inference.set_settle(settle);
    }

    /// Its inference engine starts again from `position`, with the same
    /// settings: what it was following is forgotten.
    fn follow_afresh(&mut self, position: &Chess) {
        let settings = self.inference.settings();
        self.inference = Inference::new(position.clone(), self.protocol, settings);
    }

    /// The board as pages show it (`uci`: a move as the journal writes it).
    pub(super) fn view(&self, uci: impl Fn(Move) -> UciMove) -> BoardView {
        BoardView {
            connected: self.connected,
            in_sync: self.differs.is_empty() && self.inference.following().is_none(),
            following: self.inference.following().map(uci),
            differs: self.differs.iter().map(Square::to_string).collect(),
            fen: self.inference.expected_board().to_string(),
            occupied: self
                .inference
                .physical()
                .occupied()
                .into_iter()
                .map(|sq| sq.to_string())
                .collect(),
            pieces: match self.inference.physical() {
                Physical::Pieces(board) => Some(board.to_string()),
                Physical::Holes(_) => None,
            },
            promotion_pending: self.inference.promotion_pending().is_some(),
            unreadable: self.driver.unreadable_count(),
            failures: self.driver.failures(),
            not_followed: match &self.identity {
                Identity::Known => None,
                Identity::Unsaid => Some("unsaid".into()),
                Identity::Other(said) => Some(said.clone()),
            },
            settle_ms: self.inference.settings().settle.as_millis() as u64,
        }
    }
}
