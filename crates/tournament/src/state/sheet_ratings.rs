//! What a rated tournament's sheets give the ratings (docs/ratings.md#rated-tournaments):
//! each sheet between two players its seeding found accounts is a rated result keyed by
//! its game's id (a board table's sheet id), in game seats (South moved first). A
//! forfeit, an annulment, a game decided before both players moved, or one given up
//! before each made a few turns (`ratings::too_short`) counts for nothing.
//! The tournament's task compares a sheet's count before and after each entry and writes
//! the change with the entry (a new result, a correction of it, or its withdrawal).

use uuid::Uuid;

use crate::log::Entry;
use crate::sheet::Verdict;
use omweso_ratings::too_short::too_short_to_rate_in_all;
use omweso_ratings::Score;

use super::*;

/// A rated tournament's sheet as the ratings read it: `score` `None` counts for nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetRating {
    /// The game's id, or a board table's sheet id.
    pub key: Uuid,
    /// Who moved first.
    pub south: Uuid,
    pub north: Uuid,
    pub score: Option<Score>,
    /// When the game ended (or the board's sheet was made): its place in the ratings'
    /// order, kept by a correction.
    pub at_ms: u64,
}

impl Tournament {
    /// The sheet `entry` may make or change: its key.
    #[must_use]
    pub fn sheet_key(&self, entry: &Entry) -> Option<Uuid> {
        if !self.settings.rated {
            return None;
        }
        match entry {
            Entry::GameEnd { game_id, .. } | Entry::Sheet { game_id, .. } => Some(*game_id),
            Entry::BoardSheet { round, table, .. } => {
                let (r, t) = self.table_at(*round, *table).ok()?;
                Some(self.rounds[r].tables[t].game.as_ref()?.game_id)
            }
            _ => None,
        }
    }

    /// The rated result of the sheet keyed `key` as it stands, or `None`: no such sheet
    /// yet, a casual tournament, or a player without an account.
    #[must_use]
    pub fn sheet_rating(&self, key: Uuid) -> Option<SheetRating> {
        if !self.settings.rated {
            return None;
        }
        let &(r, t) = self.games.get(&key)?;
        let table = &self.rounds[r].tables[t];
        let game = table.game.as_ref().filter(|g| g.game_id == key)?;
        let sheet = game.sheet.as_ref()?;
        let players = table.players()?;
        if players
            .iter()
            .any(|&p| self.players[p].seed_rating.is_none())
        {
            return None;
        }
        let south = players[game.moved_first];
        let north = players[1 - game.moved_first];
        let score = match sheet.verdict() {
            _ if sheet.unplayed => None,
            Verdict::Win { forfeit: true, .. } | Verdict::Annulled { .. } => None,
            // Given up after a few turns: too short to rate (a board's sheet does not
            // count its turns; both players initialled it).
            Verdict::Win { victory, .. }
                if !sheet.over_the_board
                    && too_short_to_rate_in_all(victory, sheet.figures.turns) =>
            {
                None
            }
            Verdict::Win { winner, .. } if winner == game.moved_first => Some(Score::SouthWon),
            Verdict::Win { .. } => Some(Score::NorthWon),
            Verdict::Draw { .. } => Some(Score::Draw),
        };
        Some(SheetRating {
            key,
            south: self.players[south].id,
            north: self.players[north].id,
            score,
            at_ms: sheet.ended_at_ms,
        })
    }

    /// What `entry`, about to be applied, changes of a rated result: the key and its count
    /// before, to compare with [`Tournament::rating_change`] once applied.
    #[must_use]
    pub fn rating_before(&self, entry: &Entry) -> Option<(Uuid, Option<Score>)> {
        let key = self.sheet_key(entry)?;
        Some((key, self.sheet_rating(key).and_then(|r| r.score)))
    }

    /// The rated result to write after an entry, given [`Tournament::rating_before`]: a
    /// sheet whose count changed (a new result, a correction, a result that no longer
    /// counts, written with `score` `None`); `None` when nothing changed for the ratings.
    #[must_use]
    pub fn rating_change(&self, before: Option<(Uuid, Option<Score>)>) -> Option<SheetRating> {
        let (key, was) = before?;
        let now = self.sheet_rating(key)?;
        (now.score != was).then_some(now)
    }
}
