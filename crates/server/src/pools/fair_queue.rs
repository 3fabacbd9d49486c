//! A bounded queue served round-robin, first between groups (an address) and then, within
//! a group, between its members (a session): what the computer's searches and the analysis
//! engine's searches wait in (docs/security.md, "fair queues"). One player's flood of
//! searches waits behind itself: a newcomer's first search waits for at most one search of
//! every other group, not for every search queued before it.
//!
//! Groups take turns: a group served and still holding work goes to the back of the turn,
//! and one left empty leaves it. A group that comes (or comes back) to the queue goes
//! before every group served since it came, behind the others that came before it and
//! have not been served yet: a player asking for one search at a time is next, however
//! long the flood's own turns are. Within a group its members take turns the same way,
//! and each member's own items are first come, first served.
//!
//! Bounded in all and per group: a push past either bound is refused, never waited on.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

use uuid::Uuid;

/// Why a push was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The whole queue holds its bound.
    Queue,
    /// The group holds its share.
    Group,
}

/// Items queued round-robin by group, then by member. See the module's documentation.
#[derive(Debug)]
pub struct FairQueue<G, T> {
    turns: VecDeque<G>,
    groups: HashMap<G, Group<T>>,
    len: usize,
    capacity: usize,
    per_group: usize,
}

#[derive(Debug)]
struct Group<T> {
    turns: VecDeque<Uuid>,
    members: HashMap<Uuid, Member<T>>,
    len: usize,
    /// Not served since it came to the queue.
    fresh: bool,
}

#[derive(Debug)]
struct Member<T> {
    items: VecDeque<T>,
    fresh: bool,
}

/// Where a newcomer goes in `turns`: behind the newcomers before it, before everyone
/// served already.
fn newcomers_end<K>(turns: &VecDeque<K>, fresh: impl Fn(&K) -> bool) -> usize {
    turns.iter().position(|k| !fresh(k)).unwrap_or(turns.len())
}

impl<G: Clone + Eq + Hash, T> FairQueue<G, T> {
    /// A queue of at most `capacity` items, `per_group` of them from one group.
    #[must_use]
    pub fn new(capacity: usize, per_group: usize) -> FairQueue<G, T> {
        FairQueue {
            turns: VecDeque::new(),
            groups: HashMap::new(),
            len: 0,
            capacity,
            per_group,
        }
    }

    /// Items queued.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Items queued by `group`.
    #[must_use]
    pub fn queued_by(&self, group: &G) -> usize {
        self.groups.get(group).map_or(0, |g| g.len)
    }

    /// Queues `item` for `member` of `group`, or gives it back with the bound it would
    /// pass.
    pub fn push(&mut self, group: G, member: Uuid, item: T) -> Result<(), (Full, T)> {
        if self.len >= self.capacity {
            return Err((Full::Queue, item));
        }
        if self.queued_by(&group) >= self.per_group {
            return Err((Full::Group, item));
        }
        if !self.groups.contains_key(&group) {
            let groups = &self.groups;
            let at = newcomers_end(&self.turns, |g| groups.get(g).is_some_and(|g| g.fresh));
            self.turns.insert(at, group.clone());
            self.groups.insert(
                group.clone(),
                Group {
                    turns: VecDeque::new(),
                    members: HashMap::new(),
                    len: 0,
                    fresh: true,
                },
            );
        }
        let Some(entry) = self.groups.get_mut(&group) else {
            return Err((Full::Queue, item));
        };
        if !entry.members.contains_key(&member) {
            let members = &entry.members;
            let at = newcomers_end(&entry.turns, |m| members.get(m).is_some_and(|m| m.fresh));
            entry.turns.insert(at, member);
            entry.members.insert(
                member,
                Member {
                    items: VecDeque::new(),
                    fresh: true,
                },
            );
        }
        if let Some(queued) = entry.members.get_mut(&member) {
            queued.items.push_back(item);
        }
        entry.len += 1;
        self.len += 1;
        Ok(())
    }

    /// The next item by the turns: the group whose turn it is, its member whose turn it
    /// is, that member's oldest item.
    pub fn pop(&mut self) -> Option<(G, Uuid, T)> {
        let group = self.turns.pop_front()?;
        let entry = self.groups.get_mut(&group)?;
        entry.fresh = false;
        let member = entry.turns.pop_front()?;
        let queued = entry.members.get_mut(&member)?;
        queued.fresh = false;
        let item = queued.items.pop_front()?;
        if queued.items.is_empty() {
            entry.members.remove(&member);
        } else {
            entry.turns.push_back(member);
        }
        entry.len -= 1;
        self.len -= 1;
        if entry.len == 0 {
            self.groups.remove(&group);
        } else {
            self.turns.push_back(group.clone());
        }
        Some((group, member, item))
    }

