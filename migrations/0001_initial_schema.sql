-- The server's schema: sessions, games, and each game's append-only action log.
--
-- Portable SQL: this one file runs unchanged on SQLite and PostgreSQL. UUIDs and JSON are
-- TEXT (UUIDs in lowercase hyphenated form), times are BIGINT milliseconds since the Unix
-- epoch. Applied by `omweso::store::Store::open`, which embeds every file of this folder;
-- a new migration must also be listed in crates/server/src/store/migrations.rs (a test
-- there fails when the two disagree). Never edit a migration once it has been released:
-- the checksum of every applied migration is verified at start-up.

-- One row per player session; the token itself is never stored, only its SHA-256 (hex).
CREATE TABLE sessions (
    player_id     TEXT   NOT NULL PRIMARY KEY,
    token_hash    TEXT   NOT NULL,
    name          TEXT   NOT NULL,
    created_at_ms BIGINT NOT NULL
);

CREATE UNIQUE INDEX sessions_token_hash ON sessions (token_hash);

-- One row per game. The players (south, north, creator) are player ids; they deliberately
-- carry no foreign key to sessions, so that sessions can be pruned while the games played
-- under them stay on record.
CREATE TABLE games (
    id            TEXT   NOT NULL PRIMARY KEY,
    ruleset       TEXT   NOT NULL,
    setup         TEXT   NOT NULL,
    config_json   TEXT   NOT NULL,
    south         TEXT,
    north         TEXT,
    creator       TEXT   NOT NULL,
    status        TEXT   NOT NULL,
    outcome_json  TEXT,
    created_at_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL
);

-- Listing games by status, newest or oldest first (lobby, live tables, recent results).
CREATE INDEX games_status_created ON games (status, created_at_ms);

-- The games to bring back after a restart. A partial index: it holds only the unfinished
-- games, so it stays small however many finished games accumulate. The WHERE clause must
-- match the one in the query (crates/server/src/store/sql.rs) for the planners to use it.
CREATE INDEX games_unfinished ON games (created_at_ms, id) WHERE status NOT IN ('finished', 'annulled');

-- Each game's log: every move, decision, arrangement, steal, resignation, end... in order.
-- The primary key refuses a second row with the same (game_id, seq).
CREATE TABLE actions (
    game_id      TEXT   NOT NULL REFERENCES games (id),
    seq          BIGINT NOT NULL,
    at_ms        BIGINT NOT NULL,
    side         TEXT,
    kind         TEXT   NOT NULL,
    payload_json TEXT   NOT NULL,
    PRIMARY KEY (game_id, seq)
);
