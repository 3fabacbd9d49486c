// Game files on the analysis board (docs/game-file.md): the "Open a game file" form (a
// file pasted or chosen), the server's reading of it (`POST /api/analysis/read-game`:
// every game, each replayed, docs/protocol.md), a game of this server read through its
// export (`/analysis?game=<id>`), and a read game made the board's line. No rules here:
// the positions are the server's replay of the file.

import { api, ApiError } from '../core/api.js';
import { RULESET_NAMES } from '../core/words.js';
import { h, replace, announce, errorText } from '../core/ui.js';
import { Line, rootNode, captureHistories } from './analysisline.js';

/** @typedef {import('../board/notation.js').Side} Side */
/** @typedef {import('../board/notation.js').Ruleset} Ruleset */
/** @typedef {import('../board/notation.js').Outcome} Outcome */
/**
 * One move of a record.
 * @typedef {{side: Side, move: string, stolen?: boolean, emt_ms?: number, budget?: number, comment?: string}} RecordMove
 */
/**
 * A game of a file, as docs/engine-cli.md's `read_game` writes a record.
 * @typedef {{tags: {name: string, value: string}[], ruleset: Ruleset, akakyala?: boolean, setup?: string,
 *   moves: RecordMove[], impasse?: {proposed_by: Side, split: number[]}, result: string, termination?: string}} GameRecord
 */
/**
 * A game read and replayed by the server: its start and the position after each move, or
 * why its moves do not replay.
 * @typedef {{record: GameRecord, start?: string, positions?: string[], end?: string,
 *   outcome?: Outcome | null, error?: string}} GameReport
 */

/** The largest file the server reads for the board (its route's body limit, 256 KiB). */
export const MAX_FILE_BYTES = 256 * 1024;

/**
 * A tag's value.
 * @param {GameRecord} record @param {string} name
 */
export function tagOf(record, name) {
  return record.tags.find((t) => t.name === name)?.value ?? null;
}

/**
 * A game in a few words: its players and result.
 * @param {GameRecord} record
 */
export function titleOf(record) {
  const south = tagOf(record, 'South') || '?';
  const north = tagOf(record, 'North') || '?';
  return `${RULESET_NAMES[record.ruleset] || record.ruleset}: ${south} vs ${north}, ${record.result}`;
}

/**
 * A read game as the board's line: its start, then the position after each move, showing
 * `ply` (the last position when past the end); null when its moves do not replay.
 * @param {GameReport} report @param {number} ply
 * @returns {Line | null}
 */
export function lineOfReport(report, ply) {
  if (!report.start || !report.positions) return null;
  const { record } = report;
  const positions = [report.start, ...report.positions];
  const movers = [null, ...record.moves.map((m) => m.side)];
  const histories = record.akakyala ? captureHistories(record.ruleset, positions, movers) : null;
  const over = record.result !== '*' && report.outcome ? report.outcome : null;
  const nodes = positions.map((position, i) => {
    const mv = i > 0 ? record.moves[i - 1] : null;
    return {
      ...rootNode(position, histories ? histories[i] : null),
      move: mv ? mv.move : null,
      by: mv ? mv.side : null,
      stolen: Boolean(mv?.stolen),
      over: i === positions.length - 1 ? over : null,
    };
  });
  return new Line(nodes, Number.isInteger(ply) ? ply : positions.length - 1);
}

/**
 * The sowing budget the game's turns were played under (docs/rules.md#4-play-under-the-referee-server-rules), from its
 * `TimeControl` tag (`limit=180 pace=4`: 720 seeds; no limit: the server's cap of 20,000);
 * null when the file does not say.
 * @param {GameRecord} record
 */
export function budgetOfRecord(record) {
  const tc = tagOf(record, 'TimeControl');
  if (tc === null) return null;
  /** @type {Record<string, number>} */
  const parts = {};
  for (const part of tc.split(' ')) {
    const [key, value] = part.split('=');
    if (value !== undefined && Number.isFinite(Number(value))) parts[key] = Number(value);
  }
  if (parts.limit === undefined) return 20000;
  return Math.max(1, Math.min(20000, Math.floor(parts.limit * (parts.pace ?? 4))));
}

/**
 * The server's reading of a game file's text.
 * @param {string} text
 * @returns {Promise<GameReport[]>}
 */
export async function readGameFile(text) {
  const answer = await api('POST', '/api/analysis/read-game', { text });
  return answer.games;
}

