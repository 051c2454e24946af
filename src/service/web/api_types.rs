//! The JSON of the HTTP API as types, in one place: what the pages send
//! and what they read. `docs/api.md` describes every endpoint with these
//! types; `tests/service/api_contract.rs` checks that every field the pages read
//! is in a real table's state and that the document names every field.
//!
//! The table's state and its announcements are made by the table layer
//! (`table::view`), which must not know the service: they are re-exported
//! here. The request bodies and the error answer belong to the service and
//! are defined here.
//!
//! Request bodies refuse unknown fields (`deny_unknown_fields`): a page
//! that misspells a field gets 400, not a silently ignored option. They are
//! `Serialize` as well, so the benchmarks' client sends the same types.

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::table::round::Round;
use tactus_rules::clock_announce::Shown;
use tactus_rules::notation::Lang;

/// The answer to `POST /api/tables/{id}/ruling`.
pub use crate::table::actions::ruling::{ClockJson, RulingJson};
/// Parts of the state made by the rules, the sound output and the braille
/// display.
pub use crate::table::display::DisplayState;
/// The answer to an accepted write.
pub use crate::table::handle::Reply;
/// A live `announcement` event.
pub use crate::table::view::Announcement;
/// `GET /api/tables/{id}` and the live `state` event: one table.
pub use crate::table::view::TableView;
/// The parts of [`TableView`].
pub use crate::table::view::{Alert, AlertKind, BoardView, ClockPhase, ClockView};
pub use tactus_rules::game::{Irregularity, NoticeKind, TouchedPiece};
pub use tactus_rules::game_kind::GameKind;
pub use tactus_rules::result::{FlagRule, GameResult};
pub use tactus_speech::device::{AudioState, AudioView};

/// Every error answer: a status and `{"error": "…"}`, a sentence a person
/// understands (quoted input cut to 100 characters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    /// What went wrong, in words; the pages say it as it is.
    pub error: String,
}

/// `POST /api/tables/{id}/move`: a move in any notation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// The move as typed: SAN (`Nf3`), long (`Ng1-f3`), UCI (`g1f3`), or
    /// with another language's piece letters (`Sf3`).
    #[serde(rename = "move")]
    pub text: String,
    /// The piece letters: `auto`, `en`, `de`, `es`, `fr`, `nl`, …; left
    /// out, the table's `notation`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<BodyLang>,
    /// The language of the page the move was typed on: under `auto` it
    /// settles an entry several languages read as different moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_lang: Option<BodyLang>,
}

/// A body's `lang` or `page_lang`, read as the body is: the piece letters
/// of a language tactus knows, or the text given, which the request is
/// then refused for (422: the body itself is well formed, as before).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyLang {
    Known(Lang),
    Unknown { text: String, why: String },
}

impl BodyLang {
    /// The language, or why the text names none.
    pub fn known(&self) -> Result<Lang, &str> {
        match self {
            BodyLang::Known(lang) => Ok(*lang),
            BodyLang::Unknown { why, .. } => Err(why),
        }
    }
}

impl From<Lang> for BodyLang {
    fn from(lang: Lang) -> BodyLang {
        BodyLang::Known(lang)
    }
}

impl Serialize for BodyLang {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            BodyLang::Known(lang) => lang.serialize(s),
            BodyLang::Unknown { text, .. } => s.serialize_str(text),
        }
    }
}

impl<'de> Deserialize<'de> for BodyLang {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BodyLang, D::Error> {
        let text = String::deserialize(d)?;
        Ok(match text.parse::<Lang>() {
            Ok(lang) => BodyLang::Known(lang),
            Err(e) => BodyLang::Unknown {
                why: e.to_string(),
                text,
            },
        })
    }
}

/// `POST /api/tables/{id}/clock/say`; the body may be left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SayClockBody {
    /// `left` or `used`; the table's setting if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<Shown>,
}

/// The body of the writes that name a side: `draw/offer`, `draw/decline`,
/// `resign`, `illegal/completed`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideBody {
    /// `white` or `black`: whose offer, refusal, resignation or completed
    /// illegal move.
    #[serde(with = "tactus_rules::side")]
    pub side: Color,
}

/// `POST /api/tables/{id}/draw/claim/threefold` and `…/fifty`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimBody {
    /// `white` or `black`: who claims.
    #[serde(with = "tactus_rules::side")]
    pub side: Color,
    /// The move that brings the repetition or the fifty moves about,
    /// declared but not made (9.2.1.1, 9.3.1); any notation.
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub declared: Option<String>,
    /// The declared move's piece letters, as in [`MoveBody::lang`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<BodyLang>,
    /// The page's language, as in [`MoveBody::page_lang`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_lang: Option<BodyLang>,
}

/// `POST /api/tables/{id}/clock/adjust` (the arbiter).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdjustBody {
    /// `white` or `black`: whose clock.
    #[serde(with = "tactus_rules::side")]
    pub side: Color,
    /// Seconds to add (negative: to take); at most 36000 either way.
    pub seconds: f64,
    /// Why, for the record.
    #[serde(default)]
    pub reason: String,
}

/// `POST /api/tables/{id}/touched`: a touched piece (4.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TouchBody {
    /// `white` or `black`: who touched it.
    #[serde(with = "tactus_rules::side")]
    pub side: Color,
    /// The square of the touched piece (`e2`).
    #[serde(with = "tactus_rules::side::square")]
    pub square: shakmaty::Square,
}

