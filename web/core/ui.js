// Small DOM helpers shared by the pages: element builders, the screen-reader announcer,
// toasts, and the user's settings (animation speed).

/**
 * @typedef {string | number | boolean | null | undefined
 *   | ((ev: any) => void)} AttrValue
 */
/** @typedef {Node | string | number | null | undefined | false} Child */

/**
 * Creates an HTML element. Attributes starting with `on` become listeners; `class`,
 * `data-*`, `aria-*` and the rest become attributes; `false`, null and undefined are left
 * out; `true` gives an empty attribute.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttrValue>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Creates an SVG element, as `h` does.
 * @param {string} tag
 * @param {Record<string, AttrValue>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** @param {Element} el @param {Record<string, AttrValue>} attrs */
export function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (value === false || value === null || value === undefined) {
      el.removeAttribute(key);
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

/** @param {Element} el @param {(Child | Child[])[]} children */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's children. @param {Element} el @param {...(Child | Child[])} children */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * Says `text` to screen readers through the page's polite live region.
 * @param {string} text
 */
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region) return;
  // Replacing the node makes screen readers read a repeated text again.
  region.replaceChildren(h('p', {}, text));
  const log = document.getElementById('announce-log');
  if (log) {
    log.append(h('li', {}, text));
    while (log.childElementCount > 50) log.firstElementChild?.remove();
  }
}

/**
 * A short message at the bottom of the screen.
 * @param {string} text
 * @param {'info'|'error'} [kind]
 */
export function toast(text, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(box);
  }
  const item = h('div', { class: `toast toast-${kind}`, 'data-toast': kind }, text);
  box.append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 6000 : 3500);
}

/** Animation speeds: milliseconds per seed. */
export const SPEEDS = /** @type {const} */ ({ slow: 260, normal: 120, fast: 45, instant: 0 });
/** @typedef {keyof typeof SPEEDS} Speed */

/**
 * The animation speed: `?anim=0` in the address makes it instant (tests use it), else the
 * saved choice, else normal.
 * @returns {Speed}
 */
export function animationSpeed() {
  const param = new URLSearchParams(location.search).get('anim');
  if (param === '0' || param === 'instant') return 'instant';
  if (param && param in SPEEDS) return /** @type {Speed} */ (param);
  const saved = safeStorage('omweso.anim');
  return saved && saved in SPEEDS ? /** @type {Speed} */ (saved) : 'normal';
}

/** @param {Speed} speed */
export function saveAnimationSpeed(speed) {
  safeStorage('omweso.anim', speed);
}

/**
 * localStorage that never throws (private modes, blocked storage).
 * @param {string} key
 * @param {string} [value] written when given
 * @returns {string | null}
 */
export function safeStorage(key, value) {
  try {
    if (value !== undefined) localStorage.setItem(key, value);
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** @param {string} key */
export function forget(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // storage blocked
  }
}

/**
 * Seconds as `2.4 s` (under 10 s) or `2:05`.
 * @param {number} ms
 */
export function formatRemaining(ms) {
  const t = Math.max(0, ms) / 1000;
  if (t < 10) return `${t.toFixed(1)} s`;
  const whole = Math.ceil(t);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** @param {number} ms */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The words of an error (a refusal from the server, or anything thrown). @param {unknown} e */
export function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}
