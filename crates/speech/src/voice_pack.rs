//! Voice packs: `voices/<name>/voice.toml` plus one WAV clip per token.
//!
//! Loading checks the whole pack and reports every problem at once, so that
//! a person recording their own voice sees all that is left to fix in one
//! run. Clips are trimmed of leading and trailing silence and stretched to
//! the chosen speed once, here; resampling to an output rate happens once per
//! rate in [`VoicePack::at_rate`].

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::Deserialize;

use super::dsp;
use super::render::RatePack;
use tactus_rules::grammar::{Genders, Grammar};
use tactus_rules::language::Language;
use tactus_rules::token::Token;

/// The manifest file inside a pack directory.
pub const MANIFEST: &str = "voice.toml";
/// The pack tactus speaks with unless told otherwise.
pub const DEFAULT_PACK: &str = "de-appendix-d";

/// A pack's `voice.toml` as written, before any clip is read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub name: String,
    pub language: String,
    pub sample_rate: u32,
    pub gap_ms: u32,
    /// The units' genders (`[grammar]`); German's when left out.
    #[serde(default)]
    pub grammar: ManifestGrammar,
    /// What made the clips (`[source]`): a synthesizer and its voice, or a
    /// person's recording. Shown by `tactus voices check`; packs from
    /// before say nothing.
    #[serde(default)]
    pub source: Option<ManifestSource>,
    /// By token key (see `tactus tokens`); keys are checked by [`VoicePack::load`].
    pub tokens: BTreeMap<String, ManifestToken>,
}

/// A manifest's `[grammar]` table: what the language changes in counted
/// words (`rules::grammar`).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestGrammar {
    /// `gender = { hour = "f", minute = "m", second = "m", move = "f" }`.
    #[serde(default)]
    pub gender: Genders,
}

/// A manifest's `[source]` table: what made its clips.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestSource {
    /// `pico` (SVOX Pico, through py-nanotts), `espeak-ng`, `recorded`.
    pub engine: String,
    /// The engine's voice (`de-DE`), or who recorded the clips.
    pub voice: String,
    /// The engine's version (`py-nanotts 0.1.1`), or when the recording
    /// was made.
    #[serde(default)]
    pub version: Option<String>,
}

/// One token's entry in the manifest.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestToken {
    /// Relative to the pack folder.
    pub clip: PathBuf,
    pub text: String,
}

impl Manifest {
    /// Reads manifest text (no file is touched); the error names the key.
    pub fn parse(text: &str) -> Result<Manifest, Problem> {
        toml::from_str(text).map_err(|e| Problem::Manifest(e.to_string().trim_end().to_owned()))
    }
}

/// How to load a pack.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadOptions {
    /// Speech speed, within [`dsp::SPEED_RANGE`]: 1.0 as recorded, 1.5 half
    /// again as fast. The pitch is kept.
    pub speed: f32,
    /// Accept a pack whose clips have problems: such tokens have no clip
    /// (speech synthesis says them) and the problems are kept in
    /// [`VoicePack::problems`]. The manifest itself must still be sound.
    pub lenient: bool,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            speed: 1.0,
            lenient: false,
        }
    }
}

/// One thing wrong with a pack.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// The manifest is missing, unreadable or not valid (names the key).
    Manifest(String),
    /// A `[tokens]` key that is not in the vocabulary.
    UnknownToken(String),
    /// A vocabulary token the manifest does not list.
    MissingToken(String),
    /// A token's clip file does not exist.
    MissingFile { key: String, path: PathBuf },
    /// A token's clip file cannot be read as WAV.
    Unreadable {
        key: String,
        path: PathBuf,
        reason: String,
    },
    /// A clip in the wrong format (channels, encoding or rate).
    WrongFormat {
        key: String,
        path: PathBuf,
        reason: String,
    },
    /// A clip with no samples, or only silence.
    Empty {
        key: String,
        path: PathBuf,
        silent: bool,
    },
    /// The speed setting is out of range.
    Speed(f32),
}

