//! What the lobby lists of every live game, kept up to date by the games themselves: each
//! game's task writes its summary here when it changes, and the lobby (the HTTP lists and
//! the pushed lobby, `lobby::feed`) reads this map instead of asking hundreds of game tasks
//! for a snapshot. Every change is marked on [`LobbyChanges`] for the pushed lobby.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use uuid::Uuid;

use crate::http::address::AddressKey;
use crate::lobby::changes::LobbyChanges;
use omweso_protocol::lobby::GameSummary;
use omweso_protocol::Status;

/// The summaries of the games in memory. Cheap to clone; the lock is held only to copy a
/// summary in or out, never across an `.await`.
#[derive(Clone, Debug, Default)]
pub struct Lobby {
    inner: Arc<Mutex<Listed>>,
    changes: Arc<LobbyChanges>,
    /// The games other nodes list (several nodes, docs/scaling.md): each node's latest
    /// lists as it published them, and when they came.
    others: Arc<Mutex<OtherNodes>>,
}

/// Each other node's games as it last published them, and when.
type OtherNodes = HashMap<Uuid, (Vec<GameSummary>, std::time::Instant)>;

/// How long another node's lists are shown without a newer publication (it publishes
/// them every `cluster::lobby::REPUBLISH` at least; a node that stopped drops out).
pub const OTHERS_KEPT: std::time::Duration = std::time::Duration::from_secs(6);

/// Under one lock, so that a creation's check of the limits and its place among the
/// games being created are one step ([`Lobby::reserve`]).
#[derive(Debug, Default)]
struct Listed {
    games: HashMap<Uuid, GameSummary>,
    /// Games being created (checked, not yet in `games`): by creator, and whether
    /// against the computer.
    creating: HashMap<(Uuid, bool), usize>,
    /// The address each game against the computer was created from (not known for one
    /// restored after a restart: addresses are not stored).
    addresses: HashMap<Uuid, AddressKey>,
    /// Games against the computer being created, by address.
    creating_at: HashMap<AddressKey, usize>,
}

impl Listed {
    fn creating(&self, creator: Uuid, computer: bool) -> usize {
        self.creating
            .get(&(creator, computer))
            .copied()
            .unwrap_or(0)
    }

    fn creating_in_all(&self, computer: bool) -> usize {
        self.creating
            .iter()
            .filter(|((_, c), _)| *c == computer)
            .map(|(_, n)| n)
            .sum()
    }

    /// Unfinished games against the computer, in all, by `creator` and from `address`,
    /// counting those being created.
    fn bot_games(&self, creator: Uuid, address: Option<AddressKey>) -> BotGames {
        let unfinished = self
            .games
            .values()
            .filter(|g| g.computer.is_some() && !g.status.is_over());
        let mut counted = BotGames::default();
        for game in unfinished {
            counted.all += 1;
            counted.mine += usize::from(game.creator == creator);
            counted.at_address += usize::from(
                address.is_some() && self.addresses.get(&game.game_id) == address.as_ref(),
            );
        }
        counted.all += self.creating_in_all(true);
        counted.mine += self.creating(creator, true);
        counted.at_address += address
            .and_then(|a| self.creating_at.get(&a).copied())
            .unwrap_or(0);
        counted
    }

    /// Games not started, in all and by `creator`, counting those being created. Games
    /// against the computer are not among them, even while their free setup is being
    /// arranged: they have limits of their own ([`Listed::bot_games`]).
    fn unstarted(&self, creator: Uuid) -> (usize, usize) {
        let unstarted = self
            .games
            .values()
            .filter(|g| g.status == Status::Setup && g.computer.is_none());
        let (all, mine) = unstarted.fold((0, 0), |(all, mine), g| {
            (all + 1, mine + usize::from(g.creator == creator))
        });
        (
            all + self.creating_in_all(false),
            mine + self.creating(creator, false),
        )
    }
}

/// Unfinished games against the computer: in all, by one creator, from one address.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BotGames {
    pub all: usize,
    pub mine: usize,
    pub at_address: usize,
}

