//! `omweso admin`: what the server's operator can do to an account without e-mail
//! (docs/accounts.md#for-the-operator): show it, reset its password, rename it, disable or
//! enable it, sign it out everywhere. It works on the database directly, with the server
//! running or not; a running server notices within a minute (`people::RECHECK_MS`).
//! And `rerate` (docs/ratings.md#corrections): every rating recomputed from the record of
//! rated results (to be run with the server stopped: one long write transaction), or with
//! `--check` compared with the stored ones (a read, safe while it runs).

use std::io::BufRead;

use uuid::Uuid;

use crate::people::names::{clean_username, username_key};
use crate::people::password::{check_strength, Passwords};
use crate::store::{PersonRow, SessionChange, Store, StoreError, Write};

/// `omweso admin`'s arguments.
#[derive(clap::Args, Debug)]
pub struct AdminArgs {
    /// The server's database (as `omweso serve --database-url`).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://omweso.db")]
    pub database_url: String,
    #[command(subcommand)]
    pub action: AdminAction,
}

/// What to do to an account, named by its username.
#[derive(clap::Subcommand, Debug)]
pub enum AdminAction {
    /// Print the account: its name, when it was made, whether disabled, its devices.
    Show { username: String },
    /// Set a new password and sign the account out everywhere. The password is read from
    /// the first line of stdin with --password-stdin, else made up and printed.
    ResetPassword {
        username: String,
        #[arg(long)]
        password_stdin: bool,
    },
    /// Give the account another username (its name too, when it was the username).
    Rename {
        username: String,
        new_username: String,
    },
    /// Disable the account: it cannot log in, and every device of it is signed out.
    Disable { username: String },
    /// Enable a disabled account again.
    Enable { username: String },
    /// Sign every device of the account out.
    SignOut { username: String },
    /// Recompute every rating from the record of rated results, in one transaction
    /// (docs/ratings.md#corrections). Run it with the server stopped: the transaction holds
    /// the database's write lock while it runs (seconds on a large record,
    /// docs/performance.md#re-rating-a-correction), and a running server's writes wait
    /// for it. With --check, only compare the stored ratings with the recomputed ones
    /// (one read, safe while the server runs), change nothing, and fail if they differ.
    Rerate {
        #[arg(long)]
        check: bool,
    },
}

/// Why an admin command failed; the text is what the operator reads.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("no account is called {0:?}")]
    NoAccount(String),
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("reading stdin: {0}")]
    Io(#[from] std::io::Error),
}

/// Runs `action` on the database at `database_url`; what it did is written to `out`.
pub async fn run(
    args: AdminArgs,
    stdin: impl BufRead,
    out: &mut impl std::io::Write,
) -> Result<(), AdminError> {
    let store = Store::open(&args.database_url).await?;
    let result = act(&store, args.action, stdin, out).await;
    store.close().await;
    result
}