impl Problem {
    /// Whether this problem concerns one clip only (a lenient load lets
    /// synthesis say that token).
    fn is_clip_problem(&self) -> bool {
        matches!(
            self,
            Problem::MissingFile { .. }
                | Problem::Unreadable { .. }
                | Problem::WrongFormat { .. }
                | Problem::Empty { .. }
        )
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Manifest(m) => write!(f, "{MANIFEST}: {m}"),
            Problem::UnknownToken(k) => {
                write!(
                    f,
                    "{MANIFEST}: unknown token key `{k}` (see `tactus tokens`)"
                )
            }
            Problem::MissingToken(k) => write!(f, "{MANIFEST}: token `{k}` is missing"),
            Problem::MissingFile { key, path } => {
                write!(f, "{}: file missing (clip of `{key}`)", path.display())
            }
            Problem::Unreadable { key, path, reason } => {
                write!(
                    f,
                    "{}: unreadable: {reason} (clip of `{key}`)",
                    path.display()
                )
            }
            Problem::WrongFormat { key, path, reason } => {
                write!(
                    f,
                    "{}: wrong format: {reason} (clip of `{key}`)",
                    path.display()
                )
            }
            Problem::Empty { key, path, silent } => write!(
                f,
                "{}: {} (clip of `{key}`)",
                path.display(),
                if *silent { "only silence" } else { "empty" }
            ),
            Problem::Speed(s) => write!(
                f,
                "speed {s} is out of range {}..={}",
                dsp::SPEED_RANGE.start(),
                dsp::SPEED_RANGE.end()
            ),
        }
    }
}

/// Everything wrong with a pack, found in one pass.
#[derive(Debug, Clone, PartialEq)]
pub struct PackError {
    /// The pack directory.
    pub dir: PathBuf,
    /// Every problem, in manifest order then vocabulary order.
    pub problems: Vec<Problem>,
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "voice pack {} has {} problem{}:",
            self.dir.display(),
            self.problems.len(),
            if self.problems.len() == 1 { "" } else { "s" }
        )?;
        for p in &self.problems {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PackError {}

struct Entry {
    text: String,
    /// Trimmed and stretched, at the pack's rate. `None` only in a lenient
    /// load.
    clip: Option<Arc<[f32]>>,
    /// The clip's loudness as recorded (before levelling), dBFS.
    loudness: Option<f32>,
}

/// A clip ready to play, and its loudness as recorded.
type Prepared = (Arc<[f32]>, Option<f32>);

/// A loaded voice pack: every token's text and (trimmed, speed-adjusted)
/// clip.
pub struct VoicePack {
    name: String,
    /// The manifest's language tag as written (`de`, `es-ES`, or one tactus
    /// has no words for): what the pages put in `lang=` and hand on.
    tag: String,
    /// The tag's language if tactus knows it, read once at load: a pack in
    /// another language still speaks, its braille and pages in English.
    language: Option<Language>,
    dir: PathBuf,
    sample_rate: u32,
    gap_ms: u32,
    speed: f32,
    source: Option<ManifestSource>,
    entries: HashMap<Token, Entry>,
    grammar: Grammar,
    problems: Vec<Problem>,
    /// Resampled copies, one per output rate asked for.
    at_rate: Mutex<HashMap<u32, Arc<RatePack>>>,
}

impl fmt::Debug for VoicePack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VoicePack")
            .field("name", &self.name)
            .field("dir", &self.dir)
            .field("sample_rate", &self.sample_rate)
            .field("tokens", &self.entries.len())
            .finish_non_exhaustive()
    }
}

