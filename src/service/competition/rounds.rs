//! Rounds: setting one up from its pairings (every game checked, every
//! table asked, then each table's next game), starting its clocks, the
//! rounds and their games as the arbiter reads them, a round's PGN for
//! broadcasts, and the arbiter's correction of a result.

use super::*;
use shakmaty::ByColor;

/// One game of a round as checked, before its table is known.
struct Paired<'g> {
    /// Its place in the round's list.
    index: usize,
    game: &'g RoundGame,
    seat: BlindSeat,
    ranks: Ranks,
}

/// One game of a round, checked and ready to set up.
struct Planned {
    index: usize,
    setup: Setup,
}

impl Competition {
    /// Sets up round `round`'s games (each table's next game). Every game
    /// is checked first, every table asked whether its game is under way,
    /// and only then is any table changed.
    /// With `trf`, the file the pairings came from (and the instant), kept
    /// once the round is checked.
    pub async fn set_up(
        &self,
        round: &Round,
        games: &[RoundGame],
        unpaired: Vec<Unpaired>,
        trf: Option<(Vec<u8>, i64)>,
    ) -> Result<RoundSetUp, RoundError> {
        let _one_at_a_time = self.busy.write().await;
        let planned = self.plan(round, games)?;
        for p in &planned {
            let view = self.tables[&p.setup.id].view().await?;
            if view.begun && view.result.is_none() {
                return Err(RoundError::UnderWay(TableError::UnderWay {
                    table: p.setup.id.clone(),
                    round: view.round,
                }));
            }
        }
        if let Some((text, at_ms)) = trf {
            self.keep_trf(text, at_ms).await?;
        }
        let mut listed = Vec::new();
        for p in planned {
            let handle = &self.tables[&p.setup.id];
            let game = handle.new_game(p.setup.clone()).await?;
            listed.push(listed_of(&p.setup, game, GameState::NotBegun, None, 0));
        }
        *self.unpaired.lock().unwrap_or_else(|e| e.into_inner()) = LastUnpaired {
            round: round.clone(),
            unpaired: unpaired.clone(),
        };
        // Whoever follows the players (their own displays) looks again now.
        self.seating.send_modify(|n| *n += 1);
        Ok(RoundSetUp {
            round: round.clone(),
            games: listed,
            unpaired,
        })
    }

    /// Checks a round's games and makes each table's setup: each game's
    /// players, start ranks, table wanted and blind side checked in turn,
    /// then the tables placed in board order and each setup made.
    fn plan(&self, round: &Round, games: &[RoundGame]) -> Result<Vec<Planned>, RoundError> {
        check_round_size(round, games)?;
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        let mut ranks_seen: BTreeMap<u16, usize> = BTreeMap::new();
        let mut wants = Vec::new();
        let mut pending = Vec::new();
        for (index, g) in games.iter().enumerate() {
            check_paired_once(index, g, &mut names)?;
            let ranks = self.ranks_given_or_listed(g);
            check_ranks_once(index, ranks, &mut ranks_seen)?;
            let listed = ranks
                .map(|rank| rank.and_then(|r| self.players.iter().find(|p| p.start_rank == r)));
            wants.push(self.want_of(index, g, &listed)?);
            let seat = seat_of(index, g, listed.map(|p| p.is_some()))?;
            pending.push(Paired {
                index,
                game: g,
                seat,
                ranks,
            });
        }
        let placed = crate::service::competition::board_order::place(&wants, &self.boards)?;
        let mut planned = Vec::new();
        for (paired, id) in pending.into_iter().zip(placed) {
            let setup = self.setup_of(round, &paired, &id)?;
            planned.push(Planned {
                index: paired.index,
                setup,
            });
        }
        planned.sort_by_key(|p| p.index);
        Ok(planned)
    }

