//! How a game ended: the score (shakmaty's [`KnownOutcome`]) and why, as a
//! type, so that nothing is decided by comparing words a person typed.

use serde::{Deserialize, Serialize, Serializer};
use shakmaty::{Color, KnownOutcome};

/// What happens when a clock reaches zero. Under 6.8 a flag has fallen only
/// when the arbiter observes it or a player claims it (for the blind player,
/// the assistant: D.2.10.5), so by default the table shows the fall at once
/// and the game ends on the claim; an organiser may have it end at once.
///
/// # Examples
///
/// ```
/// use tactus_rules::result::FlagRule;
///
/// assert_eq!(FlagRule::default(), FlagRule::Claim);
/// let rule: FlagRule = serde_json::from_str(r#""auto""#).unwrap();
/// assert_eq!(rule, FlagRule::Auto);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FlagRule {
    /// Shown and announced at once; the game ends when it is claimed (6.8).
    #[default]
    Claim,
    /// The game ends the moment the clock reaches zero.
    Auto,
}

/// A score the arbiter typed that is none of PGN's three.
///
/// # Examples
///
/// ```
/// use shakmaty::KnownOutcome;
/// use tactus_rules::result::{UnknownScore, parse_score};
///
/// assert_eq!(parse_score("1/2-1/2"), Ok(KnownOutcome::Draw));
/// let err = parse_score("1-1").unwrap_err();
/// assert_eq!(err.to_string(), "`1-1` is not a result: use 1-0, 0-1 or 1/2-1/2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a result: use 1-0, 0-1 or 1/2-1/2")]
pub struct UnknownScore(pub String);

/// The score `text` writes as PGN does (`1-0`, `0-1`, `1/2-1/2`); the
/// arbiter's typed result is read here, once, at the edge.
///
/// # Examples
///
/// ```
/// use shakmaty::{Color, KnownOutcome};
/// use tactus_rules::result::parse_score;
///
/// assert_eq!(parse_score("0-1"), Ok(KnownOutcome::Decisive { winner: Color::Black }));
/// assert!(parse_score("½-½").is_err());
/// ```
pub fn parse_score(text: &str) -> Result<KnownOutcome, UnknownScore> {
    text.parse().map_err(|_| UnknownScore(text.to_owned()))
}

/// Serde for a score as PGN writes it (`1-0`, `0-1`, `1/2-1/2`), both
/// ways: `#[serde(with = "tactus_rules::result::score")]`; any other text
/// is refused naming it.
///
/// # Examples
///
/// ```
/// use shakmaty::{Color, KnownOutcome};
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Decided {
///     #[serde(with = "tactus_rules::result::score")]
///     result: KnownOutcome,
/// }
/// let d: Decided = serde_json::from_str(r#"{"result":"0-1"}"#).unwrap();
/// assert_eq!(d.result, KnownOutcome::Decisive { winner: Color::Black });
/// assert_eq!(serde_json::to_string(&d).unwrap(), r#"{"result":"0-1"}"#);
/// assert!(serde_json::from_str::<Decided>(r#"{"result":"2-0"}"#).is_err());
/// ```
pub mod score {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::KnownOutcome;

    /// The score as PGN writes it.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::KnownOutcome;
    ///
    /// let mut out = Vec::new();
    /// let mut json = serde_json::Serializer::new(&mut out);
    /// tactus_rules::result::score::serialize(&KnownOutcome::Draw, &mut json).unwrap();
    /// assert_eq!(out, br#""1/2-1/2""#);
    /// ```
    pub fn serialize<S: Serializer>(score: &KnownOutcome, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(score)
    }

    /// A score read as PGN writes it.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{Color, KnownOutcome};
    ///
    /// let mut json = serde_json::Deserializer::from_str(r#""1-0""#);
    /// let score = tactus_rules::result::score::deserialize(&mut json).unwrap();
    /// assert_eq!(score, KnownOutcome::Decisive { winner: Color::White });
    /// ```
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<KnownOutcome, D::Error> {
        let text = String::deserialize(d)?;
        super::parse_score(text.trim()).map_err(serde::de::Error::custom)
    }
}

/// Why a game ended.
///
/// # Examples
///
/// ```
/// use tactus_rules::result::Ending;
///
/// assert_eq!(serde_json::to_string(&Ending::FiftyMoves).unwrap(), r#""fifty_moves""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The side to move is in check and has no legal move (5.1.1).
    Checkmate,
    /// The side to move is not in check and has no legal move (5.2.1).
    Stalemate,
    /// No sequence of legal moves can mate (5.2.2).
    DeadPosition,
    /// The same position five times (9.6.1).
    FivefoldRepetition,
    /// 75 moves by each side without pawn move or capture (9.6.2).
    SeventyFiveMoves,
    /// The players agreed to a draw (5.2.3, 9.1).
    Agreement,
    /// A correct claim under 9.2.
    ThreefoldRepetition,
    /// A correct claim under 9.3.
    FiftyMoves,
    /// A player resigned (5.1.2).
    Resignation,
    /// A flag fell and was claimed or observed (6.8, 6.9).
    FlagFell,
    /// The arbiter's decision (7.5.5, 12.9 …), with their reason.
    Arbiter,
}

