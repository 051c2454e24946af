//! FIDE's Tournament Report File (TRF-16), as pairing programs write it
//! (Swiss-Manager, Vega, JaVaFo, bbpPairings): read its players and its
//! rounds' pairings, write a game's result into it, and give the file back
//! byte for byte otherwise, so that the pairing program reads back its own
//! file with tactus's results in it.
//!
//! A file is kept as its lines, each with its own ending (CR LF, LF, or a
//! lone CR as bbpPairings writes), so that nothing tactus does not write
//! moves: trailing spaces, unknown lines (`XXR`, `XXC`, `012`, `022`, …),
//! a byte-order mark. Only `001` lines (players) are read closely:
//!
//! | columns | field                                   |
//! |---------|-----------------------------------------|
//! | 1–3     | `001`                                   |
//! | 5–8     | start rank (the pairing number)         |
//! | 10      | sex                                     |
//! | 11–13   | title                                   |
//! | 15–47   | name                                    |
//! | 49–52   | rating                                  |
//! | 54–56   | federation                              |
//! | 58–68   | FIDE id                                 |
//! | 70–79   | birth date                              |
//! | 81–84   | points                                  |
//! | 86–89   | rank                                    |
//! | 92–101  | round 1: opponent (92–95, `0000` for none), colour (97: `w`, `b`, `-`), result (99) |
//! | +10     | each further round                      |
//!
//! Columns count characters: UTF-8 files (names with accents) count each
//! character once, a file that is not UTF-8 (Windows code pages) counts
//! bytes. Docs: `docs/competition.md`, "TRF-16 as tactus reads it".
//!
//! # Examples
//!
//! ```
//! use shakmaty::Color;
//! use tactus_rules::trf::{ResultChar, RoundEntry, Trf};
//!
//! let file = "012 Club Open\r\n\
//! 001    1      Ana                               1800                             0.0    1     2 w  \r\n\
//! 001    2      Bea                               1750                             0.0    2     1 b  \r\n";
//! let trf = Trf::parse(file).unwrap();
//! let pairings = trf.pairings(1);
//! assert_eq!(
//!     pairings[0].entry,
//!     RoundEntry::Game { opponent: 2, colour: Some(Color::White), result: None }
//! );
//! let trf = trf.with_result(1, 1, ResultChar::Loss).unwrap();
//! let trf = trf.with_result(1, 2, ResultChar::Win).unwrap();
//! // Bea's points (columns 81-84) follow her win: a pairing engine checks them.
//! assert_eq!(
//!     trf.to_string(),
//!     file.replace("1 b  \r", "1 b 1\r")
//!         .replace("2 w  \r", "2 w 0\r")
//!         .replace(" 0.0    2", " 1.0    2")
//! );
//! ```

use std::collections::BTreeMap;
use std::fmt;

use shakmaty::Color;

mod lines;
// The lines and columns every reader of the file shares (the team records
// too).
use lines::{Ending, Line, columns, field, read_player, split_lines, tenths, write_column};
mod matches;
mod records;
mod team_round;
mod team_standings;
mod team_tiebreaks;
mod teams;
pub use matches::{Match, MatchBoard};
pub use records::{BadTimeControl, PointSystem};
pub use team_round::{TeamPairing, TeamPairingsError, parse_team_pairings};
pub use team_standings::{BoardPrize, TeamStanding};
pub use teams::{
    AbnormalPoints, Forfeited, ForfeitedMatch, Lineup, LineupError, MAX_TEAMS, MatchScoring,
    Points, Team, TeamBye, Teams, TieBreak,
};

/// A small team event for the examples: two teams of three, two boards
/// (`352 WB`), two rounds played; team 1 rests its board 2 in round 1.
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::{TEAM_EXAMPLE, Trf};
///
/// let trf = Trf::parse(TEAM_EXAMPLE).unwrap();
/// assert_eq!(trf.teams().unwrap().boards(), 2);
/// ```
#[doc(hidden)]
pub const TEAM_EXAMPLE: &str = include_str!("trf/team_example.trf");

/// The largest file read, in bytes: a TRF-16 file of a 500-player,
/// 15-round event is about 120 kB; anything near this limit is not one.
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::{MAX_BYTES, Trf};
///
/// let huge = "x".repeat(MAX_BYTES + 1);
/// assert!(Trf::parse(&huge).is_err());
/// ```
pub const MAX_BYTES: usize = 4 << 20;

/// The most rounds a player line may hold (round numbers are written with
/// at most three digits in TRF-16's `XXR` and round headers).
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::{MAX_ROUNDS, Trf};
///
/// let trf = Trf::parse("001    1      Ana\n").unwrap();
/// assert!(trf.with_result(MAX_ROUNDS + 1, 1, tactus_rules::trf::ResultChar::Win).is_err());
/// ```
pub const MAX_ROUNDS: u16 = 999;

