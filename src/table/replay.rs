//! Replaying a table's journal into its game, refusing rather than guessing:
//! an entry that cannot be read or no longer applies stops the replay with
//! the table, the entry's sequence number and why. A game rebuilt from a
//! journal with a hole in it would be a different game, announced as the
//! one that was played.
//!
//! Also the comparison of a venue's configuration with the setup a game was
//! journaled with: what defines the game (the blind side, the time control,
//! the start position) must agree; names, event and round may change.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;

use super::journal::Record;
use super::round::Round;
use super::setup::Setup;
use tactus_rules::announce::Style;
use tactus_rules::event::GameEvent;
use tactus_rules::game::Game;

/// A journal entry of a table: its setup (first, and again whenever the
/// names, event or round were changed), then game events. Public as the
/// journal's format: `tactus bench startup` writes a long event's journal
/// in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Entry {
    /// (Boxed: a setup, with its start FEN, is large beside an event.)
    Setup(Box<Setup>),
    #[serde(untagged)]
    Game(GameEvent),
}

/// Why a table's journal could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("table {table}: journal entry {seq}: {why}")]
pub struct ReplayError {
    pub table: String,
    /// The sequence number of the entry (0: the table as a whole).
    pub seq: i64,
    pub why: Refusal,
}

/// What is wrong with one journal entry (or, for the first two, with the
/// table's journal as a whole).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the journal holds nothing for this table")]
    Empty,
    #[error("the table's journal does not start with its setup")]
    NoSetup,
    /// Not JSON, or not an entry; `entry` is at most 100 characters of it.
    #[error("{entry} cannot be read: {reason}")]
    Unreadable { entry: String, reason: String },
    #[error(transparent)]
    Start(#[from] StartError),
    #[error("negative instant {0}")]
    NegativeInstant(i64),
    /// A later setup that changes what defines the game.
    #[error(transparent)]
    Disagrees(#[from] Disagreement),
    /// An event the game refuses; `entry` is at most 100 characters of it.
    #[error("{entry} does not apply: {reason}")]
    DoesNotApply {
        entry: String,
        reason: tactus_rules::game::GameError,
    },
}

/// Why a setup does not start a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error("table {table}: {reason}")]
    Game {
        table: String,
        reason: tactus_rules::game::GameError,
    },
}

/// A configured setup that may not resume the journaled game, naming the
/// configuration key that disagrees and both values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Disagreement {
    #[error(
        "`blind` is {} in the configuration but the game in the journal has the blind player {}",
        tactus_rules::side::name(*configured),
        tactus_rules::side::name(*journaled)
    )]
    Blind {
        configured: shakmaty::Color,
        journaled: shakmaty::Color,
    },
    #[error(
        "`control` is {configured} in the configuration but the game in the journal is played at {journaled}"
    )]
    Control {
        configured: tactus_rules::time_control::TimeControl,
        journaled: tactus_rules::time_control::TimeControl,
    },
    /// `None`: the standard position.
    #[error(
        "the start position (`variant`, `start_position`) is {} in the configuration but the game in the journal started from {}",
        start_name(configured),
        start_name(journaled)
    )]
    /// (Boxed: a FEN is large, and this error travels inside others.)
    Start {
        configured: Option<Box<Fen>>,
        journaled: Option<Box<Fen>>,
    },
}

fn start_name(fen: &Option<Box<Fen>>) -> String {
    fen.as_ref()
        .map_or_else(|| "the standard position".to_owned(), |f| f.to_string())
}

/// A table's game rebuilt from its journal.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The setup the game was journaled with (the latest names).
    pub setup: Setup,
    pub game: Game,
    /// Game events applied.
    pub events: usize,
    /// The latest instant in the journal, in milliseconds.
    pub last_ms: u64,
}

/// Replays `history` (one table's records, oldest first). Every entry must
/// read and apply; the first that does not is the error.
pub fn replay(id: &str, history: &[Record], style: Style) -> Result<Replayed, ReplayError> {
    let refuse = |seq: i64, why: Refusal| ReplayError {
        table: id.to_owned(),
        seq,
        why,
    };
    let Some(first) = history.first() else {
        return Err(refuse(0, Refusal::Empty));
    };
    let mut setup = match read(&first.payload) {
        Ok(Entry::Setup(s)) => *s,
        Ok(Entry::Game(_)) => {
            return Err(refuse(first.seq, Refusal::NoSetup));
        }
        Err(e) => return Err(refuse(first.seq, e)),
    };
    let mut game = new_game(&setup, style).map_err(|e| refuse(first.seq, e.into()))?;
    let mut events = 0usize;
    let mut last_ms = 0u64;
    for record in &history[1..] {
        let at_ms = u64::try_from(record.at_ms)
            .map_err(|_| refuse(record.seq, Refusal::NegativeInstant(record.at_ms)))?;
        last_ms = last_ms.max(at_ms);
        match read(&record.payload).map_err(|e| refuse(record.seq, e))? {
            Entry::Setup(changed) => {
                defining_keys_agree(&setup, &changed).map_err(|e| refuse(record.seq, e.into()))?;
                setup = *changed;
            }
            Entry::Game(event) => {
                game.apply(Duration::from_millis(at_ms), &event)
                    .map_err(|reason| {
                        refuse(
                            record.seq,
                            Refusal::DoesNotApply {
                                entry: summary(&record.payload),
                                reason,
                            },
                        )
                    })?;
                events += 1;
            }
        }
    }
    Ok(Replayed {
        setup,
        game,
        events,
        last_ms,
    })
}

