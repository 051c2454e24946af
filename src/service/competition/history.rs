//! The history: every game of every round, read from the journal off the
//! async workers (`read`, on the blocking pool) and kept once read; each
//! table's games' first entries, kept until a new game is set up there.

use shakmaty::KnownOutcome;

use super::*;

/// A finished (or void) game of an earlier round, read once.
#[derive(Debug, Clone)]
pub(super) struct Past {
    pub(super) setup: Setup,
    pub(super) plies: usize,
    pub(super) begun: bool,
    pub(super) result: Option<KnownOutcome>,
    pub(super) pgn: String,
}
/// A table's games' first entries, read while its current game was the
/// number given.
pub(super) type Starts = (u32, Arc<Vec<Record>>);

impl Competition {
    /// The games of every table (of round `only`, if given), with their
    /// PGN when a round is asked for. Void games (never begun, replaced by
    /// a later one) and tables with no one paired yet are left out.
    pub(super) async fn games(
        &self,
        only: Option<&Round>,
    ) -> Result<Vec<(GameListed, String)>, RoundError> {
        let mut out = Vec::new();
        for (id, handle) in self.tables.iter() {
            let view = handle.view().await?;
            let starts = self.starts(id, view.game).await?;
            for start in starts.iter() {
                let Some(setup) = setup_in(start) else {
                    continue;
                };
                if start.game == view.game {
                    // A table nobody has been paired at yet (no names, no
                    // move) has no game to show.
                    let unnamed = view.white.is_empty() && view.black.is_empty();
                    if only.is_some_and(|r| *r != view.round) || (unnamed && !view.begun) {
                        continue;
                    }
                    let pgn = match only {
                        Some(_) => handle.pgn().await?,
                        None => String::new(),
                    };
                    out.push((listed_of_view(&view), pgn));
                } else if start.game < view.game {
                    if only.is_some_and(|r| *r != setup.round) {
                        continue;
                    }
                    let past = self.past(id, start.game).await?;
                    if !past.begun {
                        continue;
                    }
                    let state = if past.result.is_some() {
                        GameState::Finished
                    } else {
                        GameState::UnderWay
                    };
                    out.push((
                        listed_of(&past.setup, start.game, state, past.result, past.plies),
                        past.pgn.clone(),
                    ));
                }
            }
        }
        for (g, _) in &mut out {
            g.forfeit = self.forfeit_of(&g.table, g.game);
        }
        Ok(out)
    }

    /// Runs `read` on the journal's reader connection, off the async
    /// workers.
    pub(super) async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Journal) -> Result<T, RoundError> + Send + 'static,
    ) -> Result<T, RoundError> {
        let reader = Arc::clone(&self.reader);
        crate::service::blocking::run(move || {
            read(&reader.lock().unwrap_or_else(|e| e.into_inner()))
        })
        .await?
    }

    /// The first entry of each of table `id`'s games, while its current
    /// game is `current`: read from the journal once per game set up.
    pub(super) async fn starts(
        &self,
        id: &TableId,
        current: u32,
    ) -> Result<Arc<Vec<Record>>, RoundError> {
        if let Some((game, starts)) = self
            .starts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            && *game == current
        {
            return Ok(Arc::clone(starts));
        }
        let table = id.clone();
        let starts = Arc::new(
            self.read(move |reader| Ok(reader.game_starts(&table)?))
                .await?,
        );
        self.starts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone(), (current, Arc::clone(&starts)));
        Ok(starts)
    }

    /// An earlier game of table `id`, replayed from the journal once.
    pub(super) async fn past(&self, id: &TableId, game: u32) -> Result<Arc<Past>, RoundError> {
        let key = (id.clone(), game);
        if let Some(p) = self
            .past
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(Arc::clone(p));
        }
        let table = id.clone();
        let past = self
            .read(move |reader| {
                let records = reader.game_events(&table, game)?;
                let r = replay(&table, &records, Style::default())
                    .map_err(|e| RoundError::Invalid(e.to_string()))?;
                Ok(Arc::new(Past {
                    plies: r.game.plies().len(),
                    begun: begun(&r.game),
                    result: r.game.result().map(|res| res.outcome),
                    pgn: crate::table::pgn::game_pgn(&r.setup, &r.game),
                    setup: r.setup,
                }))
            })
            .await?;
        self.past
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, Arc::clone(&past));
        Ok(past)
    }
}

/// A table's current game as its state shows it.
pub(super) fn listed_of_view(view: &TableView) -> GameListed {
    GameListed {
        table: view.id.clone(),
        game: view.game,
        round: view.round.clone(),
        white: view.white.clone(),
        black: view.black.clone(),
        blind: view.blind,
        state: match (&view.result, view.begun) {
            (Some(_), _) => GameState::Finished,
            (None, true) => GameState::UnderWay,
            (None, false) => GameState::NotBegun,
        },
        result: view.result.as_ref().map(|r| r.outcome),
        plies: u32::try_from(view.moves.len()).unwrap_or(u32::MAX),
        ranks: view.ranks,
        forfeit: None,
    }
}

/// A game of the journal as the rounds list it.
pub(super) fn listed_of(
    setup: &Setup,
    game: u32,
    state: GameState,
    result: Option<KnownOutcome>,
    plies: usize,
) -> GameListed {
    GameListed {
        plies: u32::try_from(plies).unwrap_or(u32::MAX),
        table: setup.id.clone(),
        game,
        round: setup.round.clone(),
        white: setup.white.clone(),
        black: setup.black.clone(),
        blind: setup.blind,
        state,
        result,
        ranks: setup.ranks,
        forfeit: None,
    }
}
