//! bbpPairings, the FIDE Dutch-system pairing engine (Apache-2.0), run as
//! a pairing program runs it: the tests give it the TRF-16 file tactus writes
//! back after a round's results and take the next round's pairings from it
//! ([`pair`]), then write those pairings into the file as a pairing program
//! would before the round is played ([`with_round`]) and hand that to tactus.
//! [`check`] replays every played round through the engine's checker.
//!
//! The engine is built from the source vendored in `tests/vendor/bbpPairings`
//! by `scripts/bbppairings.sh` (sourced by `scripts/test`) into
//! `target/bbpPairings/bbpPairings.exe`, and found through the environment
//! variable `TACTUS_BBPPAIRINGS` ([`engine`]).
//!
//! What the engine asks of a file (its `src/fileformats/trf.cpp`):
//!
//! - to pair (`-p`), the total number of rounds: an `XXR n` or `142 n` line
//!   ("The total number of rounds in the tournament must be specified."),
//!   and fewer rounds played than that ("The number of rounds is larger than
//!   the reported number of rounds."); the top-ranked player's colour in
//!   round 1, inferred from the rounds played or, before round 1, given by
//!   `XXC white1` / `XXC black1` or `152 W` / `152 B` ("Please configure the
//!   initial piece colors.");
//! - `001` lines of at least 84 characters, with the points (columns 81-84)
//!   equal to what the results add up to ("The score for player 3 does not
//!   match the game results."), a pre-entered bye of the next round
//!   (`0000 - H`, `0000 - Z`, ...) counted in them or not;
//! - a result in every block that names an opponent: `0002 w  ` (paired,
//!   not played yet) is an invalid line, so a file written by [`with_round`]
//!   is for tactus, not for the engine, until its results are in. A blank
//!   block (all spaces) is a round the player was not paired in, worth
//!   nothing.
//!
//! Lines end with CR LF, LF or a lone CR; the file must be UTF-8 ("The file
//! is not legal UTF-8."), its columns counting characters.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Output};
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable naming the engine's binary
/// (`scripts/bbppairings.sh` exports it).
pub const ENV: &str = "TACTUS_BBPPAIRINGS";

/// The engine's binary: the file `TACTUS_BBPPAIRINGS` names, else
/// `target/bbpPairings/bbpPairings.exe` in the workspace if it was built.
///
/// # Panics
///
/// When neither is a file, with what to run to build it.
pub fn engine() -> PathBuf {
    const BUILD: &str = "run `scripts/test`, or `. scripts/debian-deps.sh; . scripts/bbppairings.sh` \
         in the workspace root (it builds tests/vendor/bbpPairings into target/bbpPairings \
         and exports TACTUS_BBPPAIRINGS)";
    if let Some(path) = std::env::var_os(ENV).filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        assert!(
            path.is_file(),
            "{ENV} names {}, which is not a file: {BUILD}",
            path.display()
        );
        return path;
    }
    let built = crate::workspace_root().join("target/bbpPairings/bbpPairings.exe");
    assert!(
        built.is_file(),
        "bbpPairings is not built ({ENV} is not set and {} does not exist): {BUILD}",
        built.display()
    );
    built
}

/// A game of a round: the two players' start ranks (pairing numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    /// The player with the white pieces.
    pub white: u16,
    /// The player with the black pieces.
    pub black: u16,
}

/// One line of a round's pairings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paired {
    /// A game.
    Game(Pairing),
    /// The pairing-allocated bye (TRF-16's `U`) of the player with this
    /// start rank.
    Bye(u16),
}

/// Why bbpPairings gave no pairings or no verdict: it could not be run or
/// fed, it refused the file, its checker disagrees, or its answer does not
/// read. Each keeps what the engine wrote.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A file or folder of the run could not be made, written or read.
    #[error("{doing} {}: {source}", .path.display())]
    Io {
        doing: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    /// The engine exited with a failure status.
    #[error("{}", refused(.command, .status, .stderr, .stdout))]
    Refused {
        /// `bbpPairings` and its arguments.
        command: String,
        status: ExitStatus,
        stderr: String,
        stdout: String,
    },
    /// The checker pairs some round differently: its report, its own
    /// pairings beside the file's.
    #[error("bbpPairings' checker pairs some round differently:\n{0}")]
    Differs(String),
    /// The pairs file does not read as the engine writes it.
    #[error("bbpPairings' pairs file {fault}: {text:?}")]
    PairsFile { fault: PairsFault, text: String },
}

