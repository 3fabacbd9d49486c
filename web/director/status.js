// The console's first line: what the director should do next, in the organiser's words -
// send the link, pair the next round, check and start it, wait for it (with its clock),
// settle the disputed sheets, download the results.

import { h } from '../core/ui.js';
import { plural } from '../core/plural.js';
import { ConsolePart } from './part.js';
import { roundEnding } from './round.js';

export class StatusLine extends ConsolePart {
  /** What to do next, in the organiser's words. @returns {(string | Node)[]} */
  words() {
    const snap = this.snap;
    const active = snap.players.filter((p) => !p.withdrawn);
    const round = this.lastRound();
    const planned = snap.rounds_planned || snap.settings.rounds;
    // A round-robin's number of rounds is known once it has players.
    const of = planned ? ` of ${planned}` : '';
    const disputed = snap.rounds.flatMap((r) => r.pairings).filter((p) => p.sheet?.status === 'disputed').length;
    const disputes = disputed ? ` ${plural(disputed, 'score sheet is', 'score sheets are')} disputed: correct or uphold ${disputed === 1 ? 'it' : 'them'} below.` : '';
    if (snap.status === 'finished') {
      const open = snap.rounds.flatMap((r) => r.pairings).filter((p) => p.sheet?.status === 'pending').length;
      const waiting = open ? ` ${plural(open, 'score sheet waits', 'score sheets wait')} for the players to confirm (each confirms itself 60 s after its game).` : '';
      return [`The tournament is over: ${plural(snap.rounds.length, 'round was', 'rounds were')} played. Download the standings and the score sheets below.${disputes}${waiting}`];
    }
    if (!round) {
      if (active.length === 0) return ['Nobody has joined yet. Send the tournament\'s link to the players; pair round 1 when everyone is here.'];
      if (active.length === 1) return ['1 player has joined. Send the link to the others: at least two players are needed to pair round 1.'];
      const closes = snap.system === 'swiss' ? '' : ' Nobody can join a round-robin once round 1 is paired.';
      return [`${plural(active.length, 'player has', 'players have')} joined. Pair round 1 when everyone is here.${closes}`];
    }
    const games = round.pairings.filter((p) => p.second !== null);
    if (round.status === 'paired') {
      return [`Round ${round.number} is paired (${plural(round.pairings.length, 'table')}). Check the tables below and change them if you need to, then start round ${round.number}: its games and clocks start at once.`];
    }
    if (round.status === 'playing') {
      // Tables at the board without a sheet: nobody but the director can end them now.
      const missing = games.filter((p) => p.board?.missing && !p.sheet).map((p) => p.table);
      if (round.closing && missing.length) {
        return [h('strong', { 'data-status-missing': missing.join(',') },
          `${roundEnding(round)}: ${missing.length === 1 ? `table ${missing[0]}` : `tables ${missing.join(', ')}`}, played at the board, ${missing.length === 1 ? 'has' : 'have'} no sheet. Adjudicate: enter ${missing.length === 1 ? 'its result' : 'their results'} under the score sheets below.`)];
      }
      if (round.closing) return [`${roundEnding(round)}: its unfinished games are being adjudicated on the seeds.`];
      const done = games.filter((p) => p.sheet).length;
      const ends = round.deadline ? [' It ends in ', this.countdown(round.deadline), '; you may end it sooner.'] : [];
      const waiting = games.filter((p) => p.board?.waiting_for_director && !p.sheet).map((p) => p.table);
      const settle = waiting.length ? ` At the board, ${waiting.length === 1 ? `table ${waiting[0]} waits` : `tables ${waiting.join(', ')} wait`} for you to settle the sheet (the entries differ, or one is disputed).` : '';
      // An entry waiting for the initials of a player without a device: yours to make.
      const added = new Set(snap.players.filter((p) => p.added_by_director).map((p) => p.player_id));
      const initials = games.filter((p) => !p.sheet && p.board && !p.board.waiting_for_director && p.board.entries.length
        && [p.first, p.second].some((id) => id && added.has(id) && !p.board?.entries[0].confirmed_by.includes(id)))
        .map((p) => p.table);
      const initial = initials.length ? ` At the board, ${initials.length === 1 ? `table ${initials[0]} waits` : `tables ${initials.join(', ')} wait`} for your initials for a player without a device (the score sheets below).` : '';
      return [`Round ${round.number} is being played: ${done} of ${plural(games.length, 'table')} finished.`, ...ends, disputes, settle, initial];
    }
    const pending = round.pairings.filter((p) => p.sheet?.status === 'pending').length;
    const waiting = pending ? ` ${plural(pending, 'score sheet waits', 'score sheets wait')} for the players to confirm (each confirms itself 60 s after its game).` : '';
    const next = round.number < planned ? ` Pair round ${round.number + 1} when you are ready.` : '';
    return [`Round ${round.number}${of} is over.${disputes}${waiting}${next}`];
  }
}
