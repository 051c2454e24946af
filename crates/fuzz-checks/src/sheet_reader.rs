//! The sheet reader never panics, whatever the text: it reads moves or
//! stops at an entry, and every move it reads is legal.

use shakmaty::{ByColor, Chess, Position};
use tactus_rules::language::Language;
use tactus_rules::notation::{Lang, parse_move};
use tactus_rules::ruling::reconcile;
use tactus_rules::sheet::read_sheet;

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let start = Chess::default();
    let sheet = read_sheet(&start, text, Lang::Auto);
    let mut pos = start.clone();
    for &m in &sheet.moves {
        assert!(pos.is_legal(m));
        pos.play_unchecked(m);
    }
    let _ = parse_move(&pos, text, Lang::Auto);
    let _ = parse_move(&start, text, Lang::Of(Language::De));
    // Both halves as the two sheets of one game.
    let half = (0..=text.len() / 2)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let (w, bl) = text.split_at(half);
    let boards = ByColor {
        white: None,
        black: None,
    };
    let _ = reconcile(&start, w, bl, Lang::Auto, boards, None);
}
