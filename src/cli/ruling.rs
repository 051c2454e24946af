//! `tactus ruling` (once `tactus reconcile`, still answered to): the D.2.9
//! ruling from two scoresheet files.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use shakmaty::fen::Fen;
use shakmaty::{Board, ByColor, CastlingMode, Chess, Color, EnPassantMode, Position};
use tactus_rules::correction::SquareFix;
use tactus_rules::notation::Lang;
use tactus_rules::ruling::{BoardRuling, Case, ClockRuling, Difference, Incomplete, Ruling, rule};
use tactus_rules::sheet::{Sheet, read_sheet};
use tactus_speech::voice_pack::{DEFAULT_PACK, LoadOptions, VoicePack, find_pack};

/// Arguments of `tactus ruling`.
#[derive(Args)]
pub struct RulingArgs {
    /// White's scoresheet: moves separated by spaces or new lines, numbers optional.
    #[arg(long, value_name = "FILE")]
    white_sheet: PathBuf,
    /// Black's scoresheet.
    #[arg(long, value_name = "FILE")]
    black_sheet: PathBuf,
    /// The position on White's board (FEN placement, or a full FEN).
    #[arg(long, value_name = "FEN")]
    white_board: Option<String>,
    /// The position on Black's board.
    #[arg(long, value_name = "FEN")]
    black_board: Option<String>,
    /// The start position (default: the standard one).
    #[arg(long, value_name = "FEN")]
    start: Option<String>,
    /// The sheets' piece letters: auto, en, de, es (it), fr, nl, pt, pl, cs.
    #[arg(long, default_value = "auto")]
    lang: Lang,
    /// Print one JSON object instead of the ruling as text.
    #[arg(long)]
    json: bool,
    /// The voice pack whose words the spoken corrections are given in.
    #[arg(long, default_value = DEFAULT_PACK)]
    voice: String,
}

/// Runs the command: the ruling on stdout, or a message on stderr and
/// status 2 for bad input.
pub fn run(args: &RulingArgs) -> super::Outcome {
    let out = ruling(args)?;
    print!("{out}");
    Ok(())
}

fn ruling(args: &RulingArgs) -> anyhow::Result<String> {
    let start = match &args.start {
        None => Chess::default(),
        Some(fen) => fen
            .parse::<Fen>()
            .map_err(|e| anyhow::anyhow!("--start `{fen}`: {e}"))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| anyhow::anyhow!("--start `{fen}`: {e}"))?,
    };
    let board = |flag: &str, fen: &Option<String>| -> anyhow::Result<Option<Board>> {
        fen.as_deref()
            .map(|f| {
                let placement = f.split_whitespace().next().unwrap_or("");
                placement
                    .parse::<Board>()
                    .map_err(|e| anyhow::anyhow!("{flag} `{f}`: {e}"))
            })
            .transpose()
    };
    let white_board = board("--white-board", &args.white_board)?;
    let black_board = board("--black-board", &args.black_board)?;
    let read = |path: &PathBuf| {
        std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read sheet {}: {e}", path.display()))
    };
    let sheets = ByColor {
        white: read_sheet(&start, &read(&args.white_sheet)?, args.lang),
        black: read_sheet(&start, &read(&args.black_sheet)?, args.lang),
    };
    let boards = ByColor {
        white: white_board.as_ref(),
        black: black_board.as_ref(),
    };
    let r = rule(&start, sheets.as_ref(), boards, None);
    // The corrections as the player hears them, in the pack's words.
    let pack = VoicePack::load(
        find_pack(&args.voice).map_err(anyhow::Error::msg)?,
        &LoadOptions::default(),
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let said = |b: &Option<BoardRuling>| b.as_ref().map(|b| pack.text(&b.spoken));
    let said = r.boards.as_ref().map(said);
    if args.json {
        let mut value = serde_json::to_value(&r)?;
        for (color, text) in [("white", &said.white), ("black", &said.black)] {
            if let (Some(text), Some(board)) = (text, value["boards"].get_mut(color))
                && let Some(board) = board.as_object_mut()
            {
                board.insert("spoken_text".into(), text.clone().into());
            }
        }
        let mut s = serde_json::to_string_pretty(&value)?;
        s.push('\n');
        Ok(s)
    } else {
        Ok(text(&start, &r, &sheets, &said))
    }
}