/// The setup a game's first record holds (every game's first entry is its
/// setup); `None` for a record that is not a setup.
pub fn setup_in(record: &Record) -> Option<Setup> {
    match read(&record.payload) {
        Ok(Entry::Setup(s)) => Some(*s),
        _ => None,
    }
}

/// The game a setup starts.
pub(crate) fn new_game(setup: &Setup, style: Style) -> Result<Game, StartError> {
    Game::new(setup.fen.as_ref(), setup.control.clone(), style)
        .map(|g| g.with_flag_rule(setup.flag))
        .map_err(|reason| StartError::Game {
            table: setup.id.to_string(),
            reason,
        })
}

fn read(payload: &str) -> Result<Entry, Refusal> {
    serde_json::from_str(payload).map_err(|e| Refusal::Unreadable {
        entry: summary(payload),
        reason: e.to_string(),
    })
}

/// At most 100 characters of an entry, for messages.
fn summary(payload: &str) -> String {
    let mut s: String = payload.chars().take(100).collect();
    if s.len() < payload.len() {
        s.push('…');
    }
    s
}

/// Whether a configured setup may resume a journaled game: the blind side,
/// the time control and the start position must be the journal's. The
/// error names the configuration key that disagrees.
pub fn defining_keys_agree(journaled: &Setup, configured: &Setup) -> Result<(), Disagreement> {
    if journaled.blind != configured.blind {
        return Err(Disagreement::Blind {
            configured: configured.blind,
            journaled: journaled.blind,
        });
    }
    if journaled.control != configured.control {
        return Err(Disagreement::Control {
            configured: configured.control.clone(),
            journaled: journaled.control.clone(),
        });
    }
    if journaled.fen != configured.fen {
        return Err(Disagreement::Start {
            configured: configured.fen.clone().map(Box::new),
            journaled: journaled.fen.clone().map(Box::new),
        });
    }
    Ok(())
}

/// Whether a game has begun: a move made, the clock started, or a result.
/// A game that has not may be set up anew; one that has is the record of
/// what was played.
pub fn begun(game: &Game) -> bool {
    !game.plies().is_empty()
        || game.result().is_some()
        || !matches!(
            game.clock().state(),
            tactus_rules::clock::ClockState::NotStarted
        )
}

/// What a venue's configuration does to a table's journaled game at
/// start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigSays {
    /// The journaled game stays as it is; `differs`: the configuration
    /// says other names, event or round, which wait for the next game.
    Keep { differs: bool },
    /// The configuration describes the table's next game: start it.
    NextGame,
}

