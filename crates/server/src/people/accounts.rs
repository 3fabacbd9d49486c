//! Accounts and devices (docs/accounts.md): a guest becomes an account in place (the same
//! person, so every game, seat, tournament, director role and sheet stays theirs, and
//! nothing live is interrupted); an account logs in on any number of devices; a one-time
//! code makes another device the same person without a password; recovery codes, the
//! operator's commands and, where the operator set up mail, a mailed link (`email`) bring
//! back a forgotten password.
//!
//! The limits on tries (per account, per address) are the HTTP layer's: these functions
//! do what is asked once it is allowed.

use uuid::Uuid;

use super::codes::{
    new_link_code, new_recovery_codes, typed_code_hash, LINK_CODE_CHARACTERS, LINK_CODE_LIFE_MS,
    RECOVERY_CODE_CHARACTERS,
};
use super::names::{clean_username, username_key};
use super::password::PasswordError;
use super::{Session, Sessions};
use crate::store::{KnownDeviceRow, LinkCodeRow, PersonRow, SessionChange, StoreError, Write};

/// Why an account operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The username asked for breaks the rules; the text says how.
    #[error("{0}")]
    Username(String),
    #[error("this username is taken (or looks like one that is); choose another")]
    UsernameTaken,
    /// The password is refused; the text says why.
    #[error("{0}")]
    Password(String),
    #[error("you already have an account; log out first to make another")]
    AlreadyAccount,
    #[error("this is a guest, with no password; make an account first")]
    NotAccount,
    /// A wrong username or password: the same words for both, so that a refusal does not
    /// tell which usernames exist.
    #[error("wrong username or password")]
    BadCredentials,
    #[error("this account is disabled; ask the server's operator")]
    Disabled,
    #[error("this code is wrong, used already or expired; ask for a new one")]
    BadCode,
    /// The device was linked by a tournament's director for the player named here: it
    /// may not act for the person outside that tournament (make an account, say).
    #[error("this device was linked by a tournament's director: it is {0} in that tournament only; sign it out to do anything else here")]
    LimitedDevice(String),
    #[error(transparent)]
    Busy(#[from] PasswordError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A new account: its device session, the token, and its recovery codes (shown once).
#[derive(Debug)]
pub struct NewAccount {
    pub session: Session,
    pub token: String,
    pub recovery_codes: Vec<String>,
}

/// A link code as made: shown once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkCode {
    /// `ABCD-EF23`.
    pub code: String,
    pub expires_at_ms: i64,
}

impl Sessions {
    /// Makes an account of `username` and `password`. Made as a guest's session
    /// (`current`, its token), the guest becomes the account: same person, same device,
    /// a new token (the old one worthless; the device's open sockets stay). Made with no
    /// session, a new person. A guest named `Guest-xxxx` takes the username as its name.
    pub async fn sign_up(
        &self,
        current: Option<&str>,
        username: &str,
        password: &str,
        label: &str,
    ) -> Result<NewAccount, AccountError> {
        let username = clean_username(username).map_err(AccountError::Username)?;
        let key = username_key(&username);
        let guest = match current {
            Some(token) => self.find(token).await?,
            None => None,
        };
        if let Some(limited) = guest.as_ref().filter(|g| g.only_tournament.is_some()) {
            return Err(AccountError::LimitedDevice(limited.name.clone()));
        }
        if guest.as_ref().is_some_and(|g| g.username.is_some()) {
            return Err(AccountError::AlreadyAccount);
        }
        let name = guest
            .as_ref()
            .map_or(username.as_str(), |g| g.name.as_str());
        self.passwords
            .check(password, &[&username, name])
            .await?
            .map_err(AccountError::Password)?;
        if self.store.person_by_username_key(&key).await?.is_some() {
            return Err(AccountError::UsernameTaken);
        }
        let password_hash = self.passwords.hash(password).await?;
        let codes = new_recovery_codes();
        let make_account = |person_id| {
            Write::Session(SessionChange::MakeAccount {
                person_id,
                username: username.clone(),
                username_key: key.clone(),
                password_hash: password_hash.clone(),
                recovery_hashes: codes.iter().map(|(_, hash)| hash.clone()).collect(),
            })
        };
        let written = match (current, guest) {
            (Some(token), Some(guest)) => {
                let mut writes = vec![make_account(guest.player_id)];
                let renamed = guest.name.starts_with("Guest-");
                if renamed {
                    writes.push(Write::Session(SessionChange::Rename {
                        person_id: guest.player_id,
                        name: username.clone(),
                    }));
                }
                let now_known_as = |session: Session| Session {
                    username: Some(username.clone()),
                    name: if renamed {
                        username.clone()
                    } else {
                        session.name
                    },
                    ..session
                };
                match self.rotate(token, writes, now_known_as).await {
                    Ok(Some((session, token))) => {
                        if renamed {
                            self.renamed_in_cache(session.player_id, &session.name);
                        }
                        Ok((session, token))
                    }
                    // Signed out meanwhile: made as a new person below.
                    Ok(None) => Err(None),
                    Err(error) => Err(Some(error)),
                }
            }
            _ => Err(None),
        };
        let (session, token) = match written {
            Ok(done) => done,
            Err(Some(error)) => return Err(refused_sign_up(error)),
            Err(None) => {
                let person_id = Uuid::new_v4();
                let account = (username.clone(), make_account(person_id));
                self.new_person(person_id, username.clone(), label, Some(account))
                    .await
                    .map_err(refused_sign_up)?
            }
        };
        Ok(NewAccount {
            session,
            token,
            recovery_codes: codes.into_iter().map(|(code, _)| code).collect(),
        })
    }