impl Ending {
    /// The words shown for it (the PGN's `Termination` too).
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::result::Ending;
    ///
    /// assert_eq!(Ending::SeventyFiveMoves.words(), "seventy-five-move rule");
    /// ```
    pub fn words(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::DeadPosition => "dead position",
            Ending::FivefoldRepetition => "fivefold repetition",
            Ending::SeventyFiveMoves => "seventy-five-move rule",
            Ending::Agreement => "agreement",
            Ending::ThreefoldRepetition => "threefold repetition",
            Ending::FiftyMoves => "fifty-move rule",
            Ending::Resignation => "resignation",
            Ending::FlagFell => "flag fell",
            Ending::Arbiter => "arbiter's decision",
        }
    }
}

/// The result of a finished game.
///
/// # Examples
///
/// ```
/// use shakmaty::{Color, KnownOutcome};
/// use tactus_rules::result::{Ending, GameResult};
///
/// let r = GameResult::new(KnownOutcome::Decisive { winner: Color::White }, Ending::FlagFell);
/// assert_eq!(r.score(), "1-0");
/// assert_eq!(r.reason(), "flag fell");
/// let json = serde_json::to_value(&r).unwrap();
/// assert_eq!(json["result"], "1-0");
/// assert_eq!(json["ending"], "flag_fell");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// The score: a win for one side, or a draw.
    pub outcome: KnownOutcome,
    /// Why the game ended.
    pub ending: Ending,
    /// More words: the arbiter's reason, or the move written with a claim.
    pub detail: Option<String>,
}

impl GameResult {
    /// A result with no detail.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::KnownOutcome;
    /// use tactus_rules::result::{Ending, GameResult};
    ///
    /// let r = GameResult::new(KnownOutcome::Draw, Ending::Stalemate);
    /// assert_eq!((r.score().as_str(), r.detail), ("1/2-1/2", None));
    /// ```
    pub fn new(outcome: KnownOutcome, ending: Ending) -> GameResult {
        GameResult {
            outcome,
            ending,
            detail: None,
        }
    }

