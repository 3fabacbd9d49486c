// How an archived game is said: its players ("Kato vs Nakato"), its result ("Nakato won by
// resignation"), its date. Shared by the archive's list and a finished game's page.

import { RULESET_NAMES, VICTORY_NAMES } from '../core/words.js';

/** @typedef {import('./archiveapi.js').ArchiveGame} ArchiveGame */
/** @typedef {import('./archiveapi.js').ArchiveSeat} ArchiveSeat */

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** A seat's name ("a free seat" when none). @param {ArchiveSeat|null} seat */
export function seatName(seat) {
  return seat ? seat.name : 'a free seat';
}

/** "Kato vs Nakato" (South first). @param {ArchiveGame} game */
export function players(game) {
  return `${seatName(game.south)} vs ${seatName(game.north)}`;
}

/**
 * The game's result in words: "Nakato won by resignation", "Draw", "Annulled: a
 * never-ending turn".
 * @param {ArchiveGame} game
 */
export function resultText(game) {
  const how = game.victory ? VICTORY_NAMES[game.victory] || game.victory : '';
  switch (game.result) {
    case 'south': return `${seatName(game.south)} won${how ? ` by ${how}` : ''}`;
    case 'north': return `${seatName(game.north)} won${how ? ` by ${how}` : ''}`;
    case 'draw': return 'Draw';
    default: return how ? `Annulled: ${how}` : 'Annulled';
  }
}

/** "Omweso · rated · 42 moves". @param {ArchiveGame} game */
export function detailsText(game) {
  const parts = [RULESET_NAMES[game.ruleset] || game.ruleset, game.rated ? 'rated' : 'casual'];
  if (game.moves !== undefined) parts.push(`${game.moves} ${game.moves === 1 ? 'move' : 'moves'}`);
  return parts.join(' · ');
}

/** The day a game ended: "26 Nov 2026". @param {ArchiveGame} game */
export function endDay(game) {
  return DAY.format(new Date(game.finished_at_ms));
}
