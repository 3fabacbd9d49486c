//! The limits on creating games, checked against the lobby's count of this node's games
//! and of those being created (docs/security.md: open games and games against the
//! computer, per session, per address and in all): a creation holds its place from its
//! check until its game is listed ([`Reservation`]).

use uuid::Uuid;

use super::games::Lobby;
use super::listed::Listed;
use crate::address::AddressKey;
use omweso_protocol::Status;

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

impl Lobby {
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
    use crate::lobby::games::tests::summary;
    use omweso_protocol::lobby::ComputerSeat;

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
            level: omweso_protocol::ComputerLevel::MIN,
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
                level: omweso_protocol::ComputerLevel::MIN,
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
