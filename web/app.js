// The page's entry point: one HTML page for every route. `/` is the lobby, `/g/<id>` a
// game (played or watched), `/t/<id>` a tournament (`/t/new` creates one), `/analysis`
// the analysis board; the server serves this page for all of them.

import { toast, safeStorage, h } from './ui.js';
import { mountLobby } from './lobby.js';
import { mountGame } from './gameview.js';
import { mountTournament } from './tournament.js';
import { mountAnalysis } from './analysis.js';

async function main() {
  const root = document.getElementById('app');
  if (!root) return;
  const game = /^\/g\/([^/]+)\/?$/.exec(location.pathname);
  const tournament = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
  try {
    if (game) {
      linkBackToTournament(decodeURIComponent(game[1]));
      await mountGame(root, decodeURIComponent(game[1]));
    } else if (tournament) {
      await mountTournament(root, decodeURIComponent(tournament[1]));
    } else if (/^\/howto(\/|$)/.test(location.pathname)) {
      const { mountHowto } = await import('./howto.js');
      await mountHowto(root, location.pathname);
    } else if (/^\/analysis\/?$/.test(location.pathname)) {
      await mountAnalysis(root, new URLSearchParams(location.search));
    } else {
      await mountLobby(root);
    }
  } catch (e) {
    console.warn(e);
    toast(e instanceof Error ? e.message : String(e), 'error');
  }
}

/**
 * A game opened from a tournament page gets a way back to it (for the score sheet and the
 * next round); the game itself does not know it belongs to a tournament.
 * @param {string} gameId
 */
function linkBackToTournament(gameId) {
  const tournament = safeStorage(`omweso.tournament-of.${gameId}`);
  const header = document.querySelector('.site-header');
  if (!tournament || !header) return;
  const href = `/t/${encodeURIComponent(tournament)}${location.search}`;
  header.querySelector('.brand')?.after(h('a', {
    class: 'back-to-tournament', href, 'data-back-to-tournament': tournament,
  }, '← Back to the tournament'));
  // When the game ends, its score sheet waits on the tournament page for 60 s: say so
  // where the players are looking, under the result.
  const root = document.getElementById('app');
  if (!root) return;
  const watch = new MutationObserver(() => {
    const result = root.querySelector('[data-outcome]');
    // Kept watching: the result is drawn again (and the note with it lost) on each render.
    if (!result || root.querySelector('[data-sheet-waiting]')) return;
    const note = h('div', { class: 'notice round-started sheet-waiting', 'data-sheet-waiting': true, role: 'status' },
      h('p', { class: 'notice-title' }, 'This was a tournament game: its score sheet is on the tournament page.'),
      h('p', {}, 'If you played, confirm it or dispute it there: it confirms itself 60 s after the game.'),
      h('a', { class: 'button primary', href, 'data-go-sheet': true }, 'Go to the score sheet'));
    result.after(note);
  });
  watch.observe(root, { childList: true, subtree: true });
}

main();
