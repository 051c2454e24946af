//! The game at one table as a pure state machine: position, moves, clock,
//! draw offers, touched pieces, irregularities and the result, changed only
//! by [`GameEvent`]s applied at given instants.
//!
//! The table journals each event before applying it, so replaying the
//! journal through [`Game::apply`] rebuilds the game exactly. `apply` refuses
//! an event that does not fit (an illegal move, a draw claim that is wrong is
//! *not* refused: it is an event with a penalty) and then changes nothing.

use std::time::Duration;

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    ByColor, CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Move, Outcome, Position,
    PositionError, Square,
};

use super::announce::{Style, announce};
use super::clock::{Adjustment, Clock, ClockError, ClockSetting, ClockState, flag_result};
use super::event::{DrawClaim, GameEvent};
use super::game_kind::GameKind;
use super::result::FlagRule;
use super::result::{Ending, GameResult};
use super::side;
use super::time_control::TimeControl;
use super::token::{Token, Word};

// The event handlers behind `apply_in_place`, by what they are about.
mod endings;
mod moves;

/// One half-move on the record.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::announce::Style;
/// use tactus_rules::event::GameEvent;
/// use tactus_rules::game::Game;
///
/// let s = Duration::from_secs;
/// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
/// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
/// game.apply(s(0), &GameEvent::ClockStarted).unwrap();
/// game.apply(s(12), &mv("g1f3")).unwrap();
/// let ply = &game.plies()[0];
/// assert_eq!((ply.uci.to_string(), ply.san.to_string(), ply.at), ("g1f3".into(), "Nf3".into(), s(12)));
/// assert_eq!(ply.left.white, s(90 * 60 - 12 + 30));
/// assert_eq!(ply.left.black, s(90 * 60));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply {
    /// The move in UCI, as it was journaled.
    pub uci: UciMove,
    /// The move in SAN with its check mark.
    pub san: SanPlus,
    /// Both clocks right after the move (for `[%clk]` and D.2.9
    /// restores).
    pub left: ByColor<Duration>,
    /// When the move was made.
    pub at: Duration,
    /// Whether the mover offered a draw with this move (`(=)`, Article 8).
    pub draw_offer: bool,
}

/// A touched piece on the record.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use shakmaty::Color;
/// use tactus_rules::announce::Style;
/// use tactus_rules::event::GameEvent;
/// use tactus_rules::game::Game;
///
/// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
/// let touch = GameEvent::Touched { side: Color::White, square: "g1".parse().unwrap() };
/// game.apply(Duration::from_millis(1500), &touch).unwrap();
/// let json = serde_json::to_string(&game.touched()[0]).unwrap();
/// assert_eq!(json, r#"{"side":"white","square":"g1","ply":0,"at_ms":1500}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TouchedPiece {
    /// Who touched it.
    #[serde(serialize_with = "super::side::serialize")]
    pub side: Color,
    /// Where it stands.
    #[serde(serialize_with = "super::side::serialize_square")]
    pub square: Square,
    /// Plies played when it was touched: the touch is on the move after them.
    pub ply: usize,
    /// When, in milliseconds of game time.
    pub at_ms: u64,
}

/// An illegal move attempt on the record.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use shakmaty::Color;
/// use tactus_rules::announce::Style;
/// use tactus_rules::event::GameEvent;
/// use tactus_rules::game::Game;
///
/// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
/// let attempt = GameEvent::IllegalAttempt { side: Color::White, text: "e2e5".into() };
/// game.apply(Duration::from_secs(3), &attempt).unwrap();
/// let irregularity = &game.irregularities()[0];
/// assert_eq!((irregularity.text.as_str(), irregularity.ply, irregularity.at_ms), ("e2e5", 0, 3000));
/// assert!(game.plies().is_empty()); // not made
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Irregularity {
    /// Who attempted it.
    #[serde(serialize_with = "super::side::serialize")]
    pub side: Color,
    /// The move as attempted.
    pub text: String,
    /// Plies played when it was attempted.
    pub ply: usize,
    /// When, in milliseconds of game time.
    pub at_ms: u64,
}

/// Something the table says or shows because an event was applied.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::announce::Style;
/// use tactus_rules::event::GameEvent;
/// use tactus_rules::game::Game;
///
/// let s = Duration::from_secs;
/// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
/// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
/// let notices = game.apply(s(0), &mv("e2e4")).unwrap();
/// let keys: Vec<String> = notices[0].tokens.iter().map(|t| t.key()).collect();
/// assert_eq!(keys, ["file.e", "rank.4"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// What it is about.
    pub kind: NoticeKind,
    /// What is said, as pack keys.
    pub tokens: Vec<Token>,
}

/// What an announcement is about (for pages and alerts). The game makes
/// the first seven; the table adds board notices and repeats.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use shakmaty::Color;
/// use tactus_rules::announce::Style;
/// use tactus_rules::event::GameEvent;
/// use tactus_rules::game::{Game, NoticeKind};
///
/// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
/// let notices = game.apply(Duration::ZERO, &GameEvent::DrawOffered { side: Color::White }).unwrap();
/// assert_eq!(notices[0].kind, NoticeKind::Draw);
/// assert_eq!(serde_json::to_string(&NoticeKind::Draw).unwrap(), r#""draw""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// A move was made: its announcement (D.2.1).
    Move,
    /// The clock stopped, ran again, was adjusted, or a flag fell.
    Clock,
    /// A draw was offered, declined or claimed.
    Draw,
    /// The game ended.
    Result,
    /// A piece was touched.
    Touched,
    /// A move that is not legal was attempted or ruled completed.
    Illegal,
    /// A D.2.9 ruling was applied.
    Ruling,
    /// The tactile board: connected, differences, promotion.
    Board,
    /// An announcement said again on request.
    Repeat,
    /// A new game at the table (the next round's): the blind player's
    /// colour.
    NewGame,
}

