//! Every person's link: what `tactus serve` prints when it listens (each
//! link with its token, in the URL's fragment), the same without a token
//! for a log others may read, and the owner-only file that keeps them
//! (`tactus links` prints it).

use super::serve::Running;

/// The file in the data folder with every person's link and token, as
/// `startup_text` gives them (owner-only; `tactus links` prints it).
pub const LINKS_FILE: &str = "links.txt";

/// Writes the start-up text with every link into `<data>/links.txt`,
/// owner-only (0600), through a temporary and a rename; its path.
pub fn write_links(
    data: &std::path::Path,
    running: &Running,
) -> std::io::Result<std::path::PathBuf> {
    let path = data.join(LINKS_FILE);
    crate::service::security::private_file::write(&path, &[startup_text(running).as_bytes()])?;
    Ok(path)
}

/// The start-up text without a token: where tactus listens (and its
/// certificate), and where the links are (`links`), for a log that others
/// may read (systemd's journal is readable by the `adm` group).
pub fn public_startup_text(running: &Running, links: Option<&std::path::Path>) -> String {
    let mut out: String = startup_text(running)
        .lines()
        .filter(|l| !l.contains("token=") && !l.starts_with("table ") && !l.starts_with("player "))
        .map(|l| format!("{l}\n"))
        .collect();
    match links {
        Some(path) => out.push_str(&format!(
            "links: every person's link with its token is in {} (owner-only); \
             `tactus links` prints them\n",
            path.display()
        )),
        None => out.push_str(
            "links: not written (see the error above); run tactus on a terminal to see them\n",
        ),
    }
    out
}

/// What `tactus serve` prints when it listens: where, and every person's
/// link with their token (in the fragment, never sent in a URL).
pub fn startup_text(running: &Running) -> String {
    let tls = running.tls_fingerprint.is_some();
    let scheme = if tls { "https" } else { "http" };
    let mut out = format!("tactus is serving on {scheme}://{}/\n", running.addr);
    if let Some(fingerprint) = &running.tls_fingerprint {
        out.push_str(&format!("certificate SHA-256: {fingerprint}\n"));
    }
    // Listening on every address: the links name this machine's LAN
    // address, which a phone in the hall can open (never 127.0.0.1).
    let base = crate::service::startup::addresses::link_base(running.addr, tls);
    if running.addr.ip().is_unspecified() {
        for a in crate::service::startup::addresses::page_addresses(running.addr) {
            out.push_str(&format!("  reached on {scheme}://{a}/\n"));
        }
    }
    if let Some(token) = running.tokens.venue_arbiter() {
        out.push_str(&format!(
            "venue arbiter (rounds, every table): {base}/arbiter#token={token}\n"
        ));
    }
    // Each listed player's own link, for the whole event: it leads to
    // whichever table their game is at.
    for p in &running.players {
        let (rank, name) = (p.start_rank, &p.name);
        if let Some(code) = running.tokens.player_token(rank) {
            out.push_str(&format!(
                "player {rank} ({name}): {base}/p/{}\n",
                crate::service::security::codes::grouped_code(code)
            ));
        }
    }
    for t in &running.teams {
        if let Some(code) = running.tokens.captain_token(t.number) {
            out.push_str(&format!(
                "captain of team {} ({}): {base}/c/{}\n",
                t.number,
                t.name,
                crate::service::security::codes::grouped_code(code)
            ));
        }
    }
    for id in running.tables.keys() {
        out.push_str(&format!("table {id}:\n"));
        if let Some(t) = running.tokens.table(id) {
            out.push_str(&format!(
                "  player:    {base}/table/{id}/player#token={}\n",
                t.player.expose()
            ));
            // The second blind player's link is this game's only: the
            // arbiter's page gives the next game's.
            if let Some(now) = running.current.get(id)
                && let Some(token) = running.tokens.opponent_token(id, now.game)
            {
                let side = tactus_rules::side::name(!now.blind);
                let round = if now.round.is_empty() {
                    String::new()
                } else {
                    format!(", round {}", now.round)
                };
                out.push_str(&format!(
                    "  opponent:  {base}/table/{id}/player?plays={side}#token={token} \
                     (game {}{round} only)\n",
                    now.game
                ));
            }
            out.push_str(&format!(
                "  assistant: {base}/table/{id}/assistant#token={}\n",
                t.assistant.expose()
            ));
            out.push_str(&format!(
                "  arbiter:   {base}/arbiter/{id}#token={}\n",
                t.arbiter.expose()
            ));
        }
    }
    out
}