/// What the configured setup means for the journaled game `r`, given the
/// rounds of the table's earlier games. A journaled game is never renamed:
///
/// - a game under way goes on; the configuration must agree on what
///   defines it when it names the game's round (else the error names the
///   key), and its names, event and round wait for the next game;
/// - a finished game stays finished; a configuration naming a round the
///   table has not played starts that round's game (an organiser's second
///   round by an edited venue file);
/// - a game that has not begun is set up anew from a configuration that
///   differs, unless the configuration names a round the table played
///   before (a venue file older than the rounds started from the API).
pub fn next_from_config(
    r: &Replayed,
    configured: &Setup,
    earlier_rounds: &[Round],
) -> Result<ConfigSays, Disagreement> {
    let journaled = &r.setup;
    let differs = configured != journaled;
    let played_before = earlier_rounds.contains(&configured.round);
    if r.game.result().is_some() {
        if configured.round != journaled.round && !played_before {
            return Ok(ConfigSays::NextGame);
        }
        return Ok(ConfigSays::Keep { differs });
    }
    if !begun(&r.game) {
        if differs && !played_before {
            return Ok(ConfigSays::NextGame);
        }
        return Ok(ConfigSays::Keep { differs });
    }
    // The configuration describes this game only if it names its round
    // (a game set up by the arbiter's round has its own players, side and
    // control): then it must agree on what defines it.
    if configured.round == journaled.round {
        defining_keys_agree(journaled, configured)?;
    }
    Ok(ConfigSays::Keep { differs })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

    /// A setup line as earlier versions journaled it (the FEN and the
    /// control were strings then) reads into the typed setup and writes
    /// back the same text; one without `flag` reads as the default.
    #[test]
    fn a_setup_line_of_string_fields_reads_and_writes_the_same() {
        let line = r#"{"type":"setup","id":"3","blind":"white","control":"40/90+30, 30+30","white":"A","black":"B","event":"Open","round":"2","fen":"4k3/8/8/8/8/8/8/4K2R w K - 0 1","flag":"auto"}"#;
        let Entry::Setup(setup) = read(line).unwrap() else {
            panic!("not a setup");
        };
        assert_eq!(
            setup.fen,
            Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap())
        );
        assert_eq!(setup.control, "40/90+30,30+30".parse().unwrap());
        assert_eq!(serde_json::to_string(&Entry::Setup(setup)).unwrap(), line);
        let old = r#"{"type":"setup","id":"1","blind":"black","control":"90+30","white":"","black":"","event":"","round":"","fen":null}"#;
        let Entry::Setup(setup) = read(old).unwrap() else {
            panic!("not a setup");
        };
        assert_eq!(
            (setup.fen, setup.flag),
            (None, tactus_rules::result::FlagRule::Claim)
        );
        // A FEN that is none is refused when the line is read.
        let bad = old.replace("null", r#""8/8 w""#);
        assert!(matches!(read(&bad), Err(Refusal::Unreadable { .. })));
    }

    fn setup() -> Setup {
        Setup {
            id: "1".parse().unwrap(),
            blind: Color::Black,
            control: "90+30".parse().unwrap(),
            white: "A".into(),
            black: "B".into(),
            event: "Open".into(),
            round: "1".parse().unwrap(),
            fen: None,
            flag: tactus_rules::result::FlagRule::Claim,
            ranks: Default::default(),
            held_for_start: false,
        }
    }

    fn replayed(setup: Setup, events: &[GameEvent]) -> Replayed {
        let mut game = new_game(&setup, Style::default()).unwrap();
        for (i, e) in events.iter().enumerate() {
            game.apply(Duration::from_millis(i as u64 * 1000), e)
                .unwrap();
        }
        Replayed {
            setup,
            game,
            events: events.len(),
            last_ms: 0,
        }
    }

    fn e4() -> GameEvent {
        GameEvent::ClockStarted
    }

    #[test]
    fn a_game_under_way_is_never_renamed_and_what_defines_it_must_agree() {
        let under_way = replayed(setup(), &[e4()]);
        let mut blind = setup();
        blind.blind = Color::White;
        let mut control = setup();
        control.control = "60+0".parse().unwrap();
        let mut fen = setup();
        fen.fen = Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap());
        for (changed, key) in [
            (blind, "`blind`"),
            (control, "`control`"),
            (fen, "start position"),
        ] {
            let err = next_from_config(&under_way, &changed, &[])
                .unwrap_err()
                .to_string();
            assert!(err.contains(key), "{key}: {err}");
        }
        assert_eq!(
            next_from_config(&under_way, &setup(), &[]),
            Ok(ConfigSays::Keep { differs: false })
        );
        let mut renamed = setup();
        renamed.white = "Anna".into();
        renamed.round = "2".parse().unwrap();
        assert_eq!(
            next_from_config(&under_way, &renamed, &[]),
            Ok(ConfigSays::Keep { differs: true }),
            "names wait for the next game"
        );
        // A venue file about another round (the game under way was set
        // up by the arbiter's round, with its own side) is not this game's.
        let mut other_round = setup();
        other_round.round = "2".parse().unwrap();
        other_round.blind = Color::White;
        assert_eq!(
            next_from_config(&under_way, &other_round, &[]),
            Ok(ConfigSays::Keep { differs: true })
        );
    }

    #[test]
    fn a_finished_game_stays_and_a_new_round_in_the_configuration_is_the_next_game() {
        let finished = replayed(setup(), &[e4(), GameEvent::Resigned { side: Color::White }]);
        assert!(finished.game.result().is_some());
        let mut renamed = setup();
        renamed.white = "Carla".into();
        assert_eq!(
            next_from_config(&finished, &renamed, &[]),
            Ok(ConfigSays::Keep { differs: true }),
            "the same round renamed: the finished game keeps its names"
        );
        let mut round2 = renamed.clone();
        round2.round = "2".parse().unwrap();
        round2.blind = Color::White;
        assert_eq!(
            next_from_config(&finished, &round2, &[]),
            Ok(ConfigSays::NextGame)
        );
        assert_eq!(
            next_from_config(&finished, &round2, &["2".parse().unwrap()]),
            Ok(ConfigSays::Keep { differs: true }),
            "a round the table played before is never started again"
        );
    }

    #[test]
    fn a_game_not_begun_is_set_up_anew_from_a_configuration_that_differs() {
        let fresh = replayed(setup(), &[]);
        assert!(!begun(&fresh.game));
        let mut blind = setup();
        blind.blind = Color::White;
        assert_eq!(
            next_from_config(&fresh, &blind, &[]),
            Ok(ConfigSays::NextGame)
        );
        assert_eq!(
            next_from_config(&fresh, &setup(), &[]),
            Ok(ConfigSays::Keep { differs: false })
        );
        let mut old = blind.clone();
        old.round = "0".parse().unwrap();
        assert_eq!(
            next_from_config(&fresh, &old, &["0".parse().unwrap()]),
            Ok(ConfigSays::Keep { differs: true })
        );
    }
}