/// Column (0-based) where round 1's block starts: TRF-16's column 92.
const FIRST_ROUND_COLUMN: usize = 91;
/// Column (0-based) where the points start: TRF-16's column 81.
const POINTS_COLUMN: usize = 80;
/// Width of one round's block.
const ROUND_WIDTH: usize = 10;
/// Offsets within a block.
const COLOUR_OFFSET: usize = 5;
const RESULT_OFFSET: usize = 7;

/// A result letter in a round's block (column 99 for round 1): TRF-16's
/// letters, read in either case, written in the case shown.
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::ResultChar;
///
/// assert_eq!(ResultChar::from_char('='), Some(ResultChar::Draw));
/// assert_eq!(ResultChar::from_char('h'), Some(ResultChar::HalfPointBye));
/// assert_eq!(ResultChar::Draw.as_char(), '=');
/// assert_eq!(ResultChar::from_char('x'), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultChar {
    /// `1`: won the game.
    Win,
    /// `0`: lost the game.
    Loss,
    /// `=`: drew the game.
    Draw,
    /// `+`: won by forfeit.
    ForfeitWin,
    /// `-`: lost by forfeit.
    ForfeitLoss,
    /// `W`: won a game that is not rated (fewer than one move).
    UnratedWin,
    /// `D`: drew a game that is not rated.
    UnratedDraw,
    /// `L`: lost a game that is not rated.
    UnratedLoss,
    /// `H`: half-point bye.
    HalfPointBye,
    /// `F`: full-point bye.
    FullPointBye,
    /// `U`: the pairing-allocated bye.
    PairingAllocatedBye,
    /// `Z`: zero-point bye (absent).
    ZeroPointBye,
}

impl ResultChar {
    /// The letter for `c`, in either case; `None` for anything else.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::ResultChar;
    ///
    /// assert_eq!(ResultChar::from_char('+'), Some(ResultChar::ForfeitWin));
    /// assert_eq!(ResultChar::from_char('u'), Some(ResultChar::PairingAllocatedBye));
    /// ```
    pub fn from_char(c: char) -> Option<ResultChar> {
        Some(match c.to_ascii_uppercase() {
            '1' => ResultChar::Win,
            '0' => ResultChar::Loss,
            '=' => ResultChar::Draw,
            '+' => ResultChar::ForfeitWin,
            '-' => ResultChar::ForfeitLoss,
            'W' => ResultChar::UnratedWin,
            'D' => ResultChar::UnratedDraw,
            'L' => ResultChar::UnratedLoss,
            'H' => ResultChar::HalfPointBye,
            'F' => ResultChar::FullPointBye,
            'U' => ResultChar::PairingAllocatedBye,
            'Z' => ResultChar::ZeroPointBye,
            _ => return None,
        })
    }

    /// The letter as TRF-16 writes it.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::ResultChar;
    ///
    /// assert_eq!(ResultChar::ZeroPointBye.as_char(), 'Z');
    /// ```
    pub fn as_char(self) -> char {
        match self {
            ResultChar::Win => '1',
            ResultChar::Loss => '0',
            ResultChar::Draw => '=',
            ResultChar::ForfeitWin => '+',
            ResultChar::ForfeitLoss => '-',
            ResultChar::UnratedWin => 'W',
            ResultChar::UnratedDraw => 'D',
            ResultChar::UnratedLoss => 'L',
            ResultChar::HalfPointBye => 'H',
            ResultChar::FullPointBye => 'F',
            ResultChar::PairingAllocatedBye => 'U',
            ResultChar::ZeroPointBye => 'Z',
        }
    }

    /// Whether the letter may stand against an opponent: a game's result,
    /// played (`1`, `0`, `=`, `W`, `D`, `L`) or forfeited (`+`, `-`).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::ResultChar;
    ///
    /// assert!(ResultChar::ForfeitLoss.is_game());
    /// assert!(!ResultChar::HalfPointBye.is_game());
    /// ```
    pub fn is_game(self) -> bool {
        !matches!(
            self,
            ResultChar::HalfPointBye
                | ResultChar::FullPointBye
                | ResultChar::PairingAllocatedBye
                | ResultChar::ZeroPointBye
        )
    }

    /// Whether the letter may stand with no opponent (`0000`): a bye
    /// (`H`, `F`, `U`, `Z`) or, as older files write byes, `+`, `-`, `=`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::ResultChar;
    ///
    /// assert!(ResultChar::PairingAllocatedBye.is_bye());
    /// assert!(ResultChar::ForfeitWin.is_bye());
    /// assert!(!ResultChar::Win.is_bye());
    /// ```
    pub fn is_bye(self) -> bool {
        !matches!(
            self,
            ResultChar::Win
                | ResultChar::Loss
                | ResultChar::UnratedWin
                | ResultChar::UnratedDraw
                | ResultChar::UnratedLoss
        )
    }
}

impl fmt::Display for ResultChar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_char())
    }
}