/**
 * A game of this server as a game file (`GET /api/games/{id}/export?format=ogn`).
 * @param {string} gameId
 * @returns {Promise<string>}
 */
export async function exportedGame(gameId) {
  let response;
  try {
    response = await fetch(`/api/games/${encodeURIComponent(gameId)}/export?format=ogn`, { credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', 'the server cannot be reached; check your connection');
  }
  const text = await response.text();
  if (!response.ok) {
    let err = null;
    try {
      err = JSON.parse(text).error;
    } catch {
      err = null;
    }
    throw new ApiError(response.status, err?.code || `http_${response.status}`, err?.message || response.statusText);
  }
  return text;
}

/** The "Open a game file" form: a file pasted or chosen, and which of its games to show. */
export class GameFileForm {
  /** @param {(report: GameReport) => Promise<void>} open shows a read game on the board */
  constructor(open) {
    this.open = open;
    /** @type {GameReport[]} the games of the file read last */
    this.reports = [];
    this.text = h('textarea', {
      id: 'game-file-text', rows: 5, 'data-game-file-text': true, spellcheck: 'false', autocomplete: 'off',
      'aria-describedby': 'game-file-help game-file-error', placeholder: '[Ruleset "omweso"]\n[Result "*"]\n\n1. E1 2. D4 *',
    });
    this.file = h('input', {
      type: 'file', id: 'game-file-input', accept: '.ogn,text/plain', 'data-game-file-input': true,
      onchange: () => this.readChosen(),
    });
    this.choice = h('select', {
      id: 'game-file-choice', 'data-game-file-choice': true,
      onchange: () => this.show(Number(this.choice.value)),
    });
    this.choiceRow = h('p', { hidden: true }, h('label', { for: 'game-file-choice' }, 'Game '), this.choice);
    this.error = h('p', { class: 'form-error', id: 'game-file-error', role: 'alert', 'data-game-file-error': true });
    this.el = h('form', {
      class: 'panel game-file-form', 'aria-labelledby': 'game-file-title',
      onsubmit: async (/** @type {Event} */ ev) => {
        ev.preventDefault();
        await this.read(this.text.value);
      },
    },
    h('h2', { id: 'game-file-title' }, 'Open a game file'),
    h('p', { class: 'muted small', id: 'game-file-help' },
      'Paste a game file (OGN: the “Download” of a game, a player or a tournament) or choose one: its moves become the line, to step through.'),
    h('p', {}, h('label', { for: 'game-file-text' }, 'Game file'), this.text),
    h('p', { class: 'game-file-choose' }, h('label', { for: 'game-file-input' }, 'Or choose a file '), this.file),
    this.choiceRow,
    this.error,
    h('button', { type: 'submit', class: 'button primary', 'data-game-file-open': true }, 'Open'));
  }

  /** A chosen file: its text into the field, then read. */
  async readChosen() {
    const chosen = this.file.files?.[0];
    if (!chosen) return;
    if (chosen.size > MAX_FILE_BYTES) {
      this.showError(`That file holds ${Math.ceil(chosen.size / 1024)} KiB; the board reads files of up to 256 KiB (one game is a few).`);
      return;
    }
    this.text.value = await chosen.text();
    await this.read(this.text.value);
  }

  /**
   * Reads `text` and shows its first game (or says what is wrong, and where).
   * @param {string} text
   */
  async read(text) {
    if (!text.trim()) {
      this.showError('Paste a game file first, or choose one.');
      return;
    }
    if (new Blob([text]).size > MAX_FILE_BYTES) {
      this.showError('That file is larger than the 256 KiB the board reads; open one game of it.');
      return;
    }
    try {
      this.reports = await readGameFile(text);
    } catch (e) {
      this.showError(`That file could not be read: ${errorText(e)}`);
      return;
    }
    replace(this.choice, ...this.reports.map((r, i) => h('option', { value: String(i) }, `${i + 1}. ${titleOf(r.record)}`)));
    this.choiceRow.hidden = this.reports.length < 2;
    this.choice.value = '0';
    if (this.reports.length > 1) announce(`The file holds ${this.reports.length} games; showing the first.`);
    await this.show(0);
  }

  /** @param {number} index */
  async show(index) {
    const report = this.reports[index];
    if (!report) return;
    if (report.error) {
      this.showError(`That game’s moves do not replay: ${report.error}`);
      return;
    }
    this.showError('');
    await this.open(report);
  }

  /** @param {string} text a refusal in words, or '' to clear it */
  showError(text) {
    this.error.textContent = text;
    if (text) announce(text);
  }
}
