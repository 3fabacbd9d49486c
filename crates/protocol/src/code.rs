//! Every error code the server answers with, over HTTP and on the socket, as one enum that
//! knows its HTTP status: a refusal is typed from where it is made to where it is written,
//! and no status is chosen by comparing strings.

use http::StatusCode;
use serde::{Deserialize, Serialize};

/// An error code (`{"code":"..."}` in an HTTP error body or a socket `error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    // -- the request itself --
    /// The JSON body is malformed or has unknown or ill-typed fields.
    BadBody,
    /// The body is not JSON (HTTP state changes).
    BadContentType,
    /// A request from a page of another site.
    BadOrigin,
    /// A frame or body is larger than the server accepts.
    TooLarge,
    /// A socket frame is not a protocol message.
    BadMessage,
    /// A socket message of a type the protocol does not have.
    UnknownType,
    /// A request the server could not otherwise classify (an extractor's refusal).
    BadRequest,
    MethodNotAllowed,
    /// The request was not completed in time.
    Timeout,
    /// A limit of docs/security.md was reached.
    RateLimited,
    // -- who asks --
    /// No session: make one first.
    NoSession,
    NotFound,
    // -- creating a game or a session --
    BadName,
    BadSetup,
    BadTimeControl,
    BadList,
    /// `?v=` is not a version.
    BadVersion,
    // -- a table's refusals --
    SeatsTaken,
    NotSeated,
    /// A spectator tried to play.
    Spectator,
    NotStarted,
    GameStarted,
    GameOver,
    NotYourTurn,
    /// A decision is pending: answer it before starting another turn.
    TurnInProgress,
    NoArrangement,
    AlreadyArranged,
    BadArrangement,
    /// The move's notation does not parse.
    BadMove,
    /// The move parses but the rules do not allow it.
    IllegalMove,
    NoDecision,
    BadDecision,
    /// An impasse proposal in a game that is not Oware (docs/rules.md#3-oware-abapa).
    NotOware,
    /// A proposal to stop at an impasse while one already stands.
    ImpasseStanding,
    /// An answer with no proposal standing.
    NoImpasse,
    /// A player answering their own proposal.
    OwnImpasse,
    /// A relay's entry for a game played online (docs/rules.md#57-over-the-board-play-and-relays).
    NotRelayed,
    /// A player's own move in a relayed game: its moves are entered by its relay.
    RelayedGame,
    /// A relay's undo with no entry left to take back.
    NothingToUndo,
    // -- tournaments --
    /// A tournament's settings are not valid.
    BadSettings,
    /// A pairing names an unknown player, or one twice.
    BadPairing,
    /// A dispute or correction without a reason, or with too long a one.
    BadReason,
    /// Only the tournament's director may do this.
    NotDirector,
    /// Only the players of that game may confirm or dispute its sheet.
    NotYourGame,
    /// This session has joined the tournament already.
    AlreadyJoined,
    /// The player is not in the tournament (or withdrew already).
    NotInTournament,
    /// The tournament no longer takes players (its last round is paired, or it is over).
    TournamentClosed,
    /// The round is not in a state that allows this (not paired, started, over...).
    RoundNotReady,
    /// No pairing keeps the absolute rules: the message says which rule and for whom.
    NoPairing,
    /// A manual pairing breaks an absolute rule: send it again with `confirm_breach`.
    PairingBreach,
    /// The sheet is no longer open to confirmation or dispute.
    SheetSettled,
    // -- analysis --
    /// A position string that is not a position of the ruleset.
    BadPosition,
    /// A sowing budget or a thinking time out of its bounds.
    BadLimit,
    /// The side named for a search may not move (or none was named where two may).
    BadSide,
    // -- accounts --
    /// A username that breaks the rules (the message says how).
    BadUsername,
    /// The username, or one that looks like it, is another account's.
    UsernameTaken,
    /// A password too short, too long or easy to guess (the message says why).
    WeakPassword,
    /// Making an account from a session that is one already.
    AlreadyAccount,
    /// A password operation for a guest, who has none.
    NotAccount,
    /// A wrong username or password (the same for both).
    BadCredentials,
    /// The account was disabled by the server's operator.
    AccountDisabled,
    /// A device a tournament's director linked (a player's new device) asked for
    /// something outside that tournament: it is the player there only.
    LimitedDevice,
    /// A link, recovery or invitation code that is wrong, used or expired.
    BadCode,
    /// An e-mail address that is not one (the message says why).
    BadEmail,
    /// An e-mail call on a server that sends no mail (its operator set up no SMTP).
    EmailOff,
    // -- the server --
    /// The server could not save or compute this; nothing changed.
    Unavailable,
}

