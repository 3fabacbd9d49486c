// Headless Chromium (Debian's, at /usr/bin/chromium) driven by playwright-core, and pages
// that record every console error, warning and uncaught exception.

import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export async function launch() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--no-first-run', '--disable-quic', '--disable-sync'],
  });
}

/**
 * A page in a context of its own (its own cookies: one player), recording problems.
 * @param {import('playwright-core').Browser} browser
 * @param {string} label
 * @param {import('playwright-core').BrowserContextOptions} [options]
 */
export async function openPage(browser, label, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  /** @type {string[]} */
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`[${label}] console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`[${label}] uncaught: ${err.message}`));
  // Say which request failed (the console only says "Failed to load resource").
  page.on('response', async (response) => {
    if (response.status() < 400) return;
    let body = '';
    try {
      body = (await response.text()).slice(0, 300);
    } catch {
      body = '';
    }
    problems.push(`[${label}] HTTP ${response.status()} ${response.request().method()} ${response.url()} ${response.request().postData() || ''} -> ${body}`);
  });
  page.setDefaultTimeout(15000);
  return { context, page, problems, label };
}

/** A phone's context options (the width the event-day findings were made at). */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/**
 * Records, from the page's first script on, everything its live region (`#announcer`)
 * announces, in `window.__announced`.
 * @param {import('playwright-core').BrowserContext} context
 */
export async function recordAnnouncements(context) {
  await context.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__announced = [];
    const watch = () => {
      const region = document.getElementById('announcer');
      if (!region) return false;
      new MutationObserver(() => {
        const text = (region.textContent || '').trim();
        if (text) w.__announced.push(text);
      }).observe(region, { childList: true, subtree: true, characterData: true });
      return true;
    };
    if (!watch()) document.addEventListener('DOMContentLoaded', watch);
  });
}

/**
 * Keeps what the link page (`/link`) says on the way to where a code leads (its
 * `[data-link-going]` line), in the tab's session storage: the page navigates at once, and
 * the words are read afterwards with [`linkWords`].
 * @param {import('playwright-core').Page} page
 */
export async function keepLinkWords(page) {
  await page.addInitScript(() => {
    const keep = () => {
      const going = document.querySelector('[data-link-going]:not([hidden])');
      if (going?.textContent) sessionStorage.setItem('test.link-going', going.textContent);
    };
    new MutationObserver(keep).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/**
 * What the link page said on the way here (kept by [`keepLinkWords`]).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string | null>}
 */
export function linkWords(page) {
  return page.evaluate(() => sessionStorage.getItem('test.link-going'));
}
