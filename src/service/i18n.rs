//! The pages in the person's language: English, Spanish and German.
//!
//! Every string a page shows comes from one Project Fluent catalogue per
//! language (`pages/locales/{en,es,de}.ftl`), read with the `fluent-bundle`
//! crate (Mozilla's own implementation, used by Firefox's Rust code and kept
//! with the Fluent syntax; the message format handles the word order and
//! grammar of each language, which a key-to-string table would not).
//! `fluent-langneg` picks the language from the browser's `Accept-Language`.
//!
//! A page template names its messages `{{t:message-id}}`; the server fills
//! them in. Messages whose id starts with `js-` go to the page's scripts as
//! JSON (`{{MESSAGES}}`), their `{ $name }` placeables left for the script
//! to fill. A page's language is, in order: `?lang=` (the choice on the page,
//! which the page remembers in `localStorage` and asks for again), then
//! `Accept-Language`, then English.

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use fluent_langneg::{NegotiationStrategy, accepted_languages, negotiate_languages};
use unic_langid::LanguageIdentifier;

use tactus_rules::language::Language;

/// The languages with a catalogue, the first the fallback
/// ([`Language::WITH_CATALOGUE`]).
pub const LANGS: [Language; 3] = Language::WITH_CATALOGUE;

const SOURCES: [&str; 3] = [
    include_str!("pages/locales/en.ftl"),
    include_str!("pages/locales/es.ftl"),
    include_str!("pages/locales/de.ftl"),
];

struct Catalogue {
    lang: Language,
    bundle: FluentBundle<FluentResource>,
    /// Message ids in catalogue order.
    ids: Vec<String>,
}

static CATALOGUES: LazyLock<Vec<Catalogue>> = LazyLock::new(|| {
    LANGS
        .iter()
        .zip(SOURCES)
        .map(|(&lang, source)| {
            // The catalogues are part of the binary and tested: a syntax
            // error is a build mistake, caught by the tests below.
            let resource =
                FluentResource::try_new(source.to_owned()).unwrap_or_else(|(r, errors)| {
                    debug_assert!(errors.is_empty(), "{lang}.ftl: {errors:?}");
                    r
                });
            let ids = resource
                .entries()
                .filter_map(|e| match e {
                    fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_owned()),
                    _ => None,
                })
                .collect();
            let id: LanguageIdentifier = lang.code().parse().unwrap_or_default();
            let mut bundle = FluentBundle::new_concurrent(vec![id]);
            bundle.set_use_isolating(false);
            let _ = bundle.add_resource(resource);
            Catalogue { lang, bundle, ids }
        })
        .collect()
});

/// `lang`'s catalogue; English's for a language without one.
fn catalogue(lang: Language) -> &'static Catalogue {
    let all = &*CATALOGUES;
    all.iter().find(|c| c.lang == lang).unwrap_or(&all[0])
}

/// The page's language: `query` (`?lang=`) if it has a catalogue, else the
/// best match for `Accept-Language`, else English: always a language with a
/// catalogue.
pub fn negotiate(query: Option<&str>, accept_language: Option<&str>) -> Language {
    if let Some(&l) = query.and_then(|q| {
        LANGS
            .iter()
            .find(|l| l.code().eq_ignore_ascii_case(q.trim()))
    }) {
        return l;
    }
    let requested = accepted_languages::parse(accept_language.unwrap_or(""));
    let available: Vec<fluent_langneg::LanguageIdentifier> =
        LANGS.iter().filter_map(|l| l.code().parse().ok()).collect();
    let default: fluent_langneg::LanguageIdentifier = LANGS[0].code().parse().unwrap_or_default();
    let chosen = negotiate_languages(
        &requested,
        &available,
        Some(&default),
        NegotiationStrategy::Lookup,
    );
    chosen
        .first()
        .and_then(|id| LANGS.iter().find(|l| l.code() == id.language.as_str()))
        .copied()
        .unwrap_or(LANGS[0])
}

