// The page's entry point: one HTML page for every route. `/` is the lobby, `/g/<id>` a
// game (played or watched), `/t/<id>` a tournament (`/t/new` creates one; `/t/<id>/screen`
// its hall screen, `/t/<id>/print` its score sheets and wall pairings,
// `/t/<id>/sheet/<round>/<table>` a board table's sheet), `/analysis`
// the analysis board, `/howto/<game>` how to play, `/account` the account and devices,
// `/link` a link code used, `/me` your games, `/@/<username>` a player's page, `/games` the
// archive of finished games,
// `/t/<id>/relay/<round>/<table>` a relay's page; the server serves this page for all of them, its files under a
// versioned prefix (`/static/v/<version>/`) that the relative imports below inherit.

import { toast, safeStorage, forget, h } from './core/ui.js';

/**
 * The routes, first match wins: each page's module is loaded only on its route
 * (`import()`), so the lobby does not download the game, the tournament pages or the
 * analysis board. The server's preload hints for each route mirror this table
 * (`ROUTES` in crates/server/src/assets/page.rs): a route added here and not there works,
 * one round trip per import level slower. Keep each page's `mount*` export.
 * @type {{path: RegExp, mount: (root: HTMLElement, match: RegExpExecArray) => Promise<void>}[]}
 */
const ROUTES = [
  {
    path: /^\/g\/([^/]+)\/?$/,
    mount: async (root, match) => {
      const id = decodeURIComponent(match[1]);
      linkBackToTournament(id);
      const { mountGame } = await import('./game/gameview.js');
      await mountGame(root, id);
    },
  },
  {
    // A board table's sheet, opened on a phone from the QR code of its paper sheet.
    path: /^\/t\/([^/]+)\/sheet\/(\d+)\/(\d+)\/?$/,
    mount: async (root, match) => {
      const { mountSheet } = await import('./sheet/sheet.js');
      await mountSheet(root, decodeURIComponent(match[1]), Number(match[2]), Number(match[3]));
    },
  },
  {
    // A tournament on a hall's projector (before the tournament page's route).
    path: /^\/t\/([^/]+)\/screen\/?$/,
    mount: async (root, match) => {
      const { mountScreen } = await import('./hall/screen.js');
      await mountScreen(root, decodeURIComponent(match[1]));
    },
  },
  {
    // A round's score sheets to print (`?round=N`), or the pairings for the wall (`?wall`).
    path: /^\/t\/([^/]+)\/print\/?$/,
    mount: async (root, match) => {
      const { mountPrint } = await import('./print/print.js');
      await mountPrint(root, decodeURIComponent(match[1]), new URLSearchParams(location.search));
    },
  },
  {
    // The relay's page of a table played over the board: before the tournament's own.
    path: /^\/t\/([^/]+)\/relay\/(\d+)\/(\d+)\/?$/,
    mount: async (root, match) => {
      const { mountRelay } = await import('./relay/relay.js');
      await mountRelay(root, { tournament: decodeURIComponent(match[1]), round: Number(match[2]), table: Number(match[3]) });
    },
  },
  {
    path: /^\/t\/([^/]+)\/?$/,
    mount: async (root, match) => {
      const id = decodeURIComponent(match[1]);
      const { mountTournament } = await import('./tournament/tournament.js');
      await mountTournament(root, id);
    },
  },
  {
    path: /^\/howto(\/|$)/,
    mount: async (root) => {
      const { mountHowto } = await import('./howto/howto.js');
      await mountHowto(root, location.pathname);
    },
  },
  {
    path: /^\/analysis\/?$/,
    mount: async (root) => {
      const { mountAnalysis } = await import('./analysis/analysis.js');
      await mountAnalysis(root, new URLSearchParams(location.search));
    },
  },
  {
    path: /^\/account\/?$/,
    mount: async (root) => {
      const { mountAccount } = await import('./account/account.js');
      await mountAccount(root);
    },
  },
  {
    path: /^\/link\/?$/,
    mount: async (root) => {
      const { mountLink } = await import('./account/link.js');
      await mountLink(root);
    },
  },
  {
    path: /^\/me\/?$/,
    mount: async (root) => {
      const { mountMyGames } = await import('./people/mygames.js');
      await mountMyGames(root);
    },
  },
  {
    path: /^\/games\/?$/,
    mount: async (root) => {
      const { mountArchive } = await import('./archive/archive.js');
      await mountArchive(root);
    },
  },
  {
    path: /^\/@\/([^/]+)\/?$/,
    mount: async (root, match) => {
      const { mountPlayer } = await import('./people/player.js');
      await mountPlayer(root, decodeURIComponent(match[1]));
    },
  },
  {
    path: /^\/leaderboards(?:\/([a-z]+))?\/?$/,
    mount: async (root, match) => {
      const { mountLeaderboards } = await import('./leaderboard/leaderboard.js');
      await mountLeaderboards(root, match[1]);
    },
  },
  {
    // The lobby, for `/` and any path no other route takes.
    path: /^/,
    mount: async (root) => {
      const { mountLobby } = await import('./lobby/lobby.js');
      await mountLobby(root);
    },
  },
];

/** What the page before asked this one to say (`account/next.js`: who this device now is). */
const FLASH = 'omweso.flash';

async function main() {
  const root = document.getElementById('app');
  if (!root) return;
  const flash = safeStorage(FLASH);
  if (flash) {
    forget(FLASH);
    toast(flash);
  }
  try {
    // A device a director linked for a player, outside its tournament: said at once.
    if (safeStorage('omweso.only')) {
      const { limitedHere } = await import('./core/limited.js');
      if (await limitedHere(root, location.pathname)) return;
    }
    for (const route of ROUTES) {
      const match = route.path.exec(location.pathname);
      if (match) {
        await route.mount(root, match);
        return;
      }
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
