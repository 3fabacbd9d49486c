//! Tournaments (RULES.md 5): the pure parts first. `berger` pairs a round-robin.

pub mod berger;
