// The tournament page's reducer (tournament/tournamentstore.js applyTournamentEvent) as node
// unit tests, without a browser: each kind of versioned event of the tournament socket
// (docs/protocol.md "Tournaments") applied to a small hand-made snapshot, the result compared
// whole with the snapshot worked out by hand, and the snapshot it started from left as it was.

import test from 'node:test';
import assert from 'node:assert/strict';

import { applyTournamentEvent } from '../tournament/tournamentstore.js';

/** @typedef {import('../tournament/tournamentstore.js').TournamentSnapshot} TournamentSnapshot */
/** @typedef {import('../tournament/tournamentstore.js').SheetView} SheetView */
/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */

/** A score sheet: `first` won, unless told otherwise. @param {Partial<SheetView>} [over] @returns {SheetView} */
function sheet(over = {}) {
  return {
    status: 'pending', first_result: 'won', second_result: 'lost', victory: 'no-move',
    seeds: { first: 40, second: 24 }, turns: 31, duration_ms: 600000, points: { first: 1, second: 0 },
    corrections: [], game_id: 'g1', moved_first: 'kato', confirmed_by: [], dispute: null,
    confirms_at: 1000060000, ...over,
  };
}

/** Round `number`, one table of Kato v Nakato and Apio's bye. @param {number} number @returns {RoundView} */
function round(number) {
  return {
    number, status: 'playing', deadline: null, manual: false, breaches: [], started_at: 1000000000, closing: false,
    pairings: [
      { table: 1, first: 'kato', second: 'nakato', game_id: `g${number}`, sheet: null, replaced: [] },
      { table: 2, first: 'apio', second: null, game_id: null, sheet: null, replaced: [] },
    ],
  };
}

/** @returns {TournamentSnapshot} */
function tournament() {
  return {
    tournament_id: 't', name: 'Club night', ruleset: 'omweso', system: 'swiss',
    settings: {
      name: 'Club night', ruleset: 'omweso', setup: 'outer',
      time_control: { referee_seconds: null, move_limit_seconds: 180, sowing_pace: 4, akakyala: false, abandon_seconds: 60, disconnect_grace_seconds: 120 },
      system: 'swiss', rounds: 3, round_minutes: 30, balance_first_move: true, points: { win: 1, draw: 0.5 }, forbidden_pairs: [],
    },
    status: 'running', director: 'kato', you: 'kato',
    players: [
      { player_id: 'kato', name: 'Kato', withdrawn: false, joined_after_round: 0 },
      { player_id: 'nakato', name: 'Nakato', withdrawn: false, joined_after_round: 0 },
    ],
    rounds: [round(1)], standings: [], version: 7, rounds_planned: 3, created_at_ms: 999000000,
  };
}

test('a player event adds a new player at the end, or replaces the one with their id in place', () => {
  const before = tournament();
  const apio = { player_id: 'apio', name: 'Apio', withdrawn: false, joined_after_round: 1 };
  const joined = applyTournamentEvent(before, { t: 'player', v: 8, d: apio });
  assert.deepEqual(joined, { ...tournament(), version: 8, players: [...tournament().players, apio] });

  const withdrawn = { player_id: 'kato', name: 'Kato', withdrawn: true, joined_after_round: 0 };
  const after = applyTournamentEvent(joined, { t: 'player', v: 9, d: withdrawn });
  assert.deepEqual(after.players, [withdrawn, tournament().players[1], apio]);
  assert.equal(after.version, 9);
  // The snapshots it started from are unchanged: the page may still be drawing them.
  assert.deepEqual(before, tournament());
  assert.equal(joined.players[0].withdrawn, false);
});

test('before round 1 starts a join adds the player\'s line to the standings (the server sends none then)', () => {
  // Before any round has started everyone has nothing and all share rank 1: the server
  // sends no standings for a join (the whole table a join would be quadratic in the field).
  const open = { ...tournament(), status: /** @type {const} */ ('open'), rounds: [], standings: [
    { rank: 1, player_id: 'kato', name: 'Kato', points: 0, buchholz: 0, sonneborn_berger: 0, seeds: 0, games: 0, wins: 0, draws: 0, losses: 0, direct: 0 },
  ] };
  const apio = { player_id: 'apio', name: 'Apio', withdrawn: false, joined_after_round: 0 };
  const joined = applyTournamentEvent(open, { t: 'player', v: 8, d: apio });
  assert.deepEqual(joined.standings, [...open.standings,
    { rank: 1, player_id: 'apio', name: 'Apio', points: 0, buchholz: 0, sonneborn_berger: 0, seeds: 0, games: 0, wins: 0, draws: 0, losses: 0, direct: 0 }]);
  // Paired but not started: the same.
  const paired = { ...open, rounds: [{ ...round(1), status: /** @type {const} */ ('paired'), started_at: null }] };
  assert.equal(applyTournamentEvent(paired, { t: 'player', v: 8, d: apio }).standings.length, 2);
  // A player already there (a withdrawal, a rename) adds no line.
  const again = applyTournamentEvent(joined, { t: 'player', v: 9, d: { ...apio, withdrawn: true } });
  assert.equal(again.standings, joined.standings);
  // Once a round has started the server sends the standings with the join: nothing added here.
  assert.deepEqual(applyTournamentEvent(tournament(), { t: 'player', v: 8, d: apio }).standings, []);
});

