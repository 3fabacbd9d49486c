//! What a node needs to join the others (docs/scaling.md#trust-between-nodes): credentials
//! for NATS (a user and password, a token, or an nkey seed), given to async-nats's own
//! options, and the cluster's secret. Read from the settings (and the files they name) at
//! start; a node without them refuses to start, saying what to give, because a node that
//! joined an open NATS without a secret would believe anyone who reaches it.

use async_nats::ConnectOptions;

use super::seal::MIN_SECRET;
use crate::config::ClusterCredentials;

/// How a node proves itself to NATS.
#[derive(Clone, PartialEq, Eq)]
pub enum NatsAuth {
    UserPassword { user: String, password: String },
    Token(String),
    NkeySeed(String),
}

/// Shows the way and the user, never a password, token or seed (they may end up in a log).
impl std::fmt::Debug for NatsAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NatsAuth::UserPassword { user, .. } => write!(f, "user {user} and a password"),
            NatsAuth::Token(_) => f.write_str("a token"),
            NatsAuth::NkeySeed(_) => f.write_str("an nkey"),
        }
    }
}

/// A node's credentials for NATS, and the cluster's secret.
#[derive(Clone)]
pub struct Credentials {
    pub nats: NatsAuth,
    pub secret: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("nats", &self.nats)
            .finish_non_exhaustive()
    }
}

/// Why a node's credentials are not enough to join.
#[derive(Debug, thiserror::Error)]
pub enum CredentialsError {
    #[error("several nodes need NATS credentials, so that nothing but the nodes reaches it: give --nats-user with --nats-password or --nats-password-file (OMWESO_NATS_USER, OMWESO_NATS_PASSWORD, OMWESO_NATS_PASSWORD_FILE), --nats-nkey-file, or nats://user:password@host:4222 as --nats-url, and the same to the NATS server (docs/scaling.md#trust-between-nodes)")]
    NoNatsCredentials,
    #[error("--nats-user needs --nats-password or --nats-password-file (and --nats-password needs --nats-user)")]
    HalfNatsCredentials,
    #[error("several nodes need the cluster's secret, the same on every node, which signs what they send each other: give --cluster-secret or --cluster-secret-file (OMWESO_CLUSTER_SECRET, OMWESO_CLUSTER_SECRET_FILE), e.g. made by `openssl rand -hex 32` (docs/scaling.md#trust-between-nodes)")]
    NoSecret,
    #[error("the cluster's secret must be at least {MIN_SECRET} characters (it has {0}): e.g. `openssl rand -hex 32`")]
    ShortSecret(usize),
    #[error("could not read {what} from {path}: {error}")]
    File {
        what: &'static str,
        path: String,
        error: std::io::Error,
    },
}

impl Credentials {
    /// The credentials the settings give, with those in `url` (`nats://user:password@...`
    /// or `nats://token@...`) when no flag gives any.
    pub fn from_settings(
        url: &str,
        settings: &ClusterCredentials,
    ) -> Result<Credentials, CredentialsError> {
        let nats = nats_auth(url, settings)?;
        let secret = match (
            settings.cluster_secret.as_str(),
            settings.cluster_secret_file.as_str(),
        ) {
            ("", "") => return Err(CredentialsError::NoSecret),
            ("", path) => read("the cluster's secret", path)?,
            (secret, _) => secret.to_owned(),
        };
        let length = secret.chars().count();
        if length < MIN_SECRET {
            return Err(CredentialsError::ShortSecret(length));
        }
        Ok(Credentials { nats, secret })
    }

    /// `options` with these credentials.
    #[must_use]
    pub fn apply(&self, options: ConnectOptions) -> ConnectOptions {
        match &self.nats {
            NatsAuth::UserPassword { user, password } => {
                options.user_and_password(user.clone(), password.clone())
            }
            NatsAuth::Token(token) => options.token(token.clone()),
            NatsAuth::NkeySeed(seed) => options.nkey(seed.clone()),
        }
    }
}

fn nats_auth(url: &str, settings: &ClusterCredentials) -> Result<NatsAuth, CredentialsError> {
    if !settings.nats_nkey_file.is_empty() {
        return Ok(NatsAuth::NkeySeed(read(
            "the NATS nkey seed",
            &settings.nats_nkey_file,
        )?));
    }
    let password = match (
        settings.nats_password.as_str(),
        settings.nats_password_file.as_str(),
    ) {
        ("", "") => None,
        ("", path) => Some(read("the NATS password", path)?),
        (password, _) => Some(password.to_owned()),
    };
    match (settings.nats_user.as_str(), password) {
        ("", None) => {}
        ("", Some(_)) | (_, None) => return Err(CredentialsError::HalfNatsCredentials),
        (user, Some(password)) => {
            return Ok(NatsAuth::UserPassword {
                user: user.to_owned(),
                password,
            })
        }
    }
    // async-nats reads a URL's address but not its credentials: they are taken here.
    let address = url.parse::<async_nats::ServerAddr>().ok();
    match address.as_ref().map(|a| (a.username(), a.password())) {
        Some((Some(user), Some(password))) => Ok(NatsAuth::UserPassword {
            user: user.to_owned(),
            password: password.to_owned(),
        }),
        Some((Some(token), None)) => Ok(NatsAuth::Token(token.to_owned())),
        _ => Err(CredentialsError::NoNatsCredentials),
    }
}