/// Why an event does not fit the game.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use tactus_rules::announce::Style;
/// use tactus_rules::event::GameEvent;
/// use tactus_rules::game::Game;
///
/// let s = Duration::from_secs;
/// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
/// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
/// assert!(matches!(game.apply(s(0), &mv("e2e5")), Err(tactus_rules::game::GameError::Illegal(_))));
/// game.apply(s(1), &GameEvent::DrawAgreed).unwrap();
/// let over = game.apply(s(2), &mv("e2e4")).unwrap_err();
/// assert_eq!(over.to_string(), "the game is over (1/2-1/2, agreement)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has ended: its result (boxed: it is large beside the
    /// others).
    #[error("the game is over ({}, {})", .0.score(), .0.reason())]
    Over(Box<GameResult>),
    /// The move is not legal in the position.
    #[error("{0} is not a legal move here")]
    Illegal(String),
    /// The clock refused the operation.
    #[error("clock: {0}")]
    Clock(#[from] ClockError),
    /// The start position is not one a game can start from.
    #[error("start position: {0}")]
    StartPosition(IllegalStart),
    /// Declining a draw the opponent did not offer.
    #[error("{} has no draw offer to decline", side::name(*side))]
    NoOfferToDecline {
        /// The side that would decline.
        side: Color,
    },
    /// A fall claimed when no flag has fallen (6.8).
    #[error("no flag has fallen")]
    NoFlagFell,
    /// The fall shown again.
    #[error("the fall is already shown")]
    FallAlreadyShown,
    /// The fall shown when no clock has reached zero.
    #[error("no clock has reached zero")]
    NoClockAtZero,
    /// A ruling back to a ply beyond the game.
    #[error("cannot go back to ply {plies}: only {played} played")]
    BeyondTheGame {
        /// The half-moves the ruling keeps.
        plies: usize,
        /// The half-moves played.
        played: usize,
    },
    /// A draw claim by the player not on move (9.2, 9.3).
    #[error("only the player on move may claim a draw (9.2, 9.3): it is {}'s move", side::name(*on_move))]
    ClaimNotOnMove {
        /// The side on move.
        on_move: Color,
    },
    /// A draw claim after touching a piece on this move (9.4).
    #[error("{} touched a piece on this move and may not claim a draw on it (9.4)", side::name(*side))]
    ClaimAfterTouch {
        /// The claimant.
        side: Color,
    },
}

/// A start position shakmaty refuses, with its reasons (two are equal when
/// their reasons are). Boxed: the refused position is large.
///
/// # Examples
///
/// ```
/// use tactus_rules::game::{Game, GameError};
/// use tactus_rules::announce::Style;
///
/// let fen = "8/8/8/8/8/8/8/8 w - - 0 1".parse().unwrap();
/// let err = Game::new(Some(&fen), "90+30".parse().unwrap(), Style::Standard).unwrap_err();
/// assert!(matches!(err, GameError::StartPosition(_)));
/// assert!(err.to_string().starts_with("start position: illegal position: empty board"), "{err}");
/// ```
#[derive(Debug, Clone)]
pub struct IllegalStart(pub Box<PositionError<Chess>>);

impl PartialEq for IllegalStart {
    fn eq(&self, other: &Self) -> bool {
        self.0.kinds() == other.0.kinds()
    }
}

impl Eq for IllegalStart {}

impl std::fmt::Display for IllegalStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// The game at a table.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use shakmaty::Color;
/// use tactus_rules::announce::Style;
/// use tactus_rules::event::GameEvent;
/// use tactus_rules::game::Game;
/// use tactus_rules::result::Ending;
///
/// let s = Duration::from_secs;
/// let mut game = Game::new(None, "3+2".parse().unwrap(), Style::Standard).unwrap();
/// for (t, uci) in [(1, "f2f3"), (2, "e7e5"), (3, "g2g4"), (4, "d8h4")] {
///     game.apply(s(t), &GameEvent::MovePlayed { uci: uci.parse().unwrap() }).unwrap();
/// }
/// let result = game.result().unwrap();
/// assert_eq!((result.score().as_str(), result.ending), ("0-1", Ending::Checkmate));
/// assert_eq!(game.sans(), ["f3", "e5", "g4", "Qh4#"]);
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    start: Chess,
    position: Chess,
    plies: Vec<Ply>,
    /// Zobrist hashes of every position so far, the start included, for
    /// repetition claims (9.2) and the automatic fivefold draw (9.6.1).
    hashes: Vec<u64>,
    clock: Clock,
    style: Style,
    result: Option<GameResult>,
    /// A standing draw offer and who made it.
    draw_offer: Option<Color>,
    touched: Vec<TouchedPiece>,
    irregularities: Vec<Irregularity>,
    /// Standard, rapid or blitz: the penalty time (A.3).
    kind: GameKind,
    flag_rule: FlagRule,
    /// Illegal moves the arbiter ruled completed, per side (7.5.5).
    completed_illegal: ByColor<u32>,
}

