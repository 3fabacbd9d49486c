// A rating's history as a chart, drawn here as SVG (no charting library): the rating after
// each rated game as a line over time, the deviation as a band around it (the wider, the
// less sure the rating), and the lowest and highest values and the first and last days as
// labels. Pure: points in, an element out; nothing is styled inline (the page's CSP).

import { s } from '../core/ui.js';
import { day } from '../core/when.js';

/** @typedef {{at_ms: number, rating: number, deviation: number}} RatingPoint */

/** The drawing's size in its own units (it scales to its box). */
const WIDTH = 320;
const HEIGHT = 160;
/** Room for the labels: left for the values, below for the days. */
const LEFT = 40;
const BOTTOM = 22;
const TOP = 8;
const RIGHT = 8;

/**
 * Where each point goes: x by time (evenly by game when all are at one moment), y by
 * rating between `low` and `high`.
 * @param {RatingPoint[]} points
 * @returns {{xy: [number, number][], band: [number, number][], low: number, high: number}}
 */
export function layout(points) {
  const lows = points.map((p) => p.rating - p.deviation);
  const highs = points.map((p) => p.rating + p.deviation);
  // Whole hundreds around the band, so the labels are round numbers.
  let low = Math.floor(Math.min(...lows) / 100) * 100;
  let high = Math.ceil(Math.max(...highs) / 100) * 100;
  if (high === low) high = low + 100;
  const first = points[0].at_ms;
  const last = points[points.length - 1].at_ms;
  const span = last - first;
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const x = (/** @type {number} */ i) => {
    if (points.length === 1) return LEFT + plotW / 2;
    const share = span > 0 ? (points[i].at_ms - first) / span : i / (points.length - 1);
    return LEFT + share * plotW;
  };
  const y = (/** @type {number} */ value) => TOP + (1 - (value - low) / (high - low)) * plotH;
  const round = (/** @type {number} */ v) => Math.round(v * 10) / 10;
  const xy = points.map((p, i) => /** @type {[number, number]} */ ([round(x(i)), round(y(p.rating))]));
  const upper = points.map((p, i) => /** @type {[number, number]} */ ([round(x(i)), round(y(p.rating + p.deviation))]));
  const lower = points.map((p, i) => /** @type {[number, number]} */ ([round(x(i)), round(y(p.rating - p.deviation))]));
  return { xy, band: [...upper, ...lower.reverse()], low, high };
}

/** @param {[number, number][]} xy */
function pointsText(xy) {
  return xy.map(([x, y]) => `${x},${y}`).join(' ');
}

/**
 * The chart of one ruleset's history, or null when it has no point.
 * @param {RatingPoint[]} points oldest first
 * @param {string} label what it is the history of, for the screen reader ("Omweso rating")
 */
export function ratingChart(points, label) {
  if (!points.length) return null;
  const { xy, band, low, high } = layout(points);
  const firstPoint = points[0];
  const lastPoint = points[points.length - 1];
  const summary = `${label}: ${Math.round(firstPoint.rating)} after the first rated game, ${Math.round(lastPoint.rating)} now, over ${points.length} game${points.length === 1 ? '' : 's'}`;
  const baseline = HEIGHT - BOTTOM;
  return s('svg', {
    class: 'rating-chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': summary,
    'data-rating-chart': true, 'data-points': points.length,
  },
  s('title', {}, summary),
  s('line', { class: 'rating-axis', x1: LEFT, y1: TOP, x2: LEFT, y2: baseline }),
  s('line', { class: 'rating-axis', x1: LEFT, y1: baseline, x2: WIDTH - RIGHT, y2: baseline }),
  s('text', { class: 'rating-label', x: LEFT - 4, y: TOP + 8, 'text-anchor': 'end' }, String(high)),
  s('text', { class: 'rating-label', x: LEFT - 4, y: baseline, 'text-anchor': 'end' }, String(low)),
  s('text', { class: 'rating-label', x: LEFT, y: HEIGHT - 4, 'text-anchor': 'start' }, day(firstPoint.at_ms)),
  points.length > 1 ? s('text', { class: 'rating-label', x: WIDTH - RIGHT, y: HEIGHT - 4, 'text-anchor': 'end' }, day(lastPoint.at_ms)) : null,
  s('polygon', { class: 'rating-band', points: pointsText(band) }),
  s('polyline', { class: 'rating-line', points: pointsText(xy) }),
  xy.map(([x, y], i) => s('circle', {
    class: 'rating-dot', cx: x, cy: y, r: 3, 'data-rating-point': Math.round(points[i].rating),
  })));
}
