// "Play the computer" in the lobby: the same choices as a new game (game, start, time
// control, your side) and the computer's level; creating it seats the computer at once and
// opens the game page, where it plays its moves like any opponent.

import { api } from './api.js';
import { h, safeStorage } from './ui.js';

/** The eight levels, weakest first, each in a few words. */
export const LEVELS = /** @type {[number, string][]} */ ([
  [1, 'Beginner: misses a lot'],
  [2, 'Novice'],
  [3, 'Casual player'],
  [4, 'Club player'],
  [5, 'Strong club player'],
  [6, 'Expert'],
  [7, 'Master'],
  [8, 'Strongest: about a second of thought a move'],
]);

/** The computer's card in the lobby. */
export function computerCard() {
  const saved = (/** @type {string} */ key, /** @type {string} */ fallback) => safeStorage(`omweso.bot.${key}`) || fallback;
  /**
   * @param {string} name
   * @param {string} label
   * @param {[string, string][]} options
   * @param {string} [fallback] the choice when none was saved (the first otherwise)
   */
  const select = (name, label, options, fallback = options[0][0]) => {
    const id = `bot-${name}`;
    const el = h('select', { id, name },
      options.map(([value, text]) => h('option', { value, selected: saved(name, fallback) === value }, text)));
    return { el, field: h('div', { class: 'field' }, h('label', { for: id }, label), el) };
  };
  const ruleset = select('ruleset', 'Game', [
    ['omweso', 'Omweso (4×8, Uganda)'], ['mweiso', 'Mweiso (4×8, Kagera)'], ['oware', 'Oware Abapa (2×6)']]);
  const setup = select('setup', 'Start', [
    ['outer', 'Outer row: 4 seeds in each outer pit'], ['even', 'Even: 2 seeds in every pit'], ['free', 'Free: each player arranges 32 seeds']]);
  const level = select('level', 'Level', LEVELS.map(([n, words]) => [String(n), `${n} — ${words}`]), '2');
  const time = select('time', 'Time control', [
    ['casual', 'Casual: no referee count'], ['tournament', 'Tournament: your 3 s referee count (the computer steals), akakyala']]);
  const seat = select('seat', 'Your side', [
    ['first', 'South — you move first'], ['second', 'North — the computer moves first'], ['random', 'Random']]);
  const syncSetup = () => {
    const omweso = ruleset.el.value === 'omweso';
    setup.el.disabled = !omweso;
    setup.field.hidden = !omweso;
  };
  ruleset.el.addEventListener('change', syncSetup);
  syncSetup();
  const error = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', { type: 'submit', class: 'button primary', id: 'play-computer' }, 'Play the computer');
  return h('form', {
    class: 'card computer-card', 'aria-labelledby': 'computer-title',
    onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      error.textContent = '';
      button.disabled = true;
      const body = {
        ruleset: ruleset.el.value,
        setup: ruleset.el.value === 'omweso' ? setup.el.value : 'outer',
        seat: seat.el.value,
        time_control: { preset: time.el.value },
        opponent: { computer: { level: Number(level.el.value) } },
      };
      for (const [k, el] of /** @type {[string, HTMLSelectElement][]} */ ([['ruleset', ruleset.el], ['setup', setup.el], ['level', level.el], ['time', time.el], ['seat', seat.el]])) {
        safeStorage(`omweso.bot.${k}`, el.value);
      }
      try {
        const created = await api('POST', '/api/games', body);
        location.assign(created.url + location.search);
      } catch (e) {
        error.textContent = e instanceof Error ? e.message : String(e);
        button.disabled = false;
      }
    },
  },
  h('h2', { id: 'computer-title' }, 'Play the computer'),
  h('p', { class: 'muted small' }, 'A game against the computer starts at once; it is never away and never resigns.'),
  ruleset.field, setup.field, level.field, time.field, seat.field,
  error,
  h('div', { class: 'form-actions' }, button));
}
