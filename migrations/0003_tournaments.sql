-- Tournaments, and each tournament's append-only log.
--
-- Portable SQL, like 0001: it runs unchanged on SQLite and PostgreSQL, UUIDs and JSON are
-- TEXT (UUIDs in lowercase hyphenated form), times are BIGINT milliseconds since the Unix
-- epoch. As for games, the log is the record (what happened, in order) and the row holds
-- only what listing tournaments and bringing them back after a restart need without
-- reading every log. Listed in crates/server/src/store/migrations.rs like every migration.

-- One row per tournament. `status` is 'open' (taking players), 'running' or 'finished';
-- `players` and `round` are kept up to date with the log so that a list of tournaments
-- needs no log. The director is a player id, without a foreign key to sessions for the
-- same reason as a game's players (sessions can be pruned, the tournament stays on record).
CREATE TABLE tournaments (
    id            TEXT   NOT NULL PRIMARY KEY,
    name          TEXT   NOT NULL,
    ruleset       TEXT   NOT NULL,
    system        TEXT   NOT NULL,
    director      TEXT   NOT NULL,
    status        TEXT   NOT NULL,
    players       BIGINT NOT NULL,
    round         BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL
);

-- Listing tournaments by status, newest or oldest first (the lobby, and the unfinished
-- ones to bring back after a restart, which are few: no partial index is needed).
CREATE INDEX tournaments_status_created ON tournaments (status, created_at_ms);

-- Each tournament's log: every registration, withdrawal, pairing, result... in order.
-- The primary key refuses a second row with the same (tournament_id, seq), which is what
-- keeps two writers from both appending "the next" entry.
CREATE TABLE tournament_log (
    tournament_id TEXT   NOT NULL REFERENCES tournaments (id),
    seq           BIGINT NOT NULL,
    at_ms         BIGINT NOT NULL,
    kind          TEXT   NOT NULL,
    payload_json  TEXT   NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);
