// The tournament's tables of record: the standings (docs/rules.md#55-standings-and-tiebreaks, as the server ranks
// them), the crosstable of every round, and one round's pairings with their results. Pure
// renderings of the snapshot: the page redraws them when the events change it. These are
// the parts a club prints and pins on the wall.

import { h } from '../core/ui.js';
import { RESULT_WORDS, RESULT_MARKS, formatPoints } from '../core/words.js';
import { ratingText } from '../lobby/ratingtext.js';

/** @typedef {import('./tournamentstore.js').TournamentSnapshot} TournamentSnapshot */
/** @typedef {import('./tournamentstore.js').PairingView} PairingView */
/** @typedef {import('./tournamentstore.js').SheetView} SheetView */





/** A tiebreak to two decimals at most. @param {number} x */
function formatScore(x) {
  return String(Math.round(x * 100) / 100);
}

/**
 * Who sits South and moves first in a table's current game: the pairing's first player,
 * unless the game was annulled and replayed, each replay swapping the first move.
 * @param {PairingView} pairing
 */
export function southOf(pairing) {
  return pairing.replaced.length % 2 === 1 && pairing.second ? pairing.second : pairing.first;
}

/**
 * One player's side of a pairing: their result, the points it scored, whether they moved
 * first. Null while the game is being played (no sheet yet).
 * @param {PairingView} pairing
 * @param {string} playerId
 */
export function playerResult(pairing, playerId) {
  const sheet = pairing.sheet;
  if (!sheet) return null;
  const isFirst = pairing.first === playerId;
  const result = isFirst ? sheet.first_result : sheet.second_result;
  const points = isFirst ? sheet.points.first : sheet.points.second;
  return { result: result || '', points, sheet };
}

/**
 * The standings table (rank, name, points, Buchholz, Sonneborn-Berger, seeds, games,
 * W/D/L). The session's own row is marked; a player's current rating in the tournament's
 * ruleset (`ratings`, from GET /api/tournaments/{id}/ratings) follows the name, `1500?`
 * while provisional.
 * @param {TournamentSnapshot} snap
 * @param {string | null} me
 * @param {Map<string, import('../lobby/ratingtext.js').RatingBadge>} [ratings]
 */
export function standingsTable(snap, me, ratings = new Map()) {
  const withdrawn = new Set(snap.players.filter((p) => p.withdrawn).map((p) => p.player_id));
  // A rated tournament shows each player's seed and the rating it kept
  // (docs/ratings.md#rated-tournaments): blank before round 1 is paired, and for a
  // person without an account.
  const rated = Boolean(snap.settings.rated);
  const seedOf = new Map(snap.players.map((p) => [p.player_id, p]));
  const seedCells = (/** @type {string} */ id) => {
    if (!rated) return [];
    const p = seedOf.get(id);
    return [
      h('td', { 'data-col': 'seed', class: 'num' }, p?.seed ? String(p.seed) : ''),
      h('td', { 'data-col': 'seed-rating', class: 'num' }, p?.seed_rating !== undefined ? String(p.seed_rating) : ''),
    ];
  };
  const num = (/** @type {string} */ col, /** @type {string} */ text) => h('td', { 'data-col': col, class: 'num' }, text);
  const rows = snap.standings.map((s) => h('tr', {
    'data-player-id': s.player_id, class: s.player_id === me ? 'me' : null,
  },
  num('rank', String(s.rank)),
  h('th', { scope: 'row', 'data-col': 'name' }, s.name,
    ratings.has(s.player_id) ? h('span', { class: 'muted small', 'data-current-rating': true, title: 'Rating now' }, ` ${ratingText(ratings.get(s.player_id))}`) : null,
    s.player_id === me ? h('span', { class: 'badge' }, 'you') : null,
    withdrawn.has(s.player_id) ? h('span', { class: 'muted small' }, ' (withdrawn)') : null),
  num('points', formatPoints(s.points)),
  num('buchholz', formatScore(s.buchholz)),
  num('sb', formatScore(s.sonneborn_berger)),
  num('seeds', String(s.seeds)),
  num('games', String(s.games)),
  num('wins', String(s.wins)),
  num('draws', String(s.draws)),
  num('losses', String(s.losses)),
  ...seedCells(s.player_id)));
  // Numeric headings align with their numbers (a printed sheet is read column by column).
  const head = (/** @type {string} */ text, /** @type {string} */ title) => h('th', { scope: 'col', title, class: text === 'Player' ? null : 'num' }, text);
  return h('table', { class: 'data-table standings-table' },
    h('caption', { class: 'sr-only' }, `Standings after ${finishedRounds(snap)} round${finishedRounds(snap) === 1 ? '' : 's'}`),
    h('thead', {}, h('tr', {},
      head('#', 'Rank'), head('Player', 'Name'), head('Pts', 'Points'),
      head('Buch', 'Buchholz: the points of the opponents'), head('SB', 'Sonneborn-Berger'),
      head('Seeds', 'Seeds captured'), head('G', 'Games played'), head('W', 'Wins'), head('D', 'Draws'), head('L', 'Losses'),
      ...(rated ? [head('Seed', 'Seed: the place in the initial order, by rating'), head('Rtg', 'The rating the player was seeded with')] : []))),
    h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: rated ? 12 : 10, class: 'muted' }, 'No players yet.'))));
}

/** @param {TournamentSnapshot} snap */
export function finishedRounds(snap) {
  return snap.rounds.filter((r) => r.status === 'finished').length;
}