/// What one player's line says about one round.
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::{ResultChar, RoundEntry, Trf};
///
/// let trf = Trf::parse(
///     "001    1      Ana                                                                0.0       0000 - H\n",
/// )
/// .unwrap();
/// let ana = trf.player(1).unwrap();
/// assert_eq!(ana.round(1), RoundEntry::Bye { result: Some(ResultChar::HalfPointBye) });
/// assert_eq!(ana.round(2), RoundEntry::NotPaired);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundEntry {
    /// Nothing written for the round (a blank block, or the line ends
    /// before it).
    NotPaired,
    /// Paired against `opponent` (a start rank).
    Game {
        /// The opponent's start rank.
        opponent: u16,
        /// The player's colour; `None` when written `-` (a game not
        /// played, e.g. a forfeit) or blank.
        colour: Option<Color>,
        /// The result, `None` while the column is blank (paired, not yet
        /// played).
        result: Option<ResultChar>,
    },
    /// No opponent (`0000`, or a blank opponent with a letter): a bye.
    Bye {
        /// The bye's letter, `None` if blank.
        result: Option<ResultChar>,
    },
}

/// One player's line (`001`).
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::Trf;
///
/// let line = "001    7 m FM Muster, Max                       2215 GER     4612345 1990/05/01  2.5   12";
/// let trf = Trf::parse(line).unwrap();
/// let max = trf.player(7).unwrap();
/// assert_eq!(max.name, "Muster, Max");
/// assert_eq!(max.title, "FM");
/// assert_eq!(max.rating, Some(2215));
/// assert_eq!(max.federation, "GER");
/// assert_eq!(max.fide_id, Some(4612345));
/// assert_eq!(max.points_tenths, Some(25));
/// assert_eq!(max.rank, Some(12));
/// assert_eq!(max.line, 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The start rank (pairing number), columns 5–8.
    pub start_rank: u16,
    /// Column 10 (`m`, `w`, `f`, or blank), as written.
    pub sex: Option<char>,
    /// Columns 11–13 (`GM`, `WIM`, … or empty).
    pub title: String,
    /// Columns 15–47, without surrounding spaces.
    pub name: String,
    /// Columns 49–52.
    pub rating: Option<u16>,
    /// Columns 54–56 (empty if blank).
    pub federation: String,
    /// Columns 58–68.
    pub fide_id: Option<u64>,
    /// Columns 70–79 as written (programs write `YYYY/MM/DD` or `YYYY`).
    pub birth_date: String,
    /// Columns 81–84 in tenths of a point (`2.5` is 25).
    pub points_tenths: Option<u32>,
    /// Columns 86–89.
    pub rank: Option<u16>,
    /// The rounds written, round 1 first (blank blocks as
    /// [`RoundEntry::NotPaired`]).
    pub rounds: Vec<RoundEntry>,
    /// The line's number in the file, from 1.
    pub line: usize,
}

impl Player {
    /// What the line says about round `round` (from 1);
    /// [`RoundEntry::NotPaired`] for a round past the line's end.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::{RoundEntry, Trf};
    ///
    /// let trf = Trf::parse("001    1      Ana\n").unwrap();
    /// assert_eq!(trf.player(1).unwrap().round(3), RoundEntry::NotPaired);
    /// ```
    pub fn round(&self, round: u16) -> RoundEntry {
        round
            .checked_sub(1)
            .and_then(|i| self.rounds.get(usize::from(i)))
            .copied()
            .unwrap_or(RoundEntry::NotPaired)
    }
}

/// One player's entry in a round, as [`Trf::pairings`] lists them.
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::{Pairing, RoundEntry};
///
/// let p = Pairing { rank: 3, entry: RoundEntry::NotPaired };
/// assert_eq!(p.rank, 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    /// The player's start rank.
    pub rank: u16,
    /// What their line says about the round.
    pub entry: RoundEntry,
}

/// A file that cannot be read as TRF-16, or a result that cannot be written
/// into it: the line (from 1; 0 for the whole file) and what is wrong.
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::Trf;
///
/// let err = Trf::parse("012 Open\n001 abcd      Ana\n").unwrap_err();
/// assert_eq!(err.line, 2);
/// assert_eq!(err.to_string(), "line 2: start rank (columns 5-8) `abcd` is not a number from 1 to 9999");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{kind}", if *line == 0 { String::new() } else { format!("line {line}: ") })]
pub struct TrfError {
    /// The line, from 1; 0 when the error is about the whole file.
    pub line: usize,
    /// What is wrong.
    pub kind: TrfErrorKind,
}

