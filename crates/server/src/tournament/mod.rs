//! Tournaments (RULES.md 5): the pure parts first. `berger` pairs a round-robin; `standings` counts points and tiebreaks.

pub mod berger;
pub mod pairing;
pub mod standings;
