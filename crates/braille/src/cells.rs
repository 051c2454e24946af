//! Braille cells and how they are written down.
//!
//! A cell is a byte whose bits are its dots: dot 1 is bit 0 … dot 6 is bit 5
//! (dots 7 and 8, bits 6 and 7, exist on displays but not on paper). That is
//! the order of Unicode's braille block (U+2800 + the bits) and of BrlAPI's
//! dot masks, so a cell goes to both unchanged.
//!
//! BRF ("braille ready format") writes each six-dot cell as one printable
//! ASCII character, the North American ASCII Braille mapping used by
//! embossers, note-takers and liblouis's `en-us-brf.dis`.

// A cell and how it is made from its dots belong to the rules layer (the
// chess notation is written in cells); this module only writes them out.
pub use tactus_rules::braille_chess::{Cell, dots};

/// The blank cell (a space).
pub const BLANK: Cell = 0;

/// North American ASCII Braille: the character for each six-dot cell,
/// indexed by the cell's bits.
const BRF: &[u8; 64] = b" A1B'K2L@CIF/MSP\"E3H9O6R^DJG>NTQ,*5<-U8V.%[$+X!&;:4\\0Z7(_?W]#Y)=";

/// The Unicode braille character of a cell (U+2800–U+28FF).
pub fn to_unicode(cell: Cell) -> char {
    char::from_u32(0x2800 + u32::from(cell)).unwrap_or('\u{2800}')
}

/// The cell of a Unicode braille character, if it is one.
pub fn from_unicode(c: char) -> Option<Cell> {
    let v = u32::from(c);
    (0x2800..=0x28FF).contains(&v).then(|| (v - 0x2800) as u8)
}

/// The BRF character of a cell (dots 7 and 8 are dropped: paper has six).
pub fn to_brf(cell: Cell) -> char {
    char::from(BRF[usize::from(cell & 0x3F)])
}

/// The cell of a BRF character; lower-case letters read as upper case, as
/// embossers and note-takers read them.
pub fn from_brf(c: char) -> Option<Cell> {
    let c = c.to_ascii_uppercase();
    BRF.iter()
        .position(|&b| char::from(b) == c)
        .map(|i| i as u8)
}

/// A line of cells as Unicode braille.
pub fn unicode_line(cells: &[Cell]) -> String {
    cells.iter().map(|&c| to_unicode(c)).collect()
}

/// A line of cells as BRF.
pub fn brf_line(cells: &[Cell]) -> String {
    cells.iter().map(|&c| to_brf(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brf_round_trips_every_six_dot_cell() {
        for cell in 0..64u8 {
            assert_eq!(from_brf(to_brf(cell)), Some(cell), "{cell:06b}");
            assert_eq!(from_unicode(to_unicode(cell)), Some(cell));
        }
    }

    #[test]
    fn letters_are_where_braille_puts_them() {
        assert_eq!(to_brf(dots(&[1])), 'A');
        assert_eq!(to_brf(dots(&[1, 3, 4])), 'M');
        assert_eq!(to_brf(dots(&[2, 5, 6])), '4');
        assert_eq!(to_unicode(dots(&[1, 2, 3, 4, 5, 6])), '⠿');
    }
}
