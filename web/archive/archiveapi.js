// The archive's calls (docs/protocol.md, "The archive (addition)"): a search, a page at a
// time, and one finished game's entry. No session is needed for either.

import { api } from '../core/api.js';

/** @typedef {{name: string, username?: string}} ArchiveSeat */
/**
 * One finished game: `result` is `south`, `north`, `draw` or `annulled`; `victory` how it
 * was won or why it was annulled; `tournament_name` its tournament's name as it is now.
 * @typedef {{id: string, ruleset: string, south: ArchiveSeat|null, north: ArchiveSeat|null,
 *   result: 'south'|'north'|'draw'|'annulled', victory?: string, rated: boolean,
 *   tournament?: string, tournament_name?: string, moves?: number, created_at_ms: number,
 *   finished_at_ms: number}} ArchiveGame
 */
/** @typedef {{games: ArchiveGame[], next: string|null}} ArchivePage */

/**
 * One page of the archive: `query` holds the search's fields as `GET /api/archive` takes
 * them (empty ones are left out).
 * @param {Record<string, string>} query
 * @returns {Promise<ArchivePage>}
 */
export function searchArchive(query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return api('GET', `/api/archive${text ? `?${text}` : ''}`);
}

/**
 * The finished game `id`'s entry (404 while it is not over).
 * @param {string} id
 * @returns {Promise<ArchiveGame>}
 */
export function archiveEntry(id) {
  return api('GET', `/api/archive/${encodeURIComponent(id)}`);
}