impl Game {
    /// A new game from `start` (the standard position if `None`).
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{Color, Position, fen::Fen};
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::game::Game;
    ///
    /// let fen: Fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40".parse().unwrap();
    /// let game = Game::new(Some(&fen), "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// assert_eq!(game.position().turn(), Color::Black);
    /// let no_king: Fen = "8/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
    /// assert!(Game::new(Some(&no_king), "90+30".parse().unwrap(), Style::Standard).is_err());
    /// ```
    pub fn new(start: Option<&Fen>, control: TimeControl, style: Style) -> Result<Game, GameError> {
        let start: Chess = match start {
            None => Chess::default(),
            // Castling rights only Chess960 has (a Chess960 table) make a
            // Chess960 position.
            Some(fen) => fen
                .clone()
                .into_position(CastlingMode::detect(fen.as_setup()))
                .map_err(|e| GameError::StartPosition(IllegalStart(Box::new(e))))?,
        };
        let hash = hash(&start);
        let kind = GameKind::of(&control);
        Ok(Game {
            position: start.clone(),
            start,
            plies: Vec::new(),
            hashes: vec![hash],
            clock: Clock::new(control),
            style,
            result: None,
            draw_offer: None,
            touched: Vec::new(),
            irregularities: Vec::new(),
            kind,
            flag_rule: FlagRule::default(),
            completed_illegal: ByColor::new_with(|_| 0),
        })
    }

    /// The same game with `rule` for a clock reaching zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    /// use tactus_rules::result::FlagRule;
    ///
    /// let game = Game::new(None, "1".parse().unwrap(), Style::Standard).unwrap();
    /// let mut auto = game.with_flag_rule(FlagRule::Auto);
    /// assert_eq!(auto.flag_rule(), FlagRule::Auto);
    /// auto.apply(Duration::ZERO, &GameEvent::ClockStarted).unwrap();
    /// // White's minute is up: under Auto the flag ends the game at once.
    /// auto.apply(Duration::from_secs(61), &GameEvent::FlagFell).unwrap();
    /// assert_eq!(auto.result().unwrap().score(), "0-1");
    /// ```
    pub fn with_flag_rule(mut self, rule: FlagRule) -> Game {
        self.flag_rule = rule;
        self
    }

    /// Standard, rapid or blitz, from the time control.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::game::Game;
    /// use tactus_rules::game_kind::GameKind;
    ///
    /// let game = Game::new(None, "15+10".parse().unwrap(), Style::Standard).unwrap();
    /// assert_eq!(game.kind(), GameKind::Rapid);
    /// ```
    pub fn kind(&self) -> GameKind {
        self.kind
    }
    /// What happens when a clock reaches zero (claimed by default, 6.8).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::game::Game;
    /// use tactus_rules::result::FlagRule;
    ///
    /// let game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// assert_eq!(game.flag_rule(), FlagRule::Claim);
    /// ```
    pub fn flag_rule(&self) -> FlagRule {
        self.flag_rule
    }
    /// Illegal moves the arbiter ruled completed by `side` (7.5.5).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// game.apply(s(0), &GameEvent::ClockStarted).unwrap();
    /// game.apply(s(5), &GameEvent::IllegalMoveCompleted { side: Color::White }).unwrap();
    /// assert_eq!(game.completed_illegal(Color::White), 1);
    /// // The first costs the opponent's gain of two minutes (7.5.5).
    /// assert_eq!(game.clock().remaining(Color::Black, s(5)), s(92 * 60));
    /// ```
    pub fn completed_illegal(&self, side: Color) -> u32 {
        self.completed_illegal[side]
    }

