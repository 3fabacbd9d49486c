// The print view `/t/<id>/print`: paper for a tournament played on wooden boards
// (docs/rules.md#57-over-the-board-play-and-relays). `?round=N`: one score sheet per table
// of round N, each on its own page - the tournament, round and table, both players, who
// moves first, boxes for the result, the victory and the seeds, two spaces for initials,
// and the QR code that opens the table's sheet on a phone. `?wall`: the latest round's
// pairings, large, with the tournament's QR code, to pin on the wall. Black on white; the
// buttons are not printed. The QR codes are the server's (`GET /api/tournaments/{id}/qr`);
// without them each sheet prints its address to type instead.

import { api } from '../core/api.js';
import { isMissingTournament, showMissingTournament } from '../tournament/missing.js';
import { readerSession } from '../core/session.js';
import { h, replace } from '../core/ui.js';
import { ensureStyle } from '../core/stylesheet.js';
import { RULESET_NAMES } from '../core/words.js';
import { victoryChoices } from './victories.js';
import { southOf } from '../tournament/standings.js';
import { withSeedRating } from '../tournament/seedrating.js';
import { playedAt, whereWords } from '../tournament/playedat.js';
import { qrImage, qrPlaceholder } from './qr.js';

/** @typedef {import('../tournament/tournamentstore.js').TournamentSnapshot} TournamentSnapshot */
/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */
/** @typedef {import('../tournament/tournamentstore.js').PairingView} PairingView */
/**
 * The QR codes' answer (docs/protocol.md): the tournament's, and one per table of the round asked.
 * @typedef {{tournament: {url: string, qr_svg: string},
 *   tables: {round: number, table: number, url: string, qr_svg: string}[]}} QrCodes
 */

/**
 * @param {HTMLElement} root @param {string} id
 * @param {URLSearchParams} params `round=N`, or `wall`
 */
export async function mountPrint(root, id, params) {
  document.body.classList.add('print-view-body');
  ensureStyle(new URL('./print.css', import.meta.url).href);
  /** @type {TournamentSnapshot} */
  let snap;
  try {
    // Reading needs a session (a nameless one will do); the QR codes may need the director's.
    await readerSession();
    snap = await api('GET', `/api/tournaments/${encodeURIComponent(id)}`);
  } catch (e) {
    if (isMissingTournament(e)) {
      showMissingTournament(root, 'print-missing',
        h('p', {}, 'Check the address: it is the tournament page\'s, with /print at the end.'));
      return;
    }
    throw e;
  }
  const latest = snap.rounds.length ? snap.rounds[snap.rounds.length - 1] : null;
  const wall = params.has('wall');
  const asked = Number(params.get('round'));
  const round = wall ? latest : Number.isInteger(asked) && asked > 0 ? snap.rounds.find((r) => r.number === asked) || null : latest;
  root.classList.add('print-view');
  root.setAttribute('data-tournament-id', snap.tournament_id || id);
  const content = h('div', { class: 'print-content', id: 'print-content' });
  replace(root, toolbar(id, snap, wall ? null : round?.number ?? null, wall), content);

  if (!round && !wall) {
    document.title = `${snap.name} — score sheets`;
    replace(content, h('p', { class: 'print-note', 'data-print-empty': true },
      asked && !wall ? `Round ${asked} is not paired (yet).` : 'No round is paired yet: the sheets can be printed once the round is paired.'));
    return;
  }
  // The QR codes, if the server has them: the page works without.
  const codes = await qrCodes(id, wall ? null : round?.number ?? null);
  if (wall) {
    document.title = `${snap.name} — pairings${round ? `, round ${round.number}` : ''}`;
    replace(content, wallSheet(snap, round, codes, id));
  } else {
    const r = /** @type {RoundView} */ (round);
    document.title = `${snap.name} — score sheets, round ${r.number}`;
    const tables = r.pairings.filter((p) => p.second);
    replace(content, tables.length
      ? tables.map((p) => scoreSheet(snap, r, p, codes, id))
      : h('p', { class: 'print-note' }, 'This round has no table to play (a bye only).'));
  }
}

