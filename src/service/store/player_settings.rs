//! A listed player's own settings, kept by the server so that they follow
//! the player: from table to table as the rounds move them, and from device
//! to device (a phone that ran flat, a borrowed laptop). Read and written
//! with the player's own token (`GET`/`PUT /api/players/me/settings`),
//! journaled as one document, so a restart keeps them.
//!
//! Every value is checked when it is read from a request: a setting out of
//! range is refused (422, naming it) and nothing changes.

use serde::{Deserialize, Serialize};
use tactus_rules::clock_announce::Shown;
use tactus_rules::language::Language;
use tactus_rules::notation::Lang;

use crate::service::store::journal::{JournalError, JournalHandle};
use crate::service::store::journaled_map::JournaledMap;

/// The name the players' settings are kept under in the journal.
pub const SETTINGS_DOCUMENT: &str = "player-settings";

/// One player's settings; a setting left out is the page's (or the
/// table's) default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSettings {
    /// The pages' language (`en`, `de`, `es`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<PageLanguage>,
    /// How moves are written for them: `standard` (Nf3) or `long` (Ng1-f3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_style: Option<MoveStyle>,
    /// The piece letters they type moves in (`auto`, `en`, `de`, …);
    /// left out: the table's.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "notation"
    )]
    pub notation: Option<Lang>,
    /// What their clock command tells: the time `left` or `used`; left
    /// out: the table's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Shown>,
    /// Their page warns them once when their own time falls below this
    /// many seconds (1–3600); left out: no warning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low_time_s: Option<LowTime>,
    /// Their device's speaking rate for the table's clips (0.7–1.6, the
    /// pitch kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<Rate>,
    /// Their device's volume for the table's clips (0–1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<Volume>,
}

/// A setting outside what it may be, named as the player sent it: the
/// answer to a `PUT` of the settings, and why a journaled document no
/// longer reads.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingError {
    /// A language the pages have no catalogue for.
    #[error("lang `{}`: the pages speak {}", .0.code(), with_catalogue())]
    NoCatalogue(Language),
    #[error("low_time_s {0}: from 1 to 3600 seconds")]
    LowTime(u32),
    #[error("rate {0}: from 0.7 to 1.6")]
    Rate(f64),
    #[error("volume {0}: from 0 to 1")]
    Volume(f64),
}

/// The codes of the languages the pages speak (`en, es, de`).
fn with_catalogue() -> String {
    let codes: Vec<&str> = Language::WITH_CATALOGUE.iter().map(|l| l.code()).collect();
    codes.join(", ")
}

/// A language the pages have a catalogue for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Language", into = "Language")]
pub struct PageLanguage(Language);

impl TryFrom<Language> for PageLanguage {
    type Error = SettingError;
    fn try_from(l: Language) -> Result<PageLanguage, SettingError> {
        if Language::WITH_CATALOGUE.contains(&l) {
            Ok(PageLanguage(l))
        } else {
            Err(SettingError::NoCatalogue(l))
        }
    }
}

impl From<PageLanguage> for Language {
    fn from(l: PageLanguage) -> Language {
        l.0
    }
}

/// How moves are written on the player's page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveStyle {
    Standard,
    Long,
}

/// Seconds of the low-time warning, 1 to 3600.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct LowTime(u32);

impl TryFrom<u32> for LowTime {
    type Error = SettingError;
    fn try_from(s: u32) -> Result<LowTime, SettingError> {
        (1..=3600)
            .contains(&s)
            .then_some(LowTime(s))
            .ok_or(SettingError::LowTime(s))
    }
}

impl From<LowTime> for u32 {
    fn from(l: LowTime) -> u32 {
        l.0
    }
}

/// A speaking rate, 0.7 to 1.6 (1: as recorded).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Rate(f64);

impl TryFrom<f64> for Rate {
    type Error = SettingError;
    fn try_from(r: f64) -> Result<Rate, SettingError> {
        (0.7..=1.6)
            .contains(&r)
            .then_some(Rate(r))
            .ok_or(SettingError::Rate(r))
    }
}