    /// Each side's start rank: given, or the listed player's of that name.
    fn ranks_given_or_listed(&self, g: &RoundGame) -> Ranks {
        let rank_of = |given: Option<u16>, name: &str| {
            given.or_else(|| {
                self.players
                    .iter()
                    .find(|p| p.name.trim() == name.trim() && !name.trim().is_empty())
                    .map(|p| p.start_rank)
            })
        };
        Ranks {
            white: rank_of(g.white_rank, &g.white),
            black: rank_of(g.black_rank, &g.black),
        }
    }

    /// Where game `index` wants to be played: at the table it names, at a
    /// listed player's own table, or at its board number (given, or its
    /// place in the list), which `board_order::place` turns into a table.
    fn want_of(
        &self,
        index: usize,
        g: &RoundGame,
        listed: &ByColor<Option<&PlayerConfig>>,
    ) -> Result<Want, RoundError> {
        if let Some(id) = &g.table {
            if !self.bases.contains_key(id) {
                return Err(RoundError::UnknownTable {
                    index,
                    table: id.to_string(),
                });
            }
            return Ok(Want::Table(id.clone()));
        }
        let own: Vec<&TableId> = listed
            .iter()
            .flatten()
            .filter_map(|p| p.table.as_ref())
            .collect();
        // Two listed players who each keep a table play at White's.
        Ok(match own.first() {
            None => Want::Board(g.board.unwrap_or(index as u32 + 1)),
            Some(t) => Want::Table((*t).clone()),
        })
    }

    /// A paired game's setup at table `id`: the table's own, with the
    /// round's players, ranks, blind side, control and start position.
    fn setup_of(&self, round: &Round, paired: &Paired, id: &TableId) -> Result<Setup, RoundError> {
        let Paired {
            index,
            game: g,
            seat,
            ranks,
        } = *paired;
        let base = &self.bases[id];
        let mut setup = base.setup.clone();
        setup.blind = match seat {
            BlindSeat::White => Color::White,
            BlindSeat::Black => Color::Black,
            // Both blind: the table's tactile board (if any) follows
            // its configured side; a player without one enters their
            // moves on their own page.
            BlindSeat::Both => base.setup.blind,
        };
        setup.ranks = ranks;
        setup.held_for_start = true;
        setup.white = g.white.trim().to_owned();
        setup.black = g.black.trim().to_owned();
        setup.round = round.clone();
        if let Some(control) = &g.control {
            setup.control = control
                .parse()
                .map_err(|e| RoundError::Invalid(format!("games[{index}].control: {e}")))?;
        }
        if let Some(n) = g.start_position {
            if base.variant != Variant::Chess960 {
                return Err(RoundError::Invalid(format!(
                    "games[{index}].start_position: table `{id}` does not play Chess960"
                )));
            }
            let start = chess960_start(n)
                .map_err(|e| RoundError::Invalid(format!("games[{index}].start_position: {e}")))?;
            setup.fen = Some(tactus_rules::pgn::fen_of(&start));
        }
        Ok(setup)
    }

    /// Starts the clock of every game of round `round` that has not begun;
    /// the tables whose clocks were started.
    pub async fn start(&self, round: &Round) -> Result<Vec<String>, RoundError> {
        let mut started = Vec::new();
        let mut found = false;
        for (id, handle) in self.tables.iter() {
            let view = handle.view().await?;
            // A table nobody is paired at is not in the round.
            if view.round != *round || (view.white.is_empty() && view.black.is_empty()) {
                continue;
            }
            found = true;
            if !view.begun {
                handle.act(PersonRole::Arbiter, Action::StartClock).await?;
                started.push(id.to_string());
            }
        }
        if !found {
            return Err(RoundError::NoRound(round.to_string()));
        }
        Ok(started)
    }

