// A tournament the address names that the server does not have: what every page of a
// tournament (its page, the sheet at a board, the hall screen, the print view) says then.

import { ApiError } from '../core/api.js';
import { h, replace } from '../core/ui.js';

/**
 * Whether `error` says the tournament does not exist (an unknown or malformed id).
 * @param {unknown} error
 */
export function isMissingTournament(error) {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/**
 * Shows "No such tournament" in `root`, in a section of class `className`, with `hint`
 * (what to check) under it.
 * @param {HTMLElement} root @param {string} className @param {...(string|HTMLElement)} hint
 */
export function showMissingTournament(root, className, ...hint) {
  document.title = 'No such tournament — Omweso';
  replace(root, h('section', { class: className },
    h('h1', {}, 'No such tournament'),
    ...hint));
}