impl VoicePack {
    /// Loads and checks the pack in `dir`. Every problem is reported at
    /// once; a lenient load fails only on manifest problems.
    pub fn load(dir: impl AsRef<Path>, options: &LoadOptions) -> Result<VoicePack, PackError> {
        let dir = dir.as_ref().to_path_buf();
        let fail = |problems| PackError {
            dir: dir.clone(),
            problems,
        };
        let mut problems = Vec::new();
        if !dsp::SPEED_RANGE.contains(&options.speed) {
            problems.push(Problem::Speed(options.speed));
        }
        let manifest = match read_manifest(&dir) {
            Ok(m) => m,
            Err(p) => {
                problems.push(p);
                return Err(fail(problems));
            }
        };
        if manifest.sample_rate == 0 {
            problems.push(Problem::Manifest("sample_rate must be above 0".into()));
        }

        // Known tokens first (unknown keys are problems), then their clips,
        // read and prepared on a few threads: loading is most of startup.
        let known = known_tokens(&manifest, &mut problems);
        let speed = options
            .speed
            .clamp(*dsp::SPEED_RANGE.start(), *dsp::SPEED_RANGE.end());
        let clips = prepare_clips(&dir, &known, manifest.sample_rate, speed);
        let entries = entries_of(&known, clips, &mut problems);
        let fatal = problems
            .iter()
            .any(|p| !(options.lenient && p.is_clip_problem()));
        if fatal {
            return Err(fail(problems));
        }
        let grammar = Grammar::new(manifest.grammar.gender, entries.keys().copied());
        Ok(VoicePack {
            grammar,
            name: manifest.name,
            language: Language::from_tag(&manifest.language),
            tag: manifest.language,
            dir,
            sample_rate: manifest.sample_rate,
            gap_ms: manifest.gap_ms,
            speed: options.speed,
            source: manifest.source,
            entries,
            problems,
            at_rate: Mutex::new(HashMap::new()),
        })
    }

    /// What made the clips (`[source]`), if the manifest says.
    pub fn source(&self) -> Option<&ManifestSource> {
        self.source.as_ref()
    }

    /// The pack's name from its manifest.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The language tag from its manifest (`de`), as written.
    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// The tag's language, if tactus knows it (`de-AT` is German).
    pub fn language(&self) -> Option<Language> {
        self.language
    }

    /// The directory the pack was loaded from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The clips' sample rate.
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    /// Silence between two words of an announcement, in milliseconds.
    pub fn gap_ms(&self) -> u32 {
        self.gap_ms
    }

    /// The speed the clips were stretched to.
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// The pack's grammar: its units' genders and the number forms it
    /// records, for [`tactus_rules::clock_announce::clock_tokens_in`].
    pub fn grammar(&self) -> &Grammar {
        &self.grammar
    }

