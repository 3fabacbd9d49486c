// A rated tournament's seed rating beside a player's name (docs/ratings.md#rated-tournaments):
// the rating the player had when the field was seeded, kept for the sheets and exports.

/** @typedef {import('./tournamentstore.js').TournamentSnapshot} TournamentSnapshot */

/**
 * The seed rating of `playerId` in words ("1720"), or '' (a casual tournament, a field not
 * seeded yet, a person without an account).
 * @param {TournamentSnapshot} snap
 * @param {string | null | undefined} playerId
 */
export function seedRating(snap, playerId) {
  if (!snap.settings.rated || !playerId) return '';
  const rating = snap.players.find((p) => p.player_id === playerId)?.seed_rating;
  return rating === undefined || rating === null ? '' : String(rating);
}

/**
 * A name with its seed rating: "Kato (1720)", or the name alone.
 * @param {TournamentSnapshot} snap
 * @param {string | null | undefined} playerId
 * @param {string} name
 */
export function withSeedRating(snap, playerId, name) {
  const rating = seedRating(snap, playerId);
  return rating ? `${name} (${rating})` : name;
}
