//! Players' codes bound to people, not to start ranks: who each code was
//! made for, the venue's listed players matched to them at each start
//! (a renumbering keeps a person's code, a rank given to another person
//! gets a new one), what changed, and the codes of those no longer
//! listed.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::service::security::secret::Secret;

use super::file::{TokenError, random_code};

/// A player no longer listed, as their code last knew them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Departed {
    pub(super) name: String,
    pub(super) start_rank: u16,
}

/// Who a player's code was made for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PersonEntry {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fide_id: Option<u64>,
}

impl PersonEntry {
    fn identity(&self) -> Identity {
        Identity::of(&self.name, self.fide_id)
    }
}

/// A listed player as the venue file lists them: who a code belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub start_rank: u16,
    pub name: String,
    pub fide_id: Option<u64>,
}

/// Who a person is, for their code: their FIDE id where the venue gives
/// one, else their name (letters' case and spacing aside).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Identity {
    Fide(u64),
    Name(String),
}

impl Identity {
    fn of(name: &str, fide_id: Option<u64>) -> Identity {
        match fide_id {
            Some(id) => Identity::Fide(id),
            None => Identity::Name(
                name.split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .to_lowercase(),
            ),
        }
    }
}

/// What changed in the players' codes at this start, for the venue
/// arbiter's page and the log: new cards are printed for these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum CodeChange {
    /// The pairing program renumbered them: their code follows them.
    Moved { name: String, from: u16, to: u16 },
    /// Their rank was another person's: a new code for them, and the
    /// other person's is refused from now on.
    Replaced {
        rank: u16,
        name: String,
        before: String,
    },
    /// Newly listed: a new code.
    New { rank: u16, name: String },
}

impl fmt::Display for CodeChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodeChange::Moved { name, from, to } => write!(
                f,
                "{name}: start rank {from} is now {to}; their code follows them (reprint their card)"
            ),
            CodeChange::Replaced { rank, name, before } => write!(
                f,
                "start rank {rank} is now {name}, not {before}: {name} has a new code, \
                 {before}'s is refused (print {name}'s card)"
            ),
            CodeChange::New { rank, name } => {
                write!(
                    f,
                    "{name} (start rank {rank}) is newly listed: print their card"
                )
            }
        }
    }
}

/// The players' codes and their people for `listed`, from the file's
/// `codes` and `people`: each person keeps their code whatever their rank;
/// a code bound to nobody (an older file) goes to whoever holds its rank
/// now; anyone else gets a new code. Codes of people no longer listed are
/// dropped: they are refused.
#[allow(clippy::type_complexity)]
pub(super) fn bind_players(
    codes: &BTreeMap<String, Secret>,
    people: &BTreeMap<String, PersonEntry>,
    listed: &[Person],
) -> Result<
    (
        BTreeMap<String, Secret>,
        BTreeMap<String, PersonEntry>,
        Vec<CodeChange>,
    ),
    TokenError,
> {
    let (mut out_codes, mut out_people) = (BTreeMap::new(), BTreeMap::new());
    let mut changes = Vec::new();
    // The old ranks already given to someone: two people listed under one
    // name never share a code.
    let mut used = BTreeSet::new();
    for p in listed {
        let me = Identity::of(&p.name, p.fide_id);
        let rank_key = p.start_rank.to_string();
        let theirs = people
            .iter()
            .find(|(r, e)| !used.contains(*r) && e.identity() == me && codes.contains_key(*r))
            .map(|(r, _)| r.clone());
        let code = if let Some(r) = theirs {
            if r != rank_key {
                changes.push(CodeChange::Moved {
                    name: p.name.clone(),
                    from: r.parse().unwrap_or(0),
                    to: p.start_rank,
                });
            }
            used.insert(r.clone());
            codes[&r].clone()
        } else {
            match (codes.get(&rank_key), people.get(&rank_key)) {
                (Some(code), None) if !used.contains(&rank_key) => {
                    used.insert(rank_key.clone());
                    code.clone()
                }
                (Some(_), Some(before)) => {
                    changes.push(CodeChange::Replaced {
                        rank: p.start_rank,
                        name: p.name.clone(),
                        before: before.name.clone(),
                    });
                    random_code()?
                }
                _ => {
                    if !codes.is_empty() {
                        changes.push(CodeChange::New {
                            rank: p.start_rank,
                            name: p.name.clone(),
                        });
                    }
                    random_code()?
                }
            }
        };
        out_codes.insert(rank_key.clone(), code);
        out_people.insert(
            rank_key,
            PersonEntry {
                name: p.name.clone(),
                fide_id: p.fide_id,
            },
        );
    }
    Ok((out_codes, out_people, changes))
}

/// The codes of `codes` that no listed person kept (`kept`): their people
/// are no longer listed.
pub(super) fn departed_of(
    codes: &BTreeMap<String, Secret>,
    people: &BTreeMap<String, PersonEntry>,
    kept: &BTreeMap<String, Secret>,
) -> Vec<(String, Departed)> {
    codes
        .iter()
        .filter(|(_, code)| !kept.values().any(|k| k == *code))
        .map(|(rank, code)| {
            (
                code.expose().to_owned(),
                Departed {
                    name: people.get(rank).map(|p| p.name.clone()).unwrap_or_default(),
                    start_rank: rank.parse().unwrap_or(0),
                },
            )
        })
        .collect()
}