    /// Clip problems accepted by a lenient load (empty otherwise).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The text of one token. A complete pack has one for every token; the
    /// key stands in should one be missing.
    pub fn token_text(&self, token: Token) -> std::borrow::Cow<'_, str> {
        match self.entries.get(&token) {
            Some(e) => std::borrow::Cow::Borrowed(&e.text),
            None => std::borrow::Cow::Owned(token.key()),
        }
    }

    /// The text rendering: token texts joined by single spaces.
    pub fn text(&self, tokens: &[Token]) -> String {
        let mut out = String::new();
        for (i, &t) in tokens.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&self.token_text(t));
        }
        out
    }

    /// The token's trimmed, speed-adjusted clip at [`sample_rate`](Self::sample_rate),
    /// if it has one.
    pub fn clip(&self, token: Token) -> Option<&Arc<[f32]>> {
        self.entries.get(&token).and_then(|e| e.clip.as_ref())
    }

    /// How long `tokens` take to say: their clips (already at the pack's
    /// speed) and the gaps between them; a word without a clip (spoken by
    /// the system's synthesizer) counted as 400 ms.
    pub fn spoken_length(&self, tokens: &[Token]) -> std::time::Duration {
        let rate = f64::from(self.sample_rate.max(1));
        let clips: f64 = tokens
            .iter()
            .map(|t| self.clip(*t).map_or(0.4, |c| c.len() as f64 / rate))
            .sum();
        let gaps = f64::from(self.gap_ms) / 1000.0 * tokens.len().saturating_sub(1) as f64;
        std::time::Duration::from_secs_f64(clips + gaps)
    }

    /// The token's clip's loudness as recorded, before it was levelled to
    /// [`TARGET_DB`](super::loudness::TARGET_DB) (dBFS over speech frames).
    pub fn recorded_loudness(&self, token: Token) -> Option<f32> {
        self.entries.get(&token).and_then(|e| e.loudness)
    }

    /// The pack resampled to `rate`: made on first use, then shared.
    pub fn at_rate(&self, rate: u32) -> Result<Arc<RatePack>, dsp::ResampleError> {
        let mut cache = self
            .at_rate
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(p) = cache.get(&rate) {
            return Ok(Arc::clone(p));
        }
        let mut clips = HashMap::with_capacity(self.entries.len());
        for (&token, entry) in &self.entries {
            if let Some(clip) = &entry.clip {
                let samples = dsp::resample(clip, self.sample_rate, rate)?;
                clips.insert(token, Arc::<[f32]>::from(samples));
            }
        }
        let pack = Arc::new(RatePack::new(
            rate,
            dsp::ms_to_samples(self.gap_ms, rate),
            clips,
        ));
        cache.insert(rate, Arc::clone(&pack));
        Ok(pack)
    }
}

/// A manifest token whose key names a token.
struct Known<'m> {
    key: &'m str,
    token: Token,
    entry: &'m ManifestToken,
}

/// The pack's manifest, read and parsed.
fn read_manifest(dir: &Path) -> Result<Manifest, Problem> {
    match std::fs::read_to_string(dir.join(MANIFEST)) {
        Err(e) => Err(Problem::Manifest(format!("cannot read: {e}"))),
        Ok(text) => Manifest::parse(&text),
    }
}

/// The manifest's tokens whose keys tactus knows, in manifest order; each
/// unknown key is a problem.
fn known_tokens<'m>(manifest: &'m Manifest, problems: &mut Vec<Problem>) -> Vec<Known<'m>> {
    let mut known = Vec::with_capacity(manifest.tokens.len());
    for (key, entry) in &manifest.tokens {
        match Token::from_key(key) {
            Some(token) => known.push(Known {
                key: key.as_str(),
                token,
                entry,
            }),
            None => problems.push(Problem::UnknownToken(key.clone())),
        }
    }
    known
}

/// The clip of each known token, read from `dir` and prepared (see
/// [`prepare_clip`]) on up to four threads, in `known`'s order.
fn prepare_clips(
    dir: &Path,
    known: &[Known<'_>],
    rate: u32,
    speed: f32,
) -> Vec<Result<Prepared, Problem>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    let chunk = known.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = known
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|k| prepare_clip(k.key, &dir.join(&k.entry.clip), rate, speed))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join().unwrap_or_else(|_| {
                    vec![Err(Problem::Manifest("a clip loader thread failed".into()))]
                })
            })
            .collect()
    })
}

/// One clip read at `rate`, its silence trimmed, stretched to `speed` and
/// levelled.
fn prepare_clip(key: &str, path: &Path, rate: u32, speed: f32) -> Result<Prepared, Problem> {
    let mut samples = read_clip(key, path, rate)?;
    let keep = dsp::trim_range(&samples, rate);
    samples.truncate(keep.end);
    samples.drain(..keep.start);
    if (speed - 1.0).abs() >= 1e-3 {
        samples = dsp::stretch(&samples, rate, speed);
    }
    // By loudness, not by peak: the words of a move sound alike.
    let before = super::loudness::level(&mut samples, rate);
    Ok((Arc::from(samples), before))
}

