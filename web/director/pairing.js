// The console's pairing editor: a round's tables as the director changes them before its
// start (or pairs a new round by hand), a first and a second player picked at each table,
// a pick of someone seated elsewhere swapping the two; saving, and when the server refuses
// the pairing for the rules it breaks, saving it anyway with the breach recorded.

import { ApiError, api } from '../core/api.js';
import { h, announce, errorText } from '../core/ui.js';
import { formatPoints } from '../core/words.js';
import { ConsolePart } from './part.js';

/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */
/** @typedef {{first: string, second: string}} DraftTable '' for nobody (a bye as `second`) */
/**
 * A pairing being edited: `round` its number, `base` the server's pairing it started from
 * ('' when the round is not paired on the server: a pairing by hand).
 * @typedef {{round: number, tables: DraftTable[], base: string}} Draft
 */

/** @param {DraftTable[] | {first: string, second: string | null}[]} tables */
export function pairingKey(tables) {
  return JSON.stringify(tables.map((t) => [t.first, t.second || '']));
}

export class PairingEditor extends ConsolePart {
  /** @param {import('./console.js').DirectorConsole} owner */
  constructor(owner) {
    super(owner);
    /** @type {Draft | null} */
    this.draft = null;
    /** @type {{key: string, tables: DraftTable[]} | null} the pairing before a run of picks in one select */
    this.pickBase = null;
    /** @type {{round: number, message: string[]} | null} a pairing refused for its breaches (each rule broken), waiting for "save anyway" */
    this.breach = null;
  }

  /** Forgets the pairing being edited (the server is asked to pair the round instead). */
  drop() {
    this.draft = null;
    this.breach = null;
  }

  /** Keeps the pairing being edited in step with the server's round. */
  sync() {
    const round = this.lastRound();
    if (this.draft && this.draft.base === '') {
      // A pairing by hand of a round not paired on the server: kept until saved or dropped,
      // unless that round got paired meanwhile.
      if (round && round.number >= this.draft.round) this.draft = null;
      else return;
    }
    if (!round || round.status !== 'paired') {
      this.draft = null;
      return;
    }
    const key = pairingKey(round.pairings);
    if (!this.draft || this.draft.round !== round.number || (this.draft.base !== key && !this.dirty())) {
      this.draft = { round: round.number, tables: round.pairings.map((p) => ({ first: p.first, second: p.second || '' })), base: key };
      this.pickBase = null;
    }
  }

  /** Whether the pairing being edited differs from the server's. */
  dirty() {
    return Boolean(this.draft && pairingKey(this.draft.tables) !== this.draft.base);
  }

  /** Starts a pairing by hand of round `number`: the active players by rank, two by two. @param {number} number */
  byHand(number) {
    const order = this.playersByRank().filter((p) => !p.withdrawn).map((p) => p.player_id);
    /** @type {DraftTable[]} */
    const tables = [];
    for (let i = 0; i < order.length; i += 2) tables.push({ first: order[i], second: order[i + 1] || '' });
    if (!tables.length) tables.push({ first: '', second: '' });
    this.draft = { round: number, tables, base: '' };
    this.pickBase = null;
    this.breach = null;
    this.alert('round', '');
    this.redraw(['round']);
    /** @type {HTMLElement | null} */ (this.el.querySelector('select[data-pairing-first="1"]'))?.focus();
    announce(`Pairing round ${number} by hand: the players are listed by rank, two to a table. Change them, then save.`);
  }

  /** The players in ranking order (the standings), those not ranked yet after. */
  playersByRank() {
    const snap = this.snap;
    const rank = new Map(snap.standings.map((s, i) => [s.player_id, i]));
    return [...snap.players].sort((a, b) => (rank.get(a.player_id) ?? 1e9) - (rank.get(b.player_id) ?? 1e9));
  }

