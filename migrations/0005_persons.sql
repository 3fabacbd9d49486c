-- Persons and their devices (docs/accounts.md): one person, many devices.
--
-- Portable SQL, like 0001. Until now a session was a person: one token, one player id.
-- Now a person (`persons`, whose id is the player id every game, seat, tournament entry
-- and sheet already names) may hold any number of devices (`devices`, one token each,
-- stored only as its SHA-256). A person is a guest (no username) or an account (a
-- username and an argon2 password hash). `username_key` is the username folded for
-- uniqueness (lower case and confusable skeleton, docs/security.md#accounts): unique, so
-- that two accounts cannot be told apart by a reader; NULL for guests (a unique index
-- allows many NULLs on both databases). `used` is 1 once the person created, joined or
-- played something; a guest person never used is deleted with its last device.
CREATE TABLE persons (
    id             TEXT   NOT NULL PRIMARY KEY,
    name           TEXT   NOT NULL,
    username       TEXT,
    username_key   TEXT,
    password_hash  TEXT,
    created_at_ms  BIGINT NOT NULL,
    used           BIGINT NOT NULL DEFAULT 0,
    disabled_at_ms BIGINT
);

CREATE UNIQUE INDEX persons_username_key ON persons (username_key);

-- One row per signed-in device. `id` is the device's own (kept when its token is rotated);
-- `label` says what it is ("Chrome on Android"), from its User-Agent when it signed in.
CREATE TABLE devices (
    id            TEXT   NOT NULL PRIMARY KEY,
    token_hash    TEXT   NOT NULL,
    person_id     TEXT   NOT NULL REFERENCES persons (id),
    label         TEXT   NOT NULL,
    created_at_ms BIGINT NOT NULL,
    last_seen_ms  BIGINT NOT NULL,
    used          BIGINT NOT NULL
);

CREATE UNIQUE INDEX devices_token_hash ON devices (token_hash);
CREATE INDEX devices_person ON devices (person_id);
CREATE INDEX devices_last_seen ON devices (last_seen_ms);

-- One-time codes that make another device the same person (a device's own, or one the
-- director of a tournament gives a player who lost theirs). Stored hashed; deleted when
-- used or expired.
CREATE TABLE link_codes (
    code_hash     TEXT   NOT NULL PRIMARY KEY,
    person_id     TEXT   NOT NULL REFERENCES persons (id),
    made_by       TEXT   NOT NULL,
    expires_at_ms BIGINT NOT NULL
);

-- An account's recovery codes, hashed; each works once.
CREATE TABLE recovery_codes (
    person_id TEXT NOT NULL REFERENCES persons (id),
    code_hash TEXT NOT NULL,
    PRIMARY KEY (person_id, code_hash)
);

-- Every session so far becomes a guest person with one device (the device's id is the
-- player id: both were one thing). A session with no last use (made before migration 4,
-- on a server that never started with it) gets -1: the server counts it as seen when it
-- first starts with this (its sweep), as migration 4 promised, instead of expiring it.
INSERT INTO persons (id, name, created_at_ms, used)
    SELECT player_id, name, created_at_ms, used FROM sessions;
INSERT INTO devices (id, token_hash, person_id, label, created_at_ms, last_seen_ms, used)
    SELECT player_id, token_hash, player_id, 'A device', created_at_ms,
           COALESCE(last_seen_ms, -1), used
    FROM sessions;
DROP TABLE sessions;

-- A person's games (the player page, "your games"), newest first.
CREATE INDEX games_south ON games (south, created_at_ms);
CREATE INDEX games_north ON games (north, created_at_ms);

-- Who is in which tournament (its director, co-directors and players), for a person's
-- page; the tournament's log stays the record. Written with the log entry that adds the
-- person; the tournaments of earlier logs are filled in by the server when it first
-- starts with this migration (crates/server/src/store/people.rs).
CREATE TABLE tournament_people (
    person_id     TEXT   NOT NULL,
    tournament_id TEXT   NOT NULL,
    role          TEXT   NOT NULL,
    at_ms         BIGINT NOT NULL,
    PRIMARY KEY (person_id, tournament_id)
);