/// What is wrong with a pairs file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairsFault {
    #[error("does not start with the number of pairs")]
    NoCount,
    #[error("has a line that is not two numbers")]
    NotNumbers,
    #[error("has a line that is not two start ranks")]
    NotRanks,
    #[error("announces {announced} pairs but has {found}")]
    Count { announced: usize, found: usize },
}

/// The next round's pairings of the tournament in `trf` (a TRF-16 file):
/// the engine is run as `bbpPairings.exe --dutch FILE -p OUT` on a
/// temporary copy, and its pairings come back in its order (boards by
/// score, the bye last).
///
/// # Errors
///
/// When the engine refuses the file or finds no pairing: its exit status
/// and what it wrote, e.g. `The score for player 3 does not match the game
/// results.`; or when its pairs file cannot be read.
pub fn pair(trf: &[u8]) -> Result<Vec<Paired>, EngineError> {
    let dir = Scratch::new()?;
    let input = dir.write("tournament.trf", trf)?;
    let output = dir.0.join("pairs.txt");
    let args = [
        OsStr::new("--dutch"),
        input.as_os_str(),
        OsStr::new("-p"),
        output.as_os_str(),
    ];
    let run = run(&args)?;
    if !run.status.success() {
        return Err(failed(&args, &run));
    }
    let text = std::fs::read_to_string(&output).map_err(|source| EngineError::Io {
        doing: "reading bbpPairings' pairs file",
        path: output.clone(),
        source,
    })?;
    parse_pairs(&text)
}

/// Checks the rounds played in `trf` with the engine's checker
/// (`bbpPairings.exe --dutch FILE -c`): for each round with pairings in the
/// file, from the first, the engine pairs it again from the rounds before
/// (results included) and compares its pairings, colours too, with the
/// file's. Every round is checked, the last one as well, so the file must
/// hold results for all of them (a block naming an opponent without a
/// result is refused); `XXR` is not needed.
///
/// # Errors
///
/// When the engine refuses the file (its exit status and message), or when
/// a round's pairings differ from the engine's or it finds none for a round:
/// the engine's report, which for each differing round lists its own
/// pairings beside the file's (the engine itself exits with status 0 then).
pub fn check(trf: &[u8]) -> Result<(), EngineError> {
    let dir = Scratch::new()?;
    let input = dir.write("tournament.trf", trf)?;
    let args = [OsStr::new("--dutch"), input.as_os_str(), OsStr::new("-c")];
    let run = run(&args)?;
    if !run.status.success() {
        return Err(failed(&args, &run));
    }
    let report = String::from_utf8_lossy(&run.stdout);
    if report.contains("Checker pairings") || report.contains("No valid pairing exists") {
        return Err(EngineError::Differs(report.into_owned()));
    }
    Ok(())
}

/// The file `trf` with round `round`'s pairings written in, as a pairing
/// program writes them before the round is played: in each `001` line whose
/// start rank (columns 5-8) is paired, the round's block at columns
/// `92 + 10 * (round - 1)` onwards becomes `oooo c  ` for a game (the
/// opponent's start rank in four digits, the colour `w` or `b`, the result
/// blank) and `0000 - U` for the pairing-allocated bye. A line that ends
/// before the block is padded with spaces up to it; the two columns after
/// the block, every other line (players not paired keep theirs, a
/// pre-entered bye included) and every other byte and line ending (CR LF,
/// LF, a lone CR) are kept. Columns count characters when the file is UTF-8,
/// bytes otherwise (as tactus reads it).
///
/// The points (columns 81-84) are not changed, for the bye either: the
/// engine counts a `U` as the points of a win (or of `162`'s `P`), and
/// adding them once the round is played is the job of the code under test.
/// Until then the file's games have no results, which the engine refuses:
/// this file is for tactus, not for [`pair`].
///
/// # Panics
///
/// When `round` is 0, a start rank is 0 or above 9999, a player is paired
/// twice, or a paired player has no `001` line.
pub fn with_round(trf: &[u8], round: u16, pairings: &[Paired]) -> Vec<u8> {
    assert!(round >= 1, "rounds count from 1");
    let mut blocks = std::collections::BTreeMap::new();
    let mut add = |rank: u16, block: String| {
        assert!(
            (1..=9999).contains(&rank),
            "start rank {rank} is not from 1 to 9999"
        );
        assert!(
            blocks.insert(rank, block).is_none(),
            "player {rank} is paired twice"
        );
    };
    for paired in pairings {
        match *paired {
            Paired::Game(Pairing { white, black }) => {
                add(white, format!("{black:04} w  "));
                add(black, format!("{white:04} b  "));
            }
            Paired::Bye(rank) => add(rank, "0000 - U".to_owned()),
        }
    }
    let utf8 = std::str::from_utf8(trf).is_ok();
    let start = 91 + 10 * usize::from(round - 1);
    let mut out = Vec::with_capacity(trf.len() + 16 * blocks.len());
    for (text, ending) in lines(trf) {
        let rank = text
            .starts_with(b"001")
            .then(|| columns(text, utf8))
            .and_then(|cols| start_rank(text, &cols));
        match rank.and_then(|rank| blocks.remove(&rank)) {
            Some(block) => out.extend(write_block(text, utf8, start, block.as_bytes())),
            None => out.extend_from_slice(text),
        }
        out.extend_from_slice(ending);
    }
    assert!(
        blocks.is_empty(),
        "paired players without a 001 line: {:?}",
        blocks.keys().collect::<Vec<_>>()
    );
    out
}

