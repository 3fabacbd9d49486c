//! The one place the blossom crate is called: a maximum weight matching of a general
//! graph, given as its weight table.
//!
//! The crate keeps its working tables per thread between calls, to spare reallocating
//! them: (2n + 1)² edges of 32 bytes, about 5 MB for 200 players, 32 MB for 500, held by
//! each thread that paired a field that large.

/// Weights are exact integers; i128 because the lexicographic weights of a large field
/// do not fit in i64 (`weights`).
pub(super) type Weight = i128;

/// The largest edge weight handed to the solver. Its dual variables start at the largest
/// weight and its slacks add two of them and subtract twice a weight; this leaves far more
/// room than that needs (i128::MAX / 256 ≈ 6.6e35).
pub(super) const MAX_WEIGHT: Weight = Weight::MAX >> 8;

/// A matching of `n` vertices of maximum total weight, `weights[a * n + b]` being the
/// weight of edge `a`-`b` (only `a < b` is read); a weight of 0 or less is no edge.
/// `mate[a]` is `a`'s partner, `None` when unmatched. The same table always gives the
/// same matching: the solver is deterministic and reads nothing else.
pub(super) fn max_weight(n: usize, weights: &[Weight]) -> Vec<Option<usize>> {
    debug_assert_eq!(weights.len(), n * n);
    debug_assert!(weights.iter().all(|&w| w <= MAX_WEIGHT));
    integer_blossom::max_weight_matching(weights, n)
}
