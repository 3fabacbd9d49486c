// What every part of the director's console shares: the console it belongs to (the store,
// the snapshot, the element), and its helpers for acting, refusing, buttons, redrawing and
// countdowns (console.js). A part keeps the state of what the director is doing in it (a
// pairing being edited, a correction being written): a redraw keeps it, the DOM does not.

/** @typedef {import('./console.js').DirectorConsole} DirectorConsole */
/** @typedef {import('./console.js').Part} Part */
/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */

export class ConsolePart {
  /** @param {DirectorConsole} owner */
  constructor(owner) {
    this.console = owner;
  }

  get store() {
    return this.console.store;
  }

  /** @returns {import('../tournament/tournamentstore.js').TournamentSnapshot} */
  get snap() {
    return this.console.store.snapshot;
  }

  get el() {
    return this.console.el;
  }

  /**
   * The last round paired, or null.
   * @returns {RoundView | null}
   */
  lastRound() {
    return this.console.lastRound();
  }

  /** @param {Part[]} parts */
  redraw(parts) {
    this.console.redraw(parts);
  }

  /**
   * @param {string} key @param {Part} part @param {() => Promise<any>} call
   * @param {(answer: any) => string} success @param {(e: unknown) => string | (string | Node)[]} [refusal]
   */
  act(key, part, call, success, refusal) {
    return this.console.act(key, part, call, success, refusal);
  }

  /** @param {Part} part @param {string | (string | Node)[]} content */
  alert(part, content) {
    this.console.alert(part, content);
  }

  /** @param {string} key @param {Record<string, any>} attrs @param {string} text */
  button(key, attrs, text) {
    return this.console.button(key, attrs, text);
  }

  /** @param {number} ms */
  countdown(ms) {
    return this.console.countdown(ms);
  }
}