/// Reads the engine's pairs file: the number of pairs on the first line,
/// then `white black` per line, `N 0` for N's pairing-allocated bye.
fn parse_pairs(text: &str) -> Result<Vec<Paired>, EngineError> {
    let bad = |fault: PairsFault| EngineError::PairsFile {
        fault,
        text: text.to_owned(),
    };
    let mut lines = text.lines();
    let count: usize = lines
        .next()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| bad(PairsFault::NoCount))?;
    let mut pairs = Vec::with_capacity(count);
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let numbers: Vec<u16> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| bad(PairsFault::NotNumbers))?;
        pairs.push(match numbers[..] {
            [rank, 0] if rank > 0 => Paired::Bye(rank),
            [white, black] if white > 0 && black > 0 => Paired::Game(Pairing { white, black }),
            _ => return Err(bad(PairsFault::NotRanks)),
        });
    }
    if pairs.len() != count {
        return Err(bad(PairsFault::Count {
            announced: count,
            found: pairs.len(),
        }));
    }
    Ok(pairs)
}

/// The file's lines, each as its text and its ending (`\r\n`, `\n`, `\r`,
/// or nothing for a last line without one).
fn lines(trf: &[u8]) -> Vec<(&[u8], &[u8])> {
    let mut out = Vec::new();
    let mut rest = trf;
    while !rest.is_empty() {
        let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') else {
            out.push((rest, &rest[rest.len()..]));
            break;
        };
        let width = if rest[end..].starts_with(b"\r\n") {
            2
        } else {
            1
        };
        out.push((&rest[..end], &rest[end..end + width]));
        rest = &rest[end + width..];
    }
    out
}

/// The byte offset where each column of a line starts: characters of a
/// UTF-8 file, bytes of any other.
fn columns(text: &[u8], utf8: bool) -> Vec<usize> {
    match std::str::from_utf8(text) {
        Ok(s) if utf8 => s.char_indices().map(|(i, _)| i).collect(),
        _ => (0..text.len()).collect(),
    }
}

