// The console's directors: who runs the tournament (the director and the co-directors),
// and, for the director who created it, naming a co-director by username, making a
// one-time invite code for a guest, and removing one; for every director, the list of
// the directors' actions, each under the name of who did it (docs/tournaments.md,
// "Directors").

import { api } from '../core/api.js';
import { h, errorText } from '../core/ui.js';
import { ConsolePart } from './part.js';
import { timeOfDay, dayAndTime } from '../core/when.js';

/** @typedef {{seq: number, at_ms: number, kind: string, by: string, by_name: string, summary: string}} DirectorAction */

export class DirectorsPart extends ConsolePart {
  /** @param {import('./console.js').DirectorConsole} owner */
  constructor(owner) {
    super(owner);
    /** The username being typed (kept across redraws). */
    this.username = '';
    /** @type {{code: string, expires_at_ms: number} | null} the invite just made, shown until closed */
    this.invite = null;
    /** @type {DirectorAction[] | null} the actions as last read, or null when not shown */
    this.actions = null;
  }

  draw() {
    const snap = this.snap;
    const chief = this.store.isChiefDirector();
    const me = this.store.me?.player_id;
    const coDirectors = snap.co_directors || [];
    const open = snap.status !== 'finished';
    const list = h('ul', { class: 'director-directors-list' },
      h('li', { 'data-director-row': snap.director },
        `${snap.director_name || 'The director'} — director${snap.director === me ? ' (you)' : ''}`),
      coDirectors.map((c) => h('li', { 'data-co-director-row': c.id },
        h('span', {}, `${c.name} — co-director${c.id === me ? ' (you)' : ''}`),
        chief ? this.button(`co-director-remove:${c.id}`, {
          'data-co-director-remove': c.id, 'aria-label': `Remove ${c.name} as co-director`,
          onclick: () => this.remove(c.id, c.name),
        }, 'Remove') : null)));
    /** @type {(HTMLElement | null)[]} */
    const parts = [
      h('p', { class: 'muted small' }, chief
        ? 'Co-directors have this console too, on any of their devices: they may do everything you may but name or remove co-directors.'
        : 'You are a co-director: you may do everything the director may but name or remove co-directors.'),
      list,
    ];
    if (chief && open) parts.push(this.addForm(), this.inviteBlock());
    parts.push(this.actionsBlock());
    return parts;
  }

  /** Naming an account by its username. */
  addForm() {
    const input = h('input', {
      type: 'text', id: 'co-director-username', 'data-key': 'co-director-username', autocomplete: 'off', spellcheck: 'false',
      maxlength: 64, value: this.username,
      oninput: (/** @type {Event} */ ev) => { this.username = /** @type {HTMLInputElement} */ (ev.target).value; },
    });
    return h('form', {
      class: 'director-co-director-add',
      onsubmit: (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        this.add();
      },
    },
    h('label', { for: 'co-director-username' }, 'Name a co-director by their username'),
    h('div', { class: 'invite-row' }, input,
      this.button('co-director-add', { type: 'submit', 'data-co-director-add': true }, 'Add')));
  }

  /** The invite for a guest (no username): made on demand, shown once. */
  inviteBlock() {
    const make = this.button('co-director-invite', { 'data-co-director-invite': true, onclick: () => this.makeInvite() },
      this.invite ? 'Make another code' : 'Make an invite code');
    if (!this.invite) {
      return h('div', { class: 'director-co-director-invite' },
        h('p', { class: 'muted small' }, 'A guest has no username: give them a one-time code instead.'), make);
    }
    const until = dayAndTime(this.invite.expires_at_ms);
    return h('div', { class: 'director-co-director-invite', role: 'region', 'aria-label': 'Co-director invite code' },
      h('p', { class: 'link-code', 'data-co-director-code': this.invite.code }, this.invite.code),
      h('p', { class: 'small' }, `Give this code to your co-director: they open this tournament's page, choose "Were you given a co-director code?" and enter it. It works once, until ${until}.`),
      h('div', { class: 'button-row' }, make,
        h('button', { type: 'button', class: 'button secondary small', 'data-key': 'co-director-invite-close', onclick: () => { this.invite = null; this.redraw(['directors']); } }, 'Done')));
  }

  /** The directors' actions, read when asked for (and again with the same button). */
  actionsBlock() {
    const read = this.button('director-actions', { 'data-director-actions-read': true, onclick: () => this.readActions() },
      this.actions ? 'Read the actions again' : 'Show who did what');
    if (!this.actions) return h('div', { class: 'director-actions' }, read);
    const rows = this.actions.map((a) => h('li', { 'data-director-action': a.kind },
      h('span', { class: 'muted small' }, `${timeOfDay(a.at_ms)} `),
      h('strong', {}, a.by_name), ` ${a.summary}`));
    return h('div', { class: 'director-actions' },
      h('h4', { id: 'director-actions-title' }, 'Who did what'),
      h('ol', { class: 'director-actions-list', 'aria-labelledby': 'director-actions-title' }, rows), read);
  }

  add() {
    const username = this.username.trim();
    if (!username) {
      this.alert('directors', 'Type the username of the person to name co-director.');
      return;
    }
    this.act('co-director-add', 'directors',
      () => api('POST', `/api/tournaments/${this.store.id}/co-directors`, { username }),
      () => {
        this.username = '';
        return `${username} is a co-director.`;
      },
      (e) => `Could not name ${username} co-director: ${errorText(e)}`);
  }

  makeInvite() {
    this.act('co-director-invite', 'directors',
      async () => {
        this.invite = await api('POST', `/api/tournaments/${this.store.id}/co-director-invites`, {});
      },
      () => 'An invite code is made: it is shown in the Directors part.',
      (e) => `No invite code was made: ${errorText(e)}`);
  }

  /** @param {string} id @param {string} name */
  remove(id, name) {
    if (!window.confirm(`Remove ${name} as co-director? The console closes for them.`)) return;
    this.act(`co-director-remove:${id}`, 'directors',
      () => api('DELETE', `/api/tournaments/${this.store.id}/co-directors/${id}`),
      () => `${name} is no longer a co-director.`,
      (e) => `Could not remove ${name}: ${errorText(e)}`);
  }

  readActions() {
    this.act('director-actions', 'directors',
      async () => {
        const answer = await api('GET', `/api/tournaments/${this.store.id}/actions`);
        this.actions = answer.actions;
      },
      () => 'The directors\' actions are listed.',
      (e) => `Could not read the actions: ${errorText(e)}`);
  }
}
