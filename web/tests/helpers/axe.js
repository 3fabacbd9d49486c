// An accessibility audit of a page as it stands: axe-core (the npm package, evaluated in the
// page through the DevTools protocol, which the page's Content-Security-Policy - no inline
// script - does not block) run over the whole document; the violations that matter, serious or critical,
// formatted so that a failing test says which rule, where, and how to fix it.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** axe-core's browser bundle, as text. @type {string} */
const AXE_SOURCE = require('axe-core').source;

/**
 * @typedef {{id: string, impact: string, help: string, helpUrl: string, nodes: {target: string[], summary: string}[]}} Violation
 */

/**
 * Runs axe over the page's document (or the parts named by `include`); resolves with its
 * serious and critical violations.
 * @param {import('playwright-core').Page} page
 * @param {{include?: string[], exclude?: string[]}} [options] selectors audited alone, or left out
 * @returns {Promise<Violation[]>}
 */
export async function audit(page, options = {}) {
  if (!await page.evaluate(() => 'axe' in window)) {
    await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  }
  /** @type {Violation[]} */
  const violations = await page.evaluate(async ({ include, exclude }) => {
    const axe = /** @type {any} */ (window).axe;
    const context = include.length || exclude.length
      ? { include: include.length ? include.map((s) => [s]) : [document], exclude: exclude.map((s) => [s]) }
      : document;
    const result = await axe.run(context, { resultTypes: ['violations'] });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((/** @type {any} */ n) => ({ target: n.target.map(String), summary: String(n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 300) })),
    }));
  }, { include: options.include || [], exclude: options.exclude || [] });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A report of violations, one line per rule and one per element. @param {Violation[]} violations */
export function format(violations) {
  return violations.map((v) => [
    `${v.id} (${v.impact}): ${v.help} <${v.helpUrl}>`,
    ...v.nodes.slice(0, 10).map((n) => `    ${n.target.join(' ')}: ${n.summary}`),
    ...(v.nodes.length > 10 ? [`    ... and ${v.nodes.length - 10} more`] : []),
  ].join('\n')).join('\n');
}

/**
 * Fails (throws) when the page has a serious or critical violation.
 * @param {import('playwright-core').Page} page
 * @param {string} what the page and its state, for the message
 * @param {{include?: string[], exclude?: string[]}} [options]
 */
export async function assertAccessible(page, what, options) {
  const violations = await audit(page, options);
  if (violations.length) {
    throw new Error(`${what}: ${violations.length} serious or critical accessibility violation(s):\n${format(violations)}`);
  }
}