/**
 * The buttons above the paper (not printed): print, the other rounds' sheets, the wall's
 * pairings, back to the tournament.
 * @param {string} id @param {TournamentSnapshot} snap @param {number | null} round the round whose sheets are shown @param {boolean} wall
 */
function toolbar(id, snap, round, wall) {
  const base = `/t/${encodeURIComponent(id)}`;
  const here = (/** @type {boolean} */ current) => (current ? { 'aria-current': 'page', class: 'current' } : {});
  return h('nav', { class: 'print-toolbar no-print', 'aria-label': 'What to print' },
    h('button', { type: 'button', class: 'button primary', id: 'print-button', onclick: () => window.print() }, 'Print'),
    h('span', { class: 'print-choices' },
      snap.rounds.map((r) => h('a', { href: `${base}/print?round=${r.number}`, ...here(!wall && r.number === round) }, `Score sheets, round ${r.number}`)),
      h('a', { href: `${base}/print?wall`, 'data-wall-link': true, ...here(wall) }, 'Pairings for the wall')),
    h('a', { href: base, class: 'print-back' }, `Back to ${snap.name}`));
}

/**
 * @param {string} id @param {number | null} round
 * @returns {Promise<QrCodes | null>}
 */
async function qrCodes(id, round) {
  try {
    const query = round == null ? '' : `?round=${round}`;
    return await api('GET', `/api/tournaments/${encodeURIComponent(id)}/qr${query}`);
  } catch {
    return null;
  }
}

/** The game in words: "Omweso, outer start". @param {TournamentSnapshot} snap */
function gameWords(snap) {
  const setup = snap.ruleset === 'omweso' && snap.settings.setup ? `, ${snap.settings.setup} start` : '';
  return `${RULESET_NAMES[snap.ruleset] || snap.ruleset}${setup}`;
}

/** A box to tick, and its words. @param {string} words @param {Record<string, string>} [data] */
function tick(words, data = {}) {
  return h('span', { class: 'tick', ...data }, h('span', { class: 'box', 'aria-hidden': 'true' }), words);
}

/** A box to write a number or initials in, with its label. @param {string} label @param {string} kind */
function write(label, kind) {
  return h('span', { class: `write-field ${kind}` }, h('span', { class: 'write-label' }, label), h('span', { class: 'write', 'aria-hidden': 'true' }));
}

/**
 * One table's score sheet.
 * @param {TournamentSnapshot} snap @param {RoundView} round @param {PairingView} p
 * @param {QrCodes | null} codes @param {string} id
 */
