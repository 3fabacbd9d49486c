-- Ratings (docs/rules.md#6-ratings, docs/ratings.md): Glicko-2 per ruleset, derived from
-- the record of rated results.
--
-- Portable SQL, like 0001. `rated_results` is the record: one row per rated game (keyed
-- by the game's id) or board-table sheet (keyed by the sheet's id), numbered in the order
-- the results were rated (`seq`, one count for every ruleset). A correction changes its
-- row in place (same key, same place) and everything of its ruleset from that place on
-- is rated again; `score` NULL is a result that no longer counts (annulled by a
-- correction). `rating_history` is what each counted result did to each of its two
-- players (the values it was rated from, and the rating after it); `ratings` is each
-- player's rating after their last counted result. Both follow from the record alone:
-- `omweso admin rerate` recomputes them and must find the same values, bit for bit.
-- Ratings are DOUBLE PRECISION (IEEE doubles on both databases, so stored values come
-- back exactly).
CREATE TABLE rated_results (
    result_key TEXT   NOT NULL PRIMARY KEY,
    seq        BIGINT NOT NULL,
    ruleset    TEXT   NOT NULL,
    south      TEXT   NOT NULL,
    north      TEXT   NOT NULL,
    score      TEXT,
    at_ms      BIGINT NOT NULL
);

CREATE UNIQUE INDEX rated_results_seq ON rated_results (ruleset, seq);

CREATE TABLE rating_history (
    seq              BIGINT           NOT NULL,
    person           TEXT             NOT NULL,
    ruleset          TEXT             NOT NULL,
    result_key       TEXT             NOT NULL,
    at_ms            BIGINT           NOT NULL,
    rating           DOUBLE PRECISION NOT NULL,
    deviation        DOUBLE PRECISION NOT NULL,
    volatility       DOUBLE PRECISION NOT NULL,
    games            BIGINT           NOT NULL,
    before_rating    DOUBLE PRECISION NOT NULL,
    before_deviation DOUBLE PRECISION NOT NULL,
    before_volatility DOUBLE PRECISION NOT NULL,
    -- The player's last game after this one: the latest at_ms of their counted results so
    -- far (a result rated late may be older than one before it), so that a correction
    -- rebuilds the state before its place from this row alone.
    last_played_ms   BIGINT           NOT NULL,
    PRIMARY KEY (seq, person)
);

-- A player's history (the chart) and their rating before a place in the record.
CREATE INDEX rating_history_person ON rating_history (person, ruleset, seq);
-- A ruleset's history from a corrected place on.
CREATE INDEX rating_history_ruleset ON rating_history (ruleset, seq);
-- A game's rating changes (its page).
CREATE INDEX rating_history_key ON rating_history (result_key);

CREATE TABLE ratings (
    person         TEXT             NOT NULL,
    ruleset        TEXT             NOT NULL,
    rating         DOUBLE PRECISION NOT NULL,
    deviation      DOUBLE PRECISION NOT NULL,
    volatility     DOUBLE PRECISION NOT NULL,
    games          BIGINT           NOT NULL,
    last_played_ms BIGINT           NOT NULL,
    PRIMARY KEY (person, ruleset)
);

-- The leaderboards.
CREATE INDEX ratings_board ON ratings (ruleset, rating);

-- One row: the count of results ever numbered. Rating takes it (an UPDATE, which on
-- PostgreSQL locks the row to the transaction's end), so that two transactions that rate
-- at once run one after the other and neither rates from values the other is changing
-- (no lost update); SQLite has one writer at a time anyway.
CREATE TABLE rating_record (
    id      BIGINT NOT NULL PRIMARY KEY,
    results BIGINT NOT NULL
);

INSERT INTO rating_record (id, results) VALUES (1, 0);
