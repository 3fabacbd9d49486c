-- The archive of finished games (docs/protocol.md#the-archive-addition): what a search
-- filters on, as columns of `games`, and the indexes that make every search a range scan
-- of one index, newest first (docs/performance.md#the-archive).
--
-- Portable SQL, like 0001. The columns are set by the server with the game's row
-- (crates/server/src/game/actor/persist.rs): `rated` (0 or 1) and `tournament_id` from
-- the game's configuration; once the game is over, `result` (`south`, `north`, `draw` or
-- `annulled`), `victory` (how it was won, or why it was annulled), `finished_at_ms` (when
-- it ended) and `move_count` (whole moves played). `finished_at_ms` is NULL exactly while
-- the game is not over: every archive index holds only finished games. Games that ended
-- before this migration are filled in by the server when it first starts with it (from
-- their configuration and outcome, which are JSON: crates/server/src/store/db/archive.rs),
-- since extracting JSON is not portable SQL.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN tournament_id TEXT;
ALTER TABLE games ADD COLUMN result TEXT;
ALTER TABLE games ADD COLUMN victory TEXT;
ALTER TABLE games ADD COLUMN finished_at_ms BIGINT;
ALTER TABLE games ADD COLUMN move_count BIGINT;

-- Every index below orders by (finished_at_ms, id), the archive's order read backwards
-- (newest first, the id breaking ties), after the column a search fixes. The columns after
-- those are the other filters (ruleset, rated, result, the opponent's seat), so that a
-- search filtering on them reads only the index, never the table, to find its games.

-- Every finished game.
CREATE INDEX games_archive ON games (finished_at_ms, id, ruleset, rated, result)
    WHERE finished_at_ms IS NOT NULL;
-- One ruleset's.
CREATE INDEX games_archive_ruleset ON games (ruleset, finished_at_ms, id, rated, result)
    WHERE finished_at_ms IS NOT NULL;
-- A person's, as South and as North (a search by player reads both and merges them).
CREATE INDEX games_archive_south ON games (south, finished_at_ms, id, north, ruleset, rated, result)
    WHERE finished_at_ms IS NOT NULL;
CREATE INDEX games_archive_north ON games (north, finished_at_ms, id, south, ruleset, rated, result)
    WHERE finished_at_ms IS NOT NULL;
-- A tournament's (only games of tournaments are in it).
CREATE INDEX games_archive_tournament ON games (tournament_id, finished_at_ms, id)
    WHERE finished_at_ms IS NOT NULL AND tournament_id IS NOT NULL;

-- The finished games whose columns above are still to be filled in (those that ended
-- before this migration): empty once the server has filled them, so that looking for
-- them at each start costs nothing. Its WHERE clause is the query's
-- (crates/server/src/store/archive_sql.rs, UNFILLED).
CREATE INDEX games_archive_unfilled ON games (id)
    WHERE status IN ('finished', 'annulled') AND finished_at_ms IS NULL;