    /// Every round with its games, rounds in order (numbers by value),
    /// games in the venue's order of tables.
    pub async fn rounds(&self) -> Result<RoundsView, RoundError> {
        let mut rounds: Vec<RoundView> = Vec::new();
        for (game, _) in self.games(None).await? {
            match rounds.iter_mut().find(|r| r.round == game.round) {
                Some(r) => r.games.push(game),
                None => rounds.push(RoundView {
                    round: game.round.clone(),
                    games: vec![game],
                    matches: Vec::new(),
                }),
            }
        }
        rounds.sort_by(|a, b| a.round.cmp(&b.round));
        // A team event's rounds: each match's score as the results come.
        let names: Vec<Round> = rounds.iter().map(|r| r.round.clone()).collect();
        for (r, matches) in rounds.iter_mut().zip(self.match_scores(&names).await?) {
            r.matches = matches;
        }
        Ok(RoundsView { rounds })
    }

    /// Every game of round `round` as one PGN file, live games as they
    /// stand.
    pub async fn round_pgn(&self, round: &Round) -> Result<String, RoundError> {
        let games = self.games(Some(round)).await?;
        if games.is_empty() {
            return Err(RoundError::NoRound(round.to_string()));
        }
        // As broadcasters read a round: the event, site and date the
        // pairing program's file gives, and each player's FIDE id.
        let trf = self.parsed_trf().await?;
        let number = round.number();
        let mut out = String::new();
        for (g, pgn) in games {
            let mut tags: Vec<(&str, String)> = Vec::new();
            // The file speaks for the games it paired (both players named by
            // start rank): a round set up otherwise keeps its PGN as it was
            // when a file is imported later.
            let paired = g.ranks.white.is_some() && g.ranks.black.is_some();
            let trf = trf.as_deref().filter(|_| paired);
            if let Some(trf) = trf {
                if let Some(event) = trf.event_name() {
                    tags.push(("Event", event));
                }
                if let Some(city) = trf.city() {
                    tags.push(("Site", city));
                }
                if let Some(date) = number.and_then(|r| trf.round_date(r)) {
                    tags.push(("Date", date));
                }
            }
            for (tag, rank) in [
                ("WhiteFideId", g.ranks.white),
                ("BlackFideId", g.ranks.black),
            ] {
                let Some(rank) = rank else { continue };
                // The venue file's id first: the organiser listed it.
                let id = self
                    .listed(rank)
                    .ok()
                    .and_then(|p| p.fide_id)
                    .or_else(|| trf?.player(rank)?.fide_id);
                if let Some(id) = id.filter(|id| *id > 0) {
                    tags.push((tag, id.to_string()));
                }
            }
            // A team event's games name their teams, as lichess's
            // broadcasts read them.
            if let Some((white, black)) = self.team_names(g.ranks.white, g.ranks.black) {
                tags.push(("WhiteTeam", white));
                tags.push(("BlackTeam", black));
            }
            out.push_str(&with_tags(&pgn, &tags));
            out.push('\n');
        }
        Ok(out)
    }

    /// The arbiter's correction of a result in round `round` at table
    /// `id`: the table's current game through the table, an earlier one
    /// journaled under its own number (checked on the replayed game
    /// first). The only way a finished game changes.
    pub async fn correct_result(
        &self,
        round: &Round,
        id: &str,
        result: shakmaty::KnownOutcome,
        reason: &str,
        forfeit: Option<Color>,
    ) -> Result<GameListed, RoundError> {
        let _one_at_a_time = self.busy.write().await;
        let id = self.known_table(id)?;
        let reason = reason_of(result, reason, forfeit)?;
        let view = self.tables[&id].view().await?;
        if view.round == *round && (view.begun || forfeit.is_some()) {
            return self
                .correct_current(&id, &view, result, reason, forfeit)
                .await;
        }
        let event = GameEvent::ResultSet { result, reason };
        self.correct_past(round, &id, view.game, event, forfeit)
            .await
    }

    /// The table named `id`, if the venue has it.
    fn known_table(&self, id: &str) -> Result<TableId, RoundError> {
        let unknown = |table: String| RoundError::UnknownTable { index: 0, table };
        let id: TableId = id
            .parse()
            .map_err(|_| unknown(id.chars().take(40).collect()))?;
        if !self.tables.contains_key(&id) {
            return Err(unknown(id.to_string()));
        }
        Ok(id)
    }