impl ErrorCode {
    /// Every code, in declaration order (for documentation and tests).
    pub const ALL: [ErrorCode; 66] = [
        ErrorCode::BadBody,
        ErrorCode::BadContentType,
        ErrorCode::BadOrigin,
        ErrorCode::TooLarge,
        ErrorCode::BadMessage,
        ErrorCode::UnknownType,
        ErrorCode::BadRequest,
        ErrorCode::MethodNotAllowed,
        ErrorCode::Timeout,
        ErrorCode::RateLimited,
        ErrorCode::NoSession,
        ErrorCode::NotFound,
        ErrorCode::BadName,
        ErrorCode::BadSetup,
        ErrorCode::BadTimeControl,
        ErrorCode::BadList,
        ErrorCode::BadVersion,
        ErrorCode::SeatsTaken,
        ErrorCode::NotSeated,
        ErrorCode::Spectator,
        ErrorCode::NotStarted,
        ErrorCode::GameStarted,
        ErrorCode::GameOver,
        ErrorCode::NotYourTurn,
        ErrorCode::TurnInProgress,
        ErrorCode::NoArrangement,
        ErrorCode::AlreadyArranged,
        ErrorCode::BadArrangement,
        ErrorCode::BadMove,
        ErrorCode::IllegalMove,
        ErrorCode::NoDecision,
        ErrorCode::BadDecision,
        ErrorCode::NotOware,
        ErrorCode::ImpasseStanding,
        ErrorCode::NoImpasse,
        ErrorCode::OwnImpasse,
        ErrorCode::NotRelayed,
        ErrorCode::RelayedGame,
        ErrorCode::NothingToUndo,
        ErrorCode::BadSettings,
        ErrorCode::BadPairing,
        ErrorCode::BadReason,
        ErrorCode::NotDirector,
        ErrorCode::NotYourGame,
        ErrorCode::AlreadyJoined,
        ErrorCode::NotInTournament,
        ErrorCode::TournamentClosed,
        ErrorCode::RoundNotReady,
        ErrorCode::NoPairing,
        ErrorCode::PairingBreach,
        ErrorCode::SheetSettled,
        ErrorCode::BadPosition,
        ErrorCode::BadLimit,
        ErrorCode::BadSide,
        ErrorCode::BadUsername,
        ErrorCode::UsernameTaken,
        ErrorCode::WeakPassword,
        ErrorCode::AlreadyAccount,
        ErrorCode::NotAccount,
        ErrorCode::BadCredentials,
        ErrorCode::AccountDisabled,
        ErrorCode::LimitedDevice,
        ErrorCode::BadCode,
        ErrorCode::BadEmail,
        ErrorCode::EmailOff,
        ErrorCode::Unavailable,
    ];