    /// Removes every item `keep` says no to (searches nobody waits for any more), so that
    /// they free their places at once.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut removed = 0;
        for entry in self.groups.values_mut() {
            for queued in entry.members.values_mut() {
                let before = queued.items.len();
                queued.items.retain(&mut keep);
                let gone = before - queued.items.len();
                entry.len -= gone;
                removed += gone;
            }
            entry.members.retain(|_, queued| !queued.items.is_empty());
            let members = &entry.members;
            entry.turns.retain(|m| members.contains_key(m));
        }
        self.len -= removed;
        self.groups.retain(|_, g| g.len > 0);
        let groups = &self.groups;
        self.turns.retain(|g| groups.contains_key(g));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    fn drain(queue: &mut FairQueue<&'static str, u32>) -> Vec<u32> {
        std::iter::from_fn(|| queue.pop().map(|(_, _, item)| item)).collect()
    }

    /// One address floods (a hundred searches from two sessions), then another address
    /// and a second session of the first ask once each: they are served second and third
    /// (after at most one search of each other group or member), not 101st.
    #[test]
    fn groups_then_members_take_turns_and_a_newcomer_waits_one_round() {
        let mut queue = FairQueue::new(1000, 1000);
        for i in 0..100u32 {
            queue
                .push("flood", member(1 + u128::from(i % 2)), i)
                .unwrap();
        }
        queue.push("home", member(7), 1000).unwrap();
        queue.push("flood", member(3), 2000).unwrap();
        assert_eq!(queue.len(), 102);
        assert_eq!(queue.queued_by(&"flood"), 101);
        let order = drain(&mut queue);
        // Flood's first, home's only one, then flood's members in turn: 1, 2, 3, 1, ...
        assert_eq!(order[..6], [0, 1000, 1, 2000, 2, 3]);
        assert_eq!(order.len(), 102);
        assert!(queue.is_empty());
        assert_eq!(queue.queued_by(&"flood"), 0);
    }

    #[test]
    fn each_members_items_are_first_come_and_a_group_coming_back_goes_first() {
        let mut queue = FairQueue::new(10, 10);
        queue.push("a", member(1), 1).unwrap();
        queue.push("a", member(1), 2).unwrap();
        queue.push("b", member(2), 10).unwrap();
        assert_eq!(queue.pop(), Some(("a", member(1), 1)));
        assert_eq!(queue.pop(), Some(("b", member(2), 10)));
        // "b" emptied and left the turns; coming back, it goes before "a" (served since),
        // and "c" after it, in the order they came.
        queue.push("b", member(2), 11).unwrap();
        queue.push("c", member(3), 20).unwrap();
        assert_eq!(drain(&mut queue), [11, 20, 2]);
    }

    /// The flood's group has been served and still has work: newcomers go before it, in
    /// the order they came; within a group, the same for a new member.
    #[test]
    fn newcomers_go_before_groups_served_already() {
        let mut queue = FairQueue::new(100, 100);
        for i in 1..=3 {
            queue.push("flood", member(1), i).unwrap();
        }
        assert_eq!(queue.pop(), Some(("flood", member(1), 1)));
        queue.push("b", member(2), 10).unwrap();
        queue.push("c", member(3), 20).unwrap();
        queue.push("flood", member(4), 30).unwrap();
        assert_eq!(drain(&mut queue), [10, 20, 30, 2, 3]);
    }

    #[test]
    fn the_bounds_refuse_at_once_and_say_which() {
        let mut queue = FairQueue::new(3, 2);
        queue.push("a", member(1), 1).unwrap();
        queue.push("a", member(2), 2).unwrap();
        assert_eq!(queue.push("a", member(3), 3), Err((Full::Group, 3)));
        queue.push("b", member(4), 4).unwrap();
        assert_eq!(queue.push("c", member(5), 5), Err((Full::Queue, 5)));
        assert_eq!(queue.pop(), Some(("a", member(1), 1)));
        queue.push("c", member(5), 5).unwrap();
        assert_eq!(drain(&mut queue), [4, 5, 2]);
    }

    #[test]
    fn retained_items_keep_their_turns_and_removed_ones_free_their_places() {
        let mut queue = FairQueue::new(4, 4);
        for (group, m, item) in [("a", 1, 1), ("b", 2, 2), ("a", 3, 3), ("b", 2, 4)] {
            queue.push(group, member(m), item).unwrap();
        }
        assert_eq!(queue.push("c", member(9), 9), Err((Full::Queue, 9)));
        // "b" is left with nothing: it leaves the turns.
        queue.retain(|item| item % 2 == 1);
        assert_eq!(queue.len(), 2);
        assert_eq!(queue.queued_by(&"b"), 0);
        queue.push("c", member(9), 9).unwrap();
        assert_eq!(drain(&mut queue), [1, 9, 3]);
    }
}
