// The player's part of the tournament page: join; when a round starts, the announcement
// and "Go to your table" (table, opponent, first or second); after the game, the score
// sheet to confirm or dispute while its 60 s run; the player's own rounds and points.

import { api, ApiError } from '../core/api.js';
import { h, replace, announce, toast, errorText, safeStorage } from '../core/ui.js';
import { playerResult, southOf } from './standings.js';
import { RESULT_WORDS, VICTORY_NAMES, formatPoints, pointsText } from '../core/words.js';
import { plural } from '../core/plural.js';
import { timeOfDay } from '../core/when.js';

/** @typedef {import('./tournamentstore.js').TournamentStore} TournamentStore */
/** @typedef {import('./tournamentstore.js').PairingView} PairingView */
/** @typedef {import('./tournamentstore.js').RoundView} RoundView */

/**
 * Where a game page opened from a tournament finds its way back (the game itself does
 * not know it belongs to one).
 * @param {string} gameId @param {string} tournamentId
 */
export function rememberTournamentOf(gameId, tournamentId) {
  safeStorage(`omweso.tournament-of.${gameId}`, tournamentId);
}

export class PlayerPanel {
  /**
   * @param {TournamentStore} store
   * @param {() => Promise<import('../core/api.js').Me>} signIn asks for a name when there is no session
   */
  constructor(store, signIn) {
    this.store = store;
    this.signIn = signIn;
    this.el = h('section', { id: 'your-round', class: 'card player-panel', 'aria-labelledby': 'your-title' });
    this.countdown = h('span', { 'data-sheet-countdown': true });
    /** The game whose start this page announced already (a replay is a new game). */
    this.announced = '';
    /** The signature of what is drawn. */
    this.drawn = '';
    this.disputing = false;
    this.reasonDraft = '';
    this.busy = false;
    /** @type {string} */
    this.error = '';
    store.subscribe((kind) => {
      if (kind !== 'board' && kind !== 'presence' && kind !== 'connection') this.render();
    });
    this.render();
  }

  me() {
    return this.store.me?.player_id ?? null;
  }

  /** The session's pairing in a round. @param {RoundView} round */
  mine(round) {
    const me = this.me();
    return round.pairings.find((p) => p.first === me || p.second === me) || null;
  }

  /** What the panel shows, as text: another table's game ending does not redraw it. */
  signature() {
    const snap = this.store.snapshot;
    const me = this.me();
    return JSON.stringify([
      me, snap.status, snap.system, snap.settings.rounds, snap.rounds.length,
      snap.players.find((p) => p.player_id === me) || null,
      snap.standings.find((s) => s.player_id === me) || null, snap.standings.length,
      snap.rounds.map((r) => [r.number, r.status, this.mine(r)]),
      this.busy, this.error, this.disputing,
    ]);
  }