    /// Logs in to the account `username` on a new device called `label`. The device's
    /// session so far (`current`), if any, is signed out: a guest's records stay the
    /// guest's.
    pub async fn log_in(
        &self,
        current: Option<&str>,
        username: &str,
        password: &str,
        label: &str,
    ) -> Result<(Session, String), AccountError> {
        let person = self.account(username).await?;
        let hash = person.as_ref().and_then(|p| p.password_hash.as_deref());
        if !self.passwords.verify(password, hash).await? {
            return Err(AccountError::BadCredentials);
        }
        let person = person.ok_or(AccountError::BadCredentials)?;
        if person.disabled_at_ms.is_some() {
            return Err(AccountError::Disabled);
        }
        let signed_in = self
            .add_device(as_session(&person), label, Vec::new())
            .await?;
        self.sign_out_previous(current).await;
        Ok(signed_in)
    }

    /// Sets a new password with one of the account's recovery codes (which then no longer
    /// works), signs out every device of the account, and logs in on this one.
    pub async fn recover(
        &self,
        current: Option<&str>,
        username: &str,
        code: &str,
        password: &str,
        label: &str,
    ) -> Result<(Session, String), AccountError> {
        let code_hash =
            typed_code_hash(code, RECOVERY_CODE_CHARACTERS).ok_or(AccountError::BadCode)?;
        // The code first: without it, every answer is the same `bad_code`, at once (no
        // strength check, no hash: nothing to tell whether the account exists, and no
        // work for a guess).
        let person = self.account(username).await?.ok_or(AccountError::BadCode)?;
        if !self.store.has_recovery_code(person.id, &code_hash).await? {
            return Err(AccountError::BadCode);
        }
        if person.disabled_at_ms.is_some() {
            return Err(AccountError::Disabled);
        }
        let used = Write::Session(SessionChange::UseRecoveryCode {
            person_id: person.id,
            code_hash,
        });
        self.new_password_everywhere(&person, password, vec![used], current, label)
            .await
    }

    /// Sets `person`'s new password, written with `proof` (the recovery or mailed code
    /// used: a code used meanwhile refuses it all as `BadCode`), signs out every device of
    /// theirs and logs in on this one (called `label`), whose session so far (`current`)
    /// is signed out.
    pub(super) async fn new_password_everywhere(
        &self,
        person: &PersonRow,
        password: &str,
        proof: Vec<Write>,
        current: Option<&str>,
        label: &str,
    ) -> Result<(Session, String), AccountError> {
        self.passwords
            .check(password, &known_words(person))
            .await?
            .map_err(AccountError::Password)?;
        let password_hash = self.passwords.hash(password).await?;
        let mut writes = proof;
        writes.push(Write::Session(SessionChange::SetPassword {
            person_id: person.id,
            password_hash,
        }));
        writes.push(Write::Session(SessionChange::RevokeAll {
            person_id: person.id,
            keep: None,
        }));
        let signed_in = self
            .add_device(as_session(person), label, writes)
            .await
            .map_err(not_found_as(AccountError::BadCode))?;
        let device = signed_in.0.device_id;
        self.forget_where(|s| s.player_id == person.id && s.device_id != device);
        self.ends.end_person(person.id, Some(device));
        self.sign_out_previous(current).await;
        Ok(signed_in)
    }

    /// Changes the password of `session`'s account, and signs out its other devices.
    pub async fn change_password(
        &self,
        session: &Session,
        current: &str,
        password: &str,
    ) -> Result<(), AccountError> {
        let person = self.person_row(session).await?;
        if !self
            .passwords
            .verify(current, person.password_hash.as_deref())
            .await?
        {
            return Err(AccountError::BadCredentials);
        }
        self.passwords
            .check(password, &known_words(&person))
            .await?
            .map_err(AccountError::Password)?;
        let password_hash = self.passwords.hash(password).await?;
        let set = Write::Session(SessionChange::SetPassword {
            person_id: person.id,
            password_hash,
        });
        self.revoke_all(person.id, Some(session.device_id), vec![set])
            .await?;
        Ok(())
    }

    /// New recovery codes for `session`'s account (the old ones stop working), given the
    /// account's password.
    pub async fn renew_recovery_codes(
        &self,
        session: &Session,
        password: &str,
    ) -> Result<Vec<String>, AccountError> {
        let person = self.person_row(session).await?;
        if !self
            .passwords
            .verify(password, person.password_hash.as_deref())
            .await?
        {
            return Err(AccountError::BadCredentials);
        }
        let codes = new_recovery_codes();
        self.writer
            .write(vec![Write::Session(SessionChange::SetRecoveryCodes {
                person_id: person.id,
                recovery_hashes: codes.iter().map(|(_, hash)| hash.clone()).collect(),
            })])
            .await?;
        Ok(codes.into_iter().map(|(code, _)| code).collect())
    }

