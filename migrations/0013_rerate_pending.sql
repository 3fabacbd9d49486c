-- A correction's re-rating, carried out a step at a time (docs/ratings.md#corrections,
-- docs/performance.md#re-rating-a-correction): one row per ruleset whose ratings are being
-- computed again. The correction itself writes it, in its own transaction; each step
-- rates the record's next results from `from_seq` on and moves it forward, the last step
-- removes it. So a correction deep in the record never holds the server's writes for more
-- than a step, and a re-rating cut by a crash resumes where it stopped.
--
-- Portable SQL, like 0001. `also_json`: the persons (a JSON array of ids) whose ratings
-- are computed again although they may have no result from `from_seq` on (the players a
-- correction took out of a result). Read and written by crates/server/src/store/rated.rs.
CREATE TABLE rerate_pending (
    ruleset   TEXT   NOT NULL PRIMARY KEY,
    from_seq  BIGINT NOT NULL,
    also_json TEXT   NOT NULL
);