/// The limits a new game is checked against ([`Lobby::reserve`]).
#[derive(Clone, Copy, Debug)]
pub struct CreationLimits {
    pub open_games_per_session: usize,
    pub open_games: usize,
    pub bot_games_per_session: usize,
    pub bot_games_per_ip: usize,
    pub bot_games: usize,
}

/// The limit a new game would pass, with the creator's own count where it is theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverLimit {
    BotGamesPerSession(usize),
    BotGamesPerIp(usize),
    BotGames,
    OpenGamesPerSession(usize),
    OpenGames,
}

/// A game's place among the games being created, from its check of the limits until its
/// summary is listed (or its creation fails): dropping it gives the place back. Without
/// it, two requests of one session at once would both pass a check made before either
/// game was listed (the creation awaits the store in between).
#[derive(Debug)]
#[must_use = "the place is given back when this is dropped"]
pub struct Reservation {
    lobby: Lobby,
    key: (Uuid, bool),
    /// The address of a game against the computer.
    address: Option<AddressKey>,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut listed = self.lobby.lock();
        if let Some(count) = listed.creating.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                listed.creating.remove(&self.key);
            }
        }
        if let Some(address) = self.address {
            if let Some(count) = listed.creating_at.get_mut(&address) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    listed.creating_at.remove(&address);
                }
            }
        }
    }
}

/// The most games one lobby list shows.
pub const LIST_MAX: usize = 50;

/// Whether `game` is on the `open` list (waiting for a player) or the live one (played).
fn listed_as(game: &GameSummary, open: bool) -> bool {
    if open {
        game.is_open()
    } else {
        game.status == Status::Playing
    }
}

impl Lobby {
    /// The lock. Every change under it is one insert, removal or count, so a panic
    /// elsewhere while it was held cannot have left it half changed: a poisoned lock is
    /// taken as it is rather than emptying the lobby from then on.
    fn lock(&self) -> std::sync::MutexGuard<'_, Listed> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Checks a new game by `creator` against the limits, counting the games being
    /// created as well as those listed, and if it passes holds its place until the
    /// [`Reservation`] is dropped: drop it once the game is listed (the game's task lists
    /// it as it is spawned) or its creation has failed.
    /// A game against the computer is counted by its creator's `address` too.
    pub fn reserve(
        &self,
        creator: Uuid,
        address: AddressKey,
        computer: bool,
        limits: CreationLimits,
    ) -> Result<Reservation, OverLimit> {
        let mut listed = self.lock();
        if computer {
            let counted = listed.bot_games(creator, Some(address));
            if counted.mine >= limits.bot_games_per_session {
                return Err(OverLimit::BotGamesPerSession(counted.mine));
            }
            if counted.at_address >= limits.bot_games_per_ip {
                return Err(OverLimit::BotGamesPerIp(counted.at_address));
            }
            if counted.all >= limits.bot_games {
                return Err(OverLimit::BotGames);
            }
            *listed.creating_at.entry(address).or_insert(0) += 1;
        } else {
            let (all, mine) = listed.unstarted(creator);
            if mine >= limits.open_games_per_session {
                return Err(OverLimit::OpenGamesPerSession(mine));
            }
            if all >= limits.open_games {
                return Err(OverLimit::OpenGames);
            }
        }
        *listed.creating.entry((creator, computer)).or_insert(0) += 1;
        Ok(Reservation {
            lobby: self.clone(),
            key: (creator, computer),
            address: computer.then_some(address),
        })
    }

    /// Lists a game as its task starts, with the address it was created from (a game
    /// against the computer counts against that address's limit while unfinished).
    pub fn list_new(&self, summary: GameSummary, address: Option<AddressKey>) {
        if let Some(address) = address.filter(|_| summary.computer.is_some()) {
            self.lock().addresses.insert(summary.game_id, address);
        }
        self.update(summary);
    }

    /// Where the changes are marked (shared with the tournaments, read by the feed).
    #[must_use]
    pub fn changes(&self) -> &Arc<LobbyChanges> {
        &self.changes
    }