    /// The position now.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// game.apply(s(0), &mv("e2e4")).unwrap();
    /// assert_eq!(game.position().turn(), shakmaty::Color::Black);
    /// # use shakmaty::Position;
    /// ```
    pub fn position(&self) -> &Chess {
        &self.position
    }
    /// The position the game started from.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// game.apply(s(0), &mv("e2e4")).unwrap();
    /// assert_eq!(game.start(), &shakmaty::Chess::default());
    /// ```
    pub fn start(&self) -> &Chess {
        &self.start
    }
    /// Every half-move made, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// game.apply(s(0), &mv("d2d4")).unwrap();
    /// game.apply(s(9), &mv("d7d5")).unwrap();
    /// assert_eq!(game.plies().len(), 2);
    /// assert_eq!(game.plies()[1].at, s(9));
    /// ```
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }
    /// The game's clock.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// game.apply(s(0), &GameEvent::ClockStarted).unwrap();
    /// assert_eq!(game.clock().remaining(shakmaty::Color::White, s(60)), s(89 * 60));
    /// ```
    pub fn clock(&self) -> &Clock {
        &self.clock
    }
    /// The result, once the game has ended.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// assert!(game.result().is_none());
    /// game.apply(s(1), &GameEvent::Resigned { side: shakmaty::Color::White }).unwrap();
    /// assert_eq!(game.result().unwrap().score(), "0-1");
    /// ```
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }
    /// The side whose draw offer stands, if one does (9.1.2).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// use shakmaty::Color;
    ///
    /// game.apply(s(0), &mv("e2e4")).unwrap();
    /// game.apply(s(1), &GameEvent::DrawOffered { side: Color::Black }).unwrap();
    /// assert_eq!(game.draw_offer(), Some(Color::Black));
    /// game.apply(s(2), &mv("e7e5")).unwrap(); // Black's move: the offer stands
    /// assert_eq!(game.draw_offer(), Some(Color::Black));
    /// game.apply(s(3), &mv("g1f3")).unwrap(); // White plays on: the offer lapses
    /// assert_eq!(game.draw_offer(), None);
    /// ```
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }
    /// Every touched piece on the record.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// let touch = GameEvent::Touched { side: shakmaty::Color::White, square: "e2".parse().unwrap() };
    /// game.apply(s(0), &touch).unwrap();
    /// assert_eq!(game.touched()[0].square, shakmaty::Square::E2);
    /// ```
    pub fn touched(&self) -> &[TouchedPiece] {
        &self.touched
    }
    /// Every illegal move attempt on the record.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// let attempt = GameEvent::IllegalAttempt { side: shakmaty::Color::White, text: "Ke2".into() };
    /// game.apply(s(0), &attempt).unwrap();
    /// assert_eq!(game.irregularities().len(), 1);
    /// ```
    pub fn irregularities(&self) -> &[Irregularity] {
        &self.irregularities
    }
    /// The moves as SAN, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mv = |uci: &str| GameEvent::MovePlayed { uci: uci.parse().unwrap() };
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// game.apply(s(0), &mv("e2e4")).unwrap();
    /// game.apply(s(1), &mv("d7d5")).unwrap();
    /// game.apply(s(2), &mv("e4d5")).unwrap();
    /// assert_eq!(game.sans(), ["e4", "d5", "exd5"]);
    /// ```
    pub fn sans(&self) -> Vec<String> {
        self.plies.iter().map(|p| p.san.to_string()).collect()
    }

    /// How often the current position has occurred (same side to move,
    /// castling and en passant rights: the Zobrist hash covers all of them).
    fn repetitions(&self) -> usize {
        let now = hash(&self.position);
        self.hashes.iter().filter(|&&h| h == now).count()
    }

    /// Applies `event` at `at`; on error nothing changes.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use shakmaty::Color;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::{DrawClaim, GameEvent};
    /// use tactus_rules::game::Game;
    ///
    /// let s = Duration::from_secs;
    /// let mut game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// for (t, uci) in [(1, "g1f3"), (2, "g8f6"), (3, "f3g1"), (4, "f6g8"), (5, "g1f3"), (6, "g8f6"), (7, "f3g1")] {
    ///     game.apply(s(t), &GameEvent::MovePlayed { uci: uci.parse().unwrap() }).unwrap();
    /// }
    /// // Black claims with the move that repeats the start a third time (9.2.1.1).
    /// let claim = GameEvent::DrawClaimed { side: Color::Black, claim: DrawClaim::Threefold, declared: Some("f6g8".parse().unwrap()) };
    /// game.apply(s(8), &claim).unwrap();
    /// let reason = game.result().unwrap().reason();
    /// assert_eq!(reason, "threefold repetition, claimed with Ng8 written, not played");
    /// // A refused event changes nothing.
    /// let before = game.sans();
    /// assert!(game.apply(s(9), &GameEvent::MovePlayed { uci: "e2e4".parse().unwrap() }).is_err());
    /// assert_eq!(game.sans(), before);
    /// ```
    pub fn apply(&mut self, at: Duration, event: &GameEvent) -> Result<Vec<Notice>, GameError> {
        let (next, notices) = self.applied(at, event)?;
        *self = next;
        Ok(notices)
    }

    /// The game `event` at `at` would make, and what it caused, leaving
    /// this one as it is: one copy of the game, for a caller that records
    /// the event before it takes effect (a table journals it first).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use tactus_rules::announce::Style;
    /// use tactus_rules::event::GameEvent;
    /// use tactus_rules::game::Game;
    ///
    /// let game = Game::new(None, "90+30".parse().unwrap(), Style::Standard).unwrap();
    /// let e4 = GameEvent::MovePlayed { uci: "e2e4".parse().unwrap() };
    /// let (next, _notices) = game.applied(Duration::from_secs(1), &e4).unwrap();
    /// assert_eq!(next.sans(), ["e4"]);
    /// assert!(game.sans().is_empty(), "the game itself is as it was");
    /// ```
    pub fn applied(
        &self,
        at: Duration,
        event: &GameEvent,
    ) -> Result<(Game, Vec<Notice>), GameError> {
        let mut next = self.clone();
        let notices = next.apply_in_place(at, event)?;
        Ok((next, notices))
    }

    fn ensure_playing(&self) -> Result<(), GameError> {
        match &self.result {
            Some(r) => Err(GameError::Over(Box::new(r.clone()))),
            None => Ok(()),
        }
    }

    /// Applies `event` at `at`: one arm per event, each a named step below
    /// that refuses what does not fit, changes the game and pushes what is
    /// to be said. A refusal may leave `self` half-changed: callers apply to
    /// a copy ([`applied`](Game::applied)) or drop the game.
    fn apply_in_place(
        &mut self,
        at: Duration,
        event: &GameEvent,
    ) -> Result<Vec<Notice>, GameError> {
        let at_ms = at.as_millis() as u64;
        let mut notices = Vec::new();
        let said = &mut notices;
        match event {
            GameEvent::ClockStarted => {
                self.ensure_playing()?;
                self.clock.start(at)?;
            }
            GameEvent::MovePlayed { uci } => self.play_move(at, uci, said)?,
            GameEvent::Touched { side, square } => self.record_touch(*side, *square, at_ms, said),
            GameEvent::IllegalAttempt { side, text } => {
                self.record_illegal_attempt(*side, text, at_ms, said);
            }
            GameEvent::ClockPaused => {
                self.clock.pause(at)?;
                said.push(clock_notice(vec![Word::ClockPaused.into()]));
            }
            GameEvent::ClockResumed => {
                self.ensure_playing()?;
                self.clock.resume(at)?;
                said.push(clock_notice(vec![Word::ClockResumed.into()]));
            }
            GameEvent::ClockAdjusted { side, millis, .. } => {
                self.adjust_clock(*side, *millis, at, said)?;
            }
            GameEvent::DrawOffered { side } => self.offer_draw(*side, said)?,
            GameEvent::DrawDeclined { side } => self.decline_draw(*side, said)?,
            GameEvent::DrawAgreed => {
                self.ensure_playing()?;
                self.finish_with(
                    at,
                    GameResult::new(KnownOutcome::Draw, Ending::Agreement),
                    vec![Word::Draw.into()],
                    said,
                )?;
            }
            GameEvent::DrawClaimed {
                side,
                claim,
                declared,
            } => {
                self.ensure_playing()?;
                self.draw_claim(at, *side, *claim, *declared, said)?;
            }
            GameEvent::Resigned { side } => {
                self.ensure_playing()?;
                self.finish_with(
                    at,
                    GameResult::win(!*side, Ending::Resignation),
                    vec![side_word(*side), Word::Resigns.into()],
                    said,
                )?;
            }
            GameEvent::FlagFell => {
                self.ensure_playing()?;
                if !self.flag_check(at, said)? {
                    return Err(GameError::NoFlagFell);
                }
            }
            GameEvent::TimeExpired => self.show_fall(at, said)?,
            GameEvent::IllegalMoveCompleted { side } => {
                self.complete_illegal_move(*side, at, said)?;
            }
            GameEvent::ResultSet { result, reason } => {
                self.set_result(*result, reason, at, said)?;
            }
            GameEvent::Retracted { plies, clock, .. } => {
                self.retract(*plies, clock.as_ref(), at, said)?;
            }
            GameEvent::ServiceRestarted { paused_at_ms } => {
                self.pause_after_restart(*paused_at_ms, said)?;
            }
        }
        Ok(notices)
    }

    /// The arbiter's change to `side`'s time: `millis` added, or taken
    /// away when negative.
    fn adjust_clock(
        &mut self,
        side: Color,
        millis: i64,
        at: Duration,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        let amount = Duration::from_millis(millis.unsigned_abs());
        let change = if millis >= 0 {
            Adjustment::Add(amount)
        } else {
            Adjustment::Subtract(amount)
        };
        self.clock.adjust(side, change, at)?;
        notices.push(clock_notice(vec![Word::ClockAdjusted.into()]));
        Ok(())
    }

    /// After a restart, a clock that was running is paused at the last
    /// instant it was seen alive, so the downtime is not charged.
    fn pause_after_restart(
        &mut self,
        paused_at_ms: u64,
        notices: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        if let ClockState::Running { .. } = self.clock.state() {
            let paused_at = Duration::from_millis(paused_at_ms).max(self.last_instant());
            // A clock that reached zero before the crash has: under
            // FlagRule::Auto the game ends; under Claim the clock
            // stays stopped at the fall, shown, awaiting the claim.
            match self.clock.pause(paused_at) {
                Err(ClockError::FlagFell(_)) if self.flag_rule == FlagRule::Auto => {
                    self.flag_check(paused_at, notices)?;
                }
                Err(ClockError::FlagFell(_)) => {}
                other => other?,
            }
        }
        notices.push(clock_notice(vec![
            Word::GameResumed.into(),
            Word::ClockPaused.into(),
        ]));
        Ok(())
    }

    /// The last instant anything happened on the clock (never go back).
    fn last_instant(&self) -> Duration {
        self.plies.last().map_or(Duration::ZERO, |p| p.at)
    }
}