/// Each known token's entry, with its clip if it could be prepared (the
/// clip's problem otherwise); then every token the manifest lacks is a
/// problem.
fn entries_of(
    known: &[Known<'_>],
    clips: Vec<Result<Prepared, Problem>>,
    problems: &mut Vec<Problem>,
) -> HashMap<Token, Entry> {
    let mut entries = HashMap::with_capacity(known.len());
    for (Known { token, entry, .. }, clip) in known.iter().zip(clips) {
        let clip = clip.map_err(|p| problems.push(p)).ok();
        entries.insert(
            *token,
            Entry {
                text: entry.text.clone(),
                loudness: clip.as_ref().and_then(|c| c.1),
                clip: clip.map(|c| c.0),
            },
        );
    }
    for token in Token::all() {
        if !entries.contains_key(&token) {
            problems.push(Problem::MissingToken(token.key()));
        }
    }
    entries
}

/// Reads one clip as mono 16-bit PCM at `rate`, as `f32` samples.
fn read_clip(key: &str, path: &Path, rate: u32) -> Result<Vec<f32>, Problem> {
    if !path.is_file() {
        return Err(Problem::MissingFile {
            key: key.to_owned(),
            path: path.to_path_buf(),
        });
    }
    let unreadable = |reason: String| Problem::Unreadable {
        key: key.to_owned(),
        path: path.to_path_buf(),
        reason,
    };
    let bytes = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
    // hound checks the header; the samples are decoded here, as hound's
    // per-sample iterator is most of a pack's load time.
    let reader = hound::WavReader::new(std::io::Cursor::new(&bytes[..]))
        .map_err(|e| unreadable(e.to_string()))?;
    let spec = reader.spec();
    let len = reader.len() as usize;
    let data_start = reader.into_inner().position() as usize;
    let mut wrong = Vec::new();
    if spec.channels != 1 {
        wrong.push(format!("{} channels, expected mono", spec.channels));
    }
    if spec.sample_format != hound::SampleFormat::Int || spec.bits_per_sample != 16 {
        let kind = match spec.sample_format {
            hound::SampleFormat::Int => "PCM",
            hound::SampleFormat::Float => "float",
        };
        wrong.push(format!(
            "{}-bit {kind}, expected 16-bit PCM",
            spec.bits_per_sample
        ));
    }
    if spec.sample_rate != rate {
        wrong.push(format!(
            "{} Hz, expected {rate} Hz (the manifest's sample_rate)",
            spec.sample_rate
        ));
    }
    if !wrong.is_empty() {
        return Err(Problem::WrongFormat {
            key: key.to_owned(),
            path: path.to_path_buf(),
            reason: wrong.join(", "),
        });
    }
    let data = data_start
        .checked_add(len * 2)
        .and_then(|end| bytes.get(data_start..end))
        .ok_or_else(|| unreadable("the file ends inside its samples".to_owned()))?;
    let samples: Vec<f32> = data
        .chunks_exact(2)
        .map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / 32768.0)
        .collect();
    if samples.is_empty() || dsp::peak(&samples) < dsp::SILENT_PEAK {
        return Err(Problem::Empty {
            key: key.to_owned(),
            path: path.to_path_buf(),
            silent: !samples.is_empty(),
        });
    }
    Ok(samples)
}

