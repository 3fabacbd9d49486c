//! An account's e-mail address and the password reset it allows (docs/accounts.md#e-mail):
//! an address is stored unverified, verified by a mailed link's code, and only then used
//! for a reset link. Codes are 16 characters (80 bits), stored as SHA-256, one use each: a
//! verification link works a day, a reset link 30 minutes. Whether mail is sent at all,
//! and the limits on asking, are the HTTP layer's (`http::email`).

use lettre::Address;

use super::accounts::{not_found_as, AccountError};
use super::codes::{
    new_email_code, typed_code_hash, EMAIL_CODE_CHARACTERS, RESET_CODE_LIFE_MS, VERIFY_CODE_LIFE_MS,
};
use super::{Session, Sessions};
use crate::store::{
    EmailCodeRow, PersonRow, SessionChange, StoreError, Write, EMAIL_RESET, EMAIL_VERIFY,
};

/// A code made for a mail, with the address it goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmailCode {
    /// As it goes in the link: 16 characters.
    pub code: String,
    pub email: String,
    /// The account's username as stored (never as a request spelled it), for the mail's
    /// greeting.
    pub username: String,
}

impl Sessions {
    /// The account of `session`, or `NotAccount` for a guest.
    pub async fn account_row(&self, session: &Session) -> Result<PersonRow, AccountError> {
        self.store
            .person(session.player_id)
            .await?
            .filter(|p| p.password_hash.is_some())
            .ok_or(AccountError::NotAccount)
    }

    /// Stores `email` as `session`'s account's address, unverified (any earlier address
    /// and its codes are gone), given the account's password; returns the code of the
    /// link that verifies it.
    pub async fn set_email(
        &self,
        session: &Session,
        email: &Address,
        password: &str,
    ) -> Result<EmailCode, AccountError> {
        let person = self.account_row(session).await?;
        if !self
            .passwords
            .verify(password, person.password_hash.as_deref())
            .await?
        {
            return Err(AccountError::BadCredentials);
        }
        let email = email.to_string();
        let (code, code_hash) = new_email_code();
        self.writer
            .write(vec![
                Write::Session(SessionChange::SetEmail {
                    person_id: person.id,
                    email: Some(email.clone()),
                }),
                Write::Session(SessionChange::AddEmailCode(EmailCodeRow {
                    code_hash,
                    person_id: person.id,
                    purpose: EMAIL_VERIFY.to_owned(),
                    email: email.clone(),
                    expires_at_ms: self.now_ms().saturating_add(VERIFY_CODE_LIFE_MS),
                })),
            ])
            .await
            .map_err(not_found_as(AccountError::NotAccount))?;
        Ok(EmailCode {
            code,
            email,
            username: person.username.unwrap_or_default(),
        })
    }

    /// Removes `session`'s account's address (and its codes).
    pub async fn remove_email(&self, session: &Session) -> Result<(), AccountError> {
        let person = self.account_row(session).await?;
        self.writer
            .write(vec![Write::Session(SessionChange::SetEmail {
                person_id: person.id,
                email: None,
            })])
            .await
            .map_err(not_found_as(AccountError::NotAccount))
    }

    /// Verifies the address a verification code was sent to, from any device (the link
    /// is opened where the mail is read): the code proves the mailbox. Returns the
    /// address.
    pub async fn verify_email(&self, typed: &str) -> Result<String, AccountError> {
        let code_hash =
            typed_code_hash(typed, EMAIL_CODE_CHARACTERS).ok_or(AccountError::BadCode)?;
        let now = self.now_ms();
        let code = self
            .store
            .email_code(&code_hash, now)
            .await?
            .filter(|c| c.purpose == EMAIL_VERIFY)
            .ok_or(AccountError::BadCode)?;
        self.writer
            .write(vec![
                Write::Session(SessionChange::TakeEmailCode {
                    code_hash,
                    purpose: EMAIL_VERIFY.to_owned(),
                    now_ms: now,
                }),
                Write::Session(SessionChange::EmailVerified {
                    person_id: code.person_id,
                    email: code.email.clone(),
                    at_ms: now,
                }),
            ])
            .await
            .map_err(not_found_as(AccountError::BadCode))?;
        Ok(code.email)
    }

    /// A reset code for the account `username`, if it exists, is enabled and has a
    /// verified address: the code and that address. `None` otherwise, which the caller
    /// never tells apart from a mail sent.
    pub async fn issue_reset(&self, username: &str) -> Result<Option<EmailCode>, StoreError> {
        let Some(person) = self.person_by_username(username).await? else {
            return Ok(None);
        };
        let email = match (&person.email, person.email_verified_at_ms) {
            (Some(email), Some(_))
                if person.password_hash.is_some() && person.disabled_at_ms.is_none() =>
            {
                email.clone()
            }
            _ => return Ok(None),
        };
        let (code, code_hash) = new_email_code();
        self.writer
            .write(vec![Write::Session(SessionChange::AddEmailCode(
                EmailCodeRow {
                    code_hash,
                    person_id: person.id,
                    purpose: EMAIL_RESET.to_owned(),
                    email: email.clone(),
                    expires_at_ms: self.now_ms().saturating_add(RESET_CODE_LIFE_MS),
                },
            ))])
            .await?;
        Ok(Some(EmailCode {
            code,
            email,
            username: person.username.unwrap_or_default(),
        }))
    }

    /// Sets a new password with a reset code (which then stops working, as do the
    /// account's other reset links), signs out every device of the account, and logs in
    /// on this one (called `label`); the device's session so far (`current`) is signed
    /// out.
    pub async fn reset_password(
        &self,
        current: Option<&str>,
        typed: &str,
        password: &str,
        label: &str,
    ) -> Result<(Session, String), AccountError> {
        let code_hash =
            typed_code_hash(typed, EMAIL_CODE_CHARACTERS).ok_or(AccountError::BadCode)?;
        let code = self
            .store
            .email_code(&code_hash, self.now_ms())
            .await?
            .filter(|c| c.purpose == EMAIL_RESET)
            .ok_or(AccountError::BadCode)?;
        let person = self
            .store
            .person(code.person_id)
            .await?
            .filter(|p| p.password_hash.is_some())
            .ok_or(AccountError::BadCode)?;
        if person.disabled_at_ms.is_some() {
            return Err(AccountError::Disabled);
        }
        let proof = vec![
            Write::Session(SessionChange::TakeEmailCode {
                code_hash,
                purpose: EMAIL_RESET.to_owned(),
                now_ms: self.now_ms(),
            }),
            Write::Session(SessionChange::DropEmailCodes {
                person_id: person.id,
                purpose: EMAIL_RESET.to_owned(),
            }),
        ];
        self.new_password_everywhere(&person, password, proof, current, label)
            .await
    }
}