    /// A win for `winner`.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::Color;
    /// use tactus_rules::result::{Ending, GameResult};
    ///
    /// assert_eq!(GameResult::win(Color::Black, Ending::Resignation).score(), "0-1");
    /// ```
    pub fn win(winner: Color, ending: Ending) -> GameResult {
        GameResult::new(KnownOutcome::Decisive { winner }, ending)
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::Color;
    /// use tactus_rules::result::{Ending, GameResult};
    ///
    /// assert_eq!(GameResult::win(Color::White, Ending::Checkmate).score(), "1-0");
    /// ```
    pub fn score(&self) -> String {
        self.outcome.to_string()
    }

    /// Why, in words: the ending, and any detail. The arbiter's reason
    /// stands alone.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{Color, KnownOutcome};
    /// use tactus_rules::result::{Ending, GameResult};
    ///
    /// let mut r = GameResult::new(KnownOutcome::Draw, Ending::ThreefoldRepetition);
    /// r.detail = Some("Nf3".into());
    /// assert_eq!(r.reason(), "threefold repetition, Nf3");
    /// let mut r = GameResult::win(Color::White, Ending::Arbiter);
    /// r.detail = Some("second illegal move".into());
    /// assert_eq!(r.reason(), "second illegal move");
    /// ```
    pub fn reason(&self) -> String {
        match (&self.detail, self.ending) {
            (Some(d), Ending::Arbiter) => d.clone(),
            (Some(d), e) => format!("{}, {d}", e.words()),
            (None, e) => e.words().to_string(),
        }
    }
}

impl Serialize for GameResult {
    /// `{"result": "1-0", "reason": "flag fell", "ending": "flag_fell"}`:
    /// the pages show `result` and `reason`; `ending` is for programs.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("GameResult", 3)?;
        st.serialize_field("result", &self.score())?;
        st.serialize_field("reason", &self.reason())?;
        st.serialize_field("ending", &self.ending)?;
        st.end()
    }
}

/// A result in JSON as its score, `"1-0"`, `"0-1"` or `"1/2-1/2"`, or
/// absent (`None`): for `#[serde(with = "tactus_rules::result::opt_score")]`
/// on an `Option<KnownOutcome>` (shakmaty's `KnownOutcome` has no serde
/// support of its own).
///
/// # Examples
///
/// ```
/// use shakmaty::{Color, KnownOutcome};
///
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Game {
///     #[serde(default, with = "tactus_rules::result::opt_score")]
///     result: Option<KnownOutcome>,
/// }
///
/// let g = Game { result: Some(KnownOutcome::Decisive { winner: Color::Black }) };
/// assert_eq!(serde_json::to_string(&g).unwrap(), r#"{"result":"0-1"}"#);
/// assert_eq!(serde_json::from_str::<Game>(r#"{"result":"0-1"}"#).unwrap(), g);
/// assert!(serde_json::from_str::<Game>(r#"{"result":"1-1"}"#).is_err());
/// ```
pub mod opt_score {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::KnownOutcome;

    /// Writes the score, or nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::KnownOutcome;
    /// use tactus_rules::result::opt_score;
    ///
    /// let mut out = Vec::new();
    /// opt_score::serialize(&Some(KnownOutcome::Draw), &mut serde_json::Serializer::new(&mut out)).unwrap();
    /// assert_eq!(out, br#""1/2-1/2""#);
    /// ```
    pub fn serialize<S: Serializer>(r: &Option<KnownOutcome>, s: S) -> Result<S::Ok, S::Error> {
        match r {
            Some(o) => s.collect_str(o),
            None => s.serialize_none(),
        }
    }

    /// Reads a score; anything but `1-0`, `0-1` and `1/2-1/2` is an error.
    ///
    /// # Examples
    ///
    /// ```
    /// use shakmaty::{Color, KnownOutcome};
    /// use tactus_rules::result::opt_score;
    ///
    /// let mut d = serde_json::Deserializer::from_str(r#""1-0""#);
    /// let won = KnownOutcome::Decisive { winner: Color::White };
    /// assert_eq!(opt_score::deserialize(&mut d).unwrap(), Some(won));
    /// let mut d = serde_json::Deserializer::from_str("null");
    /// assert_eq!(opt_score::deserialize(&mut d).unwrap(), None);
    /// ```
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<KnownOutcome>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|t| super::parse_score(&t).map_err(serde::de::Error::custom))
            .transpose()
    }
}