/// The start rank in columns 5-8 of a `001` line, if it is a number.
fn start_rank(text: &[u8], cols: &[usize]) -> Option<u16> {
    let from = *cols.get(4)?;
    let to = cols.get(8).copied().unwrap_or(text.len());
    std::str::from_utf8(&text[from..to])
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// The line with `block` at column `start` (0-based), padded with spaces
/// up to it, everything after the block's columns kept.
fn write_block(text: &[u8], utf8: bool, start: usize, block: &[u8]) -> Vec<u8> {
    let cols = columns(text, utf8);
    let mut line = Vec::with_capacity(text.len().max(start) + block.len());
    match cols.get(start) {
        Some(&at) => line.extend_from_slice(&text[..at]),
        None => {
            line.extend_from_slice(text);
            line.resize(line.len() + (start - cols.len()), b' ');
        }
    }
    line.extend_from_slice(block);
    if let Some(&after) = cols.get(start + block.len()) {
        line.extend_from_slice(&text[after..]);
    }
    line
}

/// Runs the engine with `args`.
fn run(args: &[&OsStr]) -> Result<Output, EngineError> {
    let engine = engine();
    Command::new(&engine)
        .args(args)
        .output()
        .map_err(|source| EngineError::Io {
            doing: "running",
            path: engine,
            source,
        })
}

/// The engine's failure: the command, its status, what it wrote.
fn failed(args: &[&OsStr], run: &Output) -> EngineError {
    let mut command = String::from("bbpPairings");
    for arg in args {
        let _ = write!(command, " {}", arg.to_string_lossy());
    }
    EngineError::Refused {
        command,
        status: run.status,
        stderr: String::from_utf8_lossy(&run.stderr).into_owned(),
        stdout: String::from_utf8_lossy(&run.stdout).into_owned(),
    }
}

/// What the engine said when it exited with a failure status, its exit
/// code in words.
fn refused(command: &str, status: &ExitStatus, stderr: &str, stdout: &str) -> String {
    // The engine's exit codes (its README.txt, "Error codes").
    let meaning = match status.code() {
        Some(1) => "no valid pairing exists",
        Some(2) => "unexpected error",
        Some(3) => "invalid request or file",
        Some(4) => "size limit exceeded",
        Some(5) => "file error",
        _ => "unknown status",
    };
    let mut message = command.to_owned();
    let _ = write!(
        message,
        " failed ({status}, {meaning}): {}",
        stderr.trim_end()
    );
    if !stdout.trim().is_empty() {
        let _ = write!(message, "\n{}", stdout.trim_end());
    }
    message
}

/// A temporary directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, EngineError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        loop {
            let dir = std::env::temp_dir().join(format!(
                "tactus-bbp-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(Scratch(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(source) => {
                    return Err(EngineError::Io {
                        doing: "creating",
                        path: dir,
                        source,
                    });
                }
            }
        }
    }

    fn write(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, EngineError> {
        let path = self.0.join(name);
        match std::fs::write(&path, bytes) {
            Ok(()) => Ok(path),
            Err(source) => Err(EngineError::Io {
                doing: "writing",
                path,
                source,
            }),
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(name: &str) -> Vec<u8> {
        let path = crate::workspace_root()
            .join("tests/trf-corpus/bbpPairings")
            .join(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn game(white: u16, black: u16) -> Paired {
        Paired::Game(Pairing { white, black })
    }

    /// A TRF-16 player line as tactus's tests write it: the fixed columns
    /// up to the rank (column 89), then `  ` and each round's block.
    fn player(rank: u16, name: &str, points: &str, rounds: &[&str]) -> String {
        let mut s = format!(
            "001 {rank:>4} m    {name:<33} {rating} GER {:>11} 1990/01/01 {points:>4} {rank:>4}",
            4_000_000 + u32::from(rank),
            rating = 2000 - 10 * rank,
        );
        for r in rounds {
            s.push_str("  ");
            s.push_str(r);
        }
        s
    }

    fn file(header: &str, players: &[String]) -> Vec<u8> {
        let mut out = header.to_owned();
        for p in players {
            out.push_str(p);
            out.push_str("\r\n");
        }
        out.into_bytes()
    }

    const HEADER: &str = "012 testkit\r\nXXR 3\r\nXXC white1\r\n";

    #[test]
    fn pairs_upstream_dutch_2025_c9_as_upstream_expects() {
        let pairs = pair(&corpus("dutch_2025_C9.input")).unwrap();
        let expected = corpus("dutch_2025_C9.output.expected");
        assert_eq!(
            pairs,
            parse_pairs(std::str::from_utf8(&expected).unwrap()).unwrap()
        );
        assert_eq!(pairs, [game(2, 1), game(3, 5), Paired::Bye(4)]);
    }

    #[test]
    fn a_file_whose_points_disagree_with_its_results_is_refused() {
        let mut trf = corpus("dutch_2025_C9.input");
        // Player 1 won round 1: 1.0 in columns 81-84 of the first 001 line.
        let at = trf.windows(9).position(|w| w == b"001    1 ").unwrap();
        assert_eq!(&trf[at + 80..at + 84], b" 1.0");
        trf[at + 80..at + 84].copy_from_slice(b" 0.0");
        let err = pair(&trf).unwrap_err().to_string();
        assert!(
            err.contains("The score for player 1 does not match the game results."),
            "{err}"
        );
        assert!(err.contains("exit status: 3"), "{err}");
        let err = check(&trf).unwrap_err().to_string();
        assert!(err.contains("does not match the game results"), "{err}");
    }

    /// Round 1 of four players: 1-3 won by white, 4-2 drawn.
    fn four_played(header: &str) -> Vec<u8> {
        file(
            header,
            &[
                player(1, "Ana", "1.0", &["0003 w 1"]),
                player(2, "Bea", "0.5", &["0004 b ="]),
                player(3, "Carla", "0.0", &["0001 b 0"]),
                player(4, "Dan", "0.5", &["0002 w ="]),
            ],
        )
    }

    #[test]
    fn pairing_needs_the_number_of_rounds_and_one_left_to_play() {
        let err = pair(&four_played("012 x\r\n")).unwrap_err().to_string();
        assert!(err.contains("must be specified"), "{err}");
        let err = pair(&four_played("012 x\r\nXXR 1\r\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("larger than the reported number"), "{err}");
        // The checker needs neither.
        check(&four_played("012 x\r\n")).unwrap();
        check(&four_played("012 x\r\nXXR 1\r\n")).unwrap();
        // `142` is read as `XXR`.
        assert_eq!(
            pair(&four_played("012 x\r\n142 2\r\n")).unwrap(),
            [game(2, 1), game(3, 4)]
        );
        // Two players who have met: no pairing (exit status 1).
        let met = file(
            "012 x\r\nXXR 2\r\n",
            &[
                player(1, "Ana", "1.0", &["0002 w 1"]),
                player(2, "Bea", "0.0", &["0001 b 0"]),
            ],
        );
        let err = pair(&met).unwrap_err().to_string();
        assert!(err.contains("No valid pairing exists"), "{err}");
        assert!(err.contains("exit status: 1"), "{err}");
    }

    /// Four players: the engine pairs round 1, `with_round` writes it as a
    /// pairing program would, the results are filled in by hand, and the
    /// engine pairs round 2 from that file and checks round 1.
    #[test]
    fn with_round_round_trip_on_four_players() {
        let names = ["Ana", "Bea", "Carla", "Dan"];
        let players: Vec<String> = (1..=4)
            .map(|r| player(r, names[usize::from(r) - 1], "0.0", &[]))
            .collect();
        let start = file(HEADER, &players);
        let round1 = pair(&start).unwrap();
        assert_eq!(round1, [game(1, 3), game(4, 2)]);

        let paired = with_round(&start, 1, &round1);
        let expected = file(
            HEADER,
            &[
                player(1, "Ana", "0.0", &["0003 w  "]),
                player(2, "Bea", "0.0", &["0004 b  "]),
                player(3, "Carla", "0.0", &["0001 b  "]),
                player(4, "Dan", "0.0", &["0002 w  "]),
            ],
        );
        assert_eq!(
            String::from_utf8(paired.clone()).unwrap(),
            String::from_utf8(expected).unwrap()
        );
        // Paired but not played: the engine does not read it.
        assert!(
            pair(&paired)
                .unwrap_err()
                .to_string()
                .contains("Invalid line")
        );

        // 1-3 won by white, 4-2 drawn: what tactus writes after the round.
        let played = four_played(HEADER);
        check(&played).unwrap();
        let round2 = pair(&played).unwrap();
        assert_eq!(round2, [game(2, 1), game(3, 4)]);
        let paired2 = with_round(&played, 2, &round2);
        let expected2 = file(
            HEADER,
            &[
                player(1, "Ana", "1.0", &["0003 w 1", "0002 b  "]),
                player(2, "Bea", "0.5", &["0004 b =", "0001 w  "]),
                player(3, "Carla", "0.0", &["0001 b 0", "0004 w  "]),
                player(4, "Dan", "0.5", &["0002 w =", "0003 b  "]),
            ],
        );
        assert_eq!(
            String::from_utf8(paired2).unwrap(),
            String::from_utf8(expected2).unwrap()
        );

        // Round 1 paired otherwise than the engine would: the checker says so.
        let wrong = file(
            HEADER,
            &[
                player(1, "Ana", "1.0", &["0002 w 1"]),
                player(2, "Bea", "0.0", &["0001 b 0"]),
                player(3, "Carla", "0.5", &["0004 w ="]),
                player(4, "Dan", "0.5", &["0003 b ="]),
            ],
        );
        let err = check(&wrong).unwrap_err().to_string();
        assert!(err.contains("Checker pairings"), "{err}");
    }

    /// The bye: `0000 - U`, the points left alone; once they count it the
    /// engine reads the file, while they do not it refuses it.
    #[test]
    fn the_pairing_allocated_bye_is_u_and_counts_as_a_win() {
        let players: Vec<String> = ["Ana", "Bea", "Carla"]
            .iter()
            .zip(1..)
            .map(|(name, r)| player(r, name, "0.0", &[]))
            .collect();
        let start = file(HEADER, &players);
        let round1 = pair(&start).unwrap();
        assert_eq!(round1, [game(1, 2), Paired::Bye(3)]);
        let paired = with_round(&start, 1, &round1);
        assert!(String::from_utf8_lossy(&paired).contains(" 0.0    3  0000 - U\r\n"));
        let played = |carla: &str| {
            file(
                HEADER,
                &[
                    player(1, "Ana", "1.0", &["0002 w 1"]),
                    player(2, "Bea", "0.0", &["0001 b 0"]),
                    player(3, "Carla", carla, &["0000 - U"]),
                ],
            )
        };
        let err = pair(&played("0.0")).unwrap_err().to_string();
        assert!(
            err.contains("The score for player 3 does not match"),
            "{err}"
        );
        assert_eq!(pair(&played("1.0")).unwrap(), [game(3, 1), Paired::Bye(2)]);
        check(&played("1.0")).unwrap();
    }

    #[test]
    fn with_round_keeps_every_other_byte_and_line_ending() {
        // A UTF-8 name (columns count characters), CR LF, LF, a lone CR, a
        // short line, a line with trailing text past the block, no final
        // line ending; player 5 is not paired and keeps a pre-entered bye.
        let long = player(1, "Zoë", "0.0", &[]);
        let trf = format!(
            "012 Ünïcode\r\n{long}\n{}\r{}   \r\n001    4 short\n{}",
            player(2, "Bea", "0.0", &["0004 b 1"]),
            player(3, "Carla", "0.0", &[]),
            player(5, "Eve", "0.0", &["0000 - H", "0000 - Z"]),
        );
        let out = with_round(trf.as_bytes(), 2, &[game(1, 4), game(3, 2)]);
        let pad = |s: &str, to: usize| format!("{s:<to$}");
        let expected = format!(
            "012 Ünïcode\r\n{}\n{}\r{}\r\n{}\n{}",
            pad(&long, 101) + "0004 w  ",
            player(2, "Bea", "0.0", &["0004 b 1", "0003 b  "]),
            player(3, "Carla", "0.0", &["        ", "0002 w  "]),
            pad("001    4 short", 101) + "0001 b  ",
            player(5, "Eve", "0.0", &["0000 - H", "0000 - Z"]),
        );
        assert_eq!(String::from_utf8(out).unwrap(), expected);

        // A block already there is overwritten, what follows it kept.
        let trf = format!("{}  tail\n", player(7, "Gus", "0.0", &["0001 w  "]));
        let out = with_round(trf.as_bytes(), 1, &[Paired::Bye(7)]);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("{}  tail\n", player(7, "Gus", "0.0", &["0000 - U"]))
        );

        // Latin-1 (not UTF-8): columns count bytes.
        let mut latin = b"001    1      Zo\xeb".to_vec();
        let out = with_round(&latin, 1, &[Paired::Bye(1)]);
        latin.resize(91, b' ');
        latin.extend_from_slice(b"0000 - U");
        assert_eq!(out, latin);
    }

    #[test]
    #[should_panic(expected = "paired players without a 001 line: [9]")]
    fn with_round_refuses_a_player_the_file_does_not_have() {
        with_round(b"001    1\r\n", 1, &[game(1, 9)]);
    }

    #[test]
    fn the_pairs_file_is_read_as_the_engine_writes_it() {
        assert_eq!(
            parse_pairs("3\n2 1\n3 5\n4 0\n").unwrap(),
            [game(2, 1), game(3, 5), Paired::Bye(4)]
        );
        assert_eq!(parse_pairs("0\n").unwrap(), []);
        assert!(parse_pairs("2\n2 1\n").is_err());
        assert!(parse_pairs("1\n0 1\n").is_err());
        assert!(parse_pairs("").is_err());
    }
}
