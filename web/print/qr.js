// The server's QR codes (`qr_svg` in its answers) as images in the page: the SVG document
// parsed as SVG, never as HTML, and its root taken in with anything that could run or link
// removed (a QR code has none), as the account page and the console show a link code's.
// Parsing needs no inline style, which the page's CSP (crates/server/src/http/edge.rs)
// would refuse.

import { h } from '../core/ui.js';

/**
 * The QR code as an `<svg role="img">` labelled `label`, or null when `svg` is not an SVG
 * document.
 * @param {string | null | undefined} svg @param {string} label
 * @returns {SVGElement | null}
 */
export function qrImage(svg, label) {
  if (!svg) return null;
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const root = doc.documentElement;
  if (root.localName !== 'svg' || doc.getElementsByTagName('parsererror').length) return null;
  for (const el of [...root.querySelectorAll('script, foreignObject, a, use, style')]) el.remove();
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || name.includes('href') || name === 'style') el.removeAttribute(attr.name);
    }
  }
  const image = /** @type {SVGElement} */ (/** @type {unknown} */ (document.importNode(root, true)));
  // Sized by the page's style sheet (print.css), not the server's pixels.
  image.removeAttribute('width');
  image.removeAttribute('height');
  image.setAttribute('role', 'img');
  image.setAttribute('aria-label', label);
  return image;
}

/**
 * Where a QR code goes when there is none (a server without QR codes, or one that could not
 * be reached): a box of the same size saying so; the address is printed beside it anyway.
 */
export function qrPlaceholder() {
  return h('div', { class: 'qr-placeholder', 'data-qr-placeholder': true }, 'No QR code: type the address');
}