fn uci_move(pos: &Chess, uci: &UciMove) -> Result<Move, GameError> {
    uci.to_move(pos)
        .map_err(|_| GameError::Illegal(uci.to_string()))
}

fn hash(pos: &Chess) -> u64 {
    let z: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    z.0
}

fn outcome_word(outcome: KnownOutcome) -> Token {
    match outcome {
        KnownOutcome::Decisive {
            winner: Color::White,
        } => Word::WhiteWins.into(),
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => Word::BlackWins.into(),
        KnownOutcome::Draw => Word::Draw.into(),
    }
}

/// A notice about the clock.
fn clock_notice(tokens: Vec<Token>) -> Notice {
    Notice {
        kind: NoticeKind::Clock,
        tokens,
    }
}

fn side_word(side: Color) -> Token {
    match side {
        Color::White => Word::White.into(),
        Color::Black => Word::Black.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ClockSetting;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn game(control: &str) -> Game {
        Game::new(None, control.parse().unwrap(), Style::Standard).unwrap()
    }

    fn play(g: &mut Game, at: u64, uci: &str) -> Vec<Notice> {
        g.apply(
            secs(at),
            &GameEvent::MovePlayed {
                uci: uci.parse().unwrap(),
            },
        )
        .unwrap()
    }

    fn keys(tokens: &[Token]) -> String {
        tokens.iter().map(Token::key).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn moves_press_the_clock_at_the_instant_they_are_made() {
        let mut g = game("90+30");
        g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
        let n = play(&mut g, 10, "e2e4");
        assert_eq!(keys(&n[0].tokens), "file.e rank.4");
        play(&mut g, 25, "e7e5");
        assert_eq!(g.sans(), vec!["e4", "e5"]);
        // White used 10 s and got 30 s back; Black used 15 s.
        assert_eq!(g.plies()[0].left.white, secs(90 * 60 + 20));
        assert_eq!(g.plies()[1].left.black, secs(90 * 60 + 15));
        assert_eq!(g.clock().moves_completed(), 1);
    }

    #[test]
    fn an_illegal_move_changes_nothing() {
        let mut g = game("90+30");
        let before = g.sans();
        // Text that is no UCI move never becomes an event (the event's
        // field is a `UciMove`); a move that is one is checked here.
        for bad in ["e2e5", "e7e5", "a1a1q"] {
            let err = g
                .apply(
                    secs(1),
                    &GameEvent::MovePlayed {
                        uci: bad.parse().unwrap(),
                    },
                )
                .unwrap_err();
            assert!(matches!(err, GameError::Illegal(_)), "{err}");
        }
        assert_eq!(g.sans(), before);
        assert_eq!(g.clock().state(), ClockState::NotStarted);
    }

    #[test]
    fn checkmate_ends_the_game_and_stops_the_clock() {
        let mut g = game("90+30");
        for (i, m) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
            play(&mut g, i as u64 + 1, m);
        }
        let r = g.result().unwrap();
        assert_eq!((r.score().as_str(), r.ending), ("0-1", Ending::Checkmate));
        assert_eq!(g.clock().state(), ClockState::Paused);
        let err = g
            .apply(
                secs(9),
                &GameEvent::MovePlayed {
                    uci: "a2a3".parse().unwrap(),
                },
            )
            .unwrap_err();
        assert!(matches!(&err, GameError::Over(r) if r.ending == Ending::Checkmate));
        assert_eq!(err.to_string(), "the game is over (0-1, checkmate)");
    }

    #[test]
    fn threefold_claims_are_checked_and_a_wrong_claim_costs_two_minutes() {
        let mut g = game("90+30");
        g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
        let black_before = g.clock().remaining(Color::Black, secs(1));
        let n = g
            .apply(
                secs(1),
                &GameEvent::DrawClaimed {
                    side: Color::White,
                    claim: DrawClaim::Threefold,
                    declared: None,
                },
            )
            .unwrap();
        assert_eq!(keys(&n[0].tokens), "game.claim_rejected clock.adjusted");
        assert_eq!(
            g.clock().remaining(Color::Black, secs(1)),
            black_before + Duration::from_secs(120)
        );
        // 9.1.2.3: the claim stands as a draw offer; Black declines it.
        assert_eq!(g.draw_offer(), Some(Color::White));
        g.apply(secs(1), &GameEvent::DrawDeclined { side: Color::Black })
            .unwrap();
        assert!(g.result().is_none());
        let mut t = 2;
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                play(&mut g, t, m);
                t += 1;
            }
        }
        assert_eq!(g.repetitions(), 3);
        g.apply(
            secs(t),
            &GameEvent::DrawClaimed {
                side: Color::White,
                claim: DrawClaim::Threefold,
                declared: None,
            },
        )
        .unwrap();
        let r = g.result().unwrap();
        assert_eq!(
            (r.score().as_str(), r.ending),
            ("1/2-1/2", Ending::ThreefoldRepetition)
        );
    }

    #[test]
    fn fivefold_repetition_ends_the_game_by_itself() {
        let mut g = game("90+30");
        let mut t = 1;
        'outer: for _ in 0..4 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                play(&mut g, t, m);
                t += 1;
                if g.result().is_some() {
                    break 'outer;
                }
            }
        }
        assert_eq!(g.result().unwrap().ending, Ending::FivefoldRepetition);
        assert_eq!(g.plies().len(), 16);
    }

    #[test]
    fn the_flag_falls_by_article_6_9() {
        // Black's flag falls while White has a lone king: draw (6.9).
        let fen: Fen = "4k3/8/8/8/8/8/8/4K2q w - - 0 1".parse().unwrap();
        let mut g = Game::new(Some(&fen), "1".parse().unwrap(), Style::Standard)
            .unwrap()
            .with_flag_rule(FlagRule::Auto);
        g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
        play(&mut g, 1, "e1d2");
        // A move after the flag fell is refused and changes nothing ...
        let err = g
            .apply(
                secs(200),
                &GameEvent::MovePlayed {
                    uci: "h1h2".parse().unwrap(),
                },
            )
            .unwrap_err();
        assert!(
            matches!(err, GameError::Clock(ClockError::FlagFell(_))),
            "{err}"
        );
        assert_eq!(g.plies().len(), 1);
        // ... and the fall is recorded instead.
        let n = g.apply(secs(200), &GameEvent::FlagFell).unwrap();
        assert_eq!(keys(&n[0].tokens), "clock.black clock.flag_fell game.draw");
        assert_eq!(g.result().unwrap().score(), "1/2-1/2");
        let mut g2 = game("1");
        g2.apply(secs(0), &GameEvent::ClockStarted).unwrap();
        assert!(
            g2.apply(secs(30), &GameEvent::FlagFell).is_err(),
            "no flag yet"
        );
        g2.apply(secs(61), &GameEvent::FlagFell).unwrap();
        assert_eq!(g2.result().unwrap().score(), "0-1");
    }

    #[test]
    fn draw_offers_lapse_and_are_marked_on_the_move() {
        let mut g = game("90+30");
        play(&mut g, 1, "e2e4");
        g.apply(secs(2), &GameEvent::DrawOffered { side: Color::Black })
            .unwrap();
        play(&mut g, 3, "e7e5");
        assert!(g.plies()[1].draw_offer);
        assert_eq!(g.draw_offer(), Some(Color::Black));
        play(&mut g, 4, "g1f3");
        assert_eq!(g.draw_offer(), None, "White moved instead of accepting");
        assert!(
            g.apply(secs(5), &GameEvent::DrawDeclined { side: Color::White })
                .is_err()
        );
        g.apply(secs(5), &GameEvent::DrawOffered { side: Color::Black })
            .unwrap();
        g.apply(secs(6), &GameEvent::DrawAgreed).unwrap();
        assert_eq!(g.result().unwrap().ending, Ending::Agreement);
    }

    #[test]
    fn a_ruling_retracts_moves_and_restores_the_clock() {
        let mut g = game("90+30");
        for (i, m) in ["e2e4", "e7e5", "g1f3", "b8c6"].iter().enumerate() {
            play(&mut g, i as u64 + 1, m);
        }
        let setting = ClockSetting {
            white: g.plies()[1].left.white,
            black: g.plies()[1].left.black,
            white_moves: 1,
            black_moves: 1,
            to_move: Color::White,
        };
        g.apply(
            secs(10),
            &GameEvent::Retracted {
                plies: 2,
                clock: Some(setting),
                slid: false,
            },
        )
        .unwrap();
        assert_eq!(g.sans(), vec!["e4", "e5"]);
        assert_eq!(g.position().turn(), Color::White);
        assert_eq!(g.clock().remaining(Color::White, secs(10)), setting.white);
        assert!(
            g.apply(
                secs(11),
                &GameEvent::Retracted {
                    plies: 9,
                    clock: None,
                    slid: false,
                }
            )
            .is_err()
        );
    }

    #[test]
    fn a_restart_pauses_the_running_clock_where_it_was_last_seen() {
        let mut g = game("90+30");
        play(&mut g, 1, "e2e4");
        g.apply(
            secs(100),
            &GameEvent::ServiceRestarted {
                paused_at_ms: 5_000,
            },
        )
        .unwrap();
        assert_eq!(g.clock().state(), ClockState::Paused);
        // Black's clock ran from 1 s to 5 s only: the downtime is not charged.
        assert_eq!(
            g.clock().remaining(Color::Black, secs(100)),
            secs(90 * 60 - 4)
        );
        g.apply(secs(100), &GameEvent::ClockResumed).unwrap();
        play(&mut g, 110, "e7e5");
        assert_eq!(g.plies()[1].left.black, secs(90 * 60 - 14 + 30));
    }

    #[test]
    fn touches_and_illegal_attempts_are_recorded_and_said() {
        let mut g = game("90+30");
        let n = g
            .apply(
                secs(1),
                &GameEvent::Touched {
                    side: Color::White,
                    square: "g1".parse().unwrap(),
                },
            )
            .unwrap();
        assert_eq!(
            keys(&n[0].tokens),
            "piece.white.knight file.g rank.1 game.touched"
        );
        g.apply(
            secs(2),
            &GameEvent::IllegalAttempt {
                side: Color::White,
                text: "Ng1-g3".into(),
            },
        )
        .unwrap();
        assert_eq!(g.touched().len(), 1);
        assert_eq!(g.irregularities()[0].text, "Ng1-g3");
    }

    fn claim(side: Color, claim: DrawClaim, declared: Option<&str>) -> GameEvent {
        GameEvent::DrawClaimed {
            side,
            claim,
            declared: declared.map(|d| d.parse().unwrap()),
        }
    }

    fn from_fen(fen: &str, control: &str) -> Game {
        let fen: Fen = fen.parse().unwrap();
        Game::new(Some(&fen), control.parse().unwrap(), Style::Standard).unwrap()
    }

    /// A.3 / B.3: in rapid and blitz an incorrect claim costs one minute.
    #[test]
    fn penalties_follow_the_kind_of_game() {
        for (control, kind, penalty) in [
            ("90+30", GameKind::Standard, 120),
            ("15+10", GameKind::Rapid, 60),
            ("3+2", GameKind::Blitz, 60),
        ] {
            let mut g = game(control);
            assert_eq!(g.kind(), kind);
            g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
            let before = g.clock().remaining(Color::Black, secs(1));
            g.apply(secs(1), &claim(Color::White, DrawClaim::FiftyMoves, None))
                .unwrap();
            assert_eq!(
                g.clock().remaining(Color::Black, secs(1)),
                before + secs(penalty),
                "{control}"
            );
        }
    }

    /// 9.2, 9.3: only the player on move claims; 9.4: a touched piece
    /// loses the right to claim on that move.
    #[test]
    fn only_the_player_on_move_claims_and_a_touch_loses_the_right() {
        let mut g = game("90+30");
        play(&mut g, 1, "e2e4");
        let err = g
            .apply(secs(2), &claim(Color::White, DrawClaim::Threefold, None))
            .unwrap_err();
        assert_eq!(
            err,
            GameError::ClaimNotOnMove {
                on_move: Color::Black
            }
        );
        g.apply(
            secs(3),
            &GameEvent::Touched {
                side: Color::Black,
                square: "g8".parse().unwrap(),
            },
        )
        .unwrap();
        let err = g
            .apply(secs(4), &claim(Color::Black, DrawClaim::Threefold, None))
            .unwrap_err();
        assert_eq!(err, GameError::ClaimAfterTouch { side: Color::Black });
        // A touch by the opponent does not count, and on the next move the
        // right is back.
        play(&mut g, 5, "g8f6");
        g.apply(
            secs(6),
            &GameEvent::Touched {
                side: Color::Black,
                square: "f6".parse().unwrap(),
            },
        )
        .unwrap();
        g.apply(secs(7), &claim(Color::White, DrawClaim::Threefold, None))
            .unwrap();
        assert!(g.result().is_none());
    }

    /// 9.2.1.1: a claim on a declared move that brings the third repetition
    /// draws; the move is written, not played.
    #[test]
    fn a_declared_move_that_repeats_a_third_time_draws() {
        let mut g = game("90+30");
        let mut t = 1;
        for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
            play(&mut g, t, m);
            t += 1;
        }
        // This position (Black to move) stood after ply 3 too; the start
        // position stood twice.
        assert_eq!(g.repetitions(), 2);
        // Black declares Nf6-g8: the start position for the third time.
        let plies = g.plies().len();
        g.apply(
            secs(t),
            &claim(Color::Black, DrawClaim::Threefold, Some("f6g8")),
        )
        .unwrap();
        let r = g.result().unwrap();
        assert_eq!(r.ending, Ending::ThreefoldRepetition);
        assert!(
            r.reason().contains("Ng8 written, not played"),
            "{}",
            r.reason()
        );
        assert_eq!(g.plies().len(), plies, "the declared move is not played");
    }

    /// 9.5.3: an incorrect claim on a declared move: the opponent gets the
    /// penalty and the declared move is then made.
    #[test]
    fn an_incorrect_claim_on_a_declared_move_makes_the_move() {
        let mut g = game("15+10");
        g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
        play(&mut g, 5, "e2e4");
        let white_before = g.clock().remaining(Color::White, secs(9));
        let n = g
            .apply(
                secs(9),
                &claim(Color::Black, DrawClaim::Threefold, Some("e7e5")),
            )
            .unwrap();
        assert_eq!(g.sans(), vec!["e4", "e5"]);
        // White got one minute (rapid), and Black's move pressed the clock.
        assert_eq!(
            g.clock().remaining(Color::White, secs(9)),
            white_before + secs(60)
        );
        assert_eq!(g.clock().to_move(), Color::White);
        let all: Vec<String> = n.iter().map(|n| keys(&n.tokens)).collect();
        assert_eq!(all, ["game.claim_rejected clock.adjusted", "file.e rank.5"]);
        // The claim was also an offer, marked on the move (9.1.2.3, 8.1.4).
        assert!(g.plies()[1].draw_offer);
        // An illegal declared move is refused and changes nothing.
        let before = g.clone().sans();
        let err = g
            .apply(
                secs(10),
                &claim(Color::White, DrawClaim::FiftyMoves, Some("e4e6")),
            )
            .unwrap_err();
        assert!(matches!(err, GameError::Illegal(_)), "{err}");
        assert_eq!(g.sans(), before);
    }

    /// 9.3: fifty moves by each side without pawn move or capture, as the
    /// position stands or with the move that completes them.
    #[test]
    fn the_fifty_move_claim_counts_the_declared_move() {
        let mut g = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "90+30");
        g.apply(secs(1), &claim(Color::White, DrawClaim::FiftyMoves, None))
            .unwrap();
        assert!(g.result().is_none(), "99 plies are not fifty moves each");
        let mut g = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "90+30");
        g.apply(
            secs(1),
            &claim(Color::White, DrawClaim::FiftyMoves, Some("a1a2")),
        )
        .unwrap();
        assert_eq!(g.result().unwrap().ending, Ending::FiftyMoves);
        // A pawn move or capture as the declared move resets the count.
        let mut g = from_fen("4k3/8/8/8/8/8/P7/R3K3 w - - 99 80", "90+30");
        g.apply(
            secs(1),
            &claim(Color::White, DrawClaim::FiftyMoves, Some("a2a3")),
        )
        .unwrap();
        assert!(g.result().is_none());
        assert_eq!(g.sans(), vec!["a3"]);
    }

    /// 6.8: under the default rule the fall is shown and said at once, the
    /// game goes on on a stopped clock until the fall is claimed, and a mate
    /// before the claim stands (6.9).
    #[test]
    fn a_flag_falls_when_it_is_claimed() {
        let mut g = game("1");
        assert_eq!(g.flag_rule(), FlagRule::Claim);
        g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
        assert!(
            g.apply(secs(30), &GameEvent::TimeExpired).is_err(),
            "not yet"
        );
        let n = g.apply(secs(61), &GameEvent::TimeExpired).unwrap();
        assert_eq!(keys(&n[0].tokens), "clock.white clock.flag_fell");
        assert!(g.result().is_none());
        assert!(
            g.apply(secs(62), &GameEvent::TimeExpired).is_err(),
            "said once"
        );
        // Play goes on; the clock stays stopped at the fall.
        play(&mut g, 70, "e2e4");
        assert_eq!(g.clock().remaining(Color::White, secs(80)), Duration::ZERO);
        assert_eq!(g.clock().remaining(Color::Black, secs(80)), secs(60));
        let n = g.apply(secs(90), &GameEvent::FlagFell).unwrap();
        assert_eq!(
            keys(&n[0].tokens),
            "clock.white clock.flag_fell game.black_wins"
        );
        assert_eq!(g.result().unwrap().ending, Ending::FlagFell);

        // A mate delivered before anyone claims ends the game by itself.
        let mut g = game("1");
        g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
        play(&mut g, 1, "f2f3");
        play(&mut g, 2, "e7e5");
        g.apply(secs(100), &GameEvent::TimeExpired).unwrap();
        play(&mut g, 101, "g2g4");
        play(&mut g, 102, "d8h4");
        assert_eq!(g.result().unwrap().ending, Ending::Checkmate);
    }

    /// 7.5.5: the first completed illegal move gives the opponent the
    /// penalty; the second loses, unless the opponent cannot mate.
    #[test]
    fn completed_illegal_moves_by_article_7_5_5() {
        let mut g = game("3+2");
        g.apply(secs(0), &GameEvent::ClockStarted).unwrap();
        play(&mut g, 1, "e2e4");
        let black = g.clock().remaining(Color::Black, secs(2));
        g.apply(
            secs(2),
            &GameEvent::IllegalMoveCompleted { side: Color::White },
        )
        .unwrap();
        assert_eq!(g.clock().remaining(Color::Black, secs(2)), black + secs(60));
        assert_eq!(g.completed_illegal(Color::White), 1);
        g.apply(
            secs(3),
            &GameEvent::IllegalMoveCompleted { side: Color::White },
        )
        .unwrap();
        let r = g.result().unwrap();
        assert_eq!(r.score(), "0-1");
        assert!(r.reason().contains("7.5.5"), "{}", r.reason());
        // Against a lone king the second is a draw.
        let mut g = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "90+30");
        for t in 1..=2 {
            g.apply(
                secs(t),
                &GameEvent::IllegalMoveCompleted { side: Color::White },
            )
            .unwrap();
        }
        assert_eq!(g.result().unwrap().score(), "1/2-1/2");
    }

    #[test]
    fn an_arbiters_result_ends_the_game_as_their_decision() {
        let mut g = game("90+30");
        g.apply(
            secs(2),
            &GameEvent::ResultSet {
                result: KnownOutcome::Decisive {
                    winner: Color::White,
                },
                reason: "flag fell".into(),
            },
        )
        .unwrap();
        // An arbiter who types "flag fell" sets an arbiter's decision.
        assert_eq!(g.result().unwrap().ending, Ending::Arbiter);
        assert_eq!(g.result().unwrap().score(), "1-0");
    }
}
