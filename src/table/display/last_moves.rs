//! The table's last moves as the display shows them: in words, or in the
//! braille chess code.

use std::str::FromStr;

use shakmaty::san::SanPlus;
use tactus_rules::braille_chess;

use crate::table::handle::TableHandle;

/// The last `n` plies of the table with their move numbers: `(number,
/// white, san)`, oldest first.
async fn last_plies(handle: &TableHandle, n: usize) -> Option<Vec<(u32, bool, String)>> {
    let view = handle.view().await.ok()?;
    let mut fields = view.fen.split_whitespace().skip(1);
    let mut white_to_move = fields.next() == Some("w");
    let mut number: u32 = view.fen.split_whitespace().nth(5)?.parse().ok()?;
    let mut out = Vec::new();
    for san in view.moves.iter().rev().take(n) {
        // Step back one ply: the mover is the side not to move now.
        if white_to_move {
            number = number.saturating_sub(1);
        }
        white_to_move = !white_to_move;
        out.push((number, white_to_move, san.clone()));
    }
    out.reverse();
    Some(out)
}

pub(super) async fn last_moves_text(handle: &TableHandle, n: usize) -> Option<String> {
    let plies = last_plies(handle, n).await?;
    let mut text = String::new();
    for (i, (number, white, san)) in plies.iter().enumerate() {
        if !text.is_empty() {
            text.push(' ');
        }
        if *white {
            text.push_str(&format!("{number}. {san}"));
        } else if i == 0 {
            text.push_str(&format!("{number}... {san}"));
        } else {
            text.push_str(san);
        }
    }
    Some(if text.is_empty() { "-".into() } else { text })
}

/// The last `n` plies in the braille chess code: numbered, a first move of
/// Black's marked with dots 3-6, as the code writes an isolated series.
pub(super) async fn last_moves_cells(handle: &TableHandle, n: usize) -> Option<Vec<u8>> {
    let plies = last_plies(handle, n).await?;
    let mut cells = Vec::new();
    for (i, (number, white, san)) in plies.iter().enumerate() {
        let san = SanPlus::from_str(san).ok()?;
        if *white || i == 0 {
            if !cells.is_empty() {
                cells.push(braille_chess::SPACE);
            }
            cells.extend(braille_chess::lower_number(*number));
            cells.push(braille_chess::SPACE);
            if !*white {
                cells.push(braille_chess::BLACK_FIRST);
            }
        } else {
            cells.push(braille_chess::SPACE);
        }
        cells.extend(braille_chess::san_cells(&san));
    }
    Some(cells)
}
