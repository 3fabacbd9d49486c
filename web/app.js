// The page's entry point: one HTML page for every route. `/` is the lobby, `/g/<id>` a
// game (played or watched); the server serves this page for both.

import { toast } from './ui.js';
import { mountLobby } from './lobby.js';
import { mountGame } from './gameview.js';

async function main() {
  const root = document.getElementById('app');
  if (!root) return;
  const match = /^\/g\/([^/]+)\/?$/.exec(location.pathname);
  try {
    if (match) {
      await mountGame(root, decodeURIComponent(match[1]));
    } else {
      await mountLobby(root);
    }
  } catch (e) {
    console.warn(e);
    toast(e instanceof Error ? e.message : String(e), 'error');
  }
}

main();