/// Finds a pack: `name_or_path` if it is a directory with a manifest, else
/// `voices/<name>` under `share/tactus` beside the binary's `bin/` (the
/// Debian package's `/usr/share/tactus/voices` for `/usr/bin/tactus`), the
/// crate directory (when run from a checkout), the current directory, or the
/// binary's directory and its parents.
pub fn find_pack(name_or_path: &str) -> Result<PathBuf, UnknownVoice> {
    let direct = PathBuf::from(name_or_path);
    if direct.join(MANIFEST).is_file() {
        return Ok(direct);
    }
    let mut bases: Vec<PathBuf> = Vec::new();
    // First, so that an installed binary speaks with the installed packs
    // even on a machine that still has the checkout it was built from.
    if let Ok(exe) = std::env::current_exe()
        && let Some(prefix) = exe.parent().and_then(Path::parent)
    {
        bases.push(prefix.join("share").join("tactus"));
    }
    // The checkout it was built from (this crate is its crates/speech).
    if let Some(checkout) = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2) {
        bases.push(checkout.to_path_buf());
    }
    if let Ok(cwd) = std::env::current_dir() {
        bases.push(cwd);
    }
    if let Ok(exe) = std::env::current_exe() {
        bases.extend(exe.ancestors().skip(1).take(4).map(Path::to_path_buf));
    }
    let mut tried: Vec<String> = vec![direct.display().to_string()];
    // A name, not a path: look under voices/.
    if !name_or_path.contains(['/', '\\']) {
        for base in bases {
            let candidate = base.join("voices").join(name_or_path);
            if candidate.join(MANIFEST).is_file() {
                return Ok(candidate);
            }
            let shown = candidate.display().to_string();
            if !tried.contains(&shown) {
                tried.push(shown);
            }
        }
    }
    Err(UnknownVoice {
        name: name_or_path.to_owned(),
        tried,
    })
}

/// A voice named that is nowhere to be found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown voice `{name}`: no {MANIFEST} in {}", tried.join(", "))]
pub struct UnknownVoice {
    /// The name or path asked for.
    pub name: String,
    /// Every folder looked in.
    pub tried: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_packs_words_are_level_within_one_db() {
        let dir = find_pack(DEFAULT_PACK).unwrap();
        let pack = VoicePack::load(&dir, &LoadOptions::default()).unwrap();
        let target = super::super::loudness::TARGET_DB;
        for t in Token::all() {
            let clip = pack.clip(t).unwrap();
            let l = super::super::loudness::loudness_db(clip, pack.sample_rate()).unwrap();
            assert!((l - target).abs() <= 1.0, "`{t}` at {l:.2} dBFS");
            assert!(super::super::dsp::peak(clip) < 1.0, "`{t}` clips");
        }
    }

    #[test]
    fn the_default_pack_is_complete_and_loads() {
        let dir = find_pack(DEFAULT_PACK).unwrap();
        let pack = VoicePack::load(&dir, &LoadOptions::default()).unwrap();
        assert_eq!(pack.name(), DEFAULT_PACK);
        assert_eq!(pack.tag(), "de");
        assert_eq!(pack.language(), Some(Language::De));
        for token in Token::all() {
            let clip = pack.clip(token).unwrap();
            assert!(clip.len() > 100, "{token}");
        }
        assert!(pack.problems().is_empty());
    }

    #[test]
    fn text_is_the_token_texts_joined_by_single_spaces() {
        use shakmaty::{File, Rank, Role};
        let pack =
            VoicePack::load(find_pack(DEFAULT_PACK).unwrap(), &LoadOptions::default()).unwrap();
        let tokens = [
            Token::Piece(Role::Knight),
            Token::File(File::F),
            Token::Rank(Rank::Third),
        ];
        assert_eq!(pack.text(&tokens), "Springer Felix drei");
        assert_eq!(pack.text(&[]), "");
    }

    #[test]
    fn unknown_voice_names_what_was_tried() {
        let err = find_pack("no-such-voice").unwrap_err();
        assert_eq!(err.name, "no-such-voice");
        assert!(
            err.to_string().starts_with("unknown voice `no-such-voice`"),
            "{err}"
        );
    }

    #[test]
    fn a_speed_out_of_range_is_a_problem() {
        let dir = find_pack(DEFAULT_PACK).unwrap();
        let err = VoicePack::load(
            &dir,
            &LoadOptions {
                speed: 3.0,
                lenient: false,
            },
        )
        .unwrap_err();
        assert_eq!(err.problems, vec![Problem::Speed(3.0)]);
    }
}
