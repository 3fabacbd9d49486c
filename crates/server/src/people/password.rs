//! Passwords: hashed with argon2id (the `password-auth` crate's parameters), never on the
//! async workers, and judged for strength with zxcvbn before they are accepted
//! (docs/security.md#accounts).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

/// The shortest and longest password, in characters. The longest bounds the hashing's
/// input; the strength check does the rest.
pub const PASSWORD_CHARACTERS: std::ops::RangeInclusive<usize> = 8..=128;
/// The least zxcvbn score accepted: 3, "safely unguessable" (about 10^10 guesses).
const LEAST_SCORE: u8 = 3;
/// Hashes computed at once: each takes about 19 MiB and tens of milliseconds of a core,
/// and the server's cores belong to the games first.
pub const HASHES_AT_ONCE: usize = 2;
/// Requests waiting for a turn at checking a password at most, in all
/// (`http::password_turn`).
pub const TURNS_WAITING: usize = 1024;
/// Requests from one address waiting for a turn at most: more than its log-ins a minute.
pub const TURNS_WAITING_PER_ADDRESS: usize = 32;

/// The server's turns at checking a password, given out by address then session: as many
/// at once as passwords are hashed at once.
#[must_use]
pub fn turns() -> crate::pools::fair_turns::FairTurns {
    crate::pools::fair_turns::FairTurns::new(
        HASHES_AT_ONCE,
        TURNS_WAITING,
        TURNS_WAITING_PER_ADDRESS,
    )
}

/// How long a request waits for its turn to hash before it is told the server is busy.
const WAIT_FOR_TURN: Duration = Duration::from_secs(5);

/// Why a password was not hashed or checked.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// Too many hashes waited for their turn.
    #[error("the server is busy checking passwords; try again in a few seconds")]
    Busy,
    /// The hashing thread failed (it panicked): nothing to tell the client but that.
    #[error("the password could not be checked")]
    Failed,
}

/// Hashes and verifies passwords on the blocking threads, a few at a time.
#[derive(Clone, Debug)]
pub struct Passwords {
    turns: Arc<Semaphore>,
}

impl Default for Passwords {
    fn default() -> Self {
        Passwords {
            turns: Arc::new(Semaphore::new(HASHES_AT_ONCE)),
        }
    }
}

impl Passwords {
    /// The argon2id PHC string of `password`.
    pub async fn hash(&self, password: &str) -> Result<String, PasswordError> {
        let password = password.to_owned();
        self.in_turn(move || password_auth::generate_hash(password))
            .await
    }

    /// [`check_strength`] on the blocking threads, in turn with the hashes: zxcvbn's
    /// matching can take long on a crafted password, and the async workers serve the
    /// games.
    pub async fn check(
        &self,
        password: &str,
        known: &[&str],
    ) -> Result<Result<(), String>, PasswordError> {
        let password = password.to_owned();
        let known: Vec<String> = known.iter().map(|k| (*k).to_owned()).collect();
        self.in_turn(move || {
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            check_strength(&password, &known)
        })
        .await
    }

    /// Whether `password` is the one `hash` was made from. With no hash (no such
    /// account), a hash is verified all the same and `false` answered, so that the time
    /// taken does not tell whether a username exists.
    pub async fn verify(&self, password: &str, hash: Option<&str>) -> Result<bool, PasswordError> {
        let password = password.to_owned();
        let hash = hash.map(str::to_owned);
        self.in_turn(move || match hash {
            Some(hash) => password_auth::verify_password(password, &hash).is_ok(),
            None => {
                let _ = password_auth::verify_password(password, unknown_account_hash());
                false
            }
        })
        .await
    }

    async fn in_turn<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, PasswordError> {
        let turn = tokio::time::timeout(WAIT_FOR_TURN, Arc::clone(&self.turns).acquire_owned())
            .await
            .map_err(|_| PasswordError::Busy)?
            .map_err(|_| PasswordError::Busy)?;
        let result = tokio::task::spawn_blocking(move || {
            let _turn = turn;
            work()
        })
        .await;
        result.map_err(|_| PasswordError::Failed)
    }
}

/// A hash of nothing anyone knows, made once, verified against when a username is unknown.
fn unknown_account_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| password_auth::generate_hash(uuid::Uuid::new_v4().to_string()))
}

/// Refuses a password that is too short, too long or easy to guess, saying why and what
/// would do; `known` are words the account is known by (its username and name), which
/// make a password weaker.
pub fn check_strength(password: &str, known: &[&str]) -> Result<(), String> {
    let length = password.chars().count();
    if length < *PASSWORD_CHARACTERS.start() {
        return Err(format!(
            "a password is at least {} characters",
            PASSWORD_CHARACTERS.start()
        ));
    }
    if length > *PASSWORD_CHARACTERS.end() {
        return Err(format!(
            "a password is at most {} characters",
            PASSWORD_CHARACTERS.end()
        ));
    }
    let estimate = zxcvbn::zxcvbn(password, known);
    if estimate.score() as u8 >= LEAST_SCORE {
        return Ok(());
    }
    let mut why = String::from("this password is easy to guess");
    if let Some(feedback) = estimate.feedback() {
        if let Some(warning) = feedback.warning() {
            why.push_str(&format!(" ({})", warning.to_string().trim_end_matches('.')));
        }
        if let Some(suggestion) = feedback.suggestions().first() {
            why.push_str(&format!(": {}", lowercase_first(&suggestion.to_string())));
        }
    }
    Err(why)
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_passwords_are_refused_with_a_reason() {
        assert_eq!(
            check_strength("abc", &[]).unwrap_err(),
            "a password is at least 8 characters"
        );
        assert_eq!(
            check_strength(&"x".repeat(129), &[]).unwrap_err(),
            "a password is at most 128 characters"
        );
        let common = check_strength("password1", &[]).unwrap_err();
        assert!(
            common.starts_with("this password is easy to guess"),
            "{common}"
        );
        // The username makes a password built on it weak.
        assert!(check_strength("nakato1990", &["nakato"]).is_err());
        assert_eq!(check_strength("mweso seeds in the outer row", &[]), Ok(()));
    }

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let passwords = Passwords::default();
        let hash = passwords
            .hash("mweso seeds in the outer row")
            .await
            .unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(passwords
            .verify("mweso seeds in the outer row", Some(&hash))
            .await
            .unwrap());
        assert!(!passwords.verify("mweso seeds", Some(&hash)).await.unwrap());
        assert!(!passwords.verify("anything", None).await.unwrap());
    }

    #[tokio::test]
    async fn the_strength_check_off_the_workers_answers_as_the_plain_one() {
        let passwords = Passwords::default();
        assert_eq!(
            passwords.check("abc", &[]).await.unwrap(),
            Err("a password is at least 8 characters".to_owned())
        );
        assert_eq!(
            passwords
                .check("mweso seeds in the outer row", &[])
                .await
                .unwrap(),
            Ok(())
        );
        // The words the account is known by are passed along.
        assert!(passwords
            .check("nakato1990", &["nakato"])
            .await
            .unwrap()
            .is_err());
    }
}
