// The console's board tables of the last round (docs/rules.md#57-over-the-board-play-and-relays):
// each table played over the board with its relay, who enters the wooden board's moves so
// that spectators follow it live. "Relay…" offers a one-time invite (its code, its link
// and QR code, for a phone in the hall) or "Relay it myself"; "Remove relay" stops it (the
// game entered so far stays). Their sheets are in the sheets part (sheets.js).

import { api } from '../core/api.js';
import { h, errorText } from '../core/ui.js';
import { ConsolePart } from './part.js';
import { svgFrom } from './players.js';
import { dayAndTime } from '../core/when.js';

/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */
/** @typedef {import('../tournament/tournamentstore.js').PairingView} PairingView */
/**
 * A relay invite just made, shown until closed (its code is shown only once).
 * @typedef {{round: number, table: number, code: string, url: string, qr_svg: string, expires_at_ms: number}} ShownInvite
 */

export class BoardTablesPart extends ConsolePart {
  /** @param {import('./console.js').DirectorConsole} owner */
  constructor(owner) {
    super(owner);
    /** @type {number | null} the table whose relay choices are open */
    this.choosing = null;
    /** @type {ShownInvite | null} */
    this.invite = null;
  }

  /**
   * The round's board tables with their relays, or null when it has none (or is over).
   * @param {RoundView} round
   */
  draw(round) {
    if (round.status === 'finished') return null;
    const tables = round.pairings.filter((p) => p.played_at === 'board' && p.second);
    if (!tables.length) return null;
    return h('div', { class: 'director-board-tables', 'data-board-tables': round.number },
      h('h4', {}, `Tables at the board (${tables.length})`),
      h('p', { class: 'muted small' }, 'Their players enter the result on their phones (the QR code on each printed sheet). A relay enters a table\'s moves as they are sown, for the spectators.'),
      h('ul', { class: 'director-board-list' }, tables.map((p) => this.row(round, p))));
  }

  /** @param {RoundView} round @param {PairingView} p */
  row(round, p) {
    const name = (/** @type {string | null} */ id) => this.store.name(id);
    const board = p.board;
    const relay = board?.relay_name ? `relayed by ${board.relay_name}` : board?.relayed ? 'relayed (no relay now)' : 'no relay';
    // No relay once the sheet is made, the round's time is up, or a player has entered the
    // result with no game following the board (the server refuses it then).
    const made = Boolean(p.sheet) || round.closing || Boolean(!board?.relayed && board?.entries.length);
    const invite = this.invite && this.invite.round === round.number && this.invite.table === p.table ? this.invite : null;
    return h('li', { 'data-board-table': p.table },
      h('span', {}, `Table ${p.table}: ${name(p.first)} v ${name(p.second)} · `, h('span', { 'data-relay-state': p.table }, relay)),
      made ? h('span', { class: 'muted small' }, p.sheet ? ' · sheet made' : ' · result being entered') : h('span', { class: 'button-row inline' },
        this.button(`relay:${p.table}`, {
          'data-relay-open': p.table, 'aria-expanded': String(this.choosing === p.table),
          onclick: () => { this.choosing = this.choosing === p.table ? null : p.table; this.redraw(['round']); },
        }, 'Relay…'),
        board?.relay ? this.button(`relay-remove:${p.table}`, {
          'data-relay-remove': p.table, 'aria-label': `Remove relay of table ${p.table}`,
          onclick: () => this.removeRelay(round.number, p.table),
        }, 'Remove relay') : null),
      this.choosing === p.table && !made ? h('div', { class: 'director-relay-choices button-row' },
        this.button(`relay-invite:${p.table}`, {
          'data-relay-invite': p.table, onclick: () => this.makeInvite(round.number, p.table),
        }, 'Invite a relay (code and QR code)'),
        this.button(`relay-self:${p.table}`, {
          'data-relay-self': p.table, onclick: () => this.relaySelf(round.number, p.table),
        }, 'Relay it myself')) : null,
      invite ? this.drawInvite(invite) : null);
  }

  /** The invite just made: code, link, QR code. @param {ShownInvite} invite */
  drawInvite(invite) {
    const qr = h('div', { class: 'link-code-qr', 'aria-hidden': 'true' });
    const svg = svgFrom(invite.qr_svg);
    if (svg) qr.append(svg);
    // Twelve hours: the time alone would not say which day.
    const until = h('time', { datetime: new Date(invite.expires_at_ms).toISOString(), 'data-relay-until': true }, dayAndTime(invite.expires_at_ms));
    return h('div', { class: 'director-device-code', role: 'region', 'aria-label': `Relay invite for table ${invite.table}`, 'data-relay-code': invite.table },
      h('p', { class: 'link-code', 'data-relay-code-text': invite.code }, invite.code),
      qr,
      h('p', { class: 'small' }, 'The relay scans the QR code, or opens ', h('a', { href: invite.url, 'data-relay-url': true }, invite.url),
        '. It works once, until ', until, '; a new invite replaces it.'),
      h('p', { class: 'small', 'data-relay-typed': true }, `No camera? On the relay's phone, open ${location.host}/link and type the code.`),
      h('button', { type: 'button', class: 'button secondary small', 'data-key': 'relay-invite-close', onclick: () => { this.invite = null; this.redraw(['round']); } }, 'Done'));
  }

  /** @param {number} round @param {number} table */
  makeInvite(round, table) {
    return this.act(`relay-invite:${table}`, 'round',
      async () => {
        const answer = await api('POST', `/api/tournaments/${this.store.id}/tables/${round}/${table}/relay-invite`, {});
        this.invite = { round, table, ...answer };
        this.choosing = null;
      },
      () => `The relay invite for table ${table} is shown under it.`,
      (e) => `No relay invite for table ${table}: ${errorText(e)}`);
  }

  /** @param {number} round @param {number} table */
  relaySelf(round, table) {
    return this.act(`relay-self:${table}`, 'round',
      async () => {
        await api('POST', `/api/tournaments/${this.store.id}/tables/${round}/${table}/relay`, {});
        this.choosing = null;
      },
      () => `You relay table ${table}.`,
      (e) => `You were not made the relay of table ${table}: ${errorText(e)}`);
  }

  /** @param {number} round @param {number} table */
  removeRelay(round, table) {
    return this.act(`relay-remove:${table}`, 'round',
      () => api('DELETE', `/api/tournaments/${this.store.id}/tables/${round}/${table}/relay`),
      () => `Table ${table} has no relay now.`,
      (e) => `The relay of table ${table} was not removed: ${errorText(e)}`);
  }
}