/// A secret kept in a file, without the line end an editor or `echo` leaves.
fn read(what: &'static str, path: &str) -> Result<String, CredentialsError> {
    let text = std::fs::read_to_string(path).map_err(|error| CredentialsError::File {
        what,
        path: path.to_owned(),
        error,
    })?;
    Ok(text.trim_end_matches(['\n', '\r']).to_owned())
}

/// `url` without its credentials, for the logs and the errors.
#[must_use]
pub fn without_credentials(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => match rest.rsplit_once('@') {
            Some((_, host)) => format!("{scheme}://{host}"),
            None => url.to_owned(),
        },
        None => url
            .rsplit_once('@')
            .map_or(url, |(_, host)| host)
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "0123456789abcdef0123456789abcdef";

    fn settings(set: impl FnOnce(&mut ClusterCredentials)) -> ClusterCredentials {
        let mut settings = ClusterCredentials {
            cluster_secret: SECRET.into(),
            ..ClusterCredentials::default()
        };
        set(&mut settings);
        settings
    }

    fn auth(url: &str, settings: &ClusterCredentials) -> Result<NatsAuth, String> {
        Credentials::from_settings(url, settings)
            .map(|c| c.nats)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn nats_credentials_come_from_the_flags_a_file_or_the_url() {
        let plain = "nats://127.0.0.1:4222";
        let user_password = |user: &str, password: &str| NatsAuth::UserPassword {
            user: user.into(),
            password: password.into(),
        };
        let flags = settings(|s| {
            s.nats_user = "omweso".into();
            s.nats_password = "pw".into();
        });
        assert_eq!(auth(plain, &flags), Ok(user_password("omweso", "pw")));
        assert_eq!(
            auth("nats://omweso:hex0123@nats:4222", &settings(|_| {})),
            Ok(user_password("omweso", "hex0123"))
        );
        assert_eq!(
            auth("nats://s3cr3t-token@nats:4222", &settings(|_| {})),
            Ok(NatsAuth::Token("s3cr3t-token".into()))
        );
        // The flags before the URL's.
        assert_eq!(
            auth("nats://other:x@nats:4222", &flags),
            Ok(user_password("omweso", "pw"))
        );
        let dir = std::env::temp_dir().join(format!("omweso-creds-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let password = dir.join("nats-password");
        std::fs::write(&password, "from-a-file\n").unwrap();
        let seed = dir.join("seed");
        std::fs::write(&seed, "SUAEXAMPLE\n").unwrap();
        let secret = dir.join("secret");
        std::fs::write(&secret, format!("{SECRET}\n")).unwrap();
        let from_files = settings(|s| {
            s.nats_user = "omweso".into();
            s.nats_password_file = password.to_string_lossy().into_owned();
            s.cluster_secret = String::new();
            s.cluster_secret_file = secret.to_string_lossy().into_owned();
        });
        let credentials = Credentials::from_settings(plain, &from_files).unwrap();
        assert_eq!(credentials.nats, user_password("omweso", "from-a-file"));
        assert_eq!(credentials.secret, SECRET);
        let nkey = settings(|s| s.nats_nkey_file = seed.to_string_lossy().into_owned());
        assert_eq!(
            auth(plain, &nkey),
            Ok(NatsAuth::NkeySeed("SUAEXAMPLE".into()))
        );
        let missing = settings(|s| {
            s.nats_user = "omweso".into();
            s.nats_password_file = dir.join("none").to_string_lossy().into_owned();
        });
        let refusal = auth(plain, &missing).unwrap_err();
        assert!(
            refusal.starts_with("could not read the NATS password from "),
            "{refusal}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_node_without_credentials_or_secret_is_told_what_to_give() {
        let plain = "nats://127.0.0.1:4222";
        let refusal = auth(plain, &settings(|_| {})).unwrap_err();
        assert!(
            refusal.starts_with("several nodes need NATS credentials"),
            "{refusal}"
        );
        let refusal = auth(plain, &settings(|s| s.nats_user = "omweso".into())).unwrap_err();
        assert!(
            refusal.starts_with("--nats-user needs --nats-password"),
            "{refusal}"
        );
        let refusal = auth(plain, &settings(|s| s.nats_password = "pw".into())).unwrap_err();
        assert!(refusal.starts_with("--nats-user needs"), "{refusal}");
        let with_user = |secret: &str| {
            let secret = secret.to_owned();
            settings(move |s| {
                s.nats_user = "omweso".into();
                s.nats_password = "pw".into();
                s.cluster_secret = secret;
            })
        };
        let refusal = auth(plain, &with_user("")).unwrap_err();
        assert!(
            refusal.starts_with("several nodes need the cluster's secret"),
            "{refusal}"
        );
        assert_eq!(
            auth(plain, &with_user("short")).unwrap_err(),
            "the cluster's secret must be at least 32 characters (it has 5): e.g. `openssl rand -hex 32`"
        );
    }

    #[test]
    fn a_url_is_logged_without_its_credentials() {
        assert_eq!(
            without_credentials("nats://omweso:pw@nats:4222"),
            "nats://nats:4222"
        );
        assert_eq!(
            without_credentials("nats://token@nats:4222"),
            "nats://nats:4222"
        );
        assert_eq!(without_credentials("nats://nats:4222"), "nats://nats:4222");
        assert_eq!(without_credentials("user:pw@nats:4222"), "nats:4222");
    }
}