    pub fn update(&self, summary: GameSummary) {
        let mut listed = self.lock();
        let changed = match listed.games.get_mut(&summary.game_id) {
            // The crowd's batch writes the summary again whether or not it changed.
            Some(known) if *known == summary => false,
            Some(known) => {
                *known = summary;
                true
            }
            None => {
                listed.games.insert(summary.game_id, summary);
                true
            }
        };
        drop(listed);
        if changed {
            self.changes.games_changed();
        }
    }

    /// A game's move count, changed in place (on every move: no allocation). Not marked
    /// as a change: pushing every lobby again on every move would cost each visitor a
    /// whole frame four times a second; the feed reads the counts again every
    /// [`crate::lobby::feed::MOVE_COUNTS_EVERY`] instead.
    pub fn set_moves(&self, id: Uuid, moves: usize) {
        if let Some(game) = self.lock().games.get_mut(&id) {
            game.moves = moves;
        }
    }

    pub fn remove(&self, id: Uuid) {
        let mut listed = self.lock();
        listed.addresses.remove(&id);
        let removed = listed.games.remove(&id).is_some();
        drop(listed);
        if removed {
            self.changes.games_changed();
        }
    }

    /// The newest [`LIST_MAX`] games waiting for a player (`open`) or being played.
    #[must_use]
    pub fn list(&self, open: bool) -> Vec<GameSummary> {
        let mut listed = self.list_own(open);
        let others = self.others.lock().unwrap_or_else(PoisonError::into_inner);
        for (games, at) in others.values() {
            if at.elapsed() < OTHERS_KEPT {
                listed.extend(games.iter().filter(|g| listed_as(g, open)).cloned());
            }
        }
        drop(others);
        // A game moving between nodes may be listed by both for a moment: once.
        listed.sort_by_key(|g| std::cmp::Reverse((g.created_at_ms, g.game_id)));
        listed.dedup_by_key(|g| g.game_id);
        listed.truncate(LIST_MAX);
        listed
    }

    /// As [`Lobby::list`], this node's own games only (what it publishes to the others).
    #[must_use]
    pub fn list_own(&self, open: bool) -> Vec<GameSummary> {
        let games = self.lock();
        let mut listed: Vec<GameSummary> = games
            .games
            .values()
            .filter(|g| listed_as(g, open))
            .cloned()
            .collect();
        drop(games);
        listed.sort_by_key(|g| std::cmp::Reverse((g.created_at_ms, g.game_id)));
        listed.truncate(LIST_MAX);
        listed
    }

    /// Forgets the games of nodes not heard from for [`OTHERS_KEPT`] (stopped): the pushed
    /// lobby is told, as for any change.
    pub fn forget_silent_others(&self) {
        let mut others = self.others.lock().unwrap_or_else(PoisonError::into_inner);
        let before = others.len();
        others.retain(|_, (_, at)| at.elapsed() < OTHERS_KEPT);
        let changed = others.len() != before;
        drop(others);
        if changed {
            self.changes.games_changed();
        }
    }

    /// Node `node`'s games, as it published them; the lists changed if they differ.
    pub fn set_others(&self, node: Uuid, games: Vec<GameSummary>) {
        let mut others = self.others.lock().unwrap_or_else(PoisonError::into_inner);
        let changed = others.get(&node).is_none_or(|(known, _)| *known != games);
        others.insert(node, (games, std::time::Instant::now()));
        others.retain(|_, (_, at)| at.elapsed() < OTHERS_KEPT);
        drop(others);
        if changed {
            self.changes.games_changed();
        }
    }

    /// Unfinished games against the computer, in all, created by `creator` and from
    /// `address`, with those being created.
    #[must_use]
    pub fn bot_games(&self, creator: Uuid, address: Option<AddressKey>) -> BotGames {
        self.lock().bot_games(creator, address)
    }

