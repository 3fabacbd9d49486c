-- A device a tournament's director links for one of its players (a player who lost their
-- phone, docs/accounts.md) is that player in that tournament only (docs/security.md#accounts):
-- `tournament_id` names it, NULL for every other device. The director's link code carries
-- it to the device it makes.
--
-- Portable SQL, like 0001.
ALTER TABLE link_codes ADD COLUMN tournament_id TEXT;
ALTER TABLE devices ADD COLUMN tournament_id TEXT;
