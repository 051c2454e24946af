//! The team event's counterparts, run as an organiser's tools run them on
//! the TRF-26 file tactus gives back:
//!
//! - **TieBreakServer**, FIDE's tie-break checker (MIT, vendored in
//!   `tests/vendor/TieBreakServer`): `python3 tiebreakchecker.py -i FILE
//!   -r -dT -n ROUND` reads a team file (refusing scores that disagree with the
//!   games) and prints its ranking with the `202` tie-breaks, one
//!   tab-separated line per team ([`tiebreaks`]);
//! - **chesspairing** (Apache-2.0, vendored in `tests/vendor/chesspairing`)
//!   through `tests/team-engine`, a few lines of Go of tactus's own: its
//!   validator ([`validate`]) and its Team Swiss (FIDE C.04.6) pairing the
//!   round after the last one of a team-level file ([`pair`]).
//!
//! `scripts/team-engines.sh` (sourced by `scripts/test`) installs networkx
//! and builds the Go program into `target/team-engines`, and exports
//! `TACTUS_TIEBREAKSERVER`, `TACTUS_TIEBREAKSERVER_PATH` and
//! `TACTUS_TEAMENGINE`.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// The folder of the vendored TieBreakServer.
pub const TIEBREAKSERVER: &str = "TACTUS_TIEBREAKSERVER";
/// The PYTHONPATH holding networkx for it.
pub const TIEBREAKSERVER_PATH: &str = "TACTUS_TIEBREAKSERVER_PATH";
/// The team engine's binary.
pub const TEAMENGINE: &str = "TACTUS_TEAMENGINE";

const BUILD: &str = "run `scripts/test`, or `. scripts/debian-deps.sh; . scripts/team-engines.sh` \
     in the workspace root (it installs networkx, builds tests/team-engine into \
     target/team-engines and exports the variables)";

/// `var`'s path, else `fallback` under the workspace; panics with how to
/// build it when neither exists.
fn found(var: &str, fallback: &str) -> PathBuf {
    let path = std::env::var_os(var)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::workspace_root().join(fallback));
    assert!(
        path.exists(),
        "{var}: {} does not exist: {BUILD}",
        path.display()
    );
    path
}

/// A file of its own in the system's temporary folder for one run.
fn scratch(bytes: &[u8], ext: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "tactus-team-{}-{}.{ext}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, bytes).expect("a temporary file");
    path
}

/// Why a team engine gave no answer a test can use: it could not be run,
/// it refused the file, or its output does not read. Each keeps what the
/// engine wrote.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The program could not be started (`python3`, `teamengine`).
    #[error("{program}: {source}")]
    Run {
        program: &'static str,
        source: std::io::Error,
    },
    /// The engine refused the file or could not do what it was asked:
    /// what it refused (`TieBreakServer refused the file`) and all it said.
    #[error("{what}: {said}")]
    Refused { what: &'static str, said: String },
    /// Its output is not what it writes: what is missing (`no ranking`)
    /// and the output.
    #[error("{what}: {said}")]
    Unreadable { what: &'static str, said: String },
    /// A ranking line whose column is not a number.
    #[error("`{line}`: column {column} is not a number")]
    NotANumber { line: String, column: usize },
    /// A pairing line that is not two team numbers.
    #[error("`{0}` is not two team numbers")]
    NotTwoTeams(String),
    /// The pairing list's count and its lines disagree.
    #[error("the count says {announced}, the list has {found}")]
    Count { announced: usize, found: usize },
}

/// One team's line of TieBreakServer's ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub rank: u16,
    /// The team's number.
    pub team: u16,
    /// Each column after the number, by its heading (`PTS`, `MPTS`,
    /// `GPTS`, `BH:MP/C1`, `SB`, …), as a number.
    pub values: Vec<(String, f64)>,
}

