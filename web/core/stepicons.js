// The icons of the buttons that step through a game (first, previous, next, last move) as
// inline SVG: the media symbols ⏮ and ⏭ are missing from the fonts of many phones and of
// Debian's Chromium, which drew them as empty boxes. Drawn in the text's colour, hidden
// from screen readers (each button has its own label).

const SVG = 'http://www.w3.org/2000/svg';

/** The shapes of each icon in a 24 x 24 box: bars and triangles. */
const SHAPES = {
  first: ['M5 5h3v14H5z', 'M19 5v14L9 12z'],
  previous: ['M17 5v14L6 12z'],
  next: ['M7 5v14l11-7z'],
  last: ['M5 5v14l10-7z', 'M16 5h3v14h-3z'],
};

/**
 * The icon of a step through the game.
 * @param {'first'|'previous'|'next'|'last'} step
 * @returns {SVGSVGElement}
 */
export function stepIcon(step) {
  const svg = /** @type {SVGSVGElement} */ (document.createElementNS(SVG, 'svg'));
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'step-icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('data-step-icon', step);
  for (const d of SHAPES[step]) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    path.setAttribute('fill', 'currentColor');
    svg.append(path);
  }
  return svg;
}
