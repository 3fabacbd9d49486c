-- Rated results between the same two players counted at most three a day
-- (docs/ratings.md#what-is-rated): a result past that enters the record as not counting,
-- `uncounted` saying why ('repeated'; NULL: it counts as its score says). The index finds a
-- pair's results of the last day, whichever seat each had.
--
-- Portable SQL, like 0001. Read and written by crates/server/src/store/rated.rs.
ALTER TABLE rated_results ADD COLUMN uncounted TEXT;

CREATE INDEX rated_results_pair ON rated_results (south, north, at_ms);
