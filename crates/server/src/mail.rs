//! Mail the server sends: the link that verifies an account's address and the link that
//! resets a password (docs/accounts.md#e-mail). Off unless the operator gives an SMTP
//! server (`--smtp-url`, `--smtp-from`, with `--public-origin` for the links).
//!
//! A request never waits on SMTP: it puts its mail on a bounded queue and answers; one
//! task sends the queue's mail, one at a time, through `lettre`'s pooled async transport,
//! each with a time limit. A mail that cannot be sent is logged (never its link) and
//! dropped: the person asks again. A full queue refuses the mail at once rather than grow.

use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use tokio::sync::{mpsc, watch};

use crate::config::ServeConfig;

/// Mail waiting to be sent, at most: a burst of requests past it is refused, not queued.
const QUEUE: usize = 256;
/// How long one mail may take to send (connecting included) before it is given up.
const SEND_TIME: Duration = Duration::from_secs(30);
/// The longest address taken (RFC 5321's limit on a path).
pub const MAX_ADDRESS: usize = 254;

/// One mail: to whom, its subject and its plain-text body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mail {
    pub to: Address,
    pub subject: String,
    pub body: String,
}

/// Why a mail was not queued.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MailError {
    #[error("this server sends no e-mail: its operator has not set it up")]
    Off,
    #[error("too much mail is waiting to be sent; try again in a minute")]
    Busy,
}

/// The mail queue's sending end, or nothing when mail is off.
#[derive(Clone, Debug)]
pub struct Mailer {
    queue: Option<mpsc::Sender<Mail>>,
    /// The site's address, which the links in the mail begin with.
    origin: String,
}

impl Mailer {
    /// A mailer that sends nothing.
    #[must_use]
    pub fn off() -> Mailer {
        Mailer {
            queue: None,
            origin: String::new(),
        }
    }

    /// The mailer `config` asks for: off when it names no SMTP server; else the sending
    /// task is started (it stops when `shutdown` turns true). Refused, saying which
    /// setting is wrong, when the SMTP URL, the From address or the public origin is
    /// missing or does not read.
    pub fn start(config: &ServeConfig, shutdown: watch::Receiver<bool>) -> Result<Mailer, String> {
        let Some(transport) = transport(config)? else {
            return Ok(Mailer::off());
        };
        let (from, origin) = (from(config)?, origin(config)?);
        let (queue, waiting) = mpsc::channel(QUEUE);
        tokio::spawn(send_all(transport, from, waiting, shutdown));
        Ok(Mailer {
            queue: Some(queue),
            origin,
        })
    }

    /// Whether the server sends mail.
    #[must_use]
    pub fn enabled(&self) -> bool {
        self.queue.is_some()
    }

    /// The site's address with `path_and_query` after it: a link for a mail.
    #[must_use]
    pub fn link(&self, path_and_query: &str) -> String {
        format!("{}{path_and_query}", self.origin)
    }

    /// Queues `mail`, without waiting.
    pub fn send(&self, mail: Mail) -> Result<(), MailError> {
        let queue = self.queue.as_ref().ok_or(MailError::Off)?;
        queue.try_send(mail).map_err(|error| match error {
            mpsc::error::TrySendError::Full(_) => {
                tracing::warn!("the mail queue is full: a mail was refused");
                MailError::Busy
            }
            mpsc::error::TrySendError::Closed(_) => MailError::Off,
        })
    }
}

/// An address as a person typed it, checked (RFC 5321/5322 syntax, by lettre's parser) and
/// trimmed; the refusal says what is wrong.
pub fn parse_address(typed: &str) -> Result<Address, String> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err("give an e-mail address".to_owned());
    }
    if typed.chars().count() > MAX_ADDRESS {
        return Err(format!(
            "an e-mail address is at most {MAX_ADDRESS} characters"
        ));
    }
    typed
        .parse::<Address>()
        .map_err(|_| format!("{typed:?} is not an e-mail address like name@example.org"))
}

/// The SMTP transport of `--smtp-url`, `None` when it is empty.
fn transport(config: &ServeConfig) -> Result<Option<AsyncSmtpTransport<Tokio1Executor>>, String> {
    let url = config.smtp_url.trim();
    if url.is_empty() {
        return Ok(None);
    }
    let builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(url).map_err(|error| {
        // The URL may hold a password: the message names the setting, not its value.
        format!(
            "--smtp-url (OMWESO_SMTP_URL) does not read as smtp://host:port or smtps://user:password@host ({error})"
        )
    })?;
    Ok(Some(builder.timeout(Some(SEND_TIME)).build()))
}