    /// The code as it is written on the wire.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadBody => "bad_body",
            ErrorCode::BadContentType => "bad_content_type",
            ErrorCode::BadOrigin => "bad_origin",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::Timeout => "timeout",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NoSession => "no_session",
            ErrorCode::NotFound => "not_found",
            ErrorCode::BadName => "bad_name",
            ErrorCode::BadSetup => "bad_setup",
            ErrorCode::BadTimeControl => "bad_time_control",
            ErrorCode::BadList => "bad_list",
            ErrorCode::BadVersion => "bad_version",
            ErrorCode::SeatsTaken => "seats_taken",
            ErrorCode::NotSeated => "not_seated",
            ErrorCode::Spectator => "spectator",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::GameStarted => "game_started",
            ErrorCode::GameOver => "game_over",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::TurnInProgress => "turn_in_progress",
            ErrorCode::NoArrangement => "no_arrangement",
            ErrorCode::AlreadyArranged => "already_arranged",
            ErrorCode::BadArrangement => "bad_arrangement",
            ErrorCode::BadMove => "bad_move",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::NoDecision => "no_decision",
            ErrorCode::BadDecision => "bad_decision",
            ErrorCode::NotOware => "not_oware",
            ErrorCode::ImpasseStanding => "impasse_standing",
            ErrorCode::NoImpasse => "no_impasse",
            ErrorCode::OwnImpasse => "own_impasse",
            ErrorCode::NotRelayed => "not_relayed",
            ErrorCode::RelayedGame => "relayed_game",
            ErrorCode::NothingToUndo => "nothing_to_undo",
            ErrorCode::BadSettings => "bad_settings",
            ErrorCode::BadPairing => "bad_pairing",
            ErrorCode::BadReason => "bad_reason",
            ErrorCode::NotDirector => "not_director",
            ErrorCode::NotYourGame => "not_your_game",
            ErrorCode::AlreadyJoined => "already_joined",
            ErrorCode::NotInTournament => "not_in_tournament",
            ErrorCode::TournamentClosed => "tournament_closed",
            ErrorCode::RoundNotReady => "round_not_ready",
            ErrorCode::NoPairing => "no_pairing",
            ErrorCode::PairingBreach => "pairing_breach",
            ErrorCode::SheetSettled => "sheet_settled",
            ErrorCode::BadPosition => "bad_position",
            ErrorCode::BadLimit => "bad_limit",
            ErrorCode::BadSide => "bad_side",
            ErrorCode::BadUsername => "bad_username",
            ErrorCode::UsernameTaken => "username_taken",
            ErrorCode::WeakPassword => "weak_password",
            ErrorCode::AlreadyAccount => "already_account",
            ErrorCode::NotAccount => "not_account",
            ErrorCode::BadCredentials => "bad_credentials",
            ErrorCode::AccountDisabled => "account_disabled",
            ErrorCode::LimitedDevice => "limited_device",
            ErrorCode::BadCode => "bad_code",
            ErrorCode::BadEmail => "bad_email",
            ErrorCode::EmailOff => "email_off",
            ErrorCode::Unavailable => "unavailable",
        }
    }

    /// The HTTP status an answer with this code carries.
    #[must_use]
    pub const fn status(self) -> StatusCode {
        match self {
            ErrorCode::BadBody
            | ErrorCode::BadMessage
            | ErrorCode::UnknownType
            | ErrorCode::BadRequest
            | ErrorCode::BadName
            | ErrorCode::BadSetup
            | ErrorCode::BadTimeControl
            | ErrorCode::BadList
            | ErrorCode::BadVersion
            | ErrorCode::BadMove
            | ErrorCode::BadDecision
            | ErrorCode::BadArrangement
            | ErrorCode::BadSettings
            | ErrorCode::BadPairing
            | ErrorCode::BadReason
            | ErrorCode::BadPosition
            | ErrorCode::BadLimit
            | ErrorCode::BadSide
            | ErrorCode::BadUsername
            | ErrorCode::WeakPassword
            | ErrorCode::BadCode
            | ErrorCode::BadEmail => StatusCode::BAD_REQUEST,
            ErrorCode::BadCredentials => StatusCode::UNAUTHORIZED,
            ErrorCode::AccountDisabled | ErrorCode::LimitedDevice => StatusCode::FORBIDDEN,
            ErrorCode::BadContentType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::BadOrigin
            | ErrorCode::Spectator
            | ErrorCode::NotSeated
            | ErrorCode::NotDirector
            | ErrorCode::NotYourGame => StatusCode::FORBIDDEN,
            ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ErrorCode::Timeout => StatusCode::REQUEST_TIMEOUT,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::NoSession => StatusCode::UNAUTHORIZED,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            // The game is not in a state that allows it (RFC 9110's 409: a conflict with
            // the current state of the target resource).
            ErrorCode::SeatsTaken
            | ErrorCode::NotStarted
            | ErrorCode::GameStarted
            | ErrorCode::GameOver
            | ErrorCode::NotYourTurn
            | ErrorCode::TurnInProgress
            | ErrorCode::NoArrangement
            | ErrorCode::AlreadyArranged
            | ErrorCode::NoDecision
            | ErrorCode::NotOware
            | ErrorCode::ImpasseStanding
            | ErrorCode::NoImpasse
            | ErrorCode::OwnImpasse
            | ErrorCode::NotRelayed
            | ErrorCode::RelayedGame
            | ErrorCode::NothingToUndo
            | ErrorCode::AlreadyJoined
            | ErrorCode::NotInTournament
            | ErrorCode::TournamentClosed
            | ErrorCode::RoundNotReady
            | ErrorCode::NoPairing
            | ErrorCode::PairingBreach
            | ErrorCode::SheetSettled
            | ErrorCode::UsernameTaken
            | ErrorCode::AlreadyAccount
            | ErrorCode::NotAccount
            | ErrorCode::EmailOff => StatusCode::CONFLICT,
            ErrorCode::IllegalMove => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The code of a refusal made without one (by axum or hyper), from its status.
    #[must_use]
    pub fn for_status(status: StatusCode) -> ErrorCode {
        match status {
            StatusCode::NOT_FOUND => ErrorCode::NotFound,
            StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
            StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::TooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => ErrorCode::BadContentType,
            StatusCode::REQUEST_TIMEOUT => ErrorCode::Timeout,
            StatusCode::TOO_MANY_REQUESTS => ErrorCode::RateLimited,
            status if status.is_server_error() => ErrorCode::Unavailable,
            _ => ErrorCode::BadRequest,
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_serializes_as_its_name_and_back() {
        let mut seen = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
            assert_eq!(serde_json::from_str::<ErrorCode>(&json).unwrap(), code);
            assert!(seen.insert(code.as_str()), "{code} twice");
        }
    }

    #[test]
    fn statuses_of_the_codes_the_contract_names() {
        assert_eq!(ErrorCode::SeatsTaken.status(), StatusCode::CONFLICT);
        assert_eq!(ErrorCode::NoSession.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(ErrorCode::NotFound.status(), StatusCode::NOT_FOUND);
        assert_eq!(
            ErrorCode::RateLimited.status(),
            StatusCode::TOO_MANY_REQUESTS
        );
        assert_eq!(
            ErrorCode::Unavailable.status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
        // A status without a code of its own maps to the code whose status it is.
        for code in [
            ErrorCode::NotFound,
            ErrorCode::MethodNotAllowed,
            ErrorCode::TooLarge,
            ErrorCode::BadContentType,
            ErrorCode::Timeout,
            ErrorCode::RateLimited,
            ErrorCode::Unavailable,
        ] {
            assert_eq!(ErrorCode::for_status(code.status()), code);
        }
        assert_eq!(
            ErrorCode::for_status(StatusCode::LENGTH_REQUIRED),
            ErrorCode::BadRequest
        );
    }
}