impl From<Rate> for f64 {
    fn from(r: Rate) -> f64 {
        r.0
    }
}

/// A volume, 0 (silent) to 1 (as recorded).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Volume(f64);

impl TryFrom<f64> for Volume {
    type Error = SettingError;
    fn try_from(v: f64) -> Result<Volume, SettingError> {
        (0.0..=1.0)
            .contains(&v)
            .then_some(Volume(v))
            .ok_or(SettingError::Volume(v))
    }
}

impl From<Volume> for f64 {
    fn from(v: Volume) -> f64 {
        v.0
    }
}

fn notation<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Lang>, D::Error> {
    Option::<String>::deserialize(d)?
        .map(|s| s.parse::<Lang>().map_err(serde::de::Error::custom))
        .transpose()
}

/// Every listed player's settings, by start rank, journaled.
pub struct SettingsStore(JournaledMap<u16, PlayerSettings>);

impl SettingsStore {
    /// The store as the journal's document `kept` had it (empty if none, or
    /// if it no longer reads: a player then starts from the defaults).
    pub fn new(kept: Option<Vec<u8>>, journal: JournalHandle) -> SettingsStore {
        SettingsStore(JournaledMap::new(
            SETTINGS_DOCUMENT,
            kept,
            "the players' settings (each player then starts from the defaults)",
            Some(journal),
        ))
    }

    /// Player `rank`'s settings.
    pub fn of(&self, rank: u16) -> PlayerSettings {
        self.0.get(&rank).unwrap_or_default()
    }

    /// The settings follow their people when the players' codes do
    /// (`Tokens::code_changes`): a renumbered player keeps theirs at their
    /// new rank; a rank given to another person starts from the defaults.
    /// Journaled at start, before anyone is answered.
    pub async fn follow(
        &self,
        changes: &[crate::service::security::access::CodeChange],
    ) -> Result<(), JournalError> {
        use crate::service::security::access::CodeChange;
        if changes.is_empty() {
            return Ok(());
        }
        self.0
            .change(|map| {
                let before = map.clone();
                for c in changes {
                    match c {
                        CodeChange::Moved { from, to, .. } => {
                            match before.get(from) {
                                Some(s) => map.insert(*to, s.clone()),
                                None => map.remove(to),
                            };
                        }
                        CodeChange::Replaced { rank, .. } | CodeChange::New { rank, .. } => {
                            map.remove(rank);
                        }
                    }
                }
            })
            .await
    }

    /// Replaces player `rank`'s settings, journaled before they take
    /// effect.
    pub async fn set(&self, rank: u16, settings: PlayerSettings) -> Result<(), JournalError> {
        self.0.insert(rank, settings).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> serde_json::Result<PlayerSettings> {
        serde_json::from_str(json)
    }

    #[test]
    fn every_setting_reads_and_writes_back() {
        let json = r#"{"lang":"de","move_style":"long","notation":"de","clock":"used","low_time_s":300,"rate":1.3,"volume":0.8}"#;
        let s = read(json).unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), json);
        assert_eq!(read("{}").unwrap(), PlayerSettings::default());
    }

    #[test]
    fn values_out_of_range_are_refused_with_their_name() {
        for (json, says) in [
            (r#"{"rate":2.0}"#, "rate 2: from 0.7 to 1.6"),
            (r#"{"rate":0.5}"#, "rate 0.5"),
            (r#"{"volume":1.5}"#, "volume 1.5"),
            (r#"{"low_time_s":0}"#, "low_time_s 0"),
            (r#"{"low_time_s":7200}"#, "low_time_s 7200"),
            (r#"{"lang":"pl"}"#, "lang `pl`: the pages speak en, es, de"),
            (r#"{"notation":"xx"}"#, "xx"),
            (r#"{"clock":"sometimes"}"#, "sometimes"),
            (r#"{"move_style":"short"}"#, "short"),
            (r#"{"colour":"red"}"#, "unknown field `colour`"),
        ] {
            let e = read(json).unwrap_err().to_string();
            assert!(e.contains(says), "{json}: {e}");
        }
    }
}
