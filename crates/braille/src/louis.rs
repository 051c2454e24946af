//! Words in braille through liblouis (Debian's `liblouis-dev` and
//! `liblouis-data`): a thin binding of the two calls tactus needs,
//! `lou_translateString` and `lou_backTranslateString`.
//!
//! liblouis keeps its compiled tables in global state and is not safe to
//! call from two threads at once, so every call here holds one lock.

use std::ffi::{CString, c_char, c_int, c_ushort};
use std::sync::Mutex;

use super::cells::{self, Cell};
use tactus_rules::language::Language;

/// Unicode braille out (`ucBrl`) rather than the table's display characters.
const UC_BRL: c_int = 64;
/// Dot patterns in and out (`dotsIO`).
const DOTS_IO: c_int = 4;

#[link(name = "louis")]
unsafe extern "C" {
    fn lou_charSize() -> c_int;
    fn lou_translateString(
        table_list: *const c_char,
        inbuf: *const u8,
        inlen: *mut c_int,
        outbuf: *mut u8,
        outlen: *mut c_int,
        typeform: *mut c_ushort,
        spacing: *mut c_char,
        mode: c_int,
    ) -> c_int;
    fn lou_backTranslateString(
        table_list: *const c_char,
        inbuf: *const u8,
        inlen: *mut c_int,
        outbuf: *mut u8,
        outlen: *mut c_int,
        typeform: *mut c_ushort,
        spacing: *mut c_char,
        mode: c_int,
    ) -> c_int;
    fn lou_version() -> *const c_char;
    fn lou_setLogLevel(level: c_int);
}

/// liblouis's `LOU_LOG_OFF`: a missing table is reported by tactus, in
/// words naming the table, not by liblouis on stderr.
const LOG_OFF: c_int = 60000;
static QUIET: std::sync::Once = std::sync::Once::new();

static LOCK: Mutex<()> = Mutex::new(());

/// Why liblouis gave no braille.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LouisError {
    #[error("liblouis could not translate with table `{0}` (is Debian's liblouis-data installed?)")]
    Table(String),
    #[error("text with a NUL character cannot be translated")]
    Nul,
}

/// The liblouis table for a language: uncontracted (grade 1) literary
/// braille, which a reader of any grade reads, in the table Debian's
/// liblouis-data ships for it. A tag tactus does not know (a voice pack's,
/// say) is read as English by its caller ([`Language::from_tag`], then the
/// default), which gets UEB.
pub fn table_for(lang: Language) -> &'static str {
    match lang {
        Language::En => "en-ueb-g1.ctb",
        Language::De => "de-g0.utb",
        Language::Es => "es-g1.ctb",
        Language::Fr => "fr-bfu-comp6.utb",
        Language::Nl => "nl-NL-g0.utb",
        Language::Pt => "pt-pt-g1.utb",
        Language::Pl => "Pl-Pl-g1.utb",
        Language::Cs => "cs-g1.ctb",
    }
}

/// liblouis's version, e.g. `3.24.0`.
pub fn version() -> String {
    // SAFETY: lou_version returns a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(lou_version()) }
        .to_string_lossy()
        .into_owned()
}

fn encode(text: &[u32]) -> (Vec<u8>, usize) {
    // SAFETY: no arguments, no state.
    let size = unsafe { lou_charSize() } as usize;
    let mut buf = Vec::with_capacity(text.len() * size);
    for &c in text {
        if size == 2 {
            buf.extend_from_slice(&(c.min(0xFFFF) as u16).to_ne_bytes());
        } else {
            buf.extend_from_slice(&c.to_ne_bytes());
        }
    }
    (buf, size)
}

fn decode(buf: &[u8], len: usize, size: usize) -> Vec<u32> {
    (0..len)
        .map(|i| {
            let b = &buf[i * size..(i + 1) * size];
            if size == 2 {
                u32::from(u16::from_ne_bytes([b[0], b[1]]))
            } else {
                u32::from_ne_bytes([b[0], b[1], b[2], b[3]])
            }
        })
        .collect()
}

type Call = unsafe extern "C" fn(
    *const c_char,
    *const u8,
    *mut c_int,
    *mut u8,
    *mut c_int,
    *mut c_ushort,
    *mut c_char,
    c_int,
) -> c_int;