/// The pages' language for a voice pack's or a table's language: itself if
/// it has a catalogue, else English (an unknown language too).
///
/// `pages_for(Some(Language::De))` is German, `pages_for(Some(Language::Fr))`
/// English.
pub fn pages_for(lang: Option<Language>) -> Language {
    lang.filter(|l| l.has_catalogue()).unwrap_or(LANGS[0])
}

/// One message as plain text, `{ $name }` filled from `args`; a missing
/// argument stays `{$name}`. An unknown id is itself (the tests keep that
/// from happening).
pub fn message(lang: Language, id: &str, args: &[(&str, &str)]) -> String {
    let c = catalogue(lang);
    let Some(pattern) = c.bundle.get_message(id).and_then(|m| m.value()) else {
        return id.to_owned();
    };
    let mut fargs = FluentArgs::new();
    for &(k, v) in args {
        fargs.set(k, v.to_owned());
    }
    let mut errors = Vec::new();
    c.bundle
        .format_pattern(pattern, Some(&fargs), &mut errors)
        .into_owned()
}

/// Escapes text for HTML content and double-quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(ch),
        }
    }
    out
}

/// Fills a page template in `lang`: `{{t:id}}` with the message (escaped;
/// `html_args` are HTML already and go in as they are), `{{LANG}}` with the
/// language tag, `{{LANGS}}` with the language choice, `{{MESSAGES}}` with
/// the scripts' messages.
pub fn render(template: &str, lang: Language, html_args: &[(&str, &str)]) -> String {
    // Arguments are formatted as private-use markers, the message escaped,
    // then the markers replaced by the HTML arguments.
    let markers: Vec<(String, &str)> = html_args
        .iter()
        .enumerate()
        .map(|(i, &(_, v))| (format!("\u{E000}{i}\u{E001}"), v))
        .collect();
    let marker_args: Vec<(&str, &str)> = html_args
        .iter()
        .zip(&markers)
        .map(|(&(k, _), (m, _))| (k, m.as_str()))
        .collect();
    let mut out = String::with_capacity(template.len() + 1024);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            rest = "";
            break;
        };
        let name = &after[..end];
        match name.strip_prefix("t:") {
            Some(id) => {
                let mut text = escape(&message(lang, id, &marker_args));
                for (m, v) in &markers {
                    text = text.replace(m.as_str(), v);
                }
                out.push_str(&text);
            }
            None => match name {
                "LANG" => out.push_str(lang.code()),
                "LANGS" => out.push_str(&chooser(lang)),
                "MESSAGES" => out.push_str(&script_messages(lang)),
                // Someone else's placeholder ({{TABLE}} …): left for them.
                _ => out.push_str(&rest[start..start + 2 + end + 2]),
            },
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

/// The language choice: each language named in itself, with its `lang` so
/// a screen reader says each name in its own voice.
pub fn chooser(lang: Language) -> String {
    let mut options = String::new();
    for l in LANGS {
        options.push_str(&format!(
            "<option value=\"{l}\" lang=\"{l}\"{}>{}</option>",
            if l == lang { " selected" } else { "" },
            escape(&message(l, "lang-name", &[]))
        ));
    }
    format!(
        "<p class=\"lang-choice\"><label for=\"page-lang\">{}</label> <select id=\"page-lang\">{options}</select></p>",
        escape(&message(lang, "lang-label", &[]))
    )
}

/// The `js-` messages of `lang` as a JSON data block for the scripts
/// (`tactus.t`), `<` escaped so no text can end the element.
pub fn script_messages(lang: Language) -> String {
    let c = catalogue(lang);
    let mut map = serde_json::Map::new();
    for id in c.ids.iter().filter(|id| id.starts_with("js-")) {
        map.insert(id.clone(), message(lang, id, &[]).into());
    }
    let json = serde_json::Value::Object(map)
        .to_string()
        .replace('<', "\\u003c");
    format!("<script type=\"application/json\" id=\"messages\">{json}</script>")
}

/// Every message id of a language's catalogue, in order.
pub fn ids(lang: Language) -> Vec<String> {
    catalogue(lang).ids.clone()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn variables(lang: Language, id: &str) -> BTreeSet<String> {
        // A message's placeables as formatted without arguments: `{$x}`.
        let text = message(lang, id, &[]);
        text.match_indices("{$")
            .map(|(i, _)| {
                let rest = &text[i + 2..];
                rest[..rest.find('}').unwrap_or(rest.len())].to_owned()
            })
            .collect()
    }

    #[test]
    fn every_catalogue_parses_and_has_every_message_with_the_same_placeables() {
        for (lang, source) in LANGS.iter().zip(SOURCES) {
            if let Err((_, errors)) = FluentResource::try_new(source.to_owned()) {
                panic!("{lang}.ftl does not parse: {errors:?}");
            }
        }
        let english: BTreeSet<String> = ids(Language::En).into_iter().collect();
        assert!(english.len() > 100, "{}", english.len());
        for lang in LANGS {
            let list = ids(lang);
            let these: BTreeSet<String> = list.iter().cloned().collect();
            assert_eq!(list.len(), these.len(), "{lang}.ftl: an id twice");
            let missing: Vec<_> = english.difference(&these).collect();
            let extra: Vec<_> = these.difference(&english).collect();
            assert!(missing.is_empty(), "{lang}.ftl lacks {missing:?}");
            assert!(extra.is_empty(), "{lang}.ftl has unknown {extra:?}");
            for id in &english {
                assert!(
                    !message(lang, id, &[]).trim().is_empty(),
                    "{lang}: {id} empty"
                );
                assert_eq!(
                    variables(lang, id),
                    variables(Language::En, id),
                    "{lang}: {id} has other placeables than English"
                );
            }
        }
    }

    /// Every message the pages and scripts name exists.
    #[test]
    fn every_message_the_pages_use_is_in_the_catalogues() {
        let known: BTreeSet<String> = ids(Language::En).into_iter().collect();
        let pages = [
            include_str!("pages/player.html"),
            include_str!("pages/assistant.html"),
            include_str!("pages/arbiter.html"),
            include_str!("pages/opponent.html"),
            include_str!("pages/access.html"),
            include_str!("pages/notation.html"),
            include_str!("web/pages.rs"),
        ];
        let mut used = BTreeSet::new();
        for page in pages {
            for (i, _) in page.match_indices("{{t:") {
                let rest = &page[i + 4..];
                used.insert(rest[..rest.find("}}").unwrap_or(0)].to_owned());
            }
        }
        let scripts = [
            include_str!("pages/common.js"),
            include_str!("pages/player.js"),
            include_str!("pages/assistant.js"),
            include_str!("pages/arbiter.js"),
            include_str!("pages/opponent.js"),
            include_str!("pages/board.js"),
            include_str!("pages/rounds.js"),
            include_str!("pages/hall-check.js"),
        ];
        for script in scripts {
            for (i, _) in script.match_indices("\"js-") {
                let rest = &script[i + 1..];
                let id = &rest[..rest.find('"').unwrap_or(0)];
                match id.strip_suffix('-') {
                    // A family named at run time: "js-piece-" + "k".
                    Some(_) => assert!(
                        known.iter().any(|k| k.starts_with(id)),
                        "no message starts with {id}"
                    ),
                    None => {
                        used.insert(id.to_owned());
                    }
                }
            }
        }
        assert!(used.len() > 50, "{}", used.len());
        let unknown: Vec<_> = used.difference(&known).collect();
        assert!(unknown.is_empty(), "not in the catalogues: {unknown:?}");
    }

    /// What the table layer sends for a page to say (an alert's key, a
    /// result's ending, a game's kind) has a message in every catalogue
    /// (the test above holds the other languages to English's ids).
    #[test]
    fn every_alert_ending_kind_and_unpaired_reason_has_a_message() {
        use tactus_rules::game_kind::GameKind;
        use tactus_rules::result::Ending;
        let known: BTreeSet<String> = ids(Language::En).into_iter().collect();
        let mut wanted: Vec<String> = crate::table::view::ALERT_KEYS
            .iter()
            .map(|k| format!("js-alert-{k}"))
            .collect();
        wanted.extend(
            crate::service::competition::UNPAIRED_KEYS
                .iter()
                .map(|k| format!("js-unpaired-{k}")),
        );
        // A `match` without a wildcard: a new ending fails to build here
        // until it is listed (and so given its message).
        let endings = [
            Ending::Checkmate,
            Ending::Stalemate,
            Ending::DeadPosition,
            Ending::FivefoldRepetition,
            Ending::SeventyFiveMoves,
            Ending::Agreement,
            Ending::ThreefoldRepetition,
            Ending::FiftyMoves,
            Ending::Resignation,
            Ending::FlagFell,
            Ending::Arbiter,
        ];
        for e in endings {
            match e {
                Ending::Checkmate
                | Ending::Stalemate
                | Ending::DeadPosition
                | Ending::FivefoldRepetition
                | Ending::SeventyFiveMoves
                | Ending::Agreement
                | Ending::ThreefoldRepetition
                | Ending::FiftyMoves
                | Ending::Resignation
                | Ending::FlagFell
                | Ending::Arbiter => {}
            }
            let name = serde_json::to_value(e).unwrap();
            wanted.push(format!("js-ending-{}", name.as_str().unwrap()));
        }
        for k in [GameKind::Standard, GameKind::Rapid, GameKind::Blitz] {
            let name = serde_json::to_value(k).unwrap();
            wanted.push(format!("js-kind-{}", name.as_str().unwrap()));
        }
        let unknown: Vec<_> = wanted.iter().filter(|w| !known.contains(*w)).collect();
        assert!(unknown.is_empty(), "not in the catalogues: {unknown:?}");
    }

    #[test]
    fn the_language_comes_from_the_choice_then_accept_language() {
        assert_eq!(negotiate(None, None), Language::En);
        assert_eq!(
            negotiate(None, Some("es-ES,es;q=0.9,en;q=0.8")),
            Language::Es
        );
        assert_eq!(negotiate(None, Some("de-AT")), Language::De);
        assert_eq!(negotiate(None, Some("fr-FR, de;q=0.5")), Language::De);
        assert_eq!(negotiate(None, Some("fr-FR")), Language::En);
        assert_eq!(negotiate(Some("es"), Some("de")), Language::Es);
        assert_eq!(negotiate(Some("xx"), Some("de")), Language::De);
    }

    #[test]
    fn a_voice_language_without_a_catalogue_has_english_pages() {
        assert_eq!(pages_for(Some(Language::De)), Language::De);
        assert_eq!(pages_for(Some(Language::Es)), Language::Es);
        assert_eq!(pages_for(Some(Language::Fr)), Language::En);
        assert_eq!(pages_for(None), Language::En);
        // As negotiating the tag as `Accept-Language` did.
        for tag in ["de", "de-AT", "es-ES", "fr", "pt_BR", "xx", ""] {
            assert_eq!(
                pages_for(Language::from_tag(tag)),
                negotiate(None, Some(tag)),
                "{tag}"
            );
        }
    }

    #[test]
    fn templates_are_filled_and_escaped() {
        let page = render(
            "<html lang=\"{{LANG}}\"><h1>{{t:player-title}}</h1>{{TABLE}} {{t:player-help-pieces}}",
            Language::Es,
            &[
                ("table", "7"),
                ("example1", "<kbd>p N</kbd>"),
                ("example2", "<kbd>p k</kbd>"),
            ],
        );
        assert!(page.starts_with("<html lang=\"es\"><h1>Jugador, mesa 7</h1>{{TABLE}} "));
        assert!(
            page.contains("(<kbd>p N</kbd>, <kbd>p k</kbd> para el rey negro)"),
            "{page}"
        );
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        let js = script_messages(Language::De);
        assert!(
            js.contains("\"js-refused\":\"Abgelehnt: {$error}\""),
            "{js}"
        );
        assert!(
            chooser(Language::De)
                .contains("<option value=\"de\" lang=\"de\" selected>Deutsch</option>")
        );
    }
}