    /// The correction of the table's current game (`view`): set through
    /// the table, as any result is.
    async fn correct_current(
        &self,
        id: &TableId,
        view: &TableView,
        result: shakmaty::KnownOutcome,
        reason: String,
        forfeit: Option<Color>,
    ) -> Result<GameListed, RoundError> {
        if forfeit.is_some() && !view.moves.is_empty() {
            return Err(RoundError::Invalid(format!(
                "forfeit: the game at table `{id}` has moves: it was played"
            )));
        }
        self.set_forfeit(id, view.game, forfeit).await?;
        let handle = &self.tables[id];
        handle
            .act(PersonRole::Arbiter, Action::SetResult { result, reason })
            .await?;
        let mut listed = listed_of_view(&handle.view().await?);
        listed.forfeit = forfeit;
        Ok(listed)
    }

    /// The correction of the round's latest game at table `id` before its
    /// current game (`current`): `event` applied to the replayed game
    /// first, then journaled under that game's number.
    async fn correct_past(
        &self,
        round: &Round,
        id: &TableId,
        current: u32,
        event: GameEvent,
        forfeit: Option<Color>,
    ) -> Result<GameListed, RoundError> {
        let game = self.latest_before(round, id, current).await?;
        let table = id.clone();
        let mut r = self
            .read(move |reader| {
                let records = reader.game_events(&table, game)?;
                replay(&table, &records, Style::default())
                    .map_err(|e| RoundError::Invalid(e.to_string()))
            })
            .await?;
        let at = std::time::Duration::from_millis(r.last_ms);
        r.game
            .apply(at, &event)
            .map_err(|e| RoundError::Invalid(e.to_string()))?;
        let payload = serde_json::to_string(&crate::table::replay::Entry::Game(event))
            .map_err(|e| RoundError::Invalid(e.to_string()))?;
        if forfeit.is_some() && !r.game.plies().is_empty() {
            return Err(RoundError::Invalid(format!(
                "forfeit: the game at table `{id}` has moves: it was played"
            )));
        }
        self.set_forfeit(id, game, forfeit).await?;
        self.journal
            .append(id, game, r.last_ms as i64, payload)
            .await?;
        self.past
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&(id.clone(), game));
        let past = self.past(id, game).await?;
        let mut listed = listed_of(
            &past.setup,
            game,
            GameState::Finished,
            past.result,
            past.plies,
        );
        listed.forfeit = forfeit;
        Ok(listed)
    }

    /// The number of round `round`'s latest game at table `id` before its
    /// current game (`current`), one that had begun.
    async fn latest_before(
        &self,
        round: &Round,
        id: &TableId,
        current: u32,
    ) -> Result<u32, RoundError> {
        let starts = self.starts(id, current).await?;
        let mut game = None;
        for s in starts.iter().filter(|s| s.game < current) {
            if setup_in(s).is_some_and(|setup| setup.round == *round)
                && self.past(id, s.game).await.is_ok_and(|p| p.begun)
            {
                game = game.max(Some(s.game));
            }
        }
        game.ok_or_else(|| RoundError::NoRound(format!("{round}` at table `{id}")))
    }
}

/// The reason a corrected result is given. A forfeit: the side that came
/// wins, and nothing was played; its reason says who did not come unless
/// the arbiter gave one.
fn reason_of(
    result: shakmaty::KnownOutcome,
    reason: &str,
    forfeit: Option<Color>,
) -> Result<String, RoundError> {
    let Some(absent) = forfeit else {
        return Ok(reason.to_owned());
    };
    if result != (shakmaty::KnownOutcome::Decisive { winner: !absent }) {
        return Err(RoundError::Invalid(format!(
            "forfeit: {} did not come, so the result is {}",
            tactus_rules::side::name(absent),
            if absent == Color::White { "0-1" } else { "1-0" }
        )));
    }
    if reason.trim().is_empty() {
        Ok(format!(
            "forfeit: {} did not come",
            tactus_rules::side::name(absent)
        ))
    } else {
        Ok(reason.to_owned())
    }
}

