-- Devices that logged in to an account (docs/security.md#accounts): a device that did is
-- given a random key in a cookie, stored here only as its SHA-256. Wrong passwords tried
-- from elsewhere do not hold such a device back from logging in (each key has its own
-- bound). A year each; a person's newest 20 kept.
--
-- Portable SQL, like 0001.
CREATE TABLE known_devices (
    key_hash      TEXT   NOT NULL PRIMARY KEY,
    person_id     TEXT   NOT NULL,
    created_at_ms BIGINT NOT NULL
);

CREATE INDEX known_devices_person ON known_devices (person_id);
