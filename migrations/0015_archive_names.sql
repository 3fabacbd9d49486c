-- The archive searched by name (docs/protocol.md#the-archive-addition): a person by the
-- name the sheets show (a guest's too), a tournament by its name. Letters are compared
-- without case: `lower(name)`, which SQLite folds for A to Z only and PostgreSQL for every
-- letter, on both sides of the comparison (crates/server/src/store/archive_sql.rs,
-- PERSONS_NAMED and TOURNAMENTS_NAMED), so that each database finds what it indexed.
-- Portable SQL: both databases index an expression.
CREATE INDEX persons_name ON persons (lower(name));
CREATE INDEX tournaments_name ON tournaments (lower(name));