fn from(config: &ServeConfig) -> Result<Mailbox, String> {
    let from = config.smtp_from.trim();
    if from.is_empty() {
        return Err(
            "--smtp-url is set but --smtp-from (OMWESO_SMTP_FROM) is not: give the From address of the mail"
                .to_owned(),
        );
    }
    from.parse::<Mailbox>().map_err(|error| {
        format!(
            "--smtp-from {from:?} is not an address like Omweso <noreply@example.org> ({error})"
        )
    })
}

/// The first public origin, which the links name: never a request's `Host`, which the
/// request's sender chooses (a reset link pointing at their site would hand them the
/// code).
fn origin(config: &ServeConfig) -> Result<String, String> {
    config
        .public_origin
        .iter()
        .map(|o| o.trim().trim_end_matches('/'))
        .find(|o| !o.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| {
            "--smtp-url is set but --public-origin (OMWESO_PUBLIC_ORIGIN) is not: the links in the mail need the site's address, e.g. https://omweso.example.org".to_owned()
        })
}

/// Sends the queue's mail until shutdown, or until every sender is gone.
async fn send_all(
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    mut waiting: mpsc::Receiver<Mail>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let mail = tokio::select! {
            mail = waiting.recv() => match mail {
                Some(mail) => mail,
                None => return,
            },
            _ = shutdown.wait_for(|stop| *stop) => return,
        };
        let message = Message::builder()
            .from(from.clone())
            .to(Mailbox::new(None, mail.to))
            .subject(mail.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body);
        let message = match message {
            Ok(message) => message,
            Err(error) => {
                tracing::warn!(%error, "a mail could not be written");
                continue;
            }
        };
        match tokio::time::timeout(SEND_TIME, transport.send(message)).await {
            Ok(Ok(_)) => tracing::debug!("a mail was sent"),
            Ok(Err(error)) => tracing::warn!(%error, "a mail could not be sent"),
            Err(_) => tracing::warn!("a mail could not be sent in {SEND_TIME:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked_and_trimmed() {
        assert_eq!(
            parse_address(" kato@example.org ").map(|a| a.to_string()),
            Ok("kato@example.org".to_owned())
        );
        assert_eq!(parse_address(""), Err("give an e-mail address".to_owned()));
        assert_eq!(
            parse_address("kato"),
            Err("\"kato\" is not an e-mail address like name@example.org".to_owned())
        );
        assert_eq!(
            parse_address(&format!("{}@example.org", "k".repeat(250))),
            Err("an e-mail address is at most 254 characters".to_owned())
        );
    }

    fn config(url: &str, from: &str, origin: &[&str]) -> ServeConfig {
        let mut config = ServeConfig::for_tests("sqlite::memory:");
        config.smtp_url = url.to_owned();
        config.smtp_from = from.to_owned();
        config.public_origin = origin.iter().map(|o| (*o).to_owned()).collect();
        config
    }

    #[tokio::test]
    async fn mail_is_off_without_a_url_and_refused_without_its_other_settings() {
        let (_, stopped) = watch::channel(false);
        let off = Mailer::start(&config("", "", &[]), stopped.clone()).unwrap();
        assert!(!off.enabled());
        assert_eq!(
            off.send(Mail {
                to: parse_address("a@example.org").unwrap(),
                subject: String::new(),
                body: String::new()
            }),
            Err(MailError::Off)
        );
        let no_from = Mailer::start(
            &config("smtp://127.0.0.1:2525", "", &["https://o.example"]),
            stopped.clone(),
        );
        assert!(no_from.unwrap_err().contains("--smtp-from"));
        let no_origin = Mailer::start(
            &config("smtp://127.0.0.1:2525", "o@example.org", &[]),
            stopped.clone(),
        );
        assert!(no_origin.unwrap_err().contains("--public-origin"));
        let bad_url = Mailer::start(
            &config(
                "mail://secret@127.0.0.1",
                "o@example.org",
                &["https://o.example"],
            ),
            stopped.clone(),
        );
        let bad_url = bad_url.unwrap_err();
        assert!(bad_url.contains("--smtp-url"), "{bad_url}");
        assert!(!bad_url.contains("secret"), "{bad_url}");
        let on = Mailer::start(
            &config(
                "smtp://127.0.0.1:2525",
                "Omweso <o@example.org>",
                &["https://o.example/"],
            ),
            stopped,
        )
        .unwrap();
        assert!(on.enabled());
        assert_eq!(
            on.link("/account?reset=X"),
            "https://o.example/account?reset=X"
        );
    }
}
