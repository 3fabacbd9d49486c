//! The archive benchmark (filled in below).
