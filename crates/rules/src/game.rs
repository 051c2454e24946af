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
mod tests;
