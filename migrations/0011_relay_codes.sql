-- A relay invite's code, by which `/link` finds the board table it is for when a
-- volunteer types it (docs/tournaments.md). The tournament's log keeps the invite (only
-- its SHA-256) by its table, and decides whether it is still good; this only finds the
-- table. Written with the invite's log entry, deleted when the invite is claimed or once
-- expired.
--
-- Portable SQL, like 0001.
CREATE TABLE relay_codes (
    code_hash     TEXT   NOT NULL PRIMARY KEY,
    tournament_id TEXT   NOT NULL,
    round_no      BIGINT NOT NULL,
    table_no      BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL
);