fn call(f: Call, table: &str, input: &[u32], mode: c_int) -> Result<Vec<u32>, LouisError> {
    if input.is_empty() {
        return Ok(Vec::new());
    }
    let tables = CString::new(table).map_err(|_| LouisError::Nul)?;
    let (inbuf, size) = encode(input);
    // Contractions shorten and capitals and numbers lengthen: room for
    // four cells a character, then more if liblouis filled it all.
    let mut room = input.len() * 4 + 16;
    let _guard = LOCK.lock().unwrap_or_else(|p| p.into_inner());
    // SAFETY: sets a global log level, under the lock.
    QUIET.call_once(|| unsafe { lou_setLogLevel(LOG_OFF) });
    loop {
        let mut inlen = input.len() as c_int;
        let mut outlen = room as c_int;
        let mut outbuf = vec![0u8; room * size];
        // SAFETY: the buffers hold `inlen` and `outlen` widechars of
        // liblouis's size; typeform and spacing may be null.
        let ok = unsafe {
            f(
                tables.as_ptr(),
                inbuf.as_ptr(),
                &mut inlen,
                outbuf.as_mut_ptr(),
                &mut outlen,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                mode,
            )
        };
        if ok == 0 {
            return Err(LouisError::Table(table.to_owned()));
        }
        if (inlen as usize) < input.len() && room < input.len() * 64 {
            room *= 2;
            continue;
        }
        return Ok(decode(&outbuf, outlen.max(0) as usize, size));
    }
}

/// `text` in braille cells with `table` (e.g. `en-ueb-g1.ctb`). Spaces
/// stay blank cells; dots 7 and 8 are kept as liblouis gives them.
pub fn translate(table: &str, text: &str) -> Result<Vec<Cell>, LouisError> {
    let input: Vec<u32> = text.chars().map(u32::from).collect();
    let out = call(lou_translateString, table, &input, UC_BRL | DOTS_IO)?;
    Ok(out
        .into_iter()
        .map(|c| {
            char::from_u32(c)
                .and_then(cells::from_unicode)
                .unwrap_or(cells::BLANK)
        })
        .collect())
}

/// Braille cells back to text with `table`: what a reader reads in them.
pub fn back_translate(table: &str, braille: &[Cell]) -> Result<String, LouisError> {
    // With dotsIO liblouis reads dot patterns in its own form: 0x8000
    // (LOU_DOTS) with the dots as the low bits.
    let input: Vec<u32> = braille.iter().map(|&c| 0x8000 | u32::from(c)).collect();
    let out = call(lou_backTranslateString, table, &input, DOTS_IO)?;
    Ok(out.into_iter().filter_map(char::from_u32).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_words_go_there_and_back() {
        let cells = translate("en-ueb-g1.ctb", "White wins").unwrap();
        // UEB: capital sign (dot 6), then w-h-i-t-e.
        assert_eq!(crate::cells::unicode_line(&cells[..3]), "⠠⠺⠓");
        assert_eq!(
            back_translate("en-ueb-g1.ctb", &cells).unwrap(),
            "White wins"
        );
    }

    #[test]
    fn german_umlauts_and_sharp_s() {
        let cells = translate("de-g0.utb", "Weiß gewinnt").unwrap();
        assert_eq!(back_translate("de-g0.utb", &cells).unwrap(), "weiß gewinnt");
    }

    #[test]
    fn languages_and_their_tables() {
        let of_tag = |tag: &str| table_for(Language::from_tag(tag).unwrap_or_default());
        assert_eq!(table_for(Language::Es), "es-g1.ctb");
        assert_eq!(of_tag("es-ES"), "es-g1.ctb");
        assert_eq!(of_tag("de_AT"), "de-g0.utb");
        assert_eq!(of_tag("EN"), "en-ueb-g1.ctb");
        assert_eq!(of_tag("xx"), "en-ueb-g1.ctb");
        assert_eq!(of_tag(""), "en-ueb-g1.ctb");
    }

    #[test]
    fn a_missing_table_is_an_error_not_a_crash() {
        assert!(matches!(
            translate("no-such-table.ctb", "x"),
            Err(LouisError::Table(_))
        ));
    }
}
