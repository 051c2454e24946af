//! A braille display's probe: its brltty connected to and a test line
//! shown.

use crate::table::display::BrailleSpec;

use super::faults::BrailleFault;

/// Connects to a display's brltty and shows a test line on it; `whose`
/// names it there (`table 1`, `player 3`).
pub fn braille(spec: &BrailleSpec, whose: &str) -> Result<String, BrailleFault> {
    let BrailleSpec::Brlapi(host) = spec else {
        return Ok("none".into());
    };
    let shown = spec.to_string();
    let mut conn = match tactus_braille::brlapi::Connection::open(host.as_deref(), None) {
        Ok(conn) => conn,
        Err(source) => return Err(BrailleFault::Connect { shown, source }),
    };
    let line = format!("tactus {whose} check");
    if let Err(source) = conn.write_text(&line) {
        return Err(BrailleFault::Write { shown, source });
    }
    Ok(format!(
        "{shown}: connected, {} cells, showed \u{201c}{line}\u{201d}",
        conn.width() * conn.height()
    ))
}
