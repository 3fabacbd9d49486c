//! Oware (Abapa).