/// `POST /api/tables/{id}/result` (the arbiter).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultBody {
    /// `1-0`, `0-1` or `1/2-1/2`, read by `rules::result::score`; any
    /// other score is refused (422, naming the field).
    #[serde(with = "tactus_rules::result::score")]
    pub result: shakmaty::KnownOutcome,
    /// Why; left empty, "arbiter's decision".
    #[serde(default)]
    pub reason: String,
    /// With a round's result: the side that did not come (`white`,
    /// `black`). The game was never played: the pairing program's file
    /// gets `+`/`-`, a forfeit, which only the arbiter can say.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "tactus_rules::side::option"
    )]
    pub forfeit: Option<Color>,
}

/// `POST /api/tables/{id}/ruling` (the arbiter): the D.2.9 ruling on the
/// two scoresheets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulingBody {
    /// White's scoresheet as written, any notation.
    pub white_sheet: String,
    /// Black's scoresheet as written.
    pub black_sheet: String,
    /// Apply the ruling (retract to the agreed moves, restore the clocks);
    /// `false`: only say what it would be.
    #[serde(default)]
    pub apply: bool,
}

/// `POST /api/tables/{id}/rate`: the table's speaking rate, 0.7 to 1.6
/// (the pitch kept), the arbiter's to set.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateBody {
    /// Checked by the handler (`player_settings::Rate`): 422 out of range.
    pub rate: f64,
}

/// `POST /api/tables/{id}/promotion`: the piece of a promotion waiting on
/// a tactile board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionBody {
    /// `q`, `r`, `b` or `n` (or the English name).
    #[serde(with = "tactus_rules::side::promotion_piece")]
    pub piece: shakmaty::Role,
}

/// `GET /api/voice` and `GET /api/tables/{id}/voice`: a voice pack for
/// the player's browser, which fetches every clip once and plays each
/// announcement's tokens from them. Fields in alphabetical order, as the
/// JSON has always had them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoiceManifest {
    /// A URL per token key (`piece.knight` →
    /// `/api/voice/clips/piece.knight.wav`), for every token the pack has
    /// a clip of.
    pub clips: std::collections::BTreeMap<String, String>,
    /// The silence between two words, in milliseconds.
    pub gap_ms: u32,
    /// The pack's language (`de`).
    pub language: String,
    /// The pack's name (`de-appendix-d`).
    pub name: String,
    /// The clips' sample rate, in hertz.
    pub rate: u32,
}

/// The query of `GET /api/tables/{id}/brf`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrfQuery {
    /// `brf` (the default: ASCII braille, an attachment `.brf`) or
    /// `unicode` (Unicode braille, shown in the browser).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// `1`: the clock time after every move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// The words' language: `en`, `de`, `es`, `fr`, `nl`, `pt`, `pl` or
    /// `cs`; by default the table's own (its voice pack's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_bodies_read_what_the_pages_send_and_write_it_back_the_same() {
        let text = r#"{"move":"Sf3","lang":"de"}"#;
        let body: MoveBody = serde_json::from_str(text).unwrap();
        assert_eq!(body.text, "Sf3");
        assert_eq!(serde_json::to_string(&body).unwrap(), text);
        let text = r#"{"side":"black","move":"Nf3"}"#;
        let claim: ClaimBody = serde_json::from_str(text).unwrap();
        assert_eq!(claim.side, Color::Black);
        assert_eq!(serde_json::to_string(&claim).unwrap(), text);
        // A misspelt field is refused, not ignored.
        assert!(serde_json::from_str::<MoveBody>(r#"{"move":"e4","lnag":"de"}"#).is_err());
        assert!(serde_json::from_str::<SideBody>(r#"{"side":"White"}"#).is_err());
    }

    /// The words the pages compare with, as docs/api.md lists them: a
    /// renamed variant would change the JSON, which must not change.
    #[test]
    fn the_state_s_enums_are_written_as_the_pages_read_them() {
        fn words<T: Serialize>(values: &[T]) -> Vec<String> {
            values
                .iter()
                .map(|v| {
                    serde_json::to_value(v)
                        .unwrap()
                        .as_str()
                        .unwrap()
                        .to_owned()
                })
                .collect()
        }
        use AlertKind::*;
        assert_eq!(
            words(&[
                ClockPhase::NotStarted,
                ClockPhase::Running,
                ClockPhase::Paused,
                ClockPhase::Flagged
            ]),
            ["not_started", "running", "paused", "flagged"]
        );
        assert_eq!(
            words(&[
                Journal,
                BoardDisconnected,
                BoardDiffers,
                Flag,
                Illegal,
                DrawOffer,
                Promotion,
                Audio
            ]),
            [
                "journal",
                "board_disconnected",
                "board_differs",
                "flag",
                "illegal",
                "draw_offer",
                "promotion",
                "audio"
            ]
        );
        assert_eq!(
            words(&[
                AudioState::Playing,
                AudioState::Failed,
                AudioState::Starting,
                AudioState::TextOnly
            ]),
            ["playing", "failed", "starting", "none"]
        );
        assert_eq!(
            words(&[
                DisplayState::Connected,
                DisplayState::Disconnected,
                DisplayState::Failing,
                DisplayState::Failed
            ]),
            ["connected", "disconnected", "failing", "failed"]
        );
    }
}

/// `POST /api/rounds` (JSON): a round's games at tactus tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundBody {
    /// The round, as the PGN's `Round` tag and the pairing program name it.
    pub round: Round,
    /// One game per table.
    pub games: Vec<crate::service::competition::views::RoundGame>,
}

/// `POST /api/rounds?round=N` with a TRF file: which round of it to set up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundQuery {
    #[serde(default)]
    pub round: Option<Round>,
}

/// `PUT /api/teams/{n}/lineup`'s body: a team's line-up for a round.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineupBody {
    /// The round it is for (not yet set up).
    pub round: u16,
    /// Start ranks for boards 1, 2, …, in the team's fixed order.
    pub boards: Vec<u16>,
}
