// The director's console on the tournament page: what to do next in plain words, the
// players (connected, withdrawn, joined late) with a way to withdraw them, pairing a round
// (by the server, or by hand, or edited before its start), starting and ending it, the
// round's score sheets with their corrections, and the exports. It reads the shared
// tournament store (tournamentstore.js) and acts through the HTTP calls of docs/protocol.md
// "Tournaments"; the store's socket brings the effects back.
//
// The console is redrawn on every change of the store but the boards, one part at a time
// (a presence change redraws only the players). What the director is editing (the pairing
// being changed, a correction being written) lives here, not in the DOM, so a redraw keeps
// it; the focused control is found again by its `data-key` after a redraw.

import { ApiError, api } from '../core/api.js';
import { h, replace, announce, errorText, formatRemaining } from '../core/ui.js';
import { RESULT_WORDS, SHEET_STATUS_WORDS, VICTORY_NAMES, formatPoints, victoryLabel } from '../core/words.js';
import { plural } from '../core/plural.js';

/** @typedef {import('../tournament/tournamentstore.js').TournamentStore} TournamentStore */
/** @typedef {import('../tournament/tournamentstore.js').TournamentSnapshot} TournamentSnapshot */
/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */
/** @typedef {import('../tournament/tournamentstore.js').PairingView} PairingView */
/** @typedef {import('../tournament/tournamentstore.js').SheetView} SheetView */
/** @typedef {import('../tournament/tournamentstore.js').ResultView} ResultView */
/** @typedef {import('../tournament/tournamentstore.js').ChangeKind} ChangeKind */

/** @typedef {'status'|'players'|'round'|'sheets'} Part */
/** @typedef {{first: string, second: string}} DraftTable '' for nobody (a bye as `second`) */
/**
 * A pairing being edited: `round` its number, `base` the server's pairing it started from
 * ('' when the round is not paired on the server: a pairing by hand).
 * @typedef {{round: number, tables: DraftTable[], base: string}} Draft
 */
/**
 * A correction being written for one game's sheet.
 * @typedef {{gameId: string, result: string, victory: string, reason: string}} Correcting
 */

/** Which parts of the console each change of the store redraws. */
const PARTS = /** @type {Record<ChangeKind, Part[]>} */ ({
  state: ['status', 'players', 'round', 'sheets'],
  player: ['status', 'players', 'round', 'sheets'],
  presence: ['players'],
  round: ['status', 'players', 'round', 'sheets'],
  sheet: ['status', 'sheets'],
  standings: ['round'],
  status: ['status', 'round', 'sheets'],
  board: [],
  connection: [],
});

/** The victories a game of each ruleset can end with (RULES.md 1.5, 2, 3, 4, 5.3). */
const VICTORIES = /** @type {Record<string, string[]>} */ ({
  omweso: ['no-move', 'emitwe-ebiri', 'akawumbi', 'akakyala', 'resigned', 'abandoned', 'adjudicated'],
  mweiso: ['no-move', 'emitwe-ebiri', 'resigned', 'abandoned', 'adjudicated'],
  oware: ['captures', 'impasse', 'resigned', 'abandoned', 'adjudicated'],
});
const ANNUL_REASONS = ['never-ending', 'budget'];

/**
 * Why a round is closing: the director ended it, or its time ran out.
 * @param {import('../tournament/tournamentstore.js').RoundView} round
 */
function roundEnding(round) {
  return round.ended_by_director ? `You ended round ${round.number}` : `Round ${round.number}'s time is up`;
}

/** @param {DraftTable[] | {first: string, second: string | null}[]} tables */
function pairingKey(tables) {
  return JSON.stringify(tables.map((t) => [t.first, t.second || '']));
}

/**
 * Mounts the director's console into `container` (the session must be the director's;
 * nothing is shown otherwise). Returns a function that takes it down.
 * @param {HTMLElement} container
 * @param {TournamentStore} store
 * @returns {() => void}
 */
export function mountDirector(container, store) {
  if (!store.isDirector()) return () => {};
  const view = new DirectorConsole(container, store);
  return () => view.stop();
}

class DirectorConsole {
  /** @param {HTMLElement} container @param {TournamentStore} store */
  constructor(container, store) {
    this.store = store;
    /** @type {Set<string>} actions on their way to the server (their buttons stay disabled) */
    this.busy = new Set();
    /** @type {Draft | null} */
    this.draft = null;
    /** @type {{key: string, tables: DraftTable[]} | null} the pairing before a run of picks in one select */
    this.pickBase = null;
    /** @type {{round: number, message: string[]} | null} a pairing refused for its breaches (each rule broken), waiting for "save anyway" */
    this.breach = null;
    /** @type {Correcting | null} */
    this.correcting = null;
    /** @type {number | null} the round whose sheets are shown (null: the latest played) */
    this.sheetRound = null;
    /** @type {Set<string>} the sheets whose history of corrections is unfolded */
    this.unfolded = new Set();
    /** @type {{a: string, b: string}} the two players chosen to keep apart, not yet added */
    this.forbidPick = { a: '', b: '' };

    const section = (/** @type {Part} */ part, /** @type {string} */ title) => {
      const body = h('div', { class: 'director-part-body' });
      // Kept across redraws so that a refusal is read once, not again at every redraw.
      const alert = h('div', { class: 'form-error', role: 'alert', 'data-director-error': part });
      const heading = h('h3', { id: `director-${part}-title` }, title);
      // What comes after the refusals (the round's start): below them, so that a refusal
      // of the pairing stands between the pairing and the button that would start it.
      const after = h('div', { class: 'director-part-after' });
      const el = h('section', { class: `director-part director-${part}`, 'aria-labelledby': heading.id }, heading, body, alert, after);
      return { el, body, alert, after, heading };
    };
    this.statusLine = h('p', { class: 'director-status', id: 'director-status', 'data-director-status': true });
    this.parts = {
      players: section('players', 'Players'),
      round: section('round', 'Round'),
      sheets: section('sheets', 'Score sheets'),
    };
    this.el = h('section', { id: 'director-console', class: 'card director-console', 'aria-labelledby': 'director-title' },
      h('div', { class: 'director-head' },
        h('h2', { id: 'director-title' }, 'Director\'s console'),
        h('p', { class: 'muted small' }, 'Only you see this: you direct this tournament.')),
      this.statusLine,
      h('div', { class: 'director-grid' }, this.parts.round.el, this.parts.players.el),
      this.parts.sheets.el,
      this.downloads());
    container.append(this.el);

    this.unsubscribe = store.subscribe((kind) => this.redraw(PARTS[kind] || []));
    this.timer = window.setInterval(() => this.tick(), 500);
    this.redraw(['status', 'players', 'round', 'sheets']);
  }

