//! Where each game of a round is played when the players move from board
//! to board: FIDE's board order of the round's pairings, and the venue's
//! tables (in the venue file's order, boards 1, 2, …) filled in that order
//! once the games of players who keep their own table (special equipment)
//! have theirs.

use std::collections::BTreeSet;

use crate::table::id::TableId;

/// A pairing's place in FIDE's board order: the higher score of the pair
/// first, then the higher sum of both scores, then the pair with the
/// better-ranked (lower start rank) player. Scores in tenths, before the
/// round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct BoardKey {
    higher: std::cmp::Reverse<u32>,
    sum: std::cmp::Reverse<u32>,
    best_rank: u16,
}

impl BoardKey {
    /// The key of a pairing of two players with these scores and ranks.
    pub fn of(a: (u32, u16), b: (u32, u16)) -> BoardKey {
        BoardKey {
            higher: std::cmp::Reverse(a.0.max(b.0)),
            sum: std::cmp::Reverse(a.0 + b.0),
            best_rank: a.1.min(b.1),
        }
    }
}

/// Where one game wants to be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Want {
    /// At this table, whatever its board number.
    Table(TableId),
    /// At the next free table, in this board order (lower first).
    Board(u32),
}

/// Too few tables for the round's games.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    #[error(
        "the round has {games} games to play at tactus tables and the venue has {free} \
         tables free for them: {missing} more table(s) needed"
    )]
    TooFewTables {
        games: usize,
        free: usize,
        missing: usize,
    },
    #[error("games[{index}]: table `{table}` has two games in this round")]
    TableTwice { index: usize, table: TableId },
}

/// Each game's table, in the games' order: games with a table of their own
/// keep it, the others fill the remaining `boards` (the venue's tables in
/// order) by their board order (ties by their place in the list).
pub fn place(wants: &[Want], boards: &[TableId]) -> Result<Vec<TableId>, PlaceError> {
    let mut taken = BTreeSet::new();
    for (index, w) in wants.iter().enumerate() {
        if let Want::Table(t) = w
            && !taken.insert(t.clone())
        {
            return Err(PlaceError::TableTwice {
                index,
                table: t.clone(),
            });
        }
    }
    let free: Vec<&TableId> = boards.iter().filter(|t| !taken.contains(*t)).collect();
    let mut floating: Vec<(u32, usize)> = wants
        .iter()
        .enumerate()
        .filter_map(|(i, w)| match w {
            Want::Board(b) => Some((*b, i)),
            Want::Table(_) => None,
        })
        .collect();
    if floating.len() > free.len() {
        return Err(PlaceError::TooFewTables {
            games: wants.len(),
            free: free.len(),
            missing: floating.len() - free.len(),
        });
    }
    floating.sort();
    let mut out: Vec<Option<TableId>> = wants
        .iter()
        .map(|w| match w {
            Want::Table(t) => Some(t.clone()),
            Want::Board(_) => None,
        })
        .collect();
    for ((_, i), table) in floating.into_iter().zip(free) {
        out[i] = Some(table.clone());
    }
    Ok(out.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(names: &[&str]) -> Vec<TableId> {
        names.iter().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn boards_are_ordered_as_fide_orders_them() {
        // 2.0 v 1.0, 1.5 v 1.5, 2.0 v 2.0, 1.5 v 1.5 with better ranks.
        let mut keys = [
            (BoardKey::of((20, 5), (10, 9)), "a"),
            (BoardKey::of((15, 4), (15, 8)), "b"),
            (BoardKey::of((20, 7), (20, 3)), "c"),
            (BoardKey::of((15, 2), (15, 6)), "d"),
        ];
        keys.sort();
        let order: Vec<&str> = keys.iter().map(|k| k.1).collect();
        assert_eq!(order, ["c", "a", "d", "b"]);
    }

    #[test]
    fn fixed_tables_are_kept_and_the_others_fill_the_rest_in_order() {
        let boards = ids(&["b1", "b2", "b3", "b4"]);
        let wants = [
            Want::Board(2),
            Want::Table("b1".parse().unwrap()),
            Want::Board(1),
        ];
        assert_eq!(place(&wants, &boards).unwrap(), ids(&["b3", "b1", "b2"]));
    }

    #[test]
    fn too_few_tables_says_how_many_are_missing() {
        let boards = ids(&["b1", "b2"]);
        let wants = [
            Want::Board(1),
            Want::Board(2),
            Want::Table("b2".parse().unwrap()),
        ];
        assert_eq!(
            place(&wants, &boards),
            Err(PlaceError::TooFewTables {
                games: 3,
                free: 1,
                missing: 1
            })
        );
        let twice = [
            Want::Table("b2".parse().unwrap()),
            Want::Table("b2".parse().unwrap()),
        ];
        assert!(matches!(
            place(&twice, &boards),
            Err(PlaceError::TableTwice { index: 1, .. })
        ));
    }
}