function scoreSheet(snap, round, p, codes, id) {
  const name = (/** @type {string | null} */ who) => snap.players.find((x) => x.player_id === who)?.name || '?';
  const first = southOf(p);
  const second = /** @type {string} */ (first === p.first ? p.second : p.first);
  const [a, b] = [name(first), name(second)];
  const code = codes?.tables.find((t) => t.table === p.table && t.round === round.number);
  const url = code?.url || `${location.origin}/t/${encodeURIComponent(id)}/sheet/${round.number}/${p.table}`;
  const image = qrImage(code?.qr_svg, `QR code: the score sheet of table ${p.table} on a phone`);
  if (image) image.setAttribute('data-sheet-qr', '');
  const oware = snap.ruleset === 'oware';
  const planned = snap.rounds_planned || snap.settings.rounds;
  const where = playedAt(p, snap);
  return h('article', { class: 'score-sheet', 'data-sheet-table': p.table, 'aria-label': `Score sheet, round ${round.number}, table ${p.table}` },
    h('header', { class: 'sheet-head' },
      h('div', {},
        h('p', { class: 'sheet-kicker' }, 'Score sheet'),
        h('h1', { class: 'sheet-tournament' }, snap.name),
        h('p', { class: 'sheet-game' }, `${gameWords(snap)} · round ${round.number} of ${planned} · ${whereWords(p, where)}`)),
      h('div', { class: 'sheet-table' }, h('span', {}, 'Round'), h('strong', { 'data-sheet-round': true }, String(round.number)),
        h('span', {}, 'Table'), h('strong', {}, String(p.table)))),
    h('table', { class: 'sheet-players' },
      h('tbody', {},
        h('tr', {}, h('th', { scope: 'row' }, 'Moves first (South)'), h('td', { 'data-sheet-first': true }, withSeedRating(snap, first, a))),
        h('tr', {}, h('th', { scope: 'row' }, 'Second (North)'), h('td', { 'data-sheet-second': true }, withSeedRating(snap, second, b))))),
    h('section', { class: 'sheet-part' },
      h('h2', {}, 'Result', h('span', { class: 'hint' }, ' — tick one')),
      h('p', { class: 'ticks' }, tick(`${a} won`), tick(`${b} won`), oware ? tick('draw (24 each)') : null)),
    h('section', { class: 'sheet-part' },
      h('h2', {}, 'Victory', h('span', { class: 'hint' }, ' — tick one')),
      h('p', { class: 'ticks' }, victoryChoices(snap).map(([v, words]) => tick(words, { 'data-victory': v })))),
    h('section', { class: 'sheet-part' },
      oware
        ? [h('h2', {}, 'Pieces taken'), h('p', { class: 'writes' }, write('by the winner', 'number'), write('by the loser', 'number'))]
        : [h('h2', {}, 'Seeds captured'), h('p', { class: 'writes' }, write(`by ${a}`, 'number'), write(`by ${b}`, 'number'))]),
    h('section', { class: 'sheet-part' },
      h('h2', {}, 'Initials', h('span', { class: 'hint' }, ' — both players, when the sheet is right')),
      h('p', { class: 'writes' }, write(a, 'initials'), write(b, 'initials'))),
    h('footer', { class: 'sheet-foot' },
      h('div', { class: 'sheet-qr' }, image || qrPlaceholder()),
      h('div', { class: 'sheet-how' },
        h('p', {}, h('strong', {}, 'On a phone: '), 'scan the code, or open the address, and enter the result there; the other player confirms it on theirs.'),
        h('p', { class: 'sheet-url', 'data-sheet-url': true }, url),
        h('p', {}, 'Or hand this sheet, initialled by both, to the tournament director.'))));
}

/**
 * The round's pairings for the wall, with the tournament's QR code.
 * @param {TournamentSnapshot} snap @param {RoundView | null} round @param {QrCodes | null} codes @param {string} id
 */
function wallSheet(snap, round, codes, id) {
  const name = (/** @type {string | null} */ who) => snap.players.find((x) => x.player_id === who)?.name || '?';
  const url = codes?.tournament.url || `${location.origin}/t/${encodeURIComponent(id)}`;
  const image = qrImage(codes?.tournament.qr_svg, `QR code: the tournament's page`);
  if (image) image.setAttribute('data-wall-qr', '');
  const planned = snap.rounds_planned || snap.settings.rounds;
  const rows = (round?.pairings || []).map((p) => {
    const first = southOf(p);
    const second = p.second ? (first === p.first ? p.second : p.first) : null;
    return h('tr', { 'data-wall-table': p.table },
      h('td', { class: 'num' }, String(p.table)),
      h('td', {}, name(first)),
      h('td', {}, second ? name(second) : h('em', {}, 'bye')),
      h('td', { class: 'where' }, second ? whereWords(p, playedAt(p, snap)) : ''));
  });
  return h('article', { class: 'wall-sheet', 'aria-label': 'Pairings for the wall' },
    h('header', { class: 'wall-head' },
      h('div', {},
        h('h1', { class: 'sheet-tournament' }, snap.name),
        h('p', { class: 'wall-round' }, round ? `Round ${round.number} of ${planned}` : 'No round paired yet'),
        h('p', { class: 'sheet-game' }, gameWords(snap))),
      h('div', { class: 'wall-qr' }, image || qrPlaceholder(),
        h('p', {}, 'Follow the tournament: the tables, your games, the standings'),
        h('p', { class: 'sheet-url', 'data-wall-url': true }, url))),
    round
      ? h('table', { class: 'wall-table' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', class: 'num' }, 'Table'), h('th', { scope: 'col' }, 'Moves first (South)'),
          h('th', { scope: 'col' }, 'Second (North)'), h('th', { scope: 'col', class: 'where' }, 'Where'))),
        h('tbody', {}, rows))
      : null);
}
