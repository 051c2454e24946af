//! The pairing program's TRF file: the pairings of a round read from it
//! (TRF-16 or TRF-26), the file kept as imported, and given back with the
//! results written in, as the pairing engine reads it for the next round.

use super::*;

impl Competition {
    /// The imported TRF file as it was imported.
    pub fn imported_trf(&self) -> Option<Vec<u8>> {
        self.trf.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The imported TRF file as read (parsed once per import, on the
    /// blocking pool); `None` without one or if it does not read.
    pub(super) async fn parsed_trf(&self) -> Result<Option<Arc<Trf>>, RoundError> {
        let generation = self.trf_generation();
        let mut parsed = self.parsed_trf.lock().await;
        if let Some((g, trf)) = parsed.as_ref()
            && *g == generation
        {
            return Ok(Some(trf.clone()));
        }
        let Some(text) = self.imported_trf() else {
            return Ok(None);
        };
        let trf = crate::service::blocking::run(move || Trf::from_bytes(&text).ok()).await?;
        let trf = trf.map(Arc::new);
        if let Some(t) = &trf {
            *parsed = Some((generation, t.clone()));
        }
        Ok(trf)
    }

    /// Keeps `text` as the imported TRF file (journaled first).
    pub(super) async fn keep_trf(&self, text: Vec<u8>, at_ms: i64) -> Result<(), RoundError> {
        self.journal
            .put_document(TRF_DOCUMENT, at_ms, text.clone())
            .await?;
        *self.trf.lock().unwrap_or_else(|e| e.into_inner()) = Some(text);
        self.trf_generation
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        Ok(())
    }
    /// Round `round`'s games at tactus tables, from a TRF file (TRF-16 or
    /// TRF-26) as the pairing program writes it before the round's results:
    /// each listed player's opponent and colour, the games in FIDE's board
    /// order (by the scores before the round), a listed player's own table
    /// kept, and the time control of the file's `222` when it has one.
    /// Listed players without a game (a bye, not paired, a game not to be
    /// played) are told, with why. A file whose points disagree with its
    /// own results is refused, naming the line: the pairing engine would
    /// refuse what tactus gives back.
    pub fn pairings_from_trf(
        &self,
        text: &[u8],
        round: &Round,
    ) -> Result<(Vec<RoundGame>, Vec<Unpaired>), RoundError> {
        let (trf, r, control) = self.read_round_file(text, round)?;
        let mut games = Vec::new();
        let mut unpaired = Vec::new();
        for p in &self.players {
            let Some(me) = trf.player(p.start_rank) else {
                return Err(RoundError::Invalid(format!(
                    "[[player]] `{}`: start rank {} is not in the TRF file",
                    p.name, p.start_rank
                )));
            };
            let entry = me.round(r);
            if let Some((why, key, args)) = unpaired_why(entry, r) {
                unpaired.push(Unpaired {
                    name: p.name.clone(),
                    start_rank: p.start_rank,
                    why,
                    key: key.to_owned(),
                    args,
                });
            } else if let RoundEntry::Game {
                opponent,
                colour: Some(colour),
                ..
            } = entry
                && let Some(game) = self.listed_game(&trf, r, me, opponent, colour, &control)?
            {
                games.push(game);
            }
        }
        Ok((in_board_order(games), unpaired))
    }

    /// A round's file read and checked: its points agree with its results
    /// (and a team event's teams with the venue's and with their games),
    /// its `222` is a time control, the venue lists players. The file,
    /// the round's number and the time control.
    fn read_round_file(
        &self,
        text: &[u8],
        round: &Round,
    ) -> Result<(Trf, u16, Option<String>), RoundError> {
        let invalid = |s: String| RoundError::Invalid(s);
        let r = round
            .number()
            .ok_or_else(|| invalid(format!("round: `{round}` is not a round number (1, 2, …)")))?;
        let trf = Trf::from_bytes(text).map_err(|e| invalid(format!("TRF: {e}")))?;
        trf.check_points()
            .map_err(|e| invalid(format!("TRF: {e}")))?;
        // A team event's file: its teams are the venue's, its teams'
        // points agree with its games.
        self.check_teams_agree(&trf)?;
        trf.check_team_points()
            .map_err(|e| invalid(format!("TRF: {e}")))?;
        let control = match trf.time_control() {
            None => None,
            Some(Ok(tc)) => Some(tc.to_string()),
            Some(Err(e)) => return Err(invalid(format!("TRF: {e}"))),
        };
        if self.players.is_empty() {
            return Err(invalid(
                "no [[player]] is listed in the venue file: tactus cannot tell whose tables \
                 the TRF's pairings are for"
                    .into(),
            ));
        }
        Ok((trf, r, control))
    }

    /// A listed player's game of round `r` (`me` against `opponent`, `me`
    /// with `colour`), with its place in the board order; `None` when the
    /// opponent is listed too and `me` has Black (one game, set up from
    /// White's entry).
    fn listed_game(
        &self,
        trf: &Trf,
        r: u16,
        me: &tactus_rules::trf::Player,
        opponent: u16,
        colour: Color,
        control: &Option<String>,
    ) -> Result<Option<Placed>, RoundError> {
        // Read already: every game is on both lines, with two colours.
        let Some(them) = trf.player(opponent) else {
            return Err(RoundError::Invalid(format!(
                "TRF line {}: round {r}: opponent {opponent} is not in the file",
                me.line
            )));
        };
        let other = self.players.iter().find(|q| q.start_rank == opponent);
        if other.is_some() && colour == Color::Black {
            return Ok(None);
        }
        let (white, black) = match colour {
            Color::White => (me, them),
            Color::Black => (them, me),
        };
        // A team event orders matches, then boards within each; otherwise
        // FIDE's board order by the scores before the round.
        let key = trf
            .teams()
            .and_then(|teams| {
                Competition::team_board_key(teams, trf, r, white.start_rank, black.start_rank)
            })
            .unwrap_or_else(|| {
                let before = |rank: u16| (score_before(trf, r, rank), rank);
                (
                    BoardKey::of(before(white.start_rank), before(black.start_rank)),
                    0,
                )
            });
        Ok(Some((
            key,
            RoundGame {
                table: None,
                board: None,
                white: white.name.clone(),
                black: black.name.clone(),
                white_rank: Some(white.start_rank),
                black_rank: Some(black.start_rank),
                blind: Some(match (other.is_some(), colour) {
                    (true, _) => BlindSeat::Both,
                    (false, Color::White) => BlindSeat::White,
                    (false, Color::Black) => BlindSeat::Black,
                }),
                control: control.clone(),
                start_position: None,
            },
        )))
    }

    /// The imported TRF file with the result of every game finished at a
    /// tactus table written into its round's column, for both players, and
    /// their points (columns 81–84) brought up to date by the file's point
    /// system; every other byte as imported. A game decided before a move
    /// is `W`/`D`/`L`; `+`/`-` only where the arbiter recorded a forfeit.
    pub async fn trf_with_results(&self) -> Result<Vec<u8>, RoundError> {
        let games = self.games(None).await?;
        let key = public_reads::fingerprint(self.trf_generation(), &games);
        let mut reads = self.public.at(key).await;
        Ok(self
            .trf_with_results_in(&games, &mut reads.1)
            .await?
            .as_ref()
            .clone())
    }

    /// [`Self::trf_with_results`] for `games`, from `reads` if computed
    /// there, else computed on the blocking pool and kept there.
    pub(super) async fn trf_with_results_in(
        &self,
        games: &[(GameListed, String)],
        reads: &mut public_reads::Computed,
    ) -> Result<Arc<Vec<u8>>, RoundError> {
        if let Some(t) = &reads.trf {
            return Ok(t.clone());
        }
        let text = self.imported_trf().ok_or(RoundError::NoTrf)?;
        let listed: Vec<GameListed> = games.iter().map(|(g, _)| g.clone()).collect();
        let players = self.players.clone();
        let out =
            crate::service::blocking::run(move || with_results(&text, &listed, &players)).await??;
        let out = Arc::new(out);
        reads.trf = Some(out.clone());
        Ok(out)
    }
}

/// The file `text` with the results of `games` written in (see
/// [`Competition::trf_with_results`]).
fn with_results(
    text: &[u8],
    games: &[GameListed],
    players: &[PlayerConfig],
) -> Result<Vec<u8>, RoundError> {
    let mut trf = Trf::from_bytes(text).map_err(|e| RoundError::Invalid(format!("TRF: {e}")))?;
    // The round's latest finished game per pair (a replayed game counts,
    // not the one it replaced): games are listed in order.
    let mut written: BTreeMap<(u16, u16), (ResultChar, ResultChar)> = BTreeMap::new();
    for g in games {
        if g.state != GameState::Finished {
            continue;
        }
        let Some(r) = g.round.number() else {
            continue;
        };
        let Some(score) = g.result else {
            continue;
        };
        let ranks = ranks_of_game(players, &trf, g, r);
        let (Some(white), Some(black)) = (ranks.white, ranks.black) else {
            continue;
        };
        let how = match g.forfeit {
            Some(absent) => Played::Forfeit { absent },
            None if g.plies == 0 => Played::NoMove,
            None => Played::OverTheBoard,
        };
        let chars = result_chars(score, Color::White, how);
        written.insert((r, white), chars);
        written.insert((r, black), (chars.1, chars.0));
    }
    for ((r, rank), (mine, _)) in written {
        // Only where the file pairs them so.
        if matches!(
            trf.player(rank).map(|p| p.round(r)),
            Some(RoundEntry::Game { .. })
        ) {
            trf = trf
                .with_result(r, rank, mine)
                .map_err(|e| RoundError::Invalid(format!("TRF: {e}")))?;
        }
    }
    // A team event's `310`s: match points, game points and rank follow
    // the results, as a team engine checks them.
    let trf = trf
        .with_team_totals()
        .map_err(|e| RoundError::Invalid(format!("TRF: {e}")))?;
    Ok(trf.to_bytes())
}
/// The start ranks of a game's players: as its pairing gave them, or (a
/// round set up by JSON without ranks) the listed player's and the
/// opponent the TRF pairs them with in that round.
fn ranks_of_game(players: &[PlayerConfig], trf: &Trf, g: &GameListed, r: u16) -> Ranks {
    if g.ranks.white.is_some() && g.ranks.black.is_some() {
        return g.ranks;
    }
    for p in players {
        let side = if p.name.trim() == g.white {
            Color::White
        } else if p.name.trim() == g.black {
            Color::Black
        } else {
            continue;
        };
        if let Some(RoundEntry::Game {
            opponent,
            colour: Some(c),
            ..
        }) = trf.player(p.start_rank).map(|me| me.round(r))
            && c == side
        {
            return match side {
                Color::White => Ranks {
                    white: Some(p.start_rank),
                    black: Some(opponent),
                },
                Color::Black => Ranks {
                    white: Some(opponent),
                    black: Some(p.start_rank),
                },
            };
        }
    }
    g.ranks
}

/// How a game with a result came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Played {
    /// At least one move.
    OverTheBoard,
    /// Decided before a move (a resignation, a flag, an agreement).
    NoMove,
    /// Not played: `absent` did not come (the arbiter said so).
    Forfeit { absent: Color },
}

/// The TRF result letters of a score for the player of `colour` and their
/// opponent: `1`/`0`/`=` for a game played, `W`/`D`/`L` for one decided
/// before a move (TRF-16 and TRF-26 alike), `+`/`-` for a forfeit the
/// arbiter recorded.
pub(super) fn result_chars(
    score: KnownOutcome,
    colour: Color,
    how: Played,
) -> (ResultChar, ResultChar) {
    use ResultChar::*;
    let winner = score.winner();
    let mine = |won: bool| match (how, won) {
        (Played::OverTheBoard, true) => Win,
        (Played::OverTheBoard, false) => Loss,
        (Played::NoMove, true) => UnratedWin,
        (Played::NoMove, false) => UnratedLoss,
        (Played::Forfeit { .. }, true) => ForfeitWin,
        (Played::Forfeit { .. }, false) => ForfeitLoss,
    };
    match winner {
        None if how == Played::NoMove => (UnratedDraw, UnratedDraw),
        None => (Draw, Draw),
        Some(w) => (mine(w == colour), mine(w != colour)),
    }
}

/// A game with its place in the round's order: its board key (the match's
/// in a team event) and its board in the match.
type Placed = ((BoardKey, u16), RoundGame);

/// Player `rank`'s score before round `r`, in the file's point system.
fn score_before(trf: &Trf, r: u16, rank: u16) -> u32 {
    let ps = trf.point_system();
    trf.player(rank).map_or(0, |p| {
        p.rounds
            .iter()
            .take(usize::from(r - 1))
            .filter_map(|e| match *e {
                RoundEntry::Game { result, .. } | RoundEntry::Bye { result } => result,
                RoundEntry::NotPaired => None,
            })
            .map(|res| ps.of(res))
            .sum()
    })
}

/// Why a listed player has no game in round `r`, in English and as the
/// pages' message with its arguments (one of `UNPAIRED_KEYS`); `None` for
/// a game with a colour.
fn unpaired_why(
    entry: RoundEntry,
    r: u16,
) -> Option<(String, &'static str, BTreeMap<String, String>)> {
    let round = || ("round".to_owned(), r.to_string());
    match entry {
        RoundEntry::NotPaired => Some((
            format!("not paired in round {r}"),
            "not-paired",
            BTreeMap::from([round()]),
        )),
        RoundEntry::Bye { result } => Some(match result {
            Some(c) => (
                format!("bye ({c})"),
                "bye-letter",
                BTreeMap::from([("letter".to_owned(), c.to_string())]),
            ),
            None => ("bye".into(), "bye", BTreeMap::new()),
        }),
        RoundEntry::Game { colour: None, .. } => Some((
            format!("paired without a colour in round {r}: a game not played"),
            "no-colour",
            BTreeMap::from([round()]),
        )),
        RoundEntry::Game { .. } => None,
    }
}

/// The round's games in board order, numbered from 1.
fn in_board_order(mut games: Vec<Placed>) -> Vec<RoundGame> {
    games.sort_by_key(|(key, _)| *key);
    games
        .into_iter()
        .enumerate()
        .map(|(i, (_, mut g))| {
            g.board = Some(i as u32 + 1);
            g
        })
        .collect()
}