    /// A one-time code that makes another device the person `person`, made by `made_by`
    /// (the person, or a director for one of their players: then `only_tournament`, the
    /// tournament the device it makes is the person in, and only there).
    pub async fn issue_link_code(
        &self,
        person: Uuid,
        made_by: Uuid,
        only_tournament: Option<Uuid>,
    ) -> Result<LinkCode, StoreError> {
        let (code, code_hash) = new_link_code();
        let expires_at_ms = self.now_ms().saturating_add(LINK_CODE_LIFE_MS);
        self.writer
            .write(vec![Write::Session(SessionChange::AddLinkCode(
                LinkCodeRow {
                    code_hash,
                    person_id: person,
                    made_by,
                    expires_at_ms,
                    tournament_id: only_tournament,
                },
            ))])
            .await?;
        Ok(LinkCode {
            code,
            expires_at_ms,
        })
    }

    /// Uses a link code: this device (called `label`) becomes the code's person (limited
    /// to the code's tournament, for a director's code). Its session so far (`current`),
    /// if any, is signed out. `Ok(None)`: no such link code (it may be another kind).
    pub async fn use_link_code(
        &self,
        current: Option<&str>,
        typed: &str,
        label: &str,
    ) -> Result<Option<(Session, String)>, AccountError> {
        let code_hash =
            typed_code_hash(typed, LINK_CODE_CHARACTERS).ok_or(AccountError::BadCode)?;
        let now = self.now_ms();
        let Some(code) = self.store.link_code(&code_hash, now).await? else {
            return Ok(None);
        };
        let person = self
            .store
            .person(code.person_id)
            .await?
            .ok_or(AccountError::BadCode)?;
        if person.disabled_at_ms.is_some() {
            return Err(AccountError::Disabled);
        }
        let take = Write::Session(SessionChange::TakeLinkCode {
            code_hash,
            now_ms: now,
        });
        let person = Session {
            only_tournament: code.tournament_id,
            ..as_session(&person)
        };
        let signed_in = self
            .add_device(person, label, vec![take])
            .await
            .map_err(not_found_as(AccountError::BadCode))?;
        self.sign_out_previous(current).await;
        Ok(Some(signed_in))
    }

    /// Stores a device's mark that it logged in to an account (`http::known_devices`).
    pub async fn mark_device(&self, row: KnownDeviceRow) -> Result<(), StoreError> {
        self.writer
            .write(vec![Write::Session(SessionChange::AddKnownDevice(row))])
            .await
    }

    /// The person a username names, if any (any spelling that folds to its key).
    pub async fn person_by_username(
        &self,
        username: &str,
    ) -> Result<Option<PersonRow>, StoreError> {
        self.store
            .person_by_username_key(&username_key(username.trim()))
            .await
    }

    async fn account(&self, username: &str) -> Result<Option<PersonRow>, StoreError> {
        Ok(self
            .person_by_username(username)
            .await?
            .filter(|p| p.password_hash.is_some()))
    }

    async fn person_row(&self, session: &Session) -> Result<PersonRow, AccountError> {
        self.store
            .person(session.player_id)
            .await?
            .filter(|p| p.password_hash.is_some())
            .ok_or(AccountError::NotAccount)
    }

    /// Signs out the session a device had before it logged in or was linked; a failure
    /// is logged (the new session works either way, and the old one expires).
    async fn sign_out_previous(&self, current: Option<&str>) {
        if let Some(token) = current {
            if let Err(error) = self.revoke(token).await {
                tracing::warn!(%error, "could not sign out a device's previous session");
            }
        }
    }
}

/// A person as a session of a device yet to be made.
pub(super) fn as_session(person: &PersonRow) -> Session {
    Session {
        player_id: person.id,
        name: person.name.clone(),
        username: person.username.clone(),
        device_id: Uuid::nil(),
        only_tournament: None,
    }
}

/// The words an account is known by, which make a password built on them weak.
pub(super) fn known_words(person: &PersonRow) -> Vec<&str> {
    std::iter::once(person.name.as_str())
        .chain(person.username.as_deref())
        .collect()
}

/// A sign-up's write refused: the username taken meanwhile, or the guest already made an
/// account meanwhile.
fn refused_sign_up(error: StoreError) -> AccountError {
    if error.is_conflict() {
        AccountError::UsernameTaken
    } else if matches!(error, StoreError::NotFound(_)) {
        AccountError::AlreadyAccount
    } else {
        AccountError::Store(error)
    }
}

/// A write refused for want of its row ([`StoreError::NotFound`]: a code used meanwhile)
/// as `refusal`; any other failure as the store's.
pub(super) fn not_found_as(refusal: AccountError) -> impl FnOnce(StoreError) -> AccountError {
    move |error| match error {
        StoreError::NotFound(_) => refusal,
        error => AccountError::Store(error),
    }
}
