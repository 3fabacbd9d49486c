-- A finished game's last snapshot (as GET /api/games/{id} shows it, seen by nobody in
-- particular), written with the game's end. Reads of a finished game answer from it
-- instead of replaying the game's log (docs/security.md: a game's log can be long, and
-- anyone may read any finished game). NULL for unfinished games and for games that ended
-- before this migration; those are still rebuilt from their log.
ALTER TABLE games ADD COLUMN final_json TEXT;