/// What is wrong with a TRF-16 file or a result written into it.
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::{TrfErrorKind, Trf};
///
/// assert_eq!(Trf::parse("012 Open\n").unwrap_err().kind, TrfErrorKind::NoPlayers);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrfErrorKind {
    /// The file is larger than [`MAX_BYTES`].
    #[error("the file has {0} bytes, more than a TRF-16 file can ({MAX_BYTES})")]
    TooLarge(usize),
    /// No `001` line at all.
    #[error("no player line (`001`): this is not a TRF-16 file")]
    NoPlayers,
    /// A field of a `001` line that does not read.
    #[error("{field} (columns {columns}) `{value}` is {expected}")]
    Field {
        /// The field's name.
        field: &'static str,
        /// Its columns, 1-based.
        columns: &'static str,
        /// What is written there.
        value: String,
        /// What it should be.
        expected: &'static str,
    },
    /// A field of a team record (`310`, `300`, …) that does not read.
    #[error("{code} {field} (columns {columns}) `{value}` is {expected}")]
    TeamField {
        /// The record's code.
        code: &'static str,
        /// The field's name.
        field: &'static str,
        /// Its columns, 1-based.
        columns: String,
        /// What is written there.
        value: String,
        /// What it should be.
        expected: &'static str,
    },
    /// Two team records with one number.
    #[error("team {team} is also on line {first}")]
    TeamTwice {
        /// The team's number.
        team: u16,
        /// The earlier line.
        first: usize,
    },
    /// A team record names a start rank nobody has.
    #[error("team {team}: player {rank} has no player line")]
    TeamPlayerUnknown {
        /// The team.
        team: u16,
        /// The start rank.
        rank: u16,
    },
    /// A player named by two teams.
    #[error("player {rank} is in team {team} and in team {other}")]
    PlayerInTwoTeams {
        /// The player.
        rank: u16,
        /// The team of this line.
        team: u16,
        /// The team that named them first.
        other: u16,
    },
    /// A record names a team that has no `310` or `013`.
    #[error("{code}: team {team} has no team record")]
    UnknownTeam {
        /// The record's code.
        code: &'static str,
        /// The team.
        team: u16,
    },
    /// A line-up (`300`) names a player of another team.
    #[error("300: player {rank} is not of team {team}")]
    NotOfTeam {
        /// The player.
        rank: u16,
        /// The team of the line-up.
        team: u16,
    },
    /// A game between two players of one team.
    #[error("round {round}: {rank} and {opponent} are both of team {team}")]
    SameTeam {
        /// The round.
        round: u16,
        /// The player.
        rank: u16,
        /// The opponent.
        opponent: u16,
        /// Their team.
        team: u16,
    },
    /// A team's players meet two teams in one round.
    #[error("round {round}: team {team} plays team {first} and team {second}")]
    TeamPlaysTwo {
        /// The round.
        round: u16,
        /// The team.
        team: u16,
        /// One opponent team.
        first: u16,
        /// The other.
        second: u16,
    },
    /// A team's points columns disagree with its matches.
    #[error(
        "team {team}'s {what} (columns {columns}) are {written}, but its matches add up to {results}"
    )]
    TeamPointsDisagree {
        /// The team.
        team: u16,
        /// `match points` or `game points`.
        what: &'static str,
        /// Their columns.
        columns: &'static str,
        /// What is written.
        written: String,
        /// What the matches add up to.
        results: String,
    },
    /// Team pairings for a file without teams.
    #[error("the file has no teams (`310` or `013`)")]
    NotATeamEvent,
    /// A line-up that cannot stand.
    #[error("team {team}'s line-up: {problem}")]
    Lineup {
        /// The team.
        team: u16,
        /// What is wrong with it.
        problem: String,
    },
    /// A round already written for a player.
    #[error("round {round}: {rank} is already paired")]
    AlreadyPaired {
        /// The round.
        round: u16,
        /// The player.
        rank: u16,
    },
    /// A round's block that does not read.
    #[error("round {round} (columns {first}-{last}) `{block}`: {problem}")]
    Block {
        /// The round, from 1.
        round: u16,
        /// Its first column, 1-based.
        first: usize,
        /// Its last column, 1-based.
        last: usize,
        /// What is written there.
        block: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// A line with more rounds than [`MAX_ROUNDS`].
    #[error("more than {MAX_ROUNDS} rounds")]
    TooManyRounds,
    /// Two `001` lines with one start rank.
    #[error("start rank {rank} is also on line {first}")]
    DuplicateRank {
        /// The start rank.
        rank: u16,
        /// The earlier line.
        first: usize,
    },
    /// A round names an opponent who has no `001` line.
    #[error("round {round}: opponent {opponent} has no player line")]
    UnknownOpponent {
        /// The round.
        round: u16,
        /// The opponent's start rank.
        opponent: u16,
    },
    /// A round names an opponent whose line does not name the player back.
    #[error("round {round}: {rank} plays {opponent}, but {opponent}'s line says {theirs}")]
    NotMutual {
        /// The round.
        round: u16,
        /// The player.
        rank: u16,
        /// The opponent named.
        opponent: u16,
        /// What the opponent's line says instead.
        theirs: String,
    },
    /// Both players of a game have one colour.
    #[error("round {round}: {rank} and {opponent} both have {colour}")]
    SameColour {
        /// The round.
        round: u16,
        /// The player.
        rank: u16,
        /// The opponent.
        opponent: u16,
        /// The colour both have.
        colour: &'static str,
    },
    /// A `162` or `BB?` line that does not read.
    #[error("point system: {0}")]
    PointSystem(String),
    /// A player's points column disagrees with their results.
    #[error(
        "player {rank}'s points (columns 81-84) are {written}, but the results add up to {results}"
    )]
    PointsDisagree {
        /// The player.
        rank: u16,
        /// The points written.
        written: String,
        /// What the results add up to.
        results: String,
    },
    /// Points past what columns 81–84 hold (99.9).
    #[error("player {0}'s points would pass 99.9, more than columns 81-84 hold")]
    PointsTooHigh(u16),
    /// A start rank nobody in the file has.
    #[error("no player has start rank {0}")]
    UnknownPlayer(u16),
    /// A round number that is 0 or past [`MAX_ROUNDS`].
    #[error("round {0} is not a round from 1 to {MAX_ROUNDS}")]
    BadRound(u16),
    /// A result for a round in which the player has no game or bye.
    #[error("round {round}: {rank} is not paired")]
    NotPaired {
        /// The round.
        round: u16,
        /// The player.
        rank: u16,
    },
    /// A result that does not fit the entry: a bye's letter for a game, a
    /// game's result for a bye.
    #[error("round {round}: `{result}` cannot be the result of {rank}'s {what}")]
    ResultDoesNotFit {
        /// The round.
        round: u16,
        /// The player.
        rank: u16,
        /// The letter refused.
        result: ResultChar,
        /// `game` or `bye`.
        what: &'static str,
    },
}