  render() {
    const signature = this.signature();
    if (signature === this.drawn) return;
    this.drawn = signature;
    // Redrawing replaces the buttons: keep the focus, and the typing, where they were.
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const key = active && this.el.contains(active) ? active.dataset.focusKey : undefined;
    const typing = active instanceof HTMLTextAreaElement && active.id === 'dispute-reason'
      ? [active.selectionStart, active.selectionEnd] : null;
    this.draw();
    if (!key) return;
    const again = /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-focus-key="${key}"]`));
    again?.focus();
    if (typing && again instanceof HTMLTextAreaElement) again.setSelectionRange(typing[0], typing[1]);
  }

  draw() {
    const snap = this.store.snapshot;
    const me = this.me();
    const joined = me ? snap.players.find((p) => p.player_id === me) : null;
    const title = h('h2', { id: 'your-title' }, joined ? 'You in this tournament' : 'Play in this tournament');
    const error = h('p', { class: 'form-error', role: 'alert' }, this.error);
    if (!joined) {
      // A Swiss takes players until its last round is paired; a round-robin's field is
      // fixed by its first pairing (docs/rules.md#53-rounds).
      const joinable = snap.status !== 'finished'
        && (snap.system === 'swiss' ? snap.rounds.length < snap.settings.rounds : snap.rounds.length === 0);
      if (!joinable) {
        this.el.hidden = true;
        return;
      }
      this.el.hidden = false;
      const late = snap.rounds.length > 0;
      // Under way, most visitors watch: the offer to join stays, smaller.
      this.el.classList.toggle('compact', late);
      replace(this.el, title,
        h('p', { class: 'muted' }, late
          ? `Round ${snap.rounds.length} is already paired: you can still join, and you score 0 for the rounds before you joined.`
          : 'Join now; the director pairs the first round when everyone is here.'),
        h('button', {
          type: 'button', class: `button ${late ? 'secondary small' : 'primary'}`, id: 'join-tournament', disabled: this.busy, 'data-focus-key': 'join',
          onclick: () => this.join(),
        }, 'Join this tournament'),
        error);
      return;
    }
    this.el.hidden = false;
    this.el.classList.remove('compact');
    const standing = snap.standings.find((s) => s.player_id === me);
    /** @type {HTMLElement[]} */
    const parts = [title];
    parts.push(h('p', { 'data-your-points': standing ? standing.points : 0 },
      standing ? `Rank ${standing.rank} of ${snap.standings.length} · ${pointsText(standing.points)}` : 'No points yet.',
      joined.withdrawn ? h('strong', {}, ' · You have withdrawn.') : null));
    const round = this.store.currentRound();
    const pairing = round ? this.mine(round) : null;
    // A withdrawn player's game goes on: they still need the way to it.
    if (round && (!joined.withdrawn || pairing?.game_id)) parts.push(this.roundNotice(round, pairing));
    const open = this.openSheet();
    if (open) parts.push(this.sheetPanel(open.round, open.pairing));
    parts.push(error);
    parts.push(this.history());
    if (!joined.withdrawn && snap.status !== 'finished') {
      parts.push(h('div', { class: 'button-row' },
        h('button', {
          type: 'button', class: 'button secondary small', 'data-withdraw-me': true, disabled: this.busy, 'data-focus-key': 'withdraw',
          onclick: () => this.withdraw(),
        }, 'Withdraw from the tournament')));
    }
    replace(this.el, parts);
  }

  /**
   * The sheet to show: the latest of the player's sheets still waiting (pending or
   * disputed), from any round (the next round may be paired before a sheet settles), else
   * the current round's.
   * @returns {{round: RoundView, pairing: PairingView} | null}
   */
  openSheet() {
    const rounds = this.store.snapshot.rounds;
    for (let i = rounds.length - 1; i >= 0; i--) {
      const pairing = this.mine(rounds[i]);
      const status = pairing?.sheet?.status;
      if (pairing?.second && (status === 'pending' || status === 'disputed')) return { round: rounds[i], pairing };
    }
    const round = this.store.currentRound();
    const pairing = round ? this.mine(round) : null;
    return round && pairing?.sheet && pairing.second ? { round, pairing } : null;
  }

  /**
   * What the player does this round: wait, go to their table, or rest (a bye).
   * @param {RoundView} round @param {PairingView | null} pairing
   */
  roundNotice(round, pairing) {
    const store = this.store;
    if (!pairing) {
      return h('p', { class: 'notice' }, round.status === 'finished'
        ? `Round ${round.number} is over. The director pairs the next round.`
        : `You are not paired in round ${round.number} (you joined after it was paired).`);
    }
    if (!pairing.second) {
      return h('p', { class: 'notice', 'data-bye': round.number }, `Round ${round.number}: you have the bye (${pointsText(store.snapshot.settings.points.bye)}, no game).`);
    }
    const me = this.me();
    const first = southOf(pairing) === me;
    const opponent = store.name(pairing.first === me ? pairing.second : pairing.first);
    const seat = first ? 'you move first (South)' : 'you move second (North)';
    if (round.status === 'paired') {
      return h('p', { class: 'notice' }, `Round ${round.number} is paired: table ${pairing.table} against ${opponent}, ${seat}. Wait for the director to start it.`);
    }
    if (round.status === 'playing' && pairing.game_id && !pairing.sheet && pairing.played_at === 'board') {
      // Played at a wooden board: no game page to go to (unless a relay follows it), the
      // result is entered on the table's sheet page.
      const text = `Round ${round.number} has started: table ${pairing.table} against ${opponent}, ${seat}. Play at the board; after the game, enter the result.`;
      if (this.announced !== pairing.game_id) {
        this.announced = pairing.game_id;
        announce(text);
      }
      return h('div', { class: 'notice round-started', role: 'region', 'aria-label': 'Your game' },
        h('p', { class: 'notice-title' }, text),
        h('a', {
          class: 'button primary big', href: `/t/${encodeURIComponent(store.id)}/sheet/${round.number}/${pairing.table}`,
          'data-go-sheet-page': pairing.table, 'data-focus-key': 'go',
        }, `The sheet of table ${pairing.table}: enter or initial the result`));
    }
    if (round.status === 'playing' && pairing.game_id && !pairing.sheet) {
      const text = pairing.replaced.length
        ? `Your game was annulled and is replayed now, first move swapped: table ${pairing.table} against ${opponent}, ${seat}.`
        : `Round ${round.number} has started: table ${pairing.table} against ${opponent}, ${seat}.`;
      if (this.announced !== pairing.game_id) {
        this.announced = pairing.game_id;
        announce(`${text} Go to your table.`);
      }
      const href = `/g/${pairing.game_id}${location.search}`;
      return h('div', { class: 'notice round-started', role: 'region', 'aria-label': 'Your game' },
        h('p', { class: 'notice-title' }, text),
        h('a', {
          class: 'button primary big', href, 'data-go-table': pairing.table, 'data-game-id': pairing.game_id, 'data-focus-key': 'go',
          onclick: () => rememberTournamentOf(/** @type {string} */ (pairing.game_id), store.id),
        }, `Go to your table: table ${pairing.table}, against ${opponent}, you play ${first ? 'first' : 'second'}`));
    }
    return h('p', { class: 'notice' }, `Round ${round.number}: your game at table ${pairing.table} against ${opponent} is over.`);
  }

  /**
   * The score sheet of the player's game: what it says, its status, and (while pending)
   * confirm or dispute within the countdown.
   * @param {RoundView} round @param {PairingView} pairing
   */
  sheetPanel(round, pairing) {
    const sheet = /** @type {import('./tournamentstore.js').SheetView} */ (pairing.sheet);
    const me = /** @type {string} */ (this.me());
    const res = playerResult(pairing, me);
    const confirmed = sheet.confirmed_by.includes(me);
    const statusWords = {
      pending: confirmed ? 'You confirmed it; it is settled once your opponent confirms or the time runs out.' : 'Check it: confirm it, or dispute it with a reason.',
      confirmed: 'Confirmed.',
      disputed: `Disputed${sheet.dispute ? ` by ${this.store.name(sheet.dispute.by)}: “${sheet.dispute.reason}”` : ''}. The director decides.`,
      corrected: 'Corrected by the director.',
    };
    const victory = sheet.victory && !res?.result.startsWith('forfeit') && !res?.result.startsWith('adjudicated')
      ? ` by ${VICTORY_NAMES[sheet.victory] || sheet.victory}` : '';
    /** @type {HTMLElement[]} */
    const rows = [
      h('h3', { id: 'sheet-title' }, `Score sheet, round ${round.number}, table ${pairing.table}`),
      h('p', { 'data-sheet-result': res?.result || '' },
        `You ${RESULT_WORDS[res?.result || ''] || res?.result}${victory}: ${pointsText(res?.points ?? 0)}. `,
        `Seeds captured: you ${pairing.first === me ? sheet.seeds.first : sheet.seeds.second}, opponent ${pairing.first === me ? sheet.seeds.second : sheet.seeds.first}`,
        // A sheet entered at the board counts no turns: nobody counted them.
        sheet.over_the_board ? '; entered at the board.' : `; ${plural(sheet.turns, 'turn')}.`),
      h('p', { 'data-sheet-status': sheet.status }, h('strong', {}, statusWords[sheet.status] || sheet.status), ' ',
        sheet.status === 'pending' && sheet.confirms_at ? this.countdown : null),
    ];
    for (const c of sheet.corrections) {
      rows.push(h('p', { class: 'small muted', 'data-correction': true },
        `${timeOfDay(c.at_ms)}: ${c.by_name} — ${c.reason}`));
    }
    if (sheet.status === 'pending' && !confirmed) {
      const game = /** @type {string} */ (pairing.game_id);
      if (this.disputing) {
        const reason = h('textarea', {
          id: 'dispute-reason', rows: 2, maxlength: 500, required: true, 'data-focus-key': 'reason',
          oninput: (/** @type {Event} */ ev) => { this.reasonDraft = /** @type {HTMLTextAreaElement} */ (ev.target).value; },
        });
        reason.value = this.reasonDraft;
        rows.push(h('form', {
          class: 'dispute-form',
          onsubmit: (/** @type {SubmitEvent} */ ev) => {
            ev.preventDefault();
            this.sheetAction(game, { action: 'dispute', reason: this.reasonDraft.trim() });
          },
        },
        h('label', { for: 'dispute-reason' }, 'What is wrong with the sheet?'),
        reason,
        h('div', { class: 'button-row' },
          h('button', { type: 'submit', class: 'button primary small', 'data-dispute-submit': true, disabled: this.busy }, 'Send the dispute'),
          h('button', { type: 'button', class: 'button secondary small', onclick: () => { this.disputing = false; this.render(); } }, 'Cancel'))));
      } else {
        rows.push(h('div', { class: 'button-row' },
          h('button', {
            type: 'button', class: 'button primary', 'data-sheet-confirm': true, disabled: this.busy, 'data-focus-key': 'confirm',
            onclick: () => this.sheetAction(game, { action: 'confirm' }),
          }, 'Confirm the sheet'),
          h('button', {
            type: 'button', class: 'button secondary', 'data-sheet-dispute': true, disabled: this.busy, 'data-focus-key': 'dispute',
            onclick: () => { this.disputing = true; this.render(); document.getElementById('dispute-reason')?.focus(); },
          }, 'Dispute…')));
      }
    }
    this.tick();
    return h('div', { id: 'your-sheet', class: `sheet-panel sheet-${sheet.status}`, role: 'region', 'aria-labelledby': 'sheet-title' }, rows);
  }

  /** The player's rounds: opponent, first or second, result and points. */
  history() {
    const snap = this.store.snapshot;
    const me = /** @type {string} */ (this.me());
    const items = snap.rounds.flatMap((round) => {
      const p = this.mine(round);
      if (!p) return [];
      const res = playerResult(p, me);
      const opponent = p.second ? this.store.name(p.first === me ? p.second : p.first) : null;
      const what = opponent ? `against ${opponent} (${p.first === me ? 'first' : 'second'})` : 'bye';
      const outcome = res ? `${RESULT_WORDS[res.result] || res.result}, ${formatPoints(res.points)}` : round.status === 'paired' ? 'not started' : 'playing';
      return [h('li', { 'data-history-round': round.number }, `Round ${round.number}: ${what} — ${outcome}`)];
    });
    if (!items.length) return h('p', { class: 'muted small' }, 'Your games will be listed here.');
    return h('details', { class: 'your-history', open: true }, h('summary', {}, 'Your rounds'), h('ul', {}, items));
  }

  /** Counts the open sheet's 60 s down. */
  tick() {
    const sheet = this.openSheet()?.pairing.sheet;
    if (!sheet || sheet.status !== 'pending' || !sheet.confirms_at) return;
    const left = Math.max(0, Math.ceil((sheet.confirms_at - this.store.now()) / 1000));
    const text = left > 0 ? `It confirms itself in ${left} s.` : 'Confirming…';
    if (this.countdown.textContent !== text) this.countdown.textContent = text;
  }

  async join() {
    this.busy = true;
    this.error = '';
    this.render();
    try {
      if (!this.store.me) this.store.me = await this.signIn();
      await api('POST', `/api/tournaments/${this.store.id}/join`);
      announce('You joined the tournament.');
      await this.store.refresh();
    } catch (e) {
      this.error = e instanceof ApiError && e.code === 'tournament_closed'
        ? 'The tournament no longer takes players: its last round is paired.'
        : errorText(e);
    }
    this.busy = false;
    this.render();
  }

  async withdraw() {
    if (!window.confirm('Withdraw from the tournament? You will not be paired again. A game you are playing goes on.')) return;
    this.busy = true;
    this.render();
    try {
      await api('POST', `/api/tournaments/${this.store.id}/withdraw`, {});
      announce('You withdrew from the tournament.');
      await this.store.refresh();
    } catch (e) {
      toast(`Could not withdraw: ${errorText(e)}`, 'error');
    }
    this.busy = false;
    this.render();
  }

  /** @param {string} gameId @param {{action: string, reason?: string}} body */
  async sheetAction(gameId, body) {
    if (body.action === 'dispute' && !body.reason) {
      this.error = 'Say what is wrong with the sheet: the director reads it.';
      this.render();
      return;
    }
    this.busy = true;
    this.error = '';
    this.render();
    try {
      await api('POST', `/api/tournaments/${this.store.id}/sheets/${gameId}`, body);
      announce(body.action === 'confirm' ? 'You confirmed the score sheet.' : 'Your dispute was sent to the director.');
      this.disputing = false;
      this.reasonDraft = '';
      await this.store.refresh();
    } catch (e) {
      this.error = e instanceof ApiError && e.code === 'sheet_settled' ? 'The sheet is already settled.' : errorText(e);
    }
    this.busy = false;
    this.render();
  }
}
