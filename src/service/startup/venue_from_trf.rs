//! The venue file's `[[player]]` and `[[team]]` entries from an
//! organiser's TRF-26 export (`001` players, `310` or `013` teams): nobody
//! types forty players. `tactus venue from-trf FILE` prints them; the
//! organiser adds them under the venue's `[[table]]`s.

use tactus_rules::trf::{Trf, TrfError};

/// Why a file gives no entries.
#[derive(Debug, thiserror::Error)]
pub enum FromTrfError {
    /// The file does not read (the line is named).
    #[error(transparent)]
    Trf(#[from] TrfError),
    /// An individual event's file.
    #[error("no team record (`310` or `013`): this is not a team event's file")]
    NoTeams,
    /// A player with no name: the venue needs one.
    #[error("line {line}: player {rank} has no name (columns 15-47)")]
    NoName { line: usize, rank: u16 },
}

/// A TOML string, quoted and escaped.
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

/// The `[[player]]` entries of every `001` line (file order) and the
/// `[[team]]` entries of every team, as TOML text.
///
/// # Examples
///
/// ```
/// use tactus::service::startup::venue_from_trf::venue_entries;
/// use tactus_rules::trf::{TEAM_EXAMPLE, Trf};
///
/// let toml = venue_entries(&Trf::parse(TEAM_EXAMPLE).unwrap()).unwrap();
/// assert!(toml.contains("[[team]]\nnumber = 1\nname = \"Lions\"\nshort = \"LIO\"\nplayers = [1, 2, 3]\n"));
/// assert!(toml.contains("[[player]]\nname = \"Ana\"\nstart_rank = 1\n"));
/// ```
pub fn venue_entries(trf: &Trf) -> Result<String, FromTrfError> {
    let teams = trf.teams().ok_or(FromTrfError::NoTeams)?;
    let mut out = String::new();
    out.push_str(&format!(
        "# {} players and {} teams from the pairing program's TRF-26 file.\n",
        trf.players().count(),
        teams.teams().len()
    ));
    for p in trf.players() {
        if p.name.trim().is_empty() {
            return Err(FromTrfError::NoName {
                line: p.line,
                rank: p.start_rank,
            });
        }
        out.push_str(&format!(
            "\n[[player]]\nname = {}\nstart_rank = {}\n",
            quoted(&p.name),
            p.start_rank
        ));
        if let Some(id) = p.fide_id.filter(|&id| id != 0) {
            out.push_str(&format!("fide_id = {id}\n"));
        }
    }
    for t in teams.teams() {
        let players: Vec<String> = t.players.iter().map(u16::to_string).collect();
        out.push_str(&format!(
            "\n[[team]]\nnumber = {}\nname = {}\n",
            t.number,
            quoted(&t.name)
        ));
        if !t.short.is_empty() {
            out.push_str(&format!("short = {}\n", quoted(&t.short)));
        }
        out.push_str(&format!("players = [{}]\n", players.join(", ")));
    }
    // How many boards a match has (`352`, or the smallest team): line-ups
    // are checked against it before any round's file arrives.
    out.push_str(&format!(
        "\n[team_match]\n# Boards per match: the export's 352 (or its smallest team).\nboards = {}\n",
        teams.boards()
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::startup::config::Config;

    #[test]
    fn the_entries_make_a_venue_that_starts() {
        let trf = Trf::parse(tactus_rules::trf::TEAM_EXAMPLE).unwrap();
        let entries = venue_entries(&trf).unwrap();
        let venue = format!("[[table]]\nid = \"1\"\n{entries}");
        let config = Config::parse(&venue).unwrap();
        assert_eq!(config.players.len(), 6);
        assert_eq!(config.teams.len(), 2);
        assert_eq!(config.teams[1].players, [4, 5, 6]);
        assert_eq!(config.team_of(5).unwrap().name, "Tigers");
    }

    #[test]
    fn an_individual_event_s_file_gives_no_entries() {
        let trf = Trf::parse("001    1      Ana\n").unwrap();
        assert!(matches!(venue_entries(&trf), Err(FromTrfError::NoTeams)));
    }

    #[test]
    fn a_name_that_needs_quoting_is_quoted() {
        // As wide as "Ana" and its spaces: the columns stay.
        let text = tactus_rules::trf::TEAM_EXAMPLE.replace("Ana       ", "A \"Q\" \\ na");
        let trf = Trf::parse(&text).unwrap();
        let entries = venue_entries(&trf).unwrap();
        let config = Config::parse(&format!("[[table]]\nid = \"1\"\n{entries}")).unwrap();
        assert_eq!(config.players[0].name, "A \"Q\" \\ na");
    }
}
