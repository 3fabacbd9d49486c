// "Were you given a co-director code?": where someone the director invited (a guest, who
// has no username to be named by) enters the one-time code from the director's console
// and gets the console. Hidden for the directors and once the tournament is over.

import { api } from '../core/api.js';
import { ensureSession } from '../core/session.js';
import { h, replace, announce, errorText } from '../core/ui.js';

/** @typedef {import('./tournamentstore.js').TournamentStore} TournamentStore */

export class CoDirectorCode {
  /** @param {TournamentStore} store */
  constructor(store) {
    this.store = store;
    this.el = h('details', { id: 'co-director-code', class: 'card co-director-code no-print' });
    this.input = h('input', {
      type: 'text', id: 'co-director-code-input', autocomplete: 'off', autocapitalize: 'characters',
      spellcheck: 'false', maxlength: 16, placeholder: 'ABCD-EF23', required: true,
    });
    this.error = h('p', { class: 'form-error', role: 'alert' });
    this.button = h('button', { type: 'submit', class: 'button primary small', 'data-co-director-accept': true }, 'Become co-director');
    replace(this.el,
      h('summary', {}, 'Were you given a co-director code?'),
      h('form', {
        class: 'co-director-code-form',
        onsubmit: (/** @type {SubmitEvent} */ ev) => {
          ev.preventDefault();
          this.accept();
        },
      },
      h('p', { class: 'muted small' }, 'The director can share the console with you: enter the code they gave you (it works once, for a day).'),
      h('label', { for: 'co-director-code-input' }, 'Code'),
      h('div', { class: 'invite-row' }, this.input, this.button),
      this.error));
    store.subscribe((kind) => {
      if (kind === 'state' || kind === 'directors' || kind === 'status') this.render();
    });
    this.render();
  }

  render() {
    this.el.hidden = this.store.isDirector() || this.store.snapshot.status === 'finished';
  }

  async accept() {
    const code = this.input.value.trim();
    if (!code) {
      this.error.textContent = 'Enter the code the director gave you.';
      return;
    }
    this.button.disabled = true;
    this.error.textContent = '';
    try {
      if (!this.store.me) this.store.me = await ensureSession();
      await api('POST', `/api/tournaments/${this.store.id}/co-directors/accept`, { code });
      this.input.value = '';
      announce('You are a co-director: the director\'s console is open above.');
      await this.store.refresh();
    } catch (e) {
      this.error.textContent = errorText(e);
    }
    this.button.disabled = false;
    this.render();
  }
}