/**
 * The crosstable: each player (in rank order, numbered by rank) against whom they played
 * each round, with which move, and what they scored.
 * @param {TournamentSnapshot} snap
 * @param {string | null} me
 */
export function crosstable(snap, me) {
  const order = snap.standings.length ? snap.standings.map((s) => s.player_id) : snap.players.map((p) => p.player_id);
  const rankNo = new Map(order.map((id, i) => [id, i + 1]));
  const name = (/** @type {string | null} */ id) => (id ? snap.players.find((p) => p.player_id === id)?.name || '?' : 'bye');
  const points = new Map(snap.standings.map((s) => [s.player_id, s.points]));
  const rows = order.map((id) => {
    const cells = snap.rounds.map((round) => {
      const pairing = round.pairings.find((p) => p.first === id || p.second === id);
      if (!pairing) return h('td', { class: 'cross-cell muted', title: 'not paired (joined later, or withdrawn)' }, '–');
      const opponent = pairing.first === id ? pairing.second : pairing.first;
      const first = (pairing.sheet?.moved_first ?? southOf(pairing)) === id;
      const res = playerResult(pairing, id);
      if (!opponent) {
        return h('td', { class: 'cross-cell bye' }, res ? `bye ${formatPoints(res.points)}` : 'bye');
      }
      const mark = res ? RESULT_MARKS[res.result] ?? '?' : '…';
      const title = `Round ${round.number}: against ${name(opponent)}, moving ${first ? 'first' : 'second'}, ${res ? `${RESULT_WORDS[res.result] || res.result} (${formatPoints(res.points)})` : 'being played'}`;
      return h('td', { class: `cross-cell ${res ? `r-${res.result}` : 'playing'}`, title },
        h('span', { class: 'sr-only' }, `${title}.`),
        h('span', { 'aria-hidden': 'true' }, `${rankNo.get(opponent) ?? '?'}${first ? 'f' : 's'} ${res ? formatPoints(res.points) : mark}`));
    });
    return h('tr', { 'data-player-id': id, class: id === me ? 'me' : null },
      h('td', { class: 'num' }, String(rankNo.get(id))),
      h('th', { scope: 'row' }, name(id)),
      cells,
      h('td', { class: 'num total' }, formatPoints(points.get(id) ?? 0)));
  });
  return h('table', { class: 'data-table crosstable' },
    h('caption', { class: 'small muted' }, 'Each cell: the opponent\'s number, f (moved first) or s (second), and the points scored.'),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'No'), h('th', { scope: 'col' }, 'Player'),
      snap.rounds.map((r) => h('th', { scope: 'col' }, `R${r.number}`)),
      h('th', { scope: 'col' }, 'Pts'))),
    h('tbody', {}, rows));
}

/**
 * One round's pairings: table, the first player (moves first) with their points, the
 * second, and the result once known.
 * @param {TournamentSnapshot} snap
 * @param {number} number
 * @param {string | null} me
 */
export function pairingsTable(snap, number, me) {
  const round = snap.rounds.find((r) => r.number === number);
  if (!round) return h('p', { class: 'muted' }, 'No round paired yet.');
  const points = new Map(snap.standings.map((s) => [s.player_id, s.points]));
  const who = (/** @type {string | null} */ id) => {
    if (!id) return h('span', { class: 'muted' }, 'bye');
    const p = snap.players.find((x) => x.player_id === id);
    return h('span', { class: id === me ? 'me-name' : null }, p?.name || '?', h('span', { class: 'muted small' }, ` (${formatPoints(points.get(id) ?? 0)})`));
  };
  const result = (/** @type {PairingView} */ p) => {
    const board = p.played_at === 'board' && p.second;
    if (!p.sheet) return round.status === 'paired' ? (board ? 'at the board' : '') : p.game_id ? (board ? 'playing at the board' : 'playing') : '';
    if (!p.second) return `bye ${formatPoints(p.sheet.points.first)}`;
    return `${formatPoints(p.sheet.points.first)} – ${formatPoints(p.sheet.points.second)}`;
  };
  return h('table', { class: 'data-table pairings-table' },
    h('caption', {}, `Round ${round.number} pairings`),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'Table'), h('th', { scope: 'col' }, 'First (South)'),
      h('th', { scope: 'col' }, 'Result'), h('th', { scope: 'col' }, 'Second (North)'))),
    h('tbody', {}, round.pairings.map((p) => h('tr', { 'data-pairing-table': p.table },
      h('td', { class: 'num' }, tableLink(snap, round.number, p, me)),
      h('td', {}, who(p.first)),
      h('td', { class: 'num', 'data-result': true }, result(p)),
      h('td', {}, who(p.second))))));
}

/**
 * A table's number, linked to its game on the site; a table at the board has none (unless
 * a relay follows it): its players' link is their sheet page.
 * @param {TournamentSnapshot} snap @param {number} round @param {PairingView} p @param {string | null} me
 */
function tableLink(snap, round, p, me) {
  const text = String(p.table);
  if (!p.game_id) return text;
  if (p.played_at !== 'board' || p.board?.relayed) return h('a', { href: `/g/${p.game_id}` }, text);
  if (me && (p.first === me || p.second === me)) return h('a', { href: `/t/${encodeURIComponent(snap.tournament_id)}/sheet/${round}/${p.table}` }, text);
  return text;
}
