-- Password reset by e-mail (docs/accounts.md#e-mail), off unless the operator sets up SMTP.
--
-- Portable SQL, like 0001. An account may give one e-mail address (`email`, as typed,
-- trimmed); it is used only once verified (`email_verified_at_ms`: when the link mailed to
-- it was opened; NULL while not). Reset mail goes only to a verified address.
ALTER TABLE persons ADD COLUMN email TEXT;
ALTER TABLE persons ADD COLUMN email_verified_at_ms BIGINT;

-- One-time codes sent by mail, stored only as their SHA-256: `purpose` is 'verify' (the
-- link that verifies `email`) or 'reset' (the link that sets a new password; `email` is
-- the verified address it went to). A new address, or its removal, deletes the person's
-- codes; a code is deleted when used, and by the sweep once expired.
CREATE TABLE email_codes (
    code_hash     TEXT   NOT NULL PRIMARY KEY,
    person_id     TEXT   NOT NULL REFERENCES persons (id),
    purpose       TEXT   NOT NULL,
    email         TEXT   NOT NULL,
    expires_at_ms BIGINT NOT NULL
);

CREATE INDEX email_codes_person ON email_codes (person_id);
