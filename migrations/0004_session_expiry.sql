-- Sessions that expire when unused and can be revoked (docs/security.md, sessions).
--
-- Portable SQL, like 0001. `last_seen_ms` is when the session was last used, kept to
-- within a few minutes (it is written when the one stored is older than that, not on
-- every request); NULL only for sessions made before this migration, which the server
-- counts as seen when it first starts with it. `used` is 1 once the session created,
-- joined or played something (a game, a tournament): a session never used expires after
-- a short idle time, a used one after a long one. Sessions from before this migration
-- may have played: they count as used. A signed-out session's row is deleted.
ALTER TABLE sessions ADD COLUMN last_seen_ms BIGINT;
ALTER TABLE sessions ADD COLUMN used BIGINT NOT NULL DEFAULT 1;

-- The expiry sweep deletes by last use.
CREATE INDEX sessions_last_seen ON sessions (last_seen_ms);