/// `5.` or `5...` for ply `ply` (from 1) of a game from `start`.
fn ply_label(start: &Chess, ply: usize) -> String {
    let idx = ply.saturating_sub(1) + usize::from(start.turn() == Color::Black);
    let number = start.fullmoves().get() as usize + idx / 2;
    if idx.is_multiple_of(2) {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

fn piece_name(p: Option<shakmaty::Piece>) -> String {
    match p {
        None => "nothing".to_string(),
        Some(p) => format!(
            "{} {}",
            tactus_rules::side::name(p.color),
            tactus_rules::token::role_name(p.role)
        ),
    }
}

fn fix_line(f: &SquareFix) -> String {
    match (f.expected, f.found) {
        (None, found) => format!("{}: remove the {}", f.square, piece_name(found)),
        (Some(e), None) => format!("{}: put a {}", f.square, piece_name(Some(e))),
        (Some(e), found) => format!(
            "{}: replace the {} by a {}",
            f.square,
            piece_name(found),
            piece_name(Some(e))
        ),
    }
}

fn board_lines(out: &mut String, who: &str, b: &Option<BoardRuling>, said: &Option<String>) {
    let Some(b) = b else {
        let _ = writeln!(out, "{who}'s board: not given.");
        return;
    };
    if b.matches {
        let _ = writeln!(out, "{who}'s board: correct.");
        return;
    }
    let _ = writeln!(out, "{who}'s board: {} squares to fix:", b.fixes.len());
    for f in &b.fixes {
        let _ = writeln!(out, "  {}", fix_line(f));
    }
    if let Some(said) = said {
        let _ = writeln!(out, "  said to the player: {said}");
    }
}

fn sheet_line(out: &mut String, who: &str, s: &Sheet) {
    let _ = write!(
        out,
        "{who}'s sheet: letters {}, {} plies read",
        s.lang,
        s.moves.len()
    );
    match &s.stop {
        None => {
            let _ = writeln!(out, " in full.");
        }
        Some(stop) => {
            let _ = write!(
                out,
                ", stops at ply {} `{}`: {}",
                stop.ply,
                stop.text,
                stop.reason.code()
            );
            if !stop.candidates.is_empty() {
                let _ = write!(out, " ({})", stop.candidates.join(", "));
            }
            let _ = writeln!(out, ".");
        }
    }
}

fn clock_line(c: &ClockRuling) -> String {
    let t = |d: &std::time::Duration| {
        let s = d.as_secs();
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    };
    match c {
        ClockRuling::Unchanged => "Clocks: unchanged.".to_string(),
        ClockRuling::Recorded { white_ms, black_ms } => format!(
            "Clocks: set back to the recorded times, White {}, Black {}.",
            t(white_ms),
            t(black_ms)
        ),
        ClockRuling::Proposal { white_ms, black_ms } => format!(
            "Clocks: PROPOSAL ONLY (the arbiter decides), White {}, Black {}.",
            t(white_ms),
            t(black_ms)
        ),
        ClockRuling::ArbiterDecides => {
            "Clocks: no recorded times; the arbiter adjusts the clocks (Article 7.1).".to_string()
        }
    }
}

fn side_name(c: shakmaty::Color) -> &'static str {
    if c.is_white() { "White" } else { "Black" }
}

/// The ruling as a person at the board reads it, with both sheets side by
/// side around the first difference for the arbiter.
fn text(
    start: &Chess,
    r: &Ruling,
    sheets: &ByColor<Sheet>,
    said: &ByColor<Option<String>>,
) -> String {
    let mut out = String::new();
    let fen = Fen::from_position(&r.position, EnPassantMode::Legal);
    match (&r.case, &r.first_difference) {
        (Case::Agree, _) | (_, None) => agree_lines(&mut out, start, r),
        (Case::Differ, Some(d)) => differ_lines(&mut out, start, r, d),
    }
    let mover = if r.position.turn().is_white() {
        "White"
    } else {
        "Black"
    };
    let _ = writeln!(out, "Position to play on ({mover} to move): {fen}");
    board_lines(&mut out, "White", &r.boards.white, &said.white);
    board_lines(&mut out, "Black", &r.boards.black, &said.black);
    let _ = writeln!(out, "{}", clock_line(&r.clocks));
    sheet_line(&mut out, "White", &sheets.white);
    sheet_line(&mut out, "Black", &sheets.black);
    side_by_side(&mut out, start, r, sheets);
    out
}

/// The ruling's opening when the sheets agree (one of them perhaps behind).
fn agree_lines(out: &mut String, start: &Chess, r: &Ruling) {
    match &r.incomplete {
        None => {
            let _ = writeln!(
                out,
                "Ruling (Appendix D.2.9): the scoresheets AGREE on all {} plies.",
                r.agreed_plies
            );
        }
        Some(inc) => lag_lines(out, start, inc),
    }
    let _ = writeln!(
        out,
        "Play on from the position after them; a board that differs is adjusted by its player."
    );
}

/// A sheet that only lags behind: how many plies it is short, and which
/// its player writes.
fn lag_lines(out: &mut String, start: &Chess, inc: &Incomplete) {
    let (who, first, last) = (
        side_name(inc.side),
        inc.plies.first().copied().unwrap_or_default(),
        inc.plies.last().copied().unwrap_or_default(),
    );
    let _ = writeln!(
        out,
        "Ruling (Appendix D.2.9): the scoresheets AGREE; {who}'s sheet only lags behind (Article 8.1.3) and is {} plies short.",
        inc.plies.len()
    );
    let _ = writeln!(
        out,
        "{who} writes {} before the next move.",
        if first == last {
            format!("ply {first} ({})", ply_label(start, first))
        } else {
            format!(
                "plies {first} to {last} ({} to {})",
                ply_label(start, first),
                ply_label(start, last)
            )
        }
    );
}

/// The ruling's opening when the sheets differ at `d`.
fn differ_lines(out: &mut String, start: &Chess, r: &Ruling, d: &Difference) {
    let _ = writeln!(
        out,
        "Ruling (Appendix D.2.9): the scoresheets DIFFER at ply {} ({}).",
        d.ply,
        ply_label(start, d.ply)
    );
    let entry = |e: &Option<String>| e.clone().unwrap_or_else(|| "(nothing)".into());
    let _ = writeln!(out, "  White's sheet: {}", entry(&d.entries.white));
    let _ = writeln!(out, "  Black's sheet: {}", entry(&d.entries.black));
    let _ = writeln!(
        out,
        "Moves after ply {} are retracted (White's sheet {}, Black's sheet {}); both boards are set to the position after it.",
        r.agreed_plies, r.retracted.white, r.retracted.black
    );
}

/// Both sheets side by side around the first difference (or the last
/// plies), the difference marked.
fn side_by_side(out: &mut String, start: &Chess, r: &Ruling, sheets: &ByColor<Sheet>) {
    let (white, black) = (&sheets.white, &sheets.black);
    let last = white
        .entries
        .len()
        .max(black.entries.len())
        .max(r.first_difference.as_ref().map_or(0, |d| d.ply));
    let focus = r.first_difference.as_ref().map_or(last, |d| d.ply);
    let from = focus.saturating_sub(4).max(1);
    let to = (focus + 4).min(last);
    if from <= to {
        let _ = writeln!(
            out,
            "\n     {:<8} {:<16} {:<16}",
            "ply", "White's sheet", "Black's sheet"
        );
        for ply in from..=to {
            let mark = if Some(ply) == r.first_difference.as_ref().map(|d| d.ply) {
                ">>"
            } else {
                "  "
            };
            let _ = writeln!(
                out,
                "  {mark} {:<8} {:<16} {:<16}",
                ply_label(start, ply),
                white.entry_at(ply).unwrap_or("-"),
                black.entry_at(ply).unwrap_or("-")
            );
        }
    }
}