async fn act(
    store: &Store,
    action: AdminAction,
    mut stdin: impl BufRead,
    out: &mut impl std::io::Write,
) -> Result<(), AdminError> {
    match action {
        AdminAction::Show { username } => {
            let person = account(store, &username).await?;
            writeln!(
                out,
                "username: {}",
                person.username.as_deref().unwrap_or("")
            )?;
            writeln!(out, "name: {}", person.name)?;
            writeln!(out, "player id: {}", person.id)?;
            writeln!(out, "member since (ms): {}", person.created_at_ms)?;
            match (&person.email, person.email_verified_at_ms) {
                (Some(email), Some(_)) => writeln!(out, "e-mail: {email} (confirmed)")?,
                (Some(email), None) => writeln!(out, "e-mail: {email} (not confirmed)")?,
                (None, _) => writeln!(out, "e-mail: none")?,
            }
            match person.disabled_at_ms {
                Some(at) => writeln!(out, "disabled at (ms): {at}")?,
                None => writeln!(out, "enabled")?,
            }
            let devices = store.devices_of(person.id).await?;
            writeln!(out, "devices: {}", devices.len())?;
            for device in devices {
                writeln!(
                    out,
                    "  {} {} (last seen at {} ms)",
                    device.id, device.label, device.last_seen_ms
                )?;
            }
        }
        AdminAction::ResetPassword {
            username,
            password_stdin,
        } => {
            let person = account(store, &username).await?;
            let password = if password_stdin {
                let mut line = String::new();
                stdin.read_line(&mut line)?;
                let password = line.trim_end_matches(['\r', '\n']).to_owned();
                let known: Vec<&str> = std::iter::once(person.name.as_str())
                    .chain(person.username.as_deref())
                    .collect();
                check_strength(&password, &known).map_err(AdminError::Refused)?;
                password
            } else {
                made_up_password()
            };
            let hash = Passwords::default()
                .hash(&password)
                .await
                .map_err(|e| AdminError::Refused(e.to_string()))?;
            write(
                store,
                vec![
                    SessionChange::SetPassword {
                        person_id: person.id,
                        password_hash: hash,
                    },
                    sign_out(person.id),
                ],
            )
            .await?;
            if password_stdin {
                writeln!(out, "password set; every device signed out")?;
            } else {
                writeln!(out, "new password: {password}")?;
                writeln!(
                    out,
                    "every device signed out; give the player this password"
                )?;
            }
        }
        AdminAction::Rename {
            username,
            new_username,
        } => {
            let person = account(store, &username).await?;
            let new_username = clean_username(&new_username).map_err(AdminError::Refused)?;
            let key = username_key(&new_username);
            if store
                .person_by_username_key(&key)
                .await?
                .is_some_and(|other| other.id != person.id)
            {
                return Err(AdminError::Refused(format!(
                    "the username {new_username:?} is taken (or looks like one that is)"
                )));
            }
            let name = (person.username.as_deref() == Some(person.name.as_str()))
                .then(|| new_username.clone());
            write(
                store,
                vec![SessionChange::ChangeUsername {
                    person_id: person.id,
                    username: new_username.clone(),
                    username_key: key,
                    name,
                }],
            )
            .await
            .map_err(|error| match error {
                AdminError::Store(e) if e.is_conflict() => {
                    AdminError::Refused(format!("the username {new_username:?} was just taken"))
                }
                error => error,
            })?;
            writeln!(out, "{username} is now {new_username}")?;
        }
        AdminAction::Disable { username } => {
            let person = account(store, &username).await?;
            let now = i64::try_from(omweso_protocol::clock::now_ms()).unwrap_or(i64::MAX);
            write(
                store,
                vec![
                    SessionChange::Disable {
                        person_id: person.id,
                        at_ms: Some(now),
                    },
                    sign_out(person.id),
                ],
            )
            .await?;
            writeln!(out, "{username} is disabled and signed out everywhere")?;
        }
        AdminAction::Enable { username } => {
            let person = account(store, &username).await?;
            write(
                store,
                vec![SessionChange::Disable {
                    person_id: person.id,
                    at_ms: None,
                }],
            )
            .await?;
            writeln!(out, "{username} is enabled")?;
        }
        AdminAction::Rerate { check } => {
            let report = if check {
                store.rerate_check().await?
            } else {
                store.rerate().await?
            };
            writeln!(
                out,
                "{} rated results, {} ratings",
                report.results, report.ratings
            )?;
            for difference in &report.differences {
                writeln!(out, "differs: {difference}")?;
            }
            if !report.differences.is_empty() {
                out.flush()?;
                return Err(AdminError::Refused(if check {
                    "the stored ratings differ from the record; `omweso admin rerate` recomputes them".to_owned()
                } else {
                    "recomputed, yet the stored ratings still differ from the record".to_owned()
                }));
            }
            if check {
                writeln!(out, "the stored ratings are exactly those of the record")?;
            } else {
                writeln!(out, "every rating recomputed from the record")?;
            }
        }
        AdminAction::SignOut { username } => {
            let person = account(store, &username).await?;
            write(store, vec![sign_out(person.id)]).await?;
            writeln!(out, "{username} is signed out everywhere")?;
        }
    }
    out.flush()?;
    Ok(())
}

async fn account(store: &Store, username: &str) -> Result<PersonRow, AdminError> {
    store
        .person_by_username_key(&username_key(username.trim()))
        .await?
        .filter(|p| p.username.is_some())
        .ok_or_else(|| AdminError::NoAccount(username.to_owned()))
}

fn sign_out(person_id: Uuid) -> SessionChange {
    SessionChange::RevokeAll {
        person_id,
        keep: None,
    }
}

async fn write(store: &Store, changes: Vec<SessionChange>) -> Result<(), AdminError> {
    let writes: Vec<Write> = changes.into_iter().map(Write::Session).collect();
    store.write(&writes).await?;
    Ok(())
}

/// A password for the operator to hand over: 4 groups of 4 of Crockford's base32 (80
/// bits), which zxcvbn rates at its best.
fn made_up_password() -> String {
    let (shown, _) = crate::people::codes::new_recovery_codes()
        .into_iter()
        .next()
        .unwrap_or_default();
    shown
}