/// A TRF-16 file: every line as read, and the players of its `001` lines.
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::Trf;
///
/// let file = "012 Club Open  \nXXR 7\n001    1      Ana\r\n";
/// let trf = Trf::parse(file).unwrap();
/// assert_eq!(trf.to_string(), file);
/// assert_eq!(trf.players().count(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trf {
    /// A UTF-8 byte-order mark before the first line.
    bom: bool,
    /// Whether the file is UTF-8 (columns count characters) or not
    /// (columns count bytes).
    utf8: bool,
    lines: Vec<Line>,
    /// In the file's order.
    players: Vec<Player>,
    /// Start rank to index in `players`.
    by_rank: BTreeMap<u16, usize>,
    /// What each result is worth (`162`, `BB?` lines, or FIDE's).
    points: PointSystem,
    /// The team records (`310`, `013`, `352`, `362`, …); `None` in an
    /// individual event.
    teams: Option<Teams>,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Trf {
    /// Reads a TRF-16 file. Any line not starting with `001` is kept as it
    /// is; every `001` line must read, every opponent named must have a
    /// line, and each game must be written on both players' lines.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// assert!(Trf::parse("001    1      Ana\n").is_ok());
    /// let err = Trf::parse("001    1      Ana                                                                             2 w 1\n").unwrap_err();
    /// assert_eq!(err.to_string(), "line 1: round 1: opponent 2 has no player line");
    /// ```
    pub fn parse(text: &str) -> Result<Trf, TrfError> {
        Trf::from_bytes(text.as_bytes())
    }

    /// Reads a TRF-16 file given as bytes: UTF-8 (columns count
    /// characters) or, if it is not UTF-8, a single-byte code page such as
    /// Windows-1252 (columns count bytes; names are read as Latin-1).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let latin1 = b"001    1      M\xfcller\r\n";
    /// let trf = Trf::from_bytes(latin1).unwrap();
    /// assert_eq!(trf.player(1).unwrap().name, "M\u{fc}ller");
    /// assert_eq!(trf.to_bytes(), latin1);
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Trf, TrfError> {
        if bytes.len() > MAX_BYTES {
            return Err(TrfError {
                line: 0,
                kind: TrfErrorKind::TooLarge(bytes.len()),
            });
        }
        let bom = bytes.starts_with(BOM);
        let body = if bom { &bytes[BOM.len()..] } else { bytes };
        let utf8 = std::str::from_utf8(body).is_ok();
        let lines = split_lines(body);
        let mut players = Vec::new();
        let mut by_rank = BTreeMap::new();
        for (i, line) in lines.iter().enumerate() {
            if !line.text.starts_with(b"001") {
                continue;
            }
            let player = read_player(&columns(&line.text, utf8), i + 1)
                .map_err(|kind| TrfError { line: i + 1, kind })?;
            if let Some(&first) = by_rank.get(&player.start_rank) {
                let first: &Player = &players[first];
                return Err(TrfError {
                    line: i + 1,
                    kind: TrfErrorKind::DuplicateRank {
                        rank: player.start_rank,
                        first: first.line,
                    },
                });
            }
            by_rank.insert(player.start_rank, players.len());
            players.push(player);
        }
        if players.is_empty() {
            return Err(TrfError {
                line: 0,
                kind: TrfErrorKind::NoPlayers,
            });
        }
        let mut trf = Trf {
            bom,
            utf8,
            lines,
            players,
            by_rank,
            points: PointSystem::default(),
            teams: None,
        };
        trf.points = PointSystem::read(&trf)?;
        trf.check_games()?;
        trf.teams = Teams::read(&trf)?;
        Ok(trf)
    }

    /// Every game names an opponent who has a line, whose line names the
    /// player back in that round, with the other colour.
    fn check_games(&self) -> Result<(), TrfError> {
        for player in &self.players {
            for (i, entry) in player.rounds.iter().enumerate() {
                let RoundEntry::Game {
                    opponent, colour, ..
                } = *entry
                else {
                    continue;
                };
                // Fits: a line holds at most MAX_ROUNDS rounds.
                let round = u16::try_from(i + 1).unwrap_or(MAX_ROUNDS);
                let fail = |kind| {
                    Err(TrfError {
                        line: player.line,
                        kind,
                    })
                };
                let Some(other) = self.player(opponent) else {
                    return fail(TrfErrorKind::UnknownOpponent { round, opponent });
                };
                match other.round(round) {
                    RoundEntry::Game {
                        opponent: back,
                        colour: theirs,
                        ..
                    } if back == player.start_rank => {
                        if let (Some(a), Some(b)) = (colour, theirs)
                            && a == b
                        {
                            return fail(TrfErrorKind::SameColour {
                                round,
                                rank: player.start_rank,
                                opponent,
                                colour: crate::side::name(a),
                            });
                        }
                    }
                    theirs => {
                        return fail(TrfErrorKind::NotMutual {
                            round,
                            rank: player.start_rank,
                            opponent,
                            theirs: match theirs {
                                RoundEntry::NotPaired => "nothing".into(),
                                RoundEntry::Bye { .. } => "a bye".into(),
                                RoundEntry::Game { opponent, .. } => {
                                    format!("{opponent}")
                                }
                            },
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// The file's teams, if it is a team event's (`310` or `013`).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// assert!(Trf::parse("001    1      Ana\n").unwrap().teams().is_none());
    /// assert_eq!(Trf::parse(tactus_rules::trf::TEAM_EXAMPLE).unwrap().teams().unwrap().teams().len(), 2);
    /// ```
    pub fn teams(&self) -> Option<&Teams> {
        self.teams.as_ref()
    }

    /// The players, in the file's order.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse("001    2      Bea\n001    1      Ana\n").unwrap();
    /// let ranks: Vec<u16> = trf.players().map(|p| p.start_rank).collect();
    /// assert_eq!(ranks, [2, 1]);
    /// ```
    pub fn players(&self) -> impl Iterator<Item = &Player> {
        self.players.iter()
    }

    /// The player with start rank `rank`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse("001    1      Ana\n").unwrap();
    /// assert_eq!(trf.player(1).unwrap().name, "Ana");
    /// assert!(trf.player(2).is_none());
    /// ```
    pub fn player(&self, rank: u16) -> Option<&Player> {
        self.by_rank.get(&rank).map(|&i| &self.players[i])
    }

    /// What every player's line says about round `round` (from 1), in the
    /// file's order: a game against an opponent with a colour, a bye, or
    /// not paired.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::Color;
    /// use tactus_rules::trf::{RoundEntry, Trf};
    ///
    /// let trf = Trf::parse(
    ///     "001    1      Ana                                                                             2 b  \n\
    ///      001    2      Bea                                                                             1 w  \n\
    ///      001    3      Cid                                                                          0000 - U\n",
    /// )
    /// .unwrap();
    /// let round: Vec<RoundEntry> = trf.pairings(1).into_iter().map(|p| p.entry).collect();
    /// assert_eq!(round[0], RoundEntry::Game { opponent: 2, colour: Some(Color::Black), result: None });
    /// assert!(matches!(round[2], RoundEntry::Bye { .. }));
    /// ```
    pub fn pairings(&self, round: u16) -> Vec<Pairing> {
        self.players
            .iter()
            .map(|p| Pairing {
                rank: p.start_rank,
                entry: p.round(round),
            })
            .collect()
    }

    /// The event's name from the `012` line, if there is one.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse("012 Club Open 2026\n001    1      Ana\n").unwrap();
    /// assert_eq!(trf.event_name().as_deref(), Some("Club Open 2026"));
    /// ```
    pub fn event_name(&self) -> Option<String> {
        let line = self.lines.iter().find(|l| l.text.starts_with(b"012"))?;
        let text: String = columns(&line.text, self.utf8).into_iter().skip(3).collect();
        Some(text.trim().to_owned()).filter(|t| !t.is_empty())
    }

    /// The file with `result` written into round `round`'s result column
    /// of player `rank`'s line, every other byte as it was. The line is
    /// extended with spaces when it ends before that column (a paired round
    /// written without its blank result column). A game takes a game's
    /// result (`1`, `0`, `=`, `+`, `-`, …), a bye a bye's letter; the
    /// opponent's line is the caller's to write too.
    ///
    /// The player's points (columns 81–84) move by what the result is worth
    /// in the file's [point system](Trf::point_system), less what a result
    /// it replaces was worth, so that a pairing engine reading the file
    /// finds points and results agree; a blank points column gets the sum
    /// of the line's results.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::{ResultChar, Trf};
    ///
    /// let file = "001    1      Ana                                                                             2 w\n\
    ///             001    2      Bea                                                                             1 b\n";
    /// let trf = Trf::parse(file).unwrap()
    ///     .with_result(1, 1, ResultChar::Draw).unwrap()
    ///     .with_result(1, 2, ResultChar::Draw).unwrap();
    /// assert_eq!(trf.player(1).unwrap().points_tenths, Some(5));
    /// assert!(trf.to_string().lines().all(|l| &l[80..84] == " 0.5" && l.ends_with(" =")));
    /// assert!(trf.with_result(2, 1, ResultChar::Win).is_err()); // round 2 is not paired
    /// assert!(trf.with_result(1, 1, ResultChar::HalfPointBye).is_err()); // a game, not a bye
    /// ```
    pub fn with_result(&self, round: u16, rank: u16, result: ResultChar) -> Result<Trf, TrfError> {
        if round == 0 || round > MAX_ROUNDS {
            return Err(TrfError {
                line: 0,
                kind: TrfErrorKind::BadRound(round),
            });
        }
        let Some(&index) = self.by_rank.get(&rank) else {
            return Err(TrfError {
                line: 0,
                kind: TrfErrorKind::UnknownPlayer(rank),
            });
        };
        let player = &self.players[index];
        let fail = |kind| {
            Err(TrfError {
                line: player.line,
                kind,
            })
        };
        let fits = match player.round(round) {
            RoundEntry::NotPaired => return fail(TrfErrorKind::NotPaired { round, rank }),
            RoundEntry::Game { .. } => result.is_game().then_some(()).ok_or("game"),
            RoundEntry::Bye { .. } => result.is_bye().then_some(()).ok_or("bye"),
        };
        if let Err(what) = fits {
            return fail(TrfErrorKind::ResultDoesNotFit {
                round,
                rank,
                result,
                what,
            });
        }
        let column = FIRST_ROUND_COLUMN + ROUND_WIDTH * usize::from(round - 1) + RESULT_OFFSET;
        let mut trf = self.clone();
        let entry = &mut trf.players[index].rounds[usize::from(round - 1)];
        let before = match entry {
            RoundEntry::Game { result: r, .. } | RoundEntry::Bye { result: r } => r.replace(result),
            RoundEntry::NotPaired => None,
        };
        // The points move by what the result changes (so acceleration a
        // pairing program added stays); a blank column gets the sum.
        let ps = self.points;
        let me = &trf.players[index];
        let points = match me.points_tenths {
            Some(p) => (p + ps.of(result)).saturating_sub(before.map_or(0, |b| ps.of(b))),
            None => records::sum(&me.rounds, &ps),
        };
        let Some(text) = records::points_field(points) else {
            return fail(TrfErrorKind::PointsTooHigh(rank));
        };
        trf.players[index].points_tenths = Some(points);
        let line = &mut trf.lines[player.line - 1];
        write_column(&mut line.text, self.utf8, column, result.as_char() as u8);
        for (i, b) in text.bytes().enumerate() {
            write_column(&mut line.text, self.utf8, POINTS_COLUMN + i, b);
        }
        Ok(trf)
    }

    /// The file as bytes: as read, with the results written.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let file = b"\xEF\xBB\xBF012 Open\r\n001    1      Ana  \r\n\r\n";
    /// assert_eq!(Trf::from_bytes(file).unwrap().to_bytes(), file);
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        if self.bom {
            out.extend_from_slice(BOM);
        }
        for line in &self.lines {
            out.extend_from_slice(&line.text);
            out.extend_from_slice(line.ending.bytes());
        }
        out
    }
}

/// The file as text: exactly the bytes of [`Trf::to_bytes`] for a UTF-8
/// file; a file in a single-byte code page is shown read as Latin-1.
impl fmt::Display for Trf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.to_bytes();
        match std::str::from_utf8(&bytes) {
            Ok(text) => f.write_str(text),
            Err(_) => f.write_str(&bytes.iter().map(|&b| char::from(b)).collect::<String>()),
        }
    }
}

#[cfg(test)]
mod team_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn line(rank: u16, name: &str, blocks: &str) -> String {
        format!("001 {rank:>4}      {name:<33}{:42}{blocks}", "")
    }

    #[test]
    fn a_player_line_is_read_at_its_columns() {
        let l = line(3, "Ana", "     4 w 1  0000 - H");
        assert_eq!(l.find("   4 w").unwrap(), FIRST_ROUND_COLUMN);
        let file = format!("{l}\n{}\n", line(4, "Bea", "     3 b 0"));
        let trf = Trf::parse(&file).unwrap();
        let ana = trf.player(3).unwrap();
        assert_eq!(
            ana.rounds,
            [
                RoundEntry::Game {
                    opponent: 4,
                    colour: Some(Color::White),
                    result: Some(ResultChar::Win)
                },
                RoundEntry::Bye {
                    result: Some(ResultChar::HalfPointBye)
                }
            ]
        );
        assert_eq!(trf.to_string(), file);
    }

    #[test]
    fn line_endings_of_every_kind_are_kept() {
        let file = "012 x\r001    1      Ana\r\n\n\r\r\n001    2      Bea";
        let trf = Trf::parse(file).unwrap();
        assert_eq!(trf.to_string(), file);
        assert_eq!(trf.player(2).unwrap().line, 6);
    }

    #[test]
    fn a_round_past_the_end_of_a_line_is_written_with_spaces_before_it() {
        let file = format!(
            "{}\n{}\n",
            line(1, "Ana", "     2 w 1     2 b"),
            line(2, "Bea", "     1 b 0     1 w")
        );
        let trf = Trf::parse(&file).unwrap();
        let written = trf.with_result(2, 1, ResultChar::ForfeitWin).unwrap();
        let written = written.with_result(2, 2, ResultChar::ForfeitLoss).unwrap();
        let mut expected = file.replace("2 b\n", "2 b +\n").replace("1 w\n", "1 w -\n");
        // The points follow the results: Ana 2.0, Bea 0.0.
        let second = expected.find('\n').unwrap() + 1;
        expected.replace_range(second + 80..second + 84, " 0.0");
        expected.replace_range(80..84, " 2.0");
        assert_eq!(written.to_string(), expected);
        assert_eq!(Trf::parse(&written.to_string()).unwrap(), written);
    }

    #[test]
    fn a_name_with_accents_counts_characters_not_bytes() {
        let file = format!(
            "{}\n{}\n",
            line(1, "Müller, Jürgen", "     2 w"),
            line(2, "Ødegård", "     1 b")
        );
        let trf = Trf::parse(&file).unwrap();
        assert_eq!(trf.player(1).unwrap().name, "Müller, Jürgen");
        let written = trf.with_result(1, 1, ResultChar::Draw).unwrap();
        assert!(written.to_string().contains("Müller, Jürgen"));
        assert!(written.to_string().contains("2 w =\n"));
    }

    #[test]
    fn bad_lines_are_named() {
        let cases = [
            (
                line(1, "Ana", "     1 w 1"),
                "a player paired with themselves",
            ),
            (line(1, "Ana", "     2 x 1"), "the colour is not w, b or -"),
            (line(1, "Ana", "     2 w ?"), "the result is not one of"),
            (line(1, "Ana", "  0000 w U"), "a colour without an opponent"),
            (
                line(1, "Ana", "  0000 - 1"),
                "a game's result without an opponent",
            ),
            (
                line(1, "Ana", "     2 w H"),
                "a bye's letter against an opponent",
            ),
            (line(1, "Ana", "    2x w 1"), "not a start rank"),
            (line(1, "Ana", "     2 w 1x"), "must be blank"),
        ];
        for (text, want) in cases {
            let file = format!("012 t\n{text}\n{}\n", line(2, "Bea", "     1 b 0"));
            let err = Trf::parse(&file).unwrap_err();
            assert_eq!(err.line, 2, "{err}");
            assert!(err.to_string().contains(want), "{err} lacks {want}");
        }
    }

    #[test]
    fn games_must_be_written_on_both_lines_with_two_colours() {
        let one_sided = format!("{}\n{}\n", line(1, "Ana", "     2 w"), line(2, "Bea", ""));
        assert!(matches!(
            Trf::parse(&one_sided).unwrap_err().kind,
            TrfErrorKind::NotMutual { .. }
        ));
        let same = format!(
            "{}\n{}\n",
            line(1, "Ana", "     2 w"),
            line(2, "Bea", "     1 w")
        );
        assert!(matches!(
            Trf::parse(&same).unwrap_err().kind,
            TrfErrorKind::SameColour { .. }
        ));
        let twice = format!("{}\n{}\n", line(1, "Ana", ""), line(1, "Bea", ""));
        assert_eq!(
            Trf::parse(&twice).unwrap_err().kind,
            TrfErrorKind::DuplicateRank { rank: 1, first: 1 }
        );
    }

    #[test]
    fn a_rating_that_is_not_a_number_is_refused() {
        let mut l = line(1, "Ana", "");
        l.replace_range(48..52, "12a4");
        let err = Trf::parse(&l).unwrap_err();
        assert!(
            err.to_string().contains("rating (columns 49-52) `12a4`"),
            "{err}"
        );
    }
}
