// Where a page that signs this device in goes next, and what that page then says: `?next=`
// when it is a path on this site (never another site: an open redirect), and a toast kept
// for the next page to show (app.js reads it once under the same key).

import { safeStorage } from '../core/ui.js';

/** The key of the toast the next page shows (`FLASH` in app.js). */
const FLASH = 'omweso.flash';

/** `?next=` when it is a path on this site, else null. */
export function nextPath() {
  const next = new URLSearchParams(location.search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  try {
    const url = new URL(next, location.origin);
    return url.origin === location.origin ? url.pathname + url.search + url.hash : null;
  } catch {
    return null;
  }
}

/**
 * Goes to `path`, the page there saying `said`.
 * @param {string} path @param {string} said
 */
export function goSaying(path, said) {
  safeStorage(FLASH, said);
  location.assign(path);
}
