// The moves played, and reviewing them: the list in the side panel (a click shows the
// position after a move), and the bar over the board while a past position is shown, with
// a link to analyse it on the analysis board (`/analysis?game=<id>&ply=<n>`).

import { sideName } from '../board/notation.js';
import { h, replace } from '../core/ui.js';
import { stepIcon } from '../core/stepicons.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('./model.js').HistoryEntry} HistoryEntry */

export class History {
  /**
   * @param {() => void} render draws the page again (the review changed)
   * @param {string} [gameId] the game, for its analysis links
   */
  constructor(render, gameId = '') {
    this.render = render;
    this.gameId = gameId;
    /** @type {number | null} the history entry shown instead of the game */
    this.review = null;
    this.list = h('ol', { class: 'history-list', id: 'history' });
    this.bar = h('div', { class: 'review-bar', hidden: true });
    this.analyseNow = h('a', { class: 'analyse-link small', hidden: true, 'data-analyse-game': true }, 'Analyse this game');
    this.panel = h('section', { class: 'panel history-panel', 'aria-labelledby': 'history-title' },
      h('h2', { id: 'history-title' }, 'Moves'),
      h('p', { class: 'muted small' }, 'Select a move to see the position after it.'),
      this.list,
      this.analyseNow);
  }

  /** @param {number | null} i */
  setReview(i) {
    this.review = i;
    this.render();
  }

  /** The entry under review, if any. @param {Snapshot} snap @returns {HistoryEntry | null} */
  reviewed(snap) {
    return this.review !== null ? snap.history[this.review] || null : null;
  }

  /** The list of moves. @param {Snapshot} snap */
  renderList(snap) {
    const list = this.list;
    const items = snap.history.map((entry, i) => h('li', {},
      h('button', {
        type: 'button', class: `history-move ${this.review === i ? 'current' : ''}`, 'data-history-index': i,
        'aria-pressed': this.review === i ? 'true' : 'false', disabled: !entry.position,
        onclick: () => this.setReview(this.review === i ? null : i),
      },
      h('span', { class: 'move-no' }, `${i + 1}.`),
      h('span', { class: `move-side side-${entry.by}` }, entry.by === 's' ? 'S' : 'N'),
      h('span', { class: 'move-text' }, entry.move),
      entry.stolen ? h('span', { class: 'stolen-tag', title: 'a stolen turn' }, 'stolen') : null)));
    if (!items.length) items.push(h('li', { class: 'muted small' }, 'No moves yet.'));
    // The analysis board reads the game once, at the position shown now (the last move's).
    this.analyseNow.hidden = !this.gameId || snap.status === 'setup';
    this.analyseNow.setAttribute('href', this.analysisUrl(snap.history.length));
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
    replace(list, items);
    if (atEnd && this.review === null) list.scrollTop = list.scrollHeight;
  }

  /** The bar over the board: shown while reviewing. @param {Snapshot} snap */
  renderBar(snap) {
    const i = this.review;
    const entry = this.reviewed(snap);
    if (i === null || !entry) {
      this.bar.hidden = true;
      return;
    }
    this.bar.hidden = false;
    replace(this.bar,
      h('span', {}, `Position after move ${i + 1}: ${sideName(entry.by)} played ${entry.move}`),
      h('span', { class: 'review-nav' },
        h('button', { type: 'button', class: 'button secondary small', disabled: i === 0, onclick: () => this.setReview(i - 1), 'aria-label': 'Previous move' }, stepIcon('previous')),
        h('button', { type: 'button', class: 'button secondary small', disabled: i >= snap.history.length - 1, onclick: () => this.setReview(i + 1), 'aria-label': 'Next move' }, stepIcon('next')),
        this.gameId ? h('a', {
          class: 'button secondary small', href: this.analysisUrl(i + 1), 'data-analyse-ply': i + 1,
          'aria-label': `Analyse the position after move ${i + 1}`,
        }, 'Analyse') : null,
        h('button', { type: 'button', class: 'button primary small', 'data-review-exit': true, onclick: () => this.setReview(null) }, 'Back to the game')));
  }

  /** The analysis board at the position after `ply` moves. @param {number} ply */
  analysisUrl(ply) {
    return `/analysis?game=${encodeURIComponent(this.gameId)}&ply=${ply}`;
  }
}