/// A game's PGN with each of `tags` set: its value replaced where the tag
/// is, added after the last tag where it is not (values escaped as PGN
/// escapes them).
pub(super) fn with_tags(pgn: &str, tags: &[(&str, String)]) -> String {
    let mut lines: Vec<String> = pgn.lines().map(str::to_owned).collect();
    for (name, value) in tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let line = format!("[{name} \"{value}\"]");
        let prefix = format!("[{name} \"");
        let tag_lines = lines.iter().take_while(|l| l.starts_with('[')).count();
        match lines[..tag_lines]
            .iter()
            .position(|l| l.starts_with(&prefix))
        {
            Some(i) => lines[i] = line,
            None => lines.insert(tag_lines, line),
        }
    }
    let mut out = lines.join("\n");
    if pgn.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// A round has a name and between one and [`MAX_ROUND_GAMES`] games.
fn check_round_size(round: &Round, games: &[RoundGame]) -> Result<(), RoundError> {
    let invalid = |s: String| Err(RoundError::Invalid(s));
    // The name itself is checked where it entered (`Round`): a round
    // set up has one.
    if round.is_none() {
        return invalid("round: a round needs a name (1, 2, … or any other)".into());
    }
    if games.is_empty() {
        return invalid("games: no game to set up".into());
    }
    if games.len() > MAX_ROUND_GAMES {
        return invalid(format!(
            "games: {} games, at most {MAX_ROUND_GAMES}",
            games.len()
        ));
    }
    Ok(())
}

/// Game `index`'s players are named at most 100 characters each, and none
/// is paired twice in the round (`names`: the names seen so far).
fn check_paired_once<'g>(
    index: usize,
    g: &'g RoundGame,
    names: &mut BTreeMap<&'g str, usize>,
) -> Result<(), RoundError> {
    for (key, name) in [("white", &g.white), ("black", &g.black)] {
        if name.chars().count() > 100 {
            return Err(RoundError::Invalid(format!(
                "games[{index}].{key}: at most 100 characters"
            )));
        }
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        if let Some(other) = names.insert(name, index) {
            return Err(RoundError::Invalid(format!(
                "games[{index}].{key}: `{name}` is paired twice (also in games[{other}])"
            )));
        }
    }
    Ok(())
}

/// No start rank is paired twice in the round (`seen`: the ranks so far).
fn check_ranks_once(
    index: usize,
    ranks: Ranks,
    seen: &mut BTreeMap<u16, usize>,
) -> Result<(), RoundError> {
    for (key, rank) in [("white_rank", ranks.white), ("black_rank", ranks.black)] {
        if let Some(r) = rank
            && let Some(other) = seen.insert(r, index)
        {
            return Err(RoundError::Invalid(format!(
                "games[{index}].{key}: start rank {r} is paired twice (also in \
                 games[{other}])"
            )));
        }
    }
    Ok(())
}

/// Who of game `index` is blind: as the round says, or the listed players
/// (`listed`: whether each side is one).
fn seat_of(index: usize, g: &RoundGame, listed: ByColor<bool>) -> Result<BlindSeat, RoundError> {
    if let Some(seat) = g.blind {
        return Ok(seat);
    }
    Ok(match (listed.white, listed.black) {
        (true, true) => BlindSeat::Both,
        (true, false) => BlindSeat::White,
        (false, true) => BlindSeat::Black,
        (false, false) => {
            return Err(RoundError::Invalid(format!(
                "games[{index}].blind: neither `{}` nor `{}` is a listed player: \
                 say `white`, `black` or `both`",
                g.white, g.black
            )));
        }
    })
}