  /**
   * The pairing editor: a first and a second player to pick at each table; picking a
   * player already seated elsewhere swaps the two.
   * @param {Draft} draft
   * @param {RoundView | null} round the server's round (null: a pairing by hand of a new round)
   */
  draw(draft, round) {
    const snap = this.snap;
    const points = new Map(snap.standings.map((s) => [s.player_id, s.points]));
    const players = this.playersByRank();
    const seated = new Set(draft.tables.flatMap((t) => [t.first, t.second]).filter(Boolean));
    const label = (/** @type {{player_id: string, name: string, withdrawn: boolean}} */ p) =>
      `${p.name} (${formatPoints(points.get(p.player_id) ?? 0)})${p.withdrawn ? ' — withdrawn' : ''}${seated.has(p.player_id) ? '' : ' — not paired'}`;
    /**
     * @param {number} i table index
     * @param {'first'|'second'} slot
     */
    const picker = (i, slot) => {
      const value = draft.tables[i][slot];
      const table = i + 1;
      const id = `pairing-${slot}-${table}`;
      return h('select', {
        id, 'data-key': id, [`data-pairing-${slot}`]: table,
        'aria-label': `Table ${table}, ${slot === 'first' ? 'first player (moves first)' : 'second player'}`,
        onchange: (/** @type {Event} */ ev) => this.pick(i, slot, /** @type {HTMLSelectElement} */ (ev.target).value),
      },
      slot === 'second'
        ? h('option', { value: '', selected: value === '' }, 'bye (no opponent)')
        : value === '' ? h('option', { value: '', selected: true }, 'choose a player') : null,
      players.filter((p) => !p.withdrawn || p.player_id === value || seated.has(p.player_id))
        .map((p) => h('option', { value: p.player_id, selected: p.player_id === value }, label(p))),
      players.filter((p) => p.withdrawn && p.player_id !== value && !seated.has(p.player_id)).length
        ? h('optgroup', { label: 'Withdrawn' },
          players.filter((p) => p.withdrawn && p.player_id !== value && !seated.has(p.player_id))
            .map((p) => h('option', { value: p.player_id }, label(p))))
        : null);
    };
    const rows = draft.tables.map((t, i) => h('tr', { 'data-pairing-table': i + 1 },
      h('th', { scope: 'row', class: 'num' }, String(i + 1)),
      h('td', {}, picker(i, 'first')),
      h('td', {}, picker(i, 'second')),
      round ? h('td', { class: 'director-played-at' }, this.placeToggle(round, i)) : null,
      h('td', { class: 'director-table-actions' },
        h('button', {
          type: 'button', class: 'button secondary small', 'data-swap-sides': i + 1, 'data-key': `swap-${i + 1}`,
          disabled: !t.second, 'aria-label': `Table ${i + 1}: swap who moves first`,
          onclick: () => this.swapSides(i),
        }, '⇄'),
        h('button', {
          type: 'button', class: 'button secondary small', 'data-remove-table': i + 1, 'data-key': `remove-${i + 1}`,
          'aria-label': `Remove table ${i + 1}`, disabled: draft.tables.length === 1,
          onclick: () => this.removeTable(i),
        }, 'Remove'))));
    const unpaired = players.filter((p) => !p.withdrawn && !seated.has(p.player_id));
    const changedElsewhere = round && draft.base !== pairingKey(round.pairings);
    const breach = this.breach && this.breach.round === draft.round ? this.breach : null;
    return h('div', { class: 'director-editor', 'data-pairing-editor': draft.round },
      h('h4', {}, round ? `Tables of round ${draft.round}` : `Round ${draft.round}, paired by hand`),
      h('p', { class: 'muted small', id: 'pairing-help' }, 'The first player moves first. Pick a player who is at another table to swap the two; the second player may be "bye". The number after each name is their points.'),
      h('div', { class: 'table-wrap' },
        h('table', { class: 'data-table director-pairing', 'aria-describedby': 'pairing-help' },
          h('caption', { class: 'sr-only' }, `Pairing of round ${draft.round}`),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'num' }, 'Table'), h('th', { scope: 'col' }, 'First (moves first)'),
            h('th', { scope: 'col' }, 'Second'), round ? h('th', { scope: 'col' }, 'Played') : null,
            h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions')))),
          h('tbody', {}, rows))),
      round ? this.roundPlaceButtons(round) : null,
      unpaired.length ? h('p', { class: 'director-unpaired', 'data-unpaired': true },
        `Not paired: ${unpaired.map((p) => p.name).join(', ')}. Every active player needs a table (or the bye): add a table for them, or withdraw them to leave them out.`) : null,
      changedElsewhere ? h('p', { class: 'director-note' }, 'The pairing changed on the server since you began editing; your changes are kept until you save or undo them.') : null,
      h('div', { class: 'button-row' },
        h('button', { type: 'button', class: 'button secondary small', 'data-add-table': true, 'data-key': 'add-table', onclick: () => this.addTable() }, 'Add a table'),
        round && this.dirty() ? h('button', { type: 'button', class: 'button secondary small', 'data-reset-pairing': true, 'data-key': 'reset-pairing', onclick: () => this.resetDraft() }, 'Undo my changes') : null,
        !round ? h('button', { type: 'button', class: 'button secondary small', 'data-cancel-pairing': true, 'data-key': 'cancel-pairing', onclick: () => this.resetDraft() }, 'Cancel') : null,
        this.button('save-pairing', {
          class: 'button primary small', 'data-save-pairing': draft.round, disabled: Boolean(round && !this.dirty()),
          onclick: () => this.savePairing(false),
        }, 'Save pairing')),
      breach ? h('div', { class: 'director-breach', 'data-breach': draft.round },
        h('p', {}, h('strong', {}, `The server refused this pairing: it breaks ${breach.message.length === 1 ? 'the rule' : 'the rules'} below.`),
          ' You may save it anyway: the breach is then recorded with the round and in the exports.'),
        h('div', { class: 'button-row' },
          this.button('save-pairing-anyway', {
            class: 'button danger small', 'data-confirm-breach': draft.round,
            onclick: () => this.savePairing(true),
          }, 'Save anyway (record the breach)'),
          h('button', { type: 'button', class: 'button secondary small', 'data-key': 'breach-cancel', onclick: () => { this.breach = null; this.alert('round', ''); this.redraw(['round']); } }, 'Keep editing'))) : null);
  }

  /**
   * Where table `i + 1` of the paired round is played, and the button that moves it
   * (online or over the board). A pairing being edited is saved first: its tables are not
   * the server's yet.
   * @param {RoundView} round @param {number} i
   */
  placeToggle(round, i) {
    const table = round.pairings[i];
    if (!table || this.dirty()) return h('span', { class: 'muted small' }, table ? placeWord(table.played_at) : 'save first');
    if (!table.second) return h('span', { class: 'muted small' }, 'bye');
    const board = table.played_at === 'board';
    return this.button(`played-at:${table.table}`, {
      'data-played-at-table': table.table, 'data-played-at': board ? 'board' : 'online', 'aria-pressed': String(board),
      'aria-label': `${board ? 'At the board' : 'Online'} (table ${table.table}): press to play it ${board ? 'online' : 'at the board'}`,
      onclick: () => this.setPlace(round.number, board ? 'online' : 'board', table.table),
    }, board ? 'At the board' : 'Online');
  }

  /** "Every table at the board" and "every table online" for the paired round. @param {RoundView} round */
  roundPlaceButtons(round) {
    const games = round.pairings.filter((p) => p.second);
    const atBoard = games.filter((p) => p.played_at === 'board').length;
    return h('div', { class: 'button-row director-played-at-round' },
      h('span', { class: 'small' }, `${atBoard} of ${games.length} tables at the board.`),
      this.button('played-at-round', {
        'data-played-at-round': 'board', disabled: this.dirty() || atBoard === games.length,
        onclick: () => this.setPlace(round.number, 'board', null),
      }, 'Every table at the board'),
      this.button('played-at-round', {
        'data-played-at-round': 'online', 'data-key': 'played-at-round-online', disabled: this.dirty() || atBoard === 0,
        onclick: () => this.setPlace(round.number, 'online', null),
      }, 'Every table online'));
  }

  /**
   * `PUT .../rounds/{n}/played-at`: one table (or, `table` null, every table) of a round not
   * started is played online or at the board.
   * @param {number} round @param {'online' | 'board'} place @param {number | null} table
   */
  setPlace(round, place, table) {
    const which = table === null ? `Every table of round ${round}` : `Table ${table}`;
    return this.act(table === null ? 'played-at-round' : `played-at:${table}`, 'round',
      () => api('PUT', `/api/tournaments/${this.store.id}/rounds/${round}/played-at`, table === null ? { played_at: place } : { played_at: place, table }),
      () => `${which} is played ${place === 'board' ? 'over the board' : 'online'}.`,
      (e) => `${which}: not changed: ${errorText(e)}`);
  }

  /**
   * Puts `playerId` at table `i`'s `slot`; if they sat elsewhere, whoever was here takes
   * their place (a swap).
   * @param {number} i
   * @param {'first'|'second'} slot
   * @param {string} playerId '' for a bye
   */
  pick(i, slot, playerId) {
    const draft = this.draft;
    if (!draft) return;
    // Picks in a row in the same select count from the pairing before the first of them:
    // arrowing through a closed select (each option a `change`) must not swap every player
    // passed on the way; and changing one's mind puts the first one picked back.
    const key = `${i}:${slot}`;
    if (!this.pickBase || this.pickBase.key !== key) this.pickBase = { key, tables: draft.tables.map((t) => ({ ...t })) };
    const tables = this.pickBase.tables.map((t) => ({ ...t }));
    draft.tables = tables;
    const old = tables[i][slot];
    let moved = '';
    if (playerId) {
      tables.forEach((t, j) => {
        for (const s of /** @type {const} */ (['first', 'second'])) {
          if (t[s] === playerId && !(j === i && s === slot)) {
            t[s] = old;
            moved = old ? `${this.store.name(old)} moves to table ${j + 1}.` : `Table ${j + 1} loses ${this.store.name(playerId)}.`;
          }
        }
      });
    }
    tables[i][slot] = playerId;
    // A table left without a first player: its second moves first, with a bye.
    for (const t of tables) {
      if (!t.first && t.second) {
        t.first = t.second;
        t.second = '';
      }
    }
    this.breach = null;
    this.alert('round', '');
    this.redraw(['round']);
    announce(`Table ${i + 1}: ${playerId ? this.store.name(playerId) : 'a bye'} as ${slot} player. ${moved}`.trim());
  }

  /** @param {number} i */
  swapSides(i) {
    const t = this.draft?.tables[i];
    if (!t || !t.second) return;
    this.pickBase = null;
    [t.first, t.second] = [t.second, t.first];
    this.breach = null;
    this.redraw(['round']);
    announce(`Table ${i + 1}: ${this.store.name(t.first)} now moves first.`);
  }

  addTable() {
    if (!this.draft) return;
    this.pickBase = null;
    this.draft.tables.push({ first: '', second: '' });
    this.breach = null;
    this.redraw(['round']);
    const n = this.draft.tables.length;
    /** @type {HTMLElement | null} */ (this.el.querySelector(`select[data-pairing-first="${n}"]`))?.focus();
    announce(`Table ${n} added: choose its players.`);
  }

  /** @param {number} i */
  removeTable(i) {
    if (!this.draft || this.draft.tables.length < 2) return;
    this.pickBase = null;
    const [gone] = this.draft.tables.splice(i, 1);
    this.breach = null;
    this.redraw(['round']);
    const names = [gone.first, gone.second].filter(Boolean).map((id) => this.store.name(id));
    announce(`Table ${i + 1} removed${names.length ? `: ${names.join(' and ')} not paired` : ''}.`);
    /** @type {HTMLElement | null} */ (this.el.querySelector('[data-add-table]'))?.focus();
  }

  resetDraft() {
    const hand = this.draft?.base === '';
    this.draft = null;
    this.pickBase = null;
    this.breach = null;
    this.alert('round', '');
    this.redraw(['round']);
    announce(hand ? 'Pairing by hand cancelled.' : 'Your changes to the pairing are undone.');
  }

  /** @param {boolean} confirmBreach */
  async savePairing(confirmBreach) {
    const draft = this.draft;
    if (!draft) return;
    const empty = draft.tables.findIndex((t) => !t.first);
    if (empty >= 0) {
      this.alert('round', `Table ${empty + 1} has no player: choose one, or remove the table.`);
      /** @type {HTMLElement | null} */ (this.el.querySelector(`select[data-pairing-first="${empty + 1}"]`))?.focus();
      return;
    }
    const number = draft.round;
    const pairings = draft.tables.map((t) => ({ first: t.first, second: t.second || null }));
    /** @type {string[] | null} */
    let breaches = null;
    const ok = await this.act(confirmBreach ? 'save-pairing-anyway' : 'save-pairing', 'round',
      () => api('PUT', `/api/tournaments/${this.store.id}/rounds/${number}`, { pairings, confirm_breach: confirmBreach }),
      () => confirmBreach
        ? `Round ${number}'s pairing is saved, the breach recorded.`
        : `Round ${number}'s pairing is saved.`,
      (e) => {
        if (e instanceof ApiError && e.code === 'pairing_breach') {
          breaches = e.message.replace(/;?\s*send it again with confirm_breach.*$/, '').split('; ').filter(Boolean);
          return [`The pairing was not saved: it breaks the tournament's rules.`, h('ul', { class: 'director-breach-list' }, breaches.map((b) => h('li', {}, b)))];
        }
        if (e instanceof ApiError && e.code === 'bad_pairing') {
          return `The pairing was not saved: ${e.message}.`;
        }
        return `Could not save the pairing: ${errorText(e)}`;
      });
    if (ok) {
      this.draft = null;
      this.breach = null;
    } else {
      this.breach = breaches ? { round: number, message: breaches } : null;
    }
    this.redraw(['round']);
    if (this.breach) /** @type {HTMLElement | null} */ (this.el.querySelector('[data-confirm-breach]'))?.focus();
  }
}

/** Where a table is played, in a word. @param {string | undefined} place */
function placeWord(place) {
  return place === 'board' ? 'at the board' : 'online';
}
