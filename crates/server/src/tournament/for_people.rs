//! The tournaments' answers to what the people's routes ask of them
//! (`people::their_tournaments`): a person's new name carried to the unfinished
//! tournaments they are in, the relay invite a code typed at `/link` may be, and where a
//! director's linked player is now.

use uuid::Uuid;

use super::actor::Command;
use super::extract::find_in;
use super::registry::Tournaments;
use super::state::Place;
use crate::http::error::ApiError;
use crate::people::their_tournaments::{Answer, TheirTournaments};
use omweso_protocol::accounts::{PlaceKind, PlayerPlace, RelayPlace};
use omweso_protocol::ErrorCode;

/// The person's tournaments a rename is carried to, the newest first: more than a person
/// plays at once by far (unfinished ones are the newest).
const RENAMED_IN: i64 = 1_000;

impl TheirTournaments for Tournaments {
    fn carry_rename<'a>(&'a self, person: Uuid, name: &'a str) -> Answer<'a, ()> {
        Box::pin(rename_in_tournaments(self, person, name))
    }

    fn relay_invite<'a>(&'a self, typed: &'a str) -> Answer<'a, Result<RelayPlace, ApiError>> {
        Box::pin(super::relay_codes::relay_by_code(self, typed))
    }

    fn linked_player_place(
        &self,
        tournament: Uuid,
        player: Uuid,
    ) -> Answer<'_, Option<PlayerPlace>> {
        Box::pin(player_place(self, tournament, player))
    }
}

/// Carries a person's new name to the unfinished tournaments they are in (their
/// standings, pairings and console show it). A tournament that cannot be reached keeps
/// the old name (logged): the rename itself has been stored.
async fn rename_in_tournaments(tournaments: &Tournaments, person: Uuid, name: &str) {
    let entries = match tournaments.store().tournaments_of(person, RENAMED_IN).await {
        Ok(tournaments) => tournaments,
        Err(error) => {
            tracing::warn!(%error, "could not list a renamed person's tournaments");
            return;
        }
    };
    for entry in entries.iter().filter(|t| t.tournament.status != "finished") {
        let id = entry.tournament.id;
        let Ok(Some(handle)) = tournaments.get(id).await else {
            continue;
        };
        let renamed = handle
            .ask(|reply| Command::Rename {
                player: person,
                name: name.to_owned(),
                reply,
            })
            .await;
        match renamed {
            Ok(Ok(())) => {}
            // Left it, or it finished meanwhile: its names stay as they were.
            Ok(Err(refusal))
                if matches!(
                    refusal.code,
                    ErrorCode::NotInTournament | ErrorCode::TournamentClosed
                ) => {}
            _ => tracing::warn!(tournament = %id, "could not carry a rename to a tournament"),
        }
    }
}

/// Where the player a director's code linked is now, told to the tournament (its console
/// shows the code as used). `None` when the tournament cannot be asked: the device is
/// linked either way, and the page it opens is the tournament's.
async fn player_place(
    tournaments: &Tournaments,
    tournament: Uuid,
    player: Uuid,
) -> Option<PlayerPlace> {
    let asked = async {
        find_in(tournaments, tournament)
            .await?
            .ask(|reply| Command::DeviceLinked { player, reply })
            .await
            .map_err(|gone| ApiError::internal(&gone))?
            .map_err(ApiError::from)
    };
    let (place, name) = match asked.await {
        Ok(found) => found,
        Err(error) => {
            tracing::warn!(%tournament, message = %error.message, "a linked device's tournament was not told");
            return None;
        }
    };
    let (kind, path, round, table) = match place {
        Place::Game { game, round, table } => (
            PlaceKind::Game,
            format!("/g/{game}"),
            Some(round),
            Some(table),
        ),
        Place::Sheet { round, table } => (
            PlaceKind::Sheet,
            format!("/t/{tournament}/sheet/{round}/{table}"),
            Some(round),
            Some(table),
        ),
        Place::Tournament => (
            PlaceKind::Tournament,
            format!("/t/{tournament}"),
            None,
            None,
        ),
    };
    Some(PlayerPlace {
        kind,
        path,
        tournament_id: tournament,
        tournament_name: name,
        round,
        table,
    })
}
