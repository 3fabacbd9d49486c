// The victories a printed score sheet offers, as the rules name them (docs/rules.md 1.5,
// 2 and 3, with core/words.js's names): how a game on a wooden board can end, in each game.
// No DOM: node's tests import it.

import { VICTORY_NAMES } from '../core/words.js';

/**
 * The victories a sheet offers, as the rules name them (docs/rules.md 1.5, 2, 3; the
 * names of core/words.js): how a game on a wooden board can end.
 * @param {{ruleset: string, settings: {time_control?: object}}} snap
 * @returns {[string, string][]} the victory and its words on paper
 */
export function victoryChoices(snap) {
  const name = (/** @type {string} */ v) => VICTORY_NAMES[v] || v;
  if (snap.ruleset === 'oware') {
    return [['captures', 'captures (25 or more)'], ['impasse', 'impasse (agreed)'], ['resigned', name('resigned')]];
  }
  if (snap.ruleset === 'mweiso') {
    return [['no-move', name('no-move')], ['emitwe-ebiri', name('emitwe-ebiri')], ['resigned', name('resigned')]];
  }
  const akakyala = /** @type {any} */ (snap.settings.time_control)?.akakyala !== false;
  return [
    ['no-move', name('no-move')], ['emitwe-ebiri', name('emitwe-ebiri')],
    ...(akakyala ? [/** @type {[string, string]} */ (['akakyala', name('akakyala')])] : []),
    ['akawumbi', name('akawumbi')], ['resigned', name('resigned')],
  ];
}
