-- Several server nodes on one database (docs/scaling.md#leases-and-fencing): the nodes
-- that are up, and which node owns each game and each tournament.
--
-- Portable SQL, like 0001. Ids are TEXT (lowercase hyphenated UUIDs, as `games.id`),
-- times BIGINT milliseconds since the Unix epoch. Read and written by
-- crates/server/src/store/db/leases.rs.

-- One row per node process: `node_id` is a fresh UUID at every start, `name` the
-- operator's name for the node (for the logs and for "held by" answers). A node renews
-- `expires_at_ms` (its heartbeat) while it runs; once that has passed, the node counts as
-- gone and its leases may be taken over. A node that stops cleanly sets it to 0 at once.
CREATE TABLE cluster_nodes (
    node_id       TEXT   NOT NULL PRIMARY KEY,
    name          TEXT   NOT NULL,
    started_at_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL
);

-- Which node owns a game (`kind` 'game') or a tournament ('tournament'), and since which
-- epoch. The epoch grows by one at every takeover, so that a node's writes can name the
-- lease they were made under and be refused once it is no longer the current one (a
-- transaction's fence is checked against this row). No foreign key to `cluster_nodes`: a
-- lease may outlive its node's row (a holder with no row counts as gone), and none to
-- `games` or `tournaments`, since `id` names either by `kind` (and a game is owned before
-- its row is written).
CREATE TABLE leases (
    kind           TEXT   NOT NULL,
    id             TEXT   NOT NULL,
    node_id        TEXT   NOT NULL,
    epoch          BIGINT NOT NULL,
    acquired_at_ms BIGINT NOT NULL,
    PRIMARY KEY (kind, id)
);

-- A node's leases (what it owns, what a takeover of a gone node has to take).
CREATE INDEX leases_node ON leases (node_id);