/// TieBreakServer's ranking of a team file after round `round`, best
/// first: what FIDE's checker computes for its `202` tie-breaks. An error
/// with its output when it refuses the file. The round is given (`-n`):
/// left to itself the checker ranks as of the event's last round (`142`),
/// counting the rounds still to play as rounds without a match.
pub fn tiebreaks(trf: &[u8], round: u16) -> Result<Vec<Ranked>, ToolError> {
    let dir = found(TIEBREAKSERVER, "tests/vendor/TieBreakServer");
    let file = scratch(trf, "trf");
    let mut command = Command::new("python3");
    command
        .arg(dir.join("tiebreakchecker.py"))
        .arg("-i")
        .arg(&file)
        .args(["-r", "-dT", "-n"])
        .arg(round.to_string());
    if let Some(path) = std::env::var_os(TIEBREAKSERVER_PATH).filter(|p| !p.is_empty()) {
        command.env("PYTHONPATH", path);
    }
    let out = command.output().map_err(|source| ToolError::Run {
        program: "python3",
        source,
    });
    let _ = std::fs::remove_file(&file);
    let out = out?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let said = format!("{text}{}", String::from_utf8_lossy(&out.stderr));
    if !out.status.success() || text.contains("Error") {
        return Err(ToolError::Refused {
            what: "TieBreakServer refused the file",
            said,
        });
    }
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let heading: Vec<&str> = lines
        .next()
        .ok_or_else(|| ToolError::Unreadable {
            what: "no ranking",
            said: said.clone(),
        })?
        .split('\t')
        .collect();
    if heading.get(..2) != Some(&["Rank", "StartNo"]) {
        return Err(ToolError::Unreadable {
            what: "not a ranking",
            said,
        });
    }
    lines
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            let number = |i: usize| -> Result<f64, ToolError> {
                cells
                    .get(i)
                    .and_then(|c| c.trim().parse::<f64>().ok())
                    .ok_or_else(|| ToolError::NotANumber {
                        line: l.to_owned(),
                        column: i,
                    })
            };
            Ok(Ranked {
                rank: number(0)? as u16,
                team: number(1)? as u16,
                values: (2..heading.len())
                    .map(|i| Ok((heading[i].to_owned(), number(i)?)))
                    .collect::<Result<_, ToolError>>()?,
            })
        })
        .collect()
}

/// chesspairing's validator ("standard" profile, as its CLI's
/// `validate`) on a TRF file: its issues, or an error with them when one
/// is blocking.
pub fn validate(trf: &[u8]) -> Result<String, ToolError> {
    let engine = found(TEAMENGINE, "target/team-engines/teamengine");
    let file = scratch(trf, "trf");
    let out = Command::new(engine).arg("validate").arg(&file).output();
    let _ = std::fs::remove_file(&file);
    let out = out.map_err(|source| ToolError::Run {
        program: "teamengine",
        source,
    })?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(said)
    } else {
        Err(ToolError::Refused {
            what: "chesspairing refused the file",
            said,
        })
    }
}

/// chesspairing's Team Swiss pairing of the round after the last one in
/// `team_level` (one `001` per team, each match a game), of an event of
/// `rounds` rounds: `(first, second)` team numbers, board 1's first colour
/// to `first`; a bye as `(team, 0)`.
pub fn pair(team_level: &[u8], rounds: u16) -> Result<Vec<(u16, u16)>, ToolError> {
    let engine = found(TEAMENGINE, "target/team-engines/teamengine");
    let file = scratch(team_level, "trf");
    let out = Command::new(engine)
        .arg("pair")
        .arg(&file)
        .arg(rounds.to_string())
        .output();
    let _ = std::fs::remove_file(&file);
    let out = out.map_err(|source| ToolError::Run {
        program: "teamengine",
        source,
    })?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        return Err(ToolError::Refused {
            what: "chesspairing could not pair",
            said: format!("{text}{}", String::from_utf8_lossy(&out.stderr)),
        });
    }
    let mut lines = text.lines();
    let count: usize = lines
        .next()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| ToolError::Unreadable {
            what: "no count",
            said: text.clone(),
        })?;
    let pairs: Vec<(u16, u16)> = lines
        .map(|l| {
            let mut it = l.split_whitespace().map(str::parse::<u16>);
            match (it.next(), it.next()) {
                (Some(Ok(a)), Some(Ok(b))) => Ok((a, b)),
                _ => Err(ToolError::NotTwoTeams(l.to_owned())),
            }
        })
        .collect::<Result<_, ToolError>>()?;
    if pairs.len() != count {
        return Err(ToolError::Count {
            announced: count,
            found: pairs.len(),
        });
    }
    Ok(pairs)
}
