//! Every table of the venue started: its setup from the venue file, its
//! boards opened, its voice pack (each loaded once) and speaker, its braille
//! display attached and its actor started from what the journal kept, all
//! on one time source that never goes back.

use super::*;

/// The voice packs the tables speak with: each pack loaded once at the
/// venue's rate, however many tables speak with it; a table the arbiter
/// set another rate for gets a pack of its own.
pub(super) struct Voices {
    venue_name: String,
    speed: f32,
    loaded: BTreeMap<String, Arc<VoicePack>>,
    /// The rates the arbiter set per table, kept across restarts.
    rates: Arc<crate::service::store::table_rates::TableRates>,
}

impl Voices {
    pub(super) fn new(
        config: &Config,
        rates: Arc<crate::service::store::table_rates::TableRates>,
    ) -> Result<Voices, ServeError> {
        let name = config.speech.voice.clone();
        let venue = load_voice(&name, config.speech.speed)?;
        Ok(Voices {
            loaded: BTreeMap::from([(name.clone(), venue)]),
            venue_name: name,
            speed: config.speech.speed,
            rates,
        })
    }

    /// The venue's pack.
    pub(super) fn venue(&self) -> Arc<VoicePack> {
        Arc::clone(&self.loaded[&self.venue_name])
    }

    /// Table `t`'s pack: its own voice or the venue's, at the rate the
    /// arbiter set for it if any.
    fn of(&mut self, t: &TableConfig) -> Result<Arc<VoicePack>, ServeError> {
        let name = t.voice.as_ref().unwrap_or(&self.venue_name).clone();
        let rate = self
            .rates
            .get(&t.id)
            .filter(|r| (r - self.speed).abs() > 1e-3);
        let failed = |error| ServeError::TableVoice {
            table: t.id.clone(),
            error,
        };
        Ok(match (rate, self.loaded.get(&name)) {
            (Some(rate), _) => load_voice(&name, rate).map_err(failed)?,
            (None, Some(v)) => Arc::clone(v),
            (None, None) => {
                let v = load_voice(&name, self.speed).map_err(failed)?;
                self.loaded.insert(name, Arc::clone(&v));
                v
            }
        })
    }
}

/// The tables, started: their handles, what the competition knows of
/// each, their actors and speakers (a shutdown stops the actors and then
/// waits for the speakers), and the pack each speaks with.
pub(super) struct Started {
    pub(super) tables: BTreeMap<TableId, TableHandle>,
    pub(super) bases: BTreeMap<TableId, TableBase>,
    pub(super) actors: Vec<tokio::task::JoinHandle<()>>,
    pub(super) speakers: Vec<crate::table::speaker::Finished>,
    pub(super) voices: BTreeMap<TableId, Arc<VoicePack>>,
}

/// Starts every table of `config` from its journaled history: its boards,
/// voice, speaker, braille display and actor.
pub(super) async fn start_tables(
    config: &Config,
    mut kept: BTreeMap<TableId, TableKept>,
    journal: &JournalHandle,
    voices: &mut Voices,
) -> Result<Started, ServeError> {
    let time = service_time(kept.values());
    let mut started = Started {
        tables: BTreeMap::new(),
        bases: BTreeMap::new(),
        actors: Vec::new(),
        speakers: Vec::new(),
        voices: BTreeMap::new(),
    };
    let mut card_failed = false;
    // WAV files of this run carry its start time: earlier runs' are kept.
    let run = tactus_speech::sink::run_stamp(std::time::SystemTime::now());
    for t in &config.tables {
        let TableKept {
            records,
            last_alive_ms,
            earlier_rounds,
        } = kept.remove(&t.id).unwrap_or_default();
        let setup = setup_of(t)?;
        started
            .bases
            .insert(t.id.clone(), TableBase::of(t, setup.clone()));
        let board = open_board(t, &t.board, t.board_hello.clone())?;
        let opponent_board = open_board(t, &t.opponent_board, t.opponent_board_hello.clone())?;
        let voice = voices.of(t)?;
        started.voices.insert(t.id.clone(), Arc::clone(&voice));
        let audio = t.audio_or(&config.speech.audio);
        let speaker = speaker_for(audio, &voice, &t.id, &run, &mut card_failed)?;
        started.speakers.push(speaker.finished());
        // A display's state lives with its table, from the start.
        let display = matches!(t.braille, crate::table::display::BrailleSpec::Brlapi(_))
            .then(crate::table::display::DisplayStatus::new);
        let (actor, handle) = TableActor::start(TableParts {
            setup,
            voice,
            speaker,
            journal: Arc::new(journal.clone()),
            history: records,
            earlier_rounds,
            last_alive_ms: last_alive_ms.map(|ms| ms.max(0) as u64),
            board,
            opponent_board,
            shown: t.clock_says,
            notation: t.notation.unwrap_or(config.notation),
            style: config.speech.style,
            time: time.clone(),
            display: display.clone(),
        })
        .await?;
        started.actors.push(tokio::spawn(actor.run()));
        if let Some(status) = &display {
            crate::table::display::attach(
                handle.clone(),
                &t.braille,
                t.braille_shows,
                Arc::new(new_game_line),
                status,
            )
            .map_err(ServeError::Braille)?;
        }
        started.tables.insert(t.id.clone(), handle);
    }
    Ok(started)
}

/// The time every table lives by: monotonic, starting from the wall time
/// now (so the journal's instants read as dates) but never before the last
/// instant the journal holds, so a wall clock set back between two runs
/// cannot make a game's time go back. The wall clock is read here, once.
pub(super) fn service_time<'a>(tables: impl Iterator<Item = &'a TableKept>) -> Timebase {
    let mut last = 0i64;
    for t in tables {
        last = last.max(t.last_alive_ms.unwrap_or(0));
        last = t.records.iter().fold(last, |m, r| m.max(r.at_ms));
    }
    let wall = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let not_before = Duration::from_millis(u64::try_from(last).unwrap_or(0) + 1);
    Timebase::monotonic(wall.max(not_before))
}

