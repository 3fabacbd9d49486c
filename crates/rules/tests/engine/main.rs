//! The rules engine's tests, one test binary (each module a suite): hand-made positions
//! for every rule of the three games, the worked examples of docs/rules.md, and property
//! tests against a naive reference model (`common::reference`).

mod common;
mod game;
mod mweiso_opening;
mod mweiso_rules;
mod omweso_examples;
mod omweso_rules;
mod oware;
mod properties;