  stop() {
    this.unsubscribe();
    clearInterval(this.timer);
    this.el.remove();
  }

  get snap() {
    return this.store.snapshot;
  }

  now() {
    return this.store.now ? this.store.now() : Date.now();
  }

  /** The last round paired, or null. */
  lastRound() {
    const rounds = this.snap.rounds;
    return rounds.length ? rounds[rounds.length - 1] : null;
  }

  // ---- drawing ----

  /**
   * Redraws some parts, keeping the focus (and a text field's caret) where it was.
   * @param {Part[]} parts
   */
  redraw(parts) {
    if (!parts.length) return;
    const active = document.activeElement;
    const key = active instanceof HTMLElement && this.el.contains(active) ? active.dataset.key : undefined;
    /** @type {[number | null, number | null] | null} */
    let caret = null;
    if ((active instanceof HTMLInputElement && active.type === 'text') || active instanceof HTMLTextAreaElement) {
      caret = [active.selectionStart, active.selectionEnd];
    }
    this.syncDraft();
    for (const part of parts) {
      if (part === 'status') this.drawStatus();
      else if (part === 'players') replace(this.parts.players.body, this.drawPlayers());
      else if (part === 'round') {
        const { body, after } = this.drawRound();
        replace(this.parts.round.body, body);
        replace(this.parts.round.after, after);
      }
      else if (part === 'sheets') replace(this.parts.sheets.body, this.drawSheets());
    }
    if (key && !(active && this.el.contains(active))) {
      const again = /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-key="${CSS.escape(key)}"]`));
      if (again && !(/** @type {any} */ (again).disabled)) {
        again.focus({ preventScroll: true });
        if (caret && (again instanceof HTMLInputElement || again instanceof HTMLTextAreaElement)) {
          again.setSelectionRange(caret[0], caret[1]);
        }
      }
    }
    this.tick();
  }

  /** Updates the countdowns in place, every half second. */
  tick() {
    const now = this.now();
    for (const el of this.el.querySelectorAll('[data-countdown-to]')) {
      const to = Number(/** @type {HTMLElement} */ (el).dataset.countdownTo);
      const text = formatRemaining(to - now);
      if (el.textContent !== text) el.textContent = text;
    }
  }

  /**
   * A countdown to `ms` (server time), kept current by `tick`.
   * @param {number} ms
   */
  countdown(ms) {
    return h('span', { class: 'countdown', 'data-countdown-to': ms }, formatRemaining(ms - this.now()));
  }

  // ---- actions ----

  /**
   * Runs one action: its button disabled meanwhile, its refusal shown in words beside its
   * part of the console, its success said aloud; the snapshot is read again at once.
   * @param {string} key the action (one at a time)
   * @param {Part} part where a refusal is shown
   * @param {() => Promise<any>} call
   * @param {(answer: any) => string} success the words said aloud
   * @param {(e: unknown) => string | (string | Node)[]} [refusal] the words of a refusal
   * @returns {Promise<boolean>} whether it succeeded
   */
  async act(key, part, call, success, refusal) {
    if (this.busy.has(key)) return false;
    this.busy.add(key);
    this.alert(part, '');
    for (const b of this.el.querySelectorAll(`[data-action="${CSS.escape(key)}"]`)) {
      /** @type {HTMLButtonElement} */ (b).disabled = true;
    }
    let ok = false;
    try {
      const answer = await call();
      ok = true;
      announce(success(answer));
    } catch (e) {
      this.alert(part, refusal ? refusal(e) : errorText(e));
    } finally {
      this.busy.delete(key);
    }
    if (ok) await this.store.refresh().catch(() => {});
    this.redraw(['status', 'players', 'round', 'sheets']);
    return ok;
  }

  /** @param {Part} part @param {string | (string | Node)[]} content */
  alert(part, content) {
    const el = part === 'status' ? this.parts.round.alert : this.parts[part].alert;
    if (typeof content === 'string') el.textContent = content;
    else replace(el, ...content);
  }

  /**
   * A button bound to an action key: disabled while that action is under way.
   * @param {string} key
   * @param {Record<string, any>} attrs
   * @param {string} text
   */
  button(key, attrs, text) {
    return h('button', { type: 'button', class: 'button secondary small', ...attrs, 'data-action': key, 'data-key': attrs['data-key'] || key, disabled: attrs.disabled || this.busy.has(key) }, text);
  }

  // ---- the status line ----

  drawStatus() {
    replace(this.statusLine, ...this.statusWords());
  }

  /** What to do next, in the organiser's words. @returns {(string | Node)[]} */
  statusWords() {
    const snap = this.snap;
    const active = snap.players.filter((p) => !p.withdrawn);
    const round = this.lastRound();
    const planned = snap.rounds_planned || snap.settings.rounds;
    // A round-robin's number of rounds is known once it has players.
    const of = planned ? ` of ${planned}` : '';
    const disputed = snap.rounds.flatMap((r) => r.pairings).filter((p) => p.sheet?.status === 'disputed').length;
    const disputes = disputed ? ` ${plural(disputed, 'score sheet is', 'score sheets are')} disputed: correct or uphold ${disputed === 1 ? 'it' : 'them'} below.` : '';
    if (snap.status === 'finished') {
      const open = snap.rounds.flatMap((r) => r.pairings).filter((p) => p.sheet?.status === 'pending').length;
      const waiting = open ? ` ${plural(open, 'score sheet waits', 'score sheets wait')} for the players to confirm (each confirms itself 60 s after its game).` : '';
      return [`The tournament is over: ${plural(snap.rounds.length, 'round was', 'rounds were')} played. Download the standings and the score sheets below.${disputes}${waiting}`];
    }
    if (!round) {
      if (active.length === 0) return ['Nobody has joined yet. Send the tournament\'s link to the players; pair round 1 when everyone is here.'];
      if (active.length === 1) return ['1 player has joined. Send the link to the others: at least two players are needed to pair round 1.'];
      const closes = snap.system === 'swiss' ? '' : ' Nobody can join a round-robin once round 1 is paired.';
      return [`${plural(active.length, 'player has', 'players have')} joined. Pair round 1 when everyone is here.${closes}`];
    }
    const games = round.pairings.filter((p) => p.second !== null);
    if (round.status === 'paired') {
      return [`Round ${round.number} is paired (${plural(round.pairings.length, 'table')}). Check the tables below and change them if you need to, then start round ${round.number}: its games and clocks start at once.`];
    }
    if (round.status === 'playing') {
      if (round.closing) return [`${roundEnding(round)}: its unfinished games are being adjudicated on the seeds.`];
      const done = games.filter((p) => p.sheet).length;
      const ends = round.deadline ? [' It ends in ', this.countdown(round.deadline), '; you may end it sooner.'] : [];
      return [`Round ${round.number} is being played: ${done} of ${plural(games.length, 'table')} finished.`, ...ends, disputes];
    }
    const pending = round.pairings.filter((p) => p.sheet?.status === 'pending').length;
    const waiting = pending ? ` ${plural(pending, 'score sheet waits', 'score sheets wait')} for the players to confirm (each confirms itself 60 s after its game).` : '';
    const next = round.number < planned ? ` Pair round ${round.number + 1} when you are ready.` : '';
    return [`Round ${round.number}${of} is over.${disputes}${waiting}${next}`];
  }

  // ---- the players ----

  drawPlayers() {
    const snap = this.snap;
    if (!snap.players.length) {
      return [h('p', { class: 'muted' }, 'Nobody has joined yet.'), this.shareLink()];
    }
    const standings = new Map(snap.standings.map((s) => [s.player_id, s]));
    const withdrawable = snap.status !== 'finished';
    const rows = snap.players.map((p) => {
      const here = this.store.presence.has(p.player_id);
      const points = standings.get(p.player_id)?.points;
      const notes = [];
      if (p.withdrawn) notes.push('withdrawn');
      if (p.joined_after_round > 0) notes.push(`joined after round ${p.joined_after_round}`);
      if (p.player_id === snap.director) notes.push('you');
      return h('tr', { 'data-player-row': p.player_id, 'data-connected': String(here), 'data-withdrawn': String(p.withdrawn), class: p.withdrawn ? 'withdrawn' : null },
        h('th', { scope: 'row' }, p.name),
        h('td', { class: 'presence' },
          h('span', { class: `dot ${here ? 'on' : 'off'}`, 'aria-hidden': 'true' }),
          h('span', {}, here ? 'connected' : 'not connected')),
        h('td', { class: 'num' }, points === undefined ? '' : formatPoints(points)),
        h('td', { class: 'small' }, notes.join(', ')),
        h('td', {}, p.withdrawn || !withdrawable ? null : this.button(`withdraw:${p.player_id}`, {
          'data-withdraw': p.player_id, 'aria-label': `Withdraw ${p.name}`,
          onclick: () => this.withdraw(p.player_id, p.name),
        }, 'Withdraw')));
    });
    const active = snap.players.filter((p) => !p.withdrawn).length;
    return [
      h('p', { class: 'muted small' }, `${plural(active, 'active player')}${active !== snap.players.length ? `, ${snap.players.length - active} withdrawn` : ''}.`),
      h('div', { class: 'table-wrap' },
        h('table', { class: 'data-table director-players' },
          h('caption', { class: 'sr-only' }, 'The players, whether they are connected, and their points'),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Connection'), h('th', { scope: 'col', class: 'num' }, 'Points'),
            h('th', { scope: 'col' }, 'Notes'), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions')))),
          h('tbody', {}, rows))),
      snap.status === 'open' ? this.shareLink() : null,
      this.drawForbidden(),
    ];
  }

  /**
   * The pairs who must never meet (RULES.md 5.4 rule 2), chosen from the players' names:
   * the list, each with a button to let them meet again, and two selects to add a pair.
   */
  drawForbidden() {
    const snap = this.snap;
    const pairs = snap.settings.forbidden_pairs || [];
    const open = snap.status !== 'finished';
    const nameOf = (/** @type {string} */ id) => snap.players.find((p) => p.player_id === id)?.name || 'a player who has not joined';
    const list = pairs.length
      ? h('ul', { class: 'director-forbidden-list' }, pairs.map(([a, b], i) => h('li', { 'data-forbidden-pair': `${a} ${b}` },
        h('span', {}, `${nameOf(a)} and ${nameOf(b)}`),
        open ? this.button('forbid', {
          'data-forbidden-remove': i, 'data-key': `forbid-remove-${a}-${b}`, 'aria-label': `Let ${nameOf(a)} and ${nameOf(b)} meet`,
          onclick: () => this.saveForbidden(pairs.filter((_, j) => j !== i), `${nameOf(a)} and ${nameOf(b)} may meet again.`),
        }, 'Remove') : null)))
      : h('p', { class: 'muted small', 'data-forbidden-none': true }, 'None: anyone may meet anyone.');
    const heading = h('h4', { id: 'director-forbidden-title' }, 'Pairs who must never meet');
    const active = snap.players.filter((p) => !p.withdrawn);
    if (!open || active.length < 2) return h('div', { class: 'director-forbidden', 'aria-labelledby': heading.id, role: 'group' }, heading, list);
    const select = (/** @type {'a' | 'b'} */ key, /** @type {string} */ label) => [
      h('label', { for: `forbid-${key}` }, label),
      h('select', {
        id: `forbid-${key}`, 'data-key': `forbid-${key}`, 'data-forbid-pick': key,
        onchange: (/** @type {Event} */ ev) => { this.forbidPick[key] = /** @type {HTMLSelectElement} */ (ev.target).value; },
      },
      h('option', { value: '' }, 'Choose a player'),
      active.map((p) => h('option', { value: p.player_id, selected: p.player_id === this.forbidPick[key] }, p.name))),
    ];
    return h('div', { class: 'director-forbidden', 'aria-labelledby': heading.id, role: 'group' },
      heading,
      h('p', { class: 'muted small' }, 'Family, club mates: the pairing keeps them apart from the next round paired on.'),
      list,
      h('div', { class: 'director-forbid-add' },
        h('span', { class: 'field inline' }, ...select('a', 'Keep')),
        h('span', { class: 'field inline' }, ...select('b', 'apart from')),
        this.button('forbid', { 'data-forbid-add': true, onclick: () => this.addForbidden() }, 'Add the pair')));
  }

  /** Adds the pair chosen in the two selects. */
  addForbidden() {
    const { a, b } = this.forbidPick;
    if (!a || !b) {
      this.alert('players', 'Choose the two players to keep apart.');
      return;
    }
    if (a === b) {
      this.alert('players', 'Choose two different players: a player is never paired with themselves.');
      return;
    }
    const pairs = this.snap.settings.forbidden_pairs || [];
    if (pairs.some((p) => p.includes(a) && p.includes(b))) {
      this.alert('players', 'Those two are kept apart already.');
      return;
    }
    const name = (/** @type {string} */ id) => this.store.name(id);
    this.saveForbidden([...pairs, [a, b]], `${name(a)} and ${name(b)} will never be paired.`).then((ok) => {
      if (ok) this.forbidPick = { a: '', b: '' };
      this.redraw(['players']);
    });
  }

  /**
   * Sends the whole new list of forbidden pairs.
   * @param {[string, string][]} pairs @param {string} said
   */
  saveForbidden(pairs, said) {
    return this.act('forbid', 'players',
      () => api('PUT', `/api/tournaments/${this.store.id}/forbidden-pairs`, { forbidden_pairs: pairs }),
      () => said,
      (e) => `The pairs who must never meet were not saved: ${errorText(e)}`);
  }

  /** The link to send to the players, with a copy button. */
  shareLink() {
    const url = `${location.origin}/t/${this.store.id}`;
    const input = h('input', { type: 'text', id: 'director-share', readonly: true, value: url, 'data-key': 'share', onfocus: (/** @type {FocusEvent} */ ev) => /** @type {HTMLInputElement} */ (ev.target).select() });
    return h('div', { class: 'field director-share' },
      h('label', { for: 'director-share' }, 'Send this link to the players'),
      h('div', { class: 'invite-row' }, input,
        h('button', {
          type: 'button', class: 'button secondary small', 'data-key': 'share-copy',
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(url);
              announce('The link is copied.');
            } catch {
              input.select();
              announce('Select the link and copy it.');
            }
          },
        }, 'Copy')));
  }

  /** @param {string} playerId @param {string} name */
  withdraw(playerId, name) {
    const round = this.lastRound();
    const paired = round?.status === 'paired' && round.pairings.some((p) => p.first === playerId || p.second === playerId);
    const consequence = paired
      ? ` ${name} is paired in round ${round?.number}, not started: their opponent will win by forfeit when it starts (or edit the pairing first).`
      : ' A game they are playing goes on.';
    if (!window.confirm(`Withdraw ${name} from the tournament? They will not be paired again.${consequence}`)) return;
    this.act(`withdraw:${playerId}`, 'players',
      () => api('POST', `/api/tournaments/${this.store.id}/withdraw`, { player_id: playerId }),
      () => `${name} is withdrawn.`,
      (e) => `Could not withdraw ${name}: ${errorText(e)}`);
  }

  // ---- the round: pairing, editing, starting, ending ----

  /** Keeps the pairing being edited in step with the server's round. */
  syncDraft() {
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

  /** @returns {{body: (Node | null)[], after: (Node | null)[]}} */
  drawRound() {
    const snap = this.snap;
    const round = this.lastRound();
    if (snap.status === 'finished') {
      return { body: [h('p', {}, 'Every round has been played.')], after: [] };
    }
    const planned = snap.rounds_planned || snap.settings.rounds;
    const of = planned ? ` of ${planned}` : '';
    if (!round || round.status === 'finished') {
      const next = round ? round.number + 1 : 1;
      const active = snap.players.filter((p) => !p.withdrawn).length;
      const pairing = this.draft && this.draft.base === '' ? this.draft : null;
      return { after: [], body: [
        h('p', {}, round ? `Round ${round.number} is over. Next: round ${next}${of}.` : `Round 1${of}.`,
          active < 2 ? ' At least two active players are needed to pair it.' : ''),
        h('div', { class: 'button-row' },
          this.button('pair', {
            class: 'button primary', 'data-pair-next': true,
            onclick: () => this.pairNext(next),
          }, `Pair round ${next}`),
          pairing ? null : this.button('pair-by-hand', {
            'data-pair-by-hand': true,
            onclick: () => this.pairByHand(next),
          }, `Pair round ${next} by hand`)),
        h('p', { class: 'muted small' }, 'The server pairs by the tournament\'s rules (no two players meet twice, forbidden pairs kept apart, one bye at most); you may change its pairing before you start the round.'),
        pairing ? this.drawEditor(pairing, null) : null,
      ] };
    }
    if (round.status === 'paired') {
      const draft = /** @type {Draft} */ (this.draft);
      return { body: [
        h('p', {}, `Round ${round.number}${of} is paired${round.manual ? ' (by you)' : ''}. Not started yet.`),
        round.breaches.length ? h('div', { class: 'director-breaches', 'data-breaches': round.number },
          h('p', {}, h('strong', {}, 'Rules broken on purpose in this round (recorded):')),
          h('ul', {}, round.breaches.map((b) => h('li', {}, b)))) : null,
        this.drawEditor(draft, round),
      ], after: [
        h('div', { class: 'button-row director-start' },
          this.button('start', {
            class: 'button primary', 'data-start-round': round.number, disabled: this.dirty(),
            'aria-describedby': this.dirty() ? 'director-unsaved' : null,
            onclick: () => this.start(round.number),
          }, `Start round ${round.number}`)),
        this.dirty() ? h('p', { class: 'muted small', id: 'director-unsaved' }, 'Save or undo your changes to the pairing before starting the round.') : null,
      ] };
    }
    // playing
    const games = round.pairings.filter((p) => p.second !== null);
    const done = games.filter((p) => p.sheet).length;
    return { after: [], body: [
      h('p', {}, `Round ${round.number}${of} is being played: ${done} of ${plural(games.length, 'table')} finished.`),
      round.closing
        ? h('p', { class: 'director-closing' }, `${roundEnding(round)}: the unfinished games are being adjudicated.`)
        : round.deadline ? h('p', {}, 'Time left: ', h('strong', { class: 'director-deadline' }, this.countdown(round.deadline))) : null,
      h('div', { class: 'button-row' },
        this.button('end', {
          class: 'button danger', 'data-end-round': round.number, disabled: round.closing,
          onclick: () => this.end(round.number),
        }, 'End round now')),
      h('p', { class: 'muted small' }, 'Ending the round stops every unfinished game and adjudicates it: Omweso and Mweiso on the seeds on each side, Oware on the seeds captured.'),
    ] };
  }

  /** @param {number} number */
  pairNext(number) {
    this.draft = null;
    this.breach = null;
    this.act('pair', 'round',
      () => api('POST', `/api/tournaments/${this.store.id}/rounds`),
      (round) => `Round ${round?.number ?? number} is paired: check the tables, then start it.`,
      (e) => {
        if (e instanceof ApiError && e.code === 'no_pairing') {
          return `No pairing of round ${number} keeps the tournament's rules: ${e.message}. You can pair it by hand instead (the button above): the broken rule is then recorded.`;
        }
        if (e instanceof ApiError && e.code === 'round_not_ready') return `Round ${number} cannot be paired now: ${e.message}.`;
        return `Could not pair round ${number}: ${errorText(e)}`;
      });
  }

  /** Starts a pairing by hand of round `number`: the active players by rank, two by two. @param {number} number */
  pairByHand(number) {
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
  drawEditor(draft, round) {
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
            h('th', { scope: 'col' }, 'Second'), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions')))),
          h('tbody', {}, rows))),
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

  /** @param {number} number */
  start(number) {
    this.act('start', 'round',
      () => api('POST', `/api/tournaments/${this.store.id}/rounds/${number}/start`),
      () => `Round ${number} has started: its games are being played.`,
      (e) => `Could not start round ${number}: ${errorText(e)}`);
  }

  /** @param {number} number */
  end(number) {
    if (!window.confirm(`End round ${number} now? Its unfinished games will be adjudicated on the seeds.`)) return;
    this.act('end', 'round',
      () => api('POST', `/api/tournaments/${this.store.id}/rounds/${number}/end`),
      () => `Round ${number} is ending: its unfinished games are adjudicated.`,
      (e) => `Could not end round ${number}: ${errorText(e)}`);
  }

  // ---- the score sheets ----

  /** The rounds whose games have started, and the one shown. */
  sheetRounds() {
    const rounds = this.snap.rounds.filter((r) => r.status !== 'paired');
    const shown = rounds.find((r) => r.number === this.sheetRound) || rounds[rounds.length - 1] || null;
    return { rounds, shown };
  }

  drawSheets() {
    const { rounds, shown } = this.sheetRounds();
    if (!shown) return [h('p', { class: 'muted' }, 'Each game\'s score sheet appears here when it ends, once a round has started.')];
    const chooser = rounds.length > 1 ? h('div', { class: 'field inline director-sheet-round' },
      h('label', { for: 'sheets-round' }, 'Round'),
      h('select', {
        id: 'sheets-round', 'data-key': 'sheets-round', 'data-sheets-round': true,
        onchange: (/** @type {Event} */ ev) => {
          const value = Number(/** @type {HTMLSelectElement} */ (ev.target).value);
          const last = rounds[rounds.length - 1];
          this.sheetRound = last && value === last.number ? null : value;
          this.redraw(['sheets']);
        },
      }, rounds.map((r) => h('option', { value: r.number, selected: r.number === shown.number }, `Round ${r.number}${r.status === 'playing' ? ' (being played)' : ''}`)))) : null;
    /** @type {HTMLElement[]} */
    const rows = [];
    for (const p of shown.pairings) {
      for (const old of p.replaced) rows.push(this.sheetRow(p, old.game_id, old.sheet, true));
      if (p.game_id || p.sheet) rows.push(this.sheetRow(p, p.game_id, p.sheet, false));
      else rows.push(this.sheetRow(p, null, null, false));
      const gameId = p.game_id;
      if (gameId && this.correcting?.gameId === gameId && p.sheet) rows.push(this.correctionRow(p, p.sheet));
    }
    return [
      h('h4', { class: 'sr-only' }, `Round ${shown.number}`),
      chooser,
      h('div', { class: 'table-wrap' },
        h('table', { class: 'data-table director-sheets' },
          h('caption', { class: 'sr-only' }, `Score sheets of round ${shown.number}`),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'num' }, 'Table'), h('th', { scope: 'col' }, 'Players'),
            h('th', { scope: 'col' }, 'Result'), h('th', { scope: 'col' }, 'Sheet'),
            h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions')))),
          h('tbody', {}, rows))),
      h('p', { class: 'muted small' }, 'A sheet confirms itself 60 s after its game unless a player disputes it. Standings count every sheet as it stands. You may correct any sheet, or uphold a disputed one, with a reason: the original stays on record.'),
    ];
  }

  /**
   * One sheet's row (a game's; a bye's or a forfeit's without a game).
   * @param {PairingView} p
   * @param {string | null} gameId
   * @param {SheetView | null} sheet
   * @param {boolean} replaced an annulled game that a replay replaced
   */
  sheetRow(p, gameId, sheet, replaced) {
    const name = (/** @type {string | null} */ id) => this.store.name(id);
    const movedFirst = sheet?.moved_first || p.first;
    const players = p.second === null
      ? [h('span', {}, name(p.first)), h('span', { class: 'muted' }, ' — bye')]
      : [
        h('span', {}, name(p.first), movedFirst === p.first && gameId ? h('span', { class: 'muted small' }, ' (first)') : null),
        ' v ',
        h('span', {}, name(p.second), movedFirst === p.second && gameId ? h('span', { class: 'muted small' }, ' (first)') : null),
      ];
    const status = replaced ? 'replayed' : sheet ? sheet.status : gameId ? 'playing' : 'waiting';
    /** @type {(string | Node | null)[]} */
    let statusCell;
    if (replaced) statusCell = ['annulled and replayed'];
    else if (!sheet) statusCell = [gameId ? 'being played' : 'not started'];
    else if (sheet.status === 'pending') {
      const confirmed = sheet.confirmed_by.map((id) => name(id));
      statusCell = ['pending', sheet.confirms_at ? h('span', { class: 'small muted' }, ': confirms itself in ', this.countdown(sheet.confirms_at)) : null,
        confirmed.length ? h('div', { class: 'small muted' }, `Confirmed by ${confirmed.join(' and ')}`) : null];
    } else if (sheet.status === 'disputed' && sheet.dispute) {
      statusCell = [h('strong', { class: 'director-disputed' }, 'disputed'), h('div', { class: 'small' }, `by ${name(sheet.dispute.by)}: “${sheet.dispute.reason}”`)];
    } else {
      statusCell = [SHEET_STATUS_WORDS[sheet.status] || sheet.status];
      if (sheet.dispute) statusCell.push(h('div', { class: 'small muted' }, `disputed by ${name(sheet.dispute.by)}: “${sheet.dispute.reason}”`));
    }
    const correctable = Boolean(!replaced && gameId && sheet && p.second !== null && sheet.game_id);
    const open = this.correcting?.gameId === gameId;
    return h('tr', { 'data-sheet-row': gameId, 'data-bye-row': p.second === null ? p.table : null, 'data-table': p.table, 'data-status': status, class: `sheet-${status}${replaced ? ' replaced' : ''}` },
      h('td', { class: 'num' }, gameId && !replaced ? h('a', { href: `/g/${gameId}`, 'aria-label': `Table ${p.table}: open the game` }, String(p.table)) : String(p.table)),
      h('td', {}, players),
      h('td', {},
        sheet ? this.resultWords(p, sheet) : '',
        sheet?.arrangements ? arrangementsLine(p, sheet.arrangements, (id) => this.store.name(id)) : null,
        sheet && sheet.corrections.length ? this.corrections(p, sheet) : null),
      h('td', { 'data-sheet-status': status }, statusCell),
      h('td', { class: 'director-sheet-actions' },
        correctable && gameId && sheet ? [
          this.button(`correct:${gameId}`, {
            'data-correct': gameId, 'aria-expanded': String(open && this.correcting?.result !== 'uphold'),
            'aria-label': `Correct the sheet of table ${p.table}`,
            onclick: () => this.openCorrection(gameId, sheet, false),
          }, 'Correct'),
          sheet.status === 'disputed' ? this.button(`uphold:${gameId}`, {
            'data-uphold': gameId, 'aria-label': `Uphold the sheet of table ${p.table} (reject the dispute)`,
            onclick: () => this.openCorrection(gameId, sheet, true),
          }, 'Uphold') : null,
        ] : null));
  }

  /**
   * A sheet's result in words, with the points.
   * @param {PairingView} p
   * @param {SheetView | ResultView} sheet
   * @param {boolean} [withPoints]
   */
  resultText(p, sheet, withPoints = true) {
    const name = (/** @type {string | null} */ id) => this.store.name(id);
    const first = sheet.first_result;
    const second = sheet.second_result;
    // The victory, unless the result says it already (adjudicated-won, forfeit-won).
    const said = sheet.victory && [first, second].some((r) => r && r.startsWith(`${sheet.victory}-`));
    const victory = sheet.victory && !said ? ` (${VICTORY_NAMES[sheet.victory] || sheet.victory})` : '';
    let text;
    if (first === 'bye') text = `${name(p.first)}: bye`;
    else if (/won$/.test(first)) text = `${name(p.first)} ${RESULT_WORDS[first] || first}${victory}`;
    else if (second && /won$/.test(second)) text = `${name(p.second)} ${RESULT_WORDS[second] || second}${victory}`;
    else if (first === 'annulled') text = `annulled${victory}`;
    else text = `${RESULT_WORDS[first] || first}${victory}`.replace(/^drew/, 'draw');
    if (withPoints && 'points' in sheet) {
      text += p.second === null ? ` · ${formatPoints(sheet.points.first)}` : ` · ${formatPoints(sheet.points.first)}–${formatPoints(sheet.points.second)}`;
    }
    return text;
  }

  /** @param {PairingView} p @param {SheetView} sheet */
  resultWords(p, sheet) {
    return h('span', { 'data-result': true }, this.resultText(p, sheet));
  }

  /** The history of a sheet's corrections. @param {PairingView} p @param {SheetView} sheet */
  corrections(p, sheet) {
    const gameId = sheet.game_id || '';
    return h('details', {
      class: 'director-corrections', 'data-corrections': gameId, open: this.unfolded.has(gameId),
      ontoggle: (/** @type {Event} */ ev) => {
        if (/** @type {HTMLDetailsElement} */ (ev.target).open) this.unfolded.add(gameId);
        else this.unfolded.delete(gameId);
      },
    },
    h('summary', { 'data-key': `corrections-${gameId}` }, plural(sheet.corrections.length, 'correction')),
      h('ol', {}, sheet.corrections.map((c) => h('li', {},
        h('time', { datetime: new Date(c.at_ms).toISOString() }, new Date(c.at_ms).toLocaleString()),
        ` by ${c.by_name}: “${c.reason}”. `,
        h('span', { class: 'small' }, `${this.resultText(p, c.before, false)} → ${this.resultText(p, c.after, false)}`)))));
  }

  // ---- correcting a sheet ----

  /**
   * Opens the correction form of a game, filled in with the sheet as it stands.
   * @param {string} gameId
   * @param {SheetView} sheet
   * @param {boolean} uphold
   */
  openCorrection(gameId, sheet, uphold) {
    const current = this.currentOutcome(sheet);
    const reason = this.correcting?.gameId === gameId ? this.correcting.reason : '';
    this.correcting = { gameId, result: current.result, victory: current.victory, reason: reason || (uphold ? 'dispute rejected: ' : '') };
    this.alert('sheets', '');
    this.redraw(['sheets']);
    const focus = /** @type {HTMLElement | null} */ (this.el.querySelector(uphold ? '#correct-reason' : '#correct-result'));
    focus?.focus();
    if (uphold && focus instanceof HTMLTextAreaElement) focus.setSelectionRange(focus.value.length, focus.value.length);
  }

  /**
   * The sheet's result as the form's choices: who won (the pairing's first or second), a
   * draw or an annulment, and the victory (or the annulment's reason).
   * @param {SheetView} sheet
   */
  currentOutcome(sheet) {
    const won = (/** @type {string | null} */ r) => Boolean(r && /won$/.test(r));
    // A forfeit is a win by abandonment without a move: as the game's outcome, `abandoned`.
    const victory = sheet.victory === 'forfeit' ? 'abandoned' : sheet.victory || '';
    if (won(sheet.first_result)) return { result: 'first', victory };
    if (won(sheet.second_result)) return { result: 'second', victory };
    if (sheet.first_result === 'annulled') return { result: 'annulled', victory };
    return { result: 'draw', victory: '' };
  }

  /**
   * The correction form, in a row of its own under the sheet.
   * @param {PairingView} p
   * @param {SheetView} sheet
   */
  correctionRow(p, sheet) {
    const c = /** @type {Correcting} */ (this.correcting);
    const snap = this.snap;
    const ruleset = snap.ruleset;
    const name = (/** @type {string | null} */ id) => this.store.name(id);
    let victories = c.result === 'annulled' ? ANNUL_REASONS : (VICTORIES[ruleset] || VICTORIES.omweso);
    if (c.result !== 'annulled' && ruleset === 'omweso' && !snap.settings.time_control.akakyala) {
      victories = victories.filter((v) => v !== 'akakyala' || v === c.victory);
    }
    if (c.result !== 'draw' && !victories.includes(c.victory)) c.victory = victories[0];
    const pts = snap.settings.points;
    const worth = (/** @type {string} */ v) => {
      if (c.result === 'annulled') return ` — ${formatPoints(pts.annulled)} each`;
      const value = ruleset === 'oware' ? pts.win : (pts[v] ?? pts.win);
      return ` — ${formatPoints(value)} for the winner`;
    };
    const current = this.currentOutcome(sheet);
    const same = current.result === c.result && (c.result === 'draw' || current.victory === c.victory);
    const result = h('select', {
      id: 'correct-result', 'data-key': 'correct-result',
      onchange: (/** @type {Event} */ ev) => {
        c.result = /** @type {HTMLSelectElement} */ (ev.target).value;
        this.redraw(['sheets']);
      },
    },
    h('option', { value: 'first', selected: c.result === 'first' }, `${name(p.first)} won`),
    h('option', { value: 'second', selected: c.result === 'second' }, `${name(p.second)} won`),
    h('option', { value: 'draw', selected: c.result === 'draw' }, `Draw (${formatPoints(pts.draw)} each)`),
    h('option', { value: 'annulled', selected: c.result === 'annulled' }, `Annulled, not replayed (${formatPoints(pts.annulled)} each)`));
    const victory = h('select', {
      id: 'correct-victory', 'data-key': 'correct-victory', disabled: c.result === 'draw',
      onchange: (/** @type {Event} */ ev) => {
        c.victory = /** @type {HTMLSelectElement} */ (ev.target).value;
        this.redraw(['sheets']);
      },
    },
    c.result === 'draw'
      ? h('option', { value: '' }, 'none: a draw')
      : victories.map((v) => h('option', { value: v, selected: v === c.victory }, `${victoryLabel(v)}${worth(v)}`)));
    const reason = h('textarea', {
      id: 'correct-reason', 'data-key': 'correct-reason', rows: 2, maxlength: 500, required: true,
      'aria-describedby': 'correct-reason-hint',
      oninput: (/** @type {Event} */ ev) => { c.reason = /** @type {HTMLTextAreaElement} */ (ev.target).value; },
    });
    reason.value = c.reason;
    const key = `correct:${c.gameId}`;
    return h('tr', { class: 'director-correct-row', 'data-correct-form': c.gameId },
      h('td', { colspan: 5 },
        h('form', {
          class: 'director-correct', 'aria-label': `Correct the sheet of table ${p.table}`, novalidate: true,
          onsubmit: (/** @type {SubmitEvent} */ ev) => {
            ev.preventDefault();
            this.submitCorrection(p, sheet);
          },
        },
        h('p', { class: 'small' }, `Table ${p.table}: ${name(sheet.moved_first || p.first)} moved first. As it stands: ${this.resultText(p, sheet)}.`),
        h('div', { class: 'director-correct-fields' },
          h('div', { class: 'field' }, h('label', { for: 'correct-result' }, 'Result'), result),
          h('div', { class: 'field', hidden: c.result === 'draw' },
            h('label', { for: 'correct-victory' }, c.result === 'annulled' ? 'Why it was annulled' : 'Victory'), victory),
          h('div', { class: 'field director-correct-reason' },
            h('label', { for: 'correct-reason' }, 'Reason (required)'), reason,
            h('p', { class: 'muted small', id: 'correct-reason-hint' }, 'Kept on the sheet and in the export, with your name and the time. Up to 500 characters.'))),
        h('div', { class: 'button-row' },
          h('button', {
            type: 'submit', class: 'button primary small', 'data-correct-submit': c.gameId, 'data-action': key, 'data-key': 'correct-submit',
            disabled: this.busy.has(key),
          }, same ? 'Uphold the result' : 'Save the correction'),
          h('button', {
            type: 'button', class: 'button secondary small', 'data-correct-cancel': true, 'data-key': 'correct-cancel',
            onclick: () => {
              this.correcting = null;
              this.alert('sheets', '');
              this.redraw(['sheets']);
              /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-correct="${CSS.escape(p.game_id || '')}"]`))?.focus();
            },
          }, 'Cancel')),
        same ? h('p', { class: 'muted small' }, 'The same result as the sheet: saving upholds it as it stands (a dispute rejected), recorded as a correction.') : null)));
  }

  /** @param {PairingView} p @param {SheetView} sheet */
  async submitCorrection(p, sheet) {
    const c = this.correcting;
    if (!c) return;
    const reason = c.reason.trim();
    if (!reason) {
      this.alert('sheets', 'Give a reason for the correction: it is kept on the sheet.');
      /** @type {HTMLElement | null} */ (this.el.querySelector('#correct-reason'))?.focus();
      return;
    }
    // The result in the game's own seats: "s" is who moved first in that game (a replay
    // swaps it), which may be the pairing's second player.
    const movedFirst = sheet.moved_first || p.first;
    /** @type {any} */
    let result;
    if (c.result === 'draw') result = { result: 'draw' };
    else if (c.result === 'annulled') result = { result: 'annulled', reason: c.victory };
    else {
      const winner = c.result === 'first' ? p.first : p.second;
      result = { result: 'win', winner: winner === movedFirst ? 's' : 'n', victory: c.victory };
    }
    const gameId = c.gameId;
    const ok = await this.act(`correct:${gameId}`, 'sheets',
      () => api('POST', `/api/tournaments/${this.store.id}/sheets/${gameId}`, { action: 'correct', result, reason }),
      (answer) => `Table ${p.table}'s sheet now reads: ${this.resultText(p, answer || sheet)}.`,
      (e) => `The correction was not saved: ${errorText(e)}`);
    if (ok) {
      this.correcting = null;
      this.redraw(['sheets']);
      /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-correct="${CSS.escape(gameId)}"]`))?.focus();
    }
  }

  // ---- exports ----

  downloads() {
    const base = `/api/tournaments/${this.store.id}`;
    const link = (/** @type {string} */ file, /** @type {string} */ text) =>
      h('li', {}, h('a', { href: `${base}/${file}`, download: file, 'data-export': file }, text));
    return h('section', { class: 'director-part director-downloads', 'aria-labelledby': 'director-downloads-title' },
      h('h3', { id: 'director-downloads-title' }, 'Downloads'),
      h('ul', { class: 'director-exports' },
        link('standings.csv', 'Standings (CSV, for a spreadsheet)'),
        link('sheets.csv', 'Every score sheet with its corrections (CSV)'),
        link('tournament.trf', 'The tournament for FIDE\'s pairing programs (TRF)')));
  }
}

/**
 * A free setup's two arrangements on the sheet, as the players placed them: each player's
 * outer row then inner row, left to right from their own side, and which one the referee
 * placed when their time ran out.
 * @param {PairingView} p
 * @param {NonNullable<SheetView['arrangements']>} arrangements
 * @param {(id: string | null) => string} name
 */
function arrangementsLine(p, arrangements, name) {
  /** @param {number[]} counts @param {boolean} late @param {string | null} who */
  const one = (counts, late, who) => h('div', { class: 'small muted' },
    `${name(who)}: ${counts.slice(0, 8).join(' ')} | ${counts.slice(8).reverse().join(' ')}${late ? ' (time ran out: given the outer row)' : ''}`);
  return h('div', { 'data-arrangements': p.game_id || '' },
    one(arrangements.first, arrangements.late.first, p.first),
    one(arrangements.second, arrangements.late.second, p.second));
}