test('a round event replaces the round of its number, or adds it, the rounds kept in order', () => {
  const before = tournament();
  const three = { ...round(3), status: /** @type {const} */ ('paired') };
  const two = round(2);
  let after = applyTournamentEvent(before, { t: 'round', v: 8, d: three });
  after = applyTournamentEvent(after, { t: 'round', v: 9, d: two });
  assert.deepEqual(after.rounds.map((r) => r.number), [1, 2, 3]);
  assert.deepEqual(after.rounds[2], three);

  const closing = { ...round(1), closing: true, ended_by_director: true };
  after = applyTournamentEvent(after, { t: 'round', v: 10, d: closing });
  assert.deepEqual(after, { ...tournament(), version: 10, rounds: [closing, two, three] });
  assert.deepEqual(before, tournament());
});

test('a sheet event sets the sheet of its round and table, or of the replaced game it names', () => {
  const before = tournament();
  before.rounds = [round(1), round(2)];
  const done = sheet({ game_id: 'g2' });
  const after = applyTournamentEvent(before, { t: 'sheet', v: 8, d: { round: 2, table: 1, game_id: 'g2', sheet: done } });
  assert.deepEqual(after.rounds[1].pairings[0], { table: 1, first: 'kato', second: 'nakato', game_id: 'g2', sheet: done, replaced: [] });
  // The other table and the other round are the very same objects.
  assert.equal(after.rounds[0], before.rounds[0]);
  assert.equal(after.rounds[1].pairings[1], before.rounds[1].pairings[1]);
  assert.equal(before.rounds[1].pairings[0].sheet, null);

  // Table 1 of round 1 was annulled and replayed: g1 replaced by g1b. A correction of the
  // annulled game's sheet (its game_id is g1) goes to `replaced`, not to the replay.
  const annulled = sheet({ first_result: 'annulled', second_result: 'annulled', victory: 'budget', points: { first: 0.5, second: 0.5 }, game_id: 'g1' });
  const replayed = tournament();
  replayed.rounds = [{ ...round(1), pairings: [
    { table: 1, first: 'kato', second: 'nakato', game_id: 'g1b', sheet: null, replaced: [{ game_id: 'g1', sheet: annulled }] },
    round(1).pairings[1],
  ] }];
  const corrected = sheet({ ...annulled, status: 'corrected' });
  const fixed = applyTournamentEvent(replayed, { t: 'sheet', v: 8, d: { round: 1, table: 1, game_id: 'g1', sheet: corrected } });
  assert.deepEqual(fixed.rounds[0].pairings[0], {
    table: 1, first: 'kato', second: 'nakato', game_id: 'g1b', sheet: null, replaced: [{ game_id: 'g1', sheet: corrected }],
  });
  // A bye's sheet has no game: the sheet goes to its table.
  const bye = sheet({ first_result: 'bye', second_result: null, victory: null, game_id: null, points: { first: 1, second: 0 } });
  const byeAfter = applyTournamentEvent(tournament(), { t: 'sheet', v: 8, d: { round: 1, table: 2, game_id: null, sheet: bye } });
  assert.deepEqual(byeAfter.rounds[0].pairings[1].sheet, bye);
  assert.equal(byeAfter.rounds[0].pairings[0].sheet, null);
});

test('standings and status events replace theirs; any other event moves the version only', () => {
  const standings = [{
    rank: 1, player_id: 'kato', name: 'Kato', points: 1, buchholz: 0, sonneborn_berger: 0, seeds: 40,
    games: 1, wins: 1, draws: 0, losses: 0, direct: 0,
  }];
  let after = applyTournamentEvent(tournament(), { t: 'standings', v: 8, d: { standings } });
  assert.deepEqual(after, { ...tournament(), version: 8, standings });
  after = applyTournamentEvent(after, { t: 'status', v: 9, d: { status: 'finished' } });
  assert.deepEqual(after, { ...tournament(), version: 9, standings, status: 'finished' });
  // A board or presence is not part of the snapshot (the store keeps those apart).
  assert.deepEqual(applyTournamentEvent(tournament(), { t: 'board', v: 8, d: { table: 1 } }), { ...tournament(), version: 8 });
});

test('a directors event replaces the director\'s name and the co-directors, nothing else', () => {
  const before = { ...tournament(), director_name: 'Kato', co_directors: [] };
  const co = [{ id: 'sarah', name: 'Sarah' }];
  const after = applyTournamentEvent(before, { t: 'directors', v: 8, d: { director_name: 'Kato M.', co_directors: co } });
  assert.deepEqual(after, { ...tournament(), version: 8, director_name: 'Kato M.', co_directors: co });
  assert.deepEqual(before.co_directors, []);
});
