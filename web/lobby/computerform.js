// "Play the computer" in the lobby: the same choices as a new game (game, start, time
// control, your side) and the computer's level; creating it seats the computer at once and
// opens the game page, where it plays its moves like any opponent.

import { gameForm } from './gameform.js';

/** The eight levels, weakest first, each in a few words. */
export const LEVELS = /** @type {[number, string][]} */ ([
  [1, 'Beginner: misses a lot'],
  [2, 'Novice'],
  [3, 'Casual player'],
  [4, 'Club player'],
  [5, 'Strong club player'],
  [6, 'Expert'],
  [7, 'Master'],
  [8, 'Strongest (1 s a move)'],
]);

/** The computer's card in the lobby. */
export function computerCard() {
  return gameForm({
    key: 'bot',
    title: 'Play the computer',
    intro: 'A game against the computer starts at once; it is never away and never resigns.',
    submit: 'Play the computer',
    extra: { name: 'level', label: 'Level', options: LEVELS.map(([n, words]) => [String(n), `${n} — ${words}`]), fallback: '2' },
    body: (level) => ({ opponent: { computer: { level: Number(level) } } }),
    time: [
      ['casual', 'Casual: no referee count', 'Take your time: no count, no steals.'],
      ['tournament', 'Tournament: 3 s count', 'Your 3 s referee count: when it runs out, the computer steals the turn. Akakyala on.']],
    seat: [['first', 'South — you move first'], ['second', 'North — the computer moves first'], ['random', 'Random']],
    seatLabel: 'Your side',
  }, 'play-computer');
}
