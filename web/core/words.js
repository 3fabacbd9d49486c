// The site's one vocabulary of display words: the games' names, the tournament systems, a
// time control, the victory types and their meanings, the reasons a game is annulled, a
// player's result on a score sheet, a sheet's and a tournament's status, points as a club
// writes them. Every page says these the same way because each takes them from here (they
// had drifted apart when each page kept its own). Counts in words are core/plural.js's.
// No DOM and no imports beyond core/: node's tests import it directly.

import { pointsPhrase } from './plural.js';

export const RULESET_NAMES = /** @type {Record<string, string>} */ ({
  omweso: 'Omweso', mweiso: 'Mweiso', oware: 'Oware',
});

/** The tournament systems in words. */
export const SYSTEM_WORDS = /** @type {Record<string, string>} */ ({
  swiss: 'Swiss', 'round-robin': 'round-robin', 'double-round-robin': 'double round-robin',
});

/**
 * The time control in words.
 * @param {{referee_seconds: number|null, move_limit_seconds: number|null, akakyala?: boolean}} tc
 */
export function describeTimeControl(tc) {
  const parts = [];
  parts.push(tc.referee_seconds == null ? 'no referee count' : `${tc.referee_seconds} s referee count`);
  parts.push(tc.move_limit_seconds == null ? 'no move limit' : `${Math.round(tc.move_limit_seconds / 60 * 10) / 10} min move limit`);
  if (tc.akakyala) parts.push('akakyala on');
  return parts.join(', ');
}

/**
 * The one display vocabulary of victory types (docs/rules.md#15-end-of-the-game, 2, 3, 4, 5.3) and of the
 * reasons a game is annulled: `VICTORY_NAMES` names each (a sheet's line, a select, a
 * mini-board), `VICTORY_WORDS` says what it means (never repeating the name), so a text
 * that shows both shows each once.
 */
export const VICTORY_NAMES = /** @type {Record<string, string>} */ ({
  'no-move': 'no move',
  'emitwe-ebiri': 'emitwe-ebiri',
  akawumbi: 'akawumbi',
  akakyala: 'akakyala',
  captures: 'captures',
  resigned: 'resignation',
  abandoned: 'abandonment',
  adjudicated: 'adjudication',
  impasse: 'agreement at an impasse',
  forfeit: 'forfeit',
  'never-ending': 'a never-ending turn',
  budget: 'a turn over the move limit',
});

/** What each victory type means. */
export const VICTORY_WORDS = /** @type {Record<string, string>} */ ({
  'no-move': 'the opponent has no pit with two seeds left',
  'emitwe-ebiri': 'captured at both ends, columns A and H, in one turn',
  akawumbi: 'captured in all eight columns in one turn',
  akakyala: 'captured twice before the opponent captured at all',
  captures: 'captured more than half the seeds',
  resigned: 'the opponent resigned',
  abandoned: 'the opponent abandoned the game (did not move, or stayed away)',
  adjudicated: 'the tournament round ended before the game was finished, and it was decided on the seeds on each side of the board',
  forfeit: 'the opponent never came',
  impasse: 'the players agreed to stop, neither able to capture again; the seeds left were split evenly and the captures decided',
});

/**
 * The victories whose meaning is what the loser did or could not do, said of the loser by
 * name (a game's result); `VICTORY_WORDS` says them of "the opponent" for a legend.
 * @type {Record<string, (loser: string) => string>}
 */
export const LOSER_WORDS = {
  'no-move': (loser) => `${loser} has no pit with two seeds left`,
  resigned: (loser) => `${loser} resigned`,
  abandoned: (loser) => `${loser} abandoned the game (did not move, or stayed away)`,
  forfeit: (loser) => `${loser} never came`,
};

/** Words for each reason a game is annulled. */
export const ANNUL_WORDS = /** @type {Record<string, string>} */ ({
  'never-ending': 'the turn would never end (a state of the turn repeated)',
  budget: 'the turn took longer than the 3-minute move limit',
});

/**
 * A victory type's name and meaning, each once: "emitwe-ebiri (captured at both ends,
 * columns A and H, in one turn)".
 * @param {string} victory
 */
export function victoryLabel(victory) {
  const name = VICTORY_NAMES[victory] || victory;
  const words = VICTORY_WORDS[victory];
  return words ? `${name} (${words})` : name;
}

/** @param {string} s */
export function capitalize(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** Words for a player's result on a sheet (docs/protocol.md). */
export const RESULT_WORDS = /** @type {Record<string, string>} */ ({
  won: 'won',
  drawn: 'drew',
  lost: 'lost',
  annulled: 'annulled',
  bye: 'bye',
  'forfeit-won': 'won by forfeit',
  'forfeit-lost': 'lost by forfeit',
  'adjudicated-won': 'won on adjudication',
  'adjudicated-drawn': 'drew on adjudication',
  'adjudicated-lost': 'lost on adjudication',
});

/** Short marks for the crosstable. */
export const RESULT_MARKS = /** @type {Record<string, string>} */ ({
  won: '1', drawn: '½', lost: '0', annulled: '½', bye: 'bye', 'forfeit-won': '+', 'forfeit-lost': '−',
  'adjudicated-won': '1', 'adjudicated-drawn': '½', 'adjudicated-lost': '0',
});

/** Points as a club writes them: 1, ½, 1½, 2.25. @param {number} points */
export function formatPoints(points) {
  const whole = Math.trunc(points);
  const rest = Math.round((points - whole) * 1000) / 1000;
  if (rest === 0.5) return whole ? `${whole}½` : '½';
  if (rest === 0) return String(whole);
  return String(Math.round(points * 1000) / 1000);
}

/** Points and their noun: "½ point", "1 point", "1½ points". @param {number} points */
export function pointsText(points) {
  return pointsPhrase(points, formatPoints(points));
}

/** A tournament's status, in its page's header. */
export const TOURNAMENT_STATUS_WORDS = /** @type {Record<string, string>} */ ({
  open: 'open for players', running: 'in progress', finished: 'finished',
});

/** A score sheet's status (docs/protocol.md), and `playing` for a game with no sheet yet. */
export const SHEET_STATUS_WORDS = /** @type {Record<string, string>} */ ({
  pending: 'pending', confirmed: 'confirmed', disputed: 'disputed', corrected: 'corrected', playing: 'being played',
});