    /// Games not yet started, in all and created by `creator`, with those being created.
    #[must_use]
    pub fn unstarted(&self, creator: Uuid) -> (usize, usize) {
        self.lock().unstarted(creator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use omweso_protocol::config::{SetupKind, TimeControl};
    use omweso_protocol::lobby::{ComputerSeat, SeatNames};

    fn summary(created_at_ms: u64, status: Status, north: Option<&str>) -> GameSummary {
        GameSummary {
            game_id: Uuid::new_v4(),
            ruleset: omweso_rules::Ruleset::Omweso,
            setup: SetupKind::Outer,
            status,
            seats: SeatNames {
                s: Some("Kato".into()),
                n: north.map(str::to_owned),
            },
            time_control: TimeControl::CASUAL,
            spectators: 0,
            moves: 0,
            created_at_ms,
            creator: Uuid::nil(),
            computer: None,
            rated: false,
            ratings: Default::default(),
        }
    }

    #[test]
    fn lists_open_and_live_games_newest_first_and_counts_unstarted_ones() {
        let lobby = Lobby::default();
        let open_old = summary(1, Status::Setup, None);
        let open_new = summary(2, Status::Setup, None);
        let arranging = summary(3, Status::Setup, Some("Nakato"));
        let live = summary(4, Status::Playing, Some("Nakato"));
        let over = summary(5, Status::Finished, Some("Nakato"));
        for game in [&open_old, &open_new, &arranging, &live, &over] {
            lobby.update(game.clone());
        }
        let ids = |games: Vec<GameSummary>| games.iter().map(|g| g.game_id).collect::<Vec<_>>();
        assert_eq!(ids(lobby.list(true)), [open_new.game_id, open_old.game_id]);
        assert_eq!(ids(lobby.list(false)), [live.game_id]);
        // Three not started (two open, one arranging its free setup), all by the nil creator.
        assert_eq!(lobby.unstarted(Uuid::nil()), (3, 3));
        assert_eq!(lobby.unstarted(Uuid::new_v4()), (3, 0));
        lobby.set_moves(live.game_id, 17);
        assert_eq!(lobby.list(false)[0].moves, 17);
        lobby.remove(live.game_id);
        assert!(lobby.list(false).is_empty());
    }

    #[test]
    fn changes_are_marked_for_the_pushed_lobby_and_repeats_are_not() {
        use crate::lobby::changes::Changed;
        let lobby = Lobby::default();
        let games_only = Changed {
            games: true,
            tournaments: false,
        };
        let game = summary(1, Status::Playing, Some("Nakato"));
        lobby.update(game.clone());
        assert_eq!(lobby.changes().take(), games_only);
        // The same summary again (the crowd's batch), the same move count: no change.
        lobby.update(game.clone());
        lobby.set_moves(game.game_id, 0);
        assert_eq!(lobby.changes().take(), Changed::default());
        // A move is not a change: the feed reads the counts on its own clock.
        lobby.set_moves(game.game_id, 1);
        assert_eq!(lobby.changes().take(), Changed::default());
        assert_eq!(lobby.list(false)[0].moves, 1);
        lobby.remove(game.game_id);
        assert_eq!(lobby.changes().take(), games_only);
        lobby.remove(game.game_id);
        lobby.set_moves(game.game_id, 2);
        assert_eq!(lobby.changes().take(), Changed::default());
    }

    #[test]
    fn a_reservation_counts_until_dropped_and_each_limit_is_named() {
        let limits = CreationLimits {
            open_games_per_session: 2,
            open_games: 3,
            bot_games_per_session: 1,
            bot_games_per_ip: 5,
            bot_games: 2,
        };
        let here = AddressKey::of("203.0.113.9".parse().unwrap());
        let lobby = Lobby::default();
        let kato = Uuid::nil();
        let nakato = Uuid::new_v4();
        // One open game listed; a second being created: Kato is at 2 of 2.
        lobby.update(summary(1, Status::Setup, None));
        let second = lobby.reserve(kato, here, false, limits).unwrap();
        assert_eq!(lobby.unstarted(kato), (2, 2));
        assert_eq!(
            lobby.reserve(kato, here, false, limits).unwrap_err(),
            OverLimit::OpenGamesPerSession(2)
        );
        // Nakato takes the server's third place; a fourth is over the server's limit.
        let third = lobby.reserve(nakato, here, false, limits).unwrap();
        assert_eq!(
            lobby
                .reserve(Uuid::new_v4(), here, false, limits)
                .unwrap_err(),
            OverLimit::OpenGames
        );
        // Games against the computer are counted apart.
        let bot = lobby.reserve(kato, here, true, limits).unwrap();
        assert_eq!(
            lobby.bot_games(kato, Some(here)),
            BotGames {
                all: 1,
                mine: 1,
                at_address: 1
            }
        );
        assert_eq!(
            lobby.reserve(kato, here, true, limits).unwrap_err(),
            OverLimit::BotGamesPerSession(1)
        );
        let other_bot = lobby.reserve(nakato, here, true, limits).unwrap();
        assert_eq!(
            lobby
                .reserve(Uuid::new_v4(), here, true, limits)
                .unwrap_err(),
            OverLimit::BotGames
        );
        // Dropped (created and listed, or failed): the places are given back.
        drop((second, third, bot, other_bot));
        assert_eq!(lobby.unstarted(kato), (1, 1));
        assert_eq!(
            lobby.bot_games(kato, Some(here)),
            BotGames {
                all: 0,
                mine: 0,
                at_address: 0
            }
        );
        // A game against the computer whose free setup is being arranged is not started,
        // but counts against the computer's limits only.
        let mut arranging = summary(2, Status::Setup, Some("Computer (level 1)"));
        arranging.computer = Some(ComputerSeat {
            seat: omweso_rules::Side::North,
            level: omweso_search::Level::MIN,
        });
        lobby.list_new(arranging, Some(here));
        assert_eq!(lobby.unstarted(kato), (1, 1));
        assert_eq!(
            lobby.bot_games(kato, Some(here)),
            BotGames {
                all: 1,
                mine: 1,
                at_address: 1
            }
        );
        assert_eq!(
            lobby.reserve(kato, here, true, limits).unwrap_err(),
            OverLimit::BotGamesPerSession(1)
        );
        assert!(lobby.reserve(kato, here, false, limits).is_ok());
    }

    /// Games against the computer count by their creator's address too, whatever the
    /// sessions: listed ones from the address they were created from, ones being created
    /// by their reservation's; a game restored without its address counts for none.
    #[test]
    fn games_against_the_computer_count_by_address() {
        let limits = CreationLimits {
            open_games_per_session: 10,
            open_games: 10,
            bot_games_per_session: 10,
            bot_games_per_ip: 2,
            bot_games: 10,
        };
        let lobby = Lobby::default();
        let here = AddressKey::of("203.0.113.9".parse().unwrap());
        let there = AddressKey::of("2001:db8::1".parse().unwrap());
        let bot = |creator: Uuid| {
            let mut game = summary(1, Status::Playing, Some("Computer (level 1)"));
            game.creator = creator;
            game.computer = Some(ComputerSeat {
                seat: omweso_rules::Side::North,
                level: omweso_search::Level::MIN,
            });
            game
        };
        let listed = bot(Uuid::from_u128(1));
        lobby.list_new(listed.clone(), Some(here));
        lobby.list_new(bot(Uuid::from_u128(2)), None);
        let being_made = lobby
            .reserve(Uuid::from_u128(3), here, true, limits)
            .unwrap();
        assert_eq!(
            lobby.bot_games(Uuid::from_u128(4), Some(here)),
            BotGames {
                all: 3,
                mine: 0,
                at_address: 2
            }
        );
        assert_eq!(
            lobby
                .reserve(Uuid::from_u128(4), here, true, limits)
                .unwrap_err(),
            OverLimit::BotGamesPerIp(2)
        );
        // Another address, and games of people (not counted by address), still pass.
        drop(
            lobby
                .reserve(Uuid::from_u128(4), there, true, limits)
                .unwrap(),
        );
        drop(
            lobby
                .reserve(Uuid::from_u128(4), here, false, limits)
                .unwrap(),
        );
        // A finished game, a removed one and a reservation dropped free their places.
        let mut over = listed.clone();
        over.status = Status::Finished;
        lobby.update(over);
        assert_eq!(lobby.bot_games(Uuid::nil(), Some(here)).at_address, 1);
        drop(being_made);
        lobby.remove(listed.game_id);
        assert_eq!(
            lobby.bot_games(Uuid::nil(), Some(here)),
            BotGames {
                all: 1,
                mine: 0,
                at_address: 0
            }
        );
    }
}
