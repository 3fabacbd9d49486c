// A new game's form, shared by the lobby's two cards ("New game" against a person,
// "Play the computer"): the game, its start, the time control and the player's side, each
// choice remembered for the next visit, and POST /api/games on submit.

import { api } from '../core/api.js';
import { ensureSession } from '../core/session.js';
import { h, safeStorage } from '../core/ui.js';

/**
 * @typedef {([string, string] | [string, string, string])[]} Options value, words (short
 *   enough for a select on a 390 px phone) and, optionally, what the choice means in full
 *   (shown under the select while chosen); the default first
 */

/**
 * @param {{
 *   key: string,
 *   title: string,
 *   intro: string,
 *   submit: string,
 *   time: Options,
 *   seat: Options,
 *   seatLabel: string,
 *   extra?: {name: string, label: string, options: Options, fallback: string},
 *   body?: (extra: string) => object,
 *   rated?: boolean,
 * }} spec `key` names the card: its ids (`<key>-ruleset`, `<key>-title`), its class
 *   (`<key>-card`) and where its choices are remembered (`omweso.<key>.*`); `extra` is a
 *   choice shown after the start (the computer's level), `body` what it adds to the
 *   request; `rated` offers the choice of a rated or a casual game (against a person).
 * @param {string} submitId the submit button's id
 */
export function gameForm(spec, submitId) {
  const saved = (/** @type {string} */ name, /** @type {string} */ fallback) => safeStorage(`omweso.${spec.key}.${name}`) || fallback;
  /** @param {string} name @param {string} label @param {Options} options @param {string} [fallback] */
  const select = (name, label, options, fallback = options[0][0]) => {
    const id = `${spec.key}-${name}`;
    const hinted = options.some((o) => o.length > 2);
    const hint = hinted ? h('p', { class: 'small muted field-hint', id: `${id}-hint` }) : null;
    const el = h('select', { id, name, 'aria-describedby': hint ? `${id}-hint` : null },
      options.map(([value, text]) => h('option', { value, selected: saved(name, fallback) === value }, text)));
    if (hint) {
      const explain = () => { hint.textContent = options.find((o) => o[0] === el.value)?.[2] || ''; };
      el.addEventListener('change', explain);
      explain();
    }
    return { name, el, field: h('div', { class: 'field' }, h('label', { for: id }, label), el, hint) };
  };
  const ruleset = select('ruleset', 'Game', [
    ['omweso', 'Omweso (4×8, Uganda)'], ['mweiso', 'Mweiso (4×8, Kagera)'], ['oware', 'Oware Abapa (2×6)']]);
  const setup = select('setup', 'Start', [
    ['outer', 'Outer row: 4 in each outer pit'], ['even', 'Even: 2 in every pit'], ['free', 'Free: arrange your 32 seeds']]);
  const extra = spec.extra ? select(spec.extra.name, spec.extra.label, spec.extra.options, spec.extra.fallback) : null;
  const time = select('time', 'Time control', spec.time);
  const seat = select('seat', spec.seatLabel, spec.seat);
  // Rated by default between accounts (docs/ratings.md#what-is-rated); the server makes a
  // guest's game casual, so "Rated" is only ever sent as the default.
  const rated = spec.rated ? select('rated', 'Rating', [
    ['rated', 'Rated', 'Both ratings change with the result. Needs an account; if a guest joins, the game is casual.'],
    ['casual', 'Casual', 'No rating changes, whoever wins.']]) : null;
  const fields = [ruleset, setup, ...(extra ? [extra] : []), time, seat, ...(rated ? [rated] : [])];
  // Only Omweso has a choice of start.
  const syncSetup = () => {
    const omweso = ruleset.el.value === 'omweso';
    setup.el.disabled = !omweso;
    setup.field.hidden = !omweso;
  };
  ruleset.el.addEventListener('change', syncSetup);
  syncSetup();
  const error = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', { type: 'submit', class: 'button primary', id: submitId }, spec.submit);
  return h('form', {
    class: `card ${spec.key}-card`, 'aria-labelledby': `${spec.key}-title`,
    onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      error.textContent = '';
      try {
        // The name is asked here, when the visitor acts: reading the lobby needs none.
        // Asked before the button is disabled, so that focus can come back to it.
        await ensureSession('Choose the name your opponent sees. No account needed.', true);
      } catch (e) {
        if (!(e instanceof Error && e.message === 'cancelled')) error.textContent = e instanceof Error ? e.message : String(e);
        return;
      }
      button.disabled = true;
      const body = {
        ruleset: ruleset.el.value,
        setup: ruleset.el.value === 'omweso' ? setup.el.value : 'outer',
        seat: seat.el.value,
        time_control: { preset: time.el.value },
        ...(extra && spec.body ? spec.body(extra.el.value) : {}),
        ...(rated && rated.el.value === 'casual' ? { rated: false } : {}),
      };
      for (const f of fields) safeStorage(`omweso.${spec.key}.${f.name}`, f.el.value);
      try {
        const created = await api('POST', '/api/games', body);
        location.assign(created.url + location.search);
      } catch (e) {
        error.textContent = e instanceof Error ? e.message : String(e);
        button.disabled = false;
      }
    },
  },
  h('h2', { id: `${spec.key}-title` }, spec.title),
  h('p', { class: 'muted small' }, spec.intro),
  fields.map((f) => f.field),
  error,
  h('div', { class: 'form-actions' }, button));
}
