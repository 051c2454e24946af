//! What tactus reads from a BrlAPI server's answers, on arbitrary bytes:
//! the display size (two 32-bit numbers, as the size packet carries them)
//! is accepted only if a display can have it, and key codes (64-bit) become
//! keys without panicking, a routing key naming a cell within 16 bits.

use tactus_braille::brlapi::{Key, MAX_CELLS, size_ok};

pub fn check(data: &[u8]) {
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
    };
    if let (Some(w), Some(h)) = (word(0), word(4)) {
        let ok = size_ok(w, h);
        let cells = u64::from(w) * u64::from(h);
        assert_eq!(ok, w >= 1 && h >= 1 && cells <= MAX_CELLS as u64, "{w}×{h}");
        if ok {
            // What the display writes with is allocated from it: small.
            assert!(w as usize * h as usize <= MAX_CELLS);
        }
    }
    for code in data.chunks(8) {
        let mut bytes = [0u8; 8];
        bytes[..code.len()].copy_from_slice(code);
        let code = u64::from_be_bytes(bytes);
        match Key::from_code(code) {
            // Only command keys are keys.
            Some(_) => assert_eq!(code & 0xE000_0000, 0x2000_0000),
            None => assert_ne!(code & 0xE000_0000, 0x2000_0000),
        }
    }
}