/// Loads the voice pack `name` (under voices/ or a path) at `speed`.
pub fn load_voice(name: &str, speed: f32) -> Result<Arc<VoicePack>, VoiceError> {
    let dir = find_pack(name).map_err(VoiceError::Unknown)?;
    let options = LoadOptions {
        speed,
        ..LoadOptions::default()
    };
    let pack = VoicePack::load(&dir, &options).map_err(VoiceError::Pack)?;
    Ok(Arc::new(pack))
}

pub(super) fn setup_of(t: &TableConfig) -> Result<Setup, ServeError> {
    Ok(Setup {
        id: t.id.clone(),
        blind: t.blind,
        control: t.control.clone(),
        white: t.white.clone(),
        black: t.black.clone(),
        event: t.event.clone(),
        round: t.round.clone(),
        fen: start_of(t).map(|pos| fen_of(&pos)),
        flag: t.flag,
        ranks: Default::default(),
        held_for_start: false,
    })
}

/// The table's start position if it is not the standard one: a Chess960
/// table's start position (its castling rights in X-FEN when the table's
/// setup is journaled).
pub(super) fn start_of(t: &TableConfig) -> Option<Chess> {
    match &t.start {
        Start::Standard => None,
        Start::Chess960(s) => Some(s.position().clone()),
    }
}

/// The blind player's board: a serial driver, or a simulated peg board on a
/// pseudo-terminal of our own on which every move typed or entered on the
/// pages is carried out, so the whole chain (driver, inference, following)
/// runs without hardware.
pub(super) fn open_board(
    t: &TableConfig,
    spec: &BoardSpec,
    pin: Option<String>,
) -> Result<Option<BoardLink>, ServeError> {
    let (port, protocol, baud, sim) = match spec {
        BoardSpec::None => return Ok(None),
        BoardSpec::Sim => {
            let start = start_of(t).map_or_else(Board::default, |pos| pos.board().clone());
            let sim = Simulator::new(Protocol::Peg, start, None).map_err(|error| {
                ServeError::Simulator {
                    table: t.id.clone(),
                    error,
                }
            })?;
            (
                sim.path().into(),
                Protocol::Peg,
                Protocol::Peg.default_baud(),
                Some(sim),
            )
        }
        wired => match wired.wired() {
            Some((protocol, port, baud)) => (port.clone(), protocol, baud, None),
            None => return Ok(None),
        },
    };
    // The table's settle_ms overrides the kind of board's default.
    let settings = Settings {
        settle: t.settle_ms.map_or(default_settle(protocol), |ms| {
            Duration::from_millis(u64::from(ms))
        }),
        auto_correct: t.auto_correct,
    };
    let mut driver_config = DriverConfig::new(port, protocol);
    driver_config.baud = baud;
    let driver = Driver::spawn(driver_config).map_err(|error| ServeError::Driver {
        table: t.id.clone(),
        error,
    })?;
    Ok(Some(BoardLink {
        driver,
        protocol,
        settings,
        mirror: sim,
        pin,
        settle_chosen: t.settle_ms.is_some(),
    }))
}

/// The table's speaker for its output. The venue's default sound card
/// that cannot be opened is one warning and text from then on; a table's
/// own device is never given up (it is reopened with backoff, and the table
/// shows that it has no sound meanwhile).
pub(super) fn speaker_for(
    audio: &AudioOut,
    voice: &Arc<VoicePack>,
    id: &str,
    run: &str,
    card_failed: &mut bool,
) -> Result<Speaker, ServeError> {
    let shown = audio.to_string();
    let text_only = |view: AudioView| -> Result<Speaker, ServeError> {
        let sink: Box<dyn Sink + Send> = Box::new(TextSink::stdout());
        Speaker::spawn_with(id, sink, AudioStatus::new(view)).map_err(ServeError::Speaker)
    };
    match audio {
        AudioOut::None => text_only(AudioView::fixed(AudioState::TextOnly, shown)),
        AudioOut::Wav(dir) => {
            let sink = WavSink::create_in(dir, id, run, voice)?;
            let status = AudioStatus::new(AudioView::fixed(
                AudioState::Playing,
                format!("wav:{}", sink.path().display()),
            ));
            Speaker::spawn_with(id, Box::new(sink), status).map_err(ServeError::Speaker)
        }
        AudioOut::Default if *card_failed => text_only(AudioView {
            error: Some("no sound card".into()),
            ..AudioView::fixed(AudioState::TextOnly, shown)
        }),
        AudioOut::Default => match DeviceSink::open(
            voice.clone(),
            "default",
            &shown,
            Persistence::GiveUp,
            Duration::from_secs(3),
        ) {
            Ok(card) => {
                let status = card.status();
                Speaker::spawn_with(id, Box::new(card), status).map_err(ServeError::Speaker)
            }
            Err(e) => {
                tracing::warn!("no sound card ({e}): announcements are text only");
                *card_failed = true;
                text_only(AudioView {
                    error: Some(format!("no sound card: {e}")),
                    ..AudioView::fixed(AudioState::TextOnly, shown)
                })
            }
        },
        AudioOut::Device(name) => {
            let sink = DeviceSink::open(
                voice.clone(),
                name,
                &shown,
                Persistence::Retry,
                Duration::from_secs(3),
            )
            .map_err(|error| ServeError::Device {
                table: id.to_owned(),
                error,
            })?;
            let status = sink.status();
            Speaker::spawn_with(id, Box::new(sink), status).map_err(ServeError::Speaker)
        }
    }
}
