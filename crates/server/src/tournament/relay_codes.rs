//! A relay invite's code typed at `/link` by a volunteer who could not scan its QR code
//! (docs/tournaments.md): the table it is for, found through the store's `relay_codes` (the
//! tournament's log keeps the invite by its table), and asked of the tournament whether it
//! is still open. Found, not used: the relay's page claims it.

use crate::http::error::ApiError;
use crate::people::codes::{typed_code, LINK_CODE_CHARACTERS};
use crate::tournament::actor::BoardCommand;
use crate::tournament::extract::find_in;
use crate::tournament::registry::Tournaments;
use omweso_protocol::accounts::RelayPlace;
use omweso_protocol::clock::now_ms;
use omweso_protocol::ErrorCode;

/// The board table whose open relay invite the code `typed` is (typed at `/link` by a
/// volunteer who could not scan it): its tournament, round and table, and the relay's
/// page with the code, which claims it. Found, not used. `bad_code` when it is no open
/// invite's. The caller counts the try.
pub async fn relay_by_code(tournaments: &Tournaments, typed: &str) -> Result<RelayPlace, ApiError> {
    let bad = || {
        ApiError::new(
            ErrorCode::BadCode,
            "this code is wrong, used already or expired; ask for a new one",
        )
    };
    let code = typed_code(typed, LINK_CODE_CHARACTERS).ok_or_else(bad)?;
    let code_hash = crate::store::hash_token(&code);
    let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
    let Some(row) = tournaments.store().relay_code(&code_hash, now).await? else {
        return Err(bad());
    };
    let (round, table) = (row.round, row.table);
    let handle = match find_in(tournaments, row.tournament_id).await {
        Ok(handle) => handle,
        Err(refusal) if refusal.code == ErrorCode::NotFound => return Err(bad()),
        Err(refusal) => return Err(refusal),
    };
    let open = handle
        .ask(|reply| {
            BoardCommand::RelayInviteOpen {
                round,
                table,
                code_hash,
                reply,
            }
            .into()
        })
        .await
        .map_err(|gone| ApiError::internal(&gone))?;
    let tournament_name = open.ok_or_else(bad)?;
    let id = row.tournament_id;
    Ok(RelayPlace {
        tournament_id: id,
        tournament_name,
        round,
        table,
        path: format!("/t/{id}/relay/{round}/{table}#code={code}"),
    })
}
