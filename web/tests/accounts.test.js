// Persons, accounts and devices in the browser (issue 27): a guest playing a live game makes
// an account from the same phone and the game goes on; a link code makes a second phone the
// same person; the devices list signs that phone out (its next call is 401, its page asks
// for a name again); an account's player page lists its game with a working link. Real
// server, headless Chromium at a phone's size, any console error, failed request or CSP
// violation fails (but the refusals a test provokes on purpose).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { assertAccessible } from './helpers/axe.js';

const live = serverAndBrowser();

/** A password zxcvbn rates strong enough (docs/protocol.md, Passwords). */
const PASSWORD = 'seeds in the outer row at dusk';

/** @typedef {Awaited<ReturnType<typeof openPage>>} Opened */

/** A phone (its own cookies: one device), recording CSP violations. @param {string} label */
async function phone(label) {
  const opened = await openPage(live.browser, label, PHONE);
  await opened.context.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (ev) => w.__csp.push(`${ev.violatedDirective}: ${ev.sample}`));
  });
  return opened;
}

/**
 * Fails on what the pages logged, but the lines `expected` matches (a refusal provoked on
 * purpose: its HTTP line and the console's "Failed to load resource"), and on any CSP
 * violation; closes the pages.
 * @param {Opened[]} pages @param {RegExp[]} [expected]
 */
async function closeAll(pages, expected = []) {
  const csp = [];
  for (const p of pages) {
    if (!p.page.isClosed()) csp.push(...(await p.page.evaluate(() => /** @type {any} */ (window).__csp || [])));
  }
  const problems = pages.flatMap((p) => p.problems).filter((line) => !expected.some((re) => re.test(line)));
  await Promise.all(pages.map((p) => p.context.close()));
  assert.deepEqual(csp, [], 'no CSP violation');
  assert.deepEqual(problems, [], `the pages logged problems:\n${problems.join('\n')}`);
}

/** Chooses a name from the lobby's header. @param {import('playwright-core').Page} page @param {string} name */
async function chooseName(page, name) {
  await page.goto(`${live.server.url}/`);
  await page.click('[data-choose-name]');
  await page.fill('#name-input', name);
  await page.click('#name-submit');
  await page.waitForSelector(`[data-me="${name}"]`);
}

/** Creates a game from the lobby; its id. @param {import('playwright-core').Page} page */
async function createGame(page) {
  await page.selectOption('#new-ruleset', 'omweso');
  await page.selectOption('#new-setup', 'outer');
  await page.selectOption('#new-time', 'casual');
  await page.selectOption('#new-seat', 'first');
  await page.click('#create-game');
  const url = String(await (await page.waitForSelector('[data-invite]')).getAttribute('data-invite'));
  return url.split('/g/')[1];
}

/** The game as a page shows it, settled at a version of at least `min`. @param {import('playwright-core').Page} page @param {number} [min] */
async function settled(page, min = 0) {
  const handle = await page.waitForFunction((v) => {
    const s = /** @type {any} */ (window).__omweso?.settled();
    return s && s.version >= v ? s : null;
  }, min);
  return handle.jsonValue();
}

/**
 * The player to move plays the first thing their page offers (a decision's first option,
 * else the first legal pit); resolves once both pages show the next version.
 * @param {import('playwright-core').Page[]} pages @param {Record<string, import('playwright-core').Page>} bySeat
 */
async function playOne(pages, bySeat) {
  const states = await Promise.all(pages.map((p) => settled(p)));
  const version = Math.max(...states.map((s) => s.version));
  const mover = bySeat[states[0].to_move];
  await mover.waitForSelector('[data-choice], [data-legal]');
  const choice = mover.locator('[data-choice]');
  if (await choice.count()) await choice.first().click();
  else await mover.locator('svg[data-board] [data-legal]').first().click();
  await mover.mouse.move(1, 1);
  return Promise.all(pages.map((p) => settled(p, version + 1)));
}

/** Set by the first test for the last: the account and its game. */
const made = { username: '', gameId: '', codes: /** @type {string[]} */ ([]) };

test('a guest in a live game makes an account from the same phone; the game goes on', { timeout: 120000 }, async () => {
  const south = await phone('south');
  const north = await phone('north');
  const pages = [south.page, north.page];
  const bySeat = { s: south.page, n: north.page };
  await chooseName(south.page, 'Kato');
  const gameId = await createGame(south.page);
  await north.page.goto(`${live.server.url}/g/${gameId}`);
  await north.page.click('[data-join-seat]');
  await north.page.fill('#name-input', 'Nakato');
  await north.page.click('#name-submit');
  await south.page.goto(`${live.server.url}/g/${gameId}`);
  await settled(north.page, 2);
  await playOne(pages, bySeat);
  const before = await settled(south.page);
  assert.equal(before.you, 's');

  // The header: the guest's account menu leads to the account page, and back here after.
  await south.page.click('[data-account-menu] summary');
  assert.deepEqual(await south.page.locator('[data-account-menu] a').evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('href')])),
    [['Your games', '/me'], ['Your account (make one)', `/account?next=${encodeURIComponent(`/g/${gameId}`)}`]]);
  await south.page.click('[data-account-link]');
  await south.page.waitForSelector('#signup');
  assert.equal(await south.page.locator('[data-account-state]').getAttribute('data-account-state'), 'guest');
  assert.match(await south.page.locator('[data-guest-becomes]').innerText(), /your games and tournaments stay yours/);
  assert.ok(await south.page.locator('[data-login-note]').isVisible(), 'logging in on a guest device says what happens to its games');
  assert.deepEqual(await south.page.locator('#signup input').evaluateAll((els) => els.map((e) => e.getAttribute('autocomplete'))),
    ['username', 'new-password']);
  await assertAccessible(south.page, 'the account page of a guest');

  // A refusal is said next to the form, and focus goes to the field it is about.
  await south.page.fill('#signup-username', 'kato_k');
  await south.page.fill('#signup-password', 'kato_k12');
  await south.page.click('#signup-submit');
  await south.page.waitForFunction(() => document.querySelector('[data-form-error="signup"]')?.textContent);
  assert.match(await south.page.locator('[data-form-error="signup"]').innerText(), /password/i);
  assert.equal(await south.page.evaluate(() => document.activeElement?.id), 'signup-password');

  // The account, made from the guest: the recovery codes once, then the account.
  await south.page.fill('#signup-password', PASSWORD);
  await south.page.click('#signup-submit');
  await south.page.waitForSelector('[data-recovery-codes]');
  const codes = await south.page.locator('[data-recovery-codes] li').allInnerTexts();
  assert.equal(codes.length, 10);
  for (const code of codes) assert.match(code, /^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
  assert.equal(await south.page.evaluate(() => document.activeElement?.id), 'recovery-codes', 'focus is on the codes');
  assert.ok(await south.page.locator('[data-codes-done]').isDisabled(), 'continuing waits for "I have written them down"');
  await south.page.check('[data-codes-written]');
  await south.page.click('[data-codes-done]');
  // Back where the account was made from, saying so; the account page then shows it.
  await south.page.waitForURL(`**/g/${gameId}`);
  await south.page.waitForSelector('.toast:has-text("Your account is made")');
  await south.page.goto(`${live.server.url}/account`);
  await south.page.waitForSelector('[data-account-state="account"]');
  assert.equal(await south.page.locator('[data-account-username]').innerText(), '@kato_k');
  await south.page.waitForFunction(() => /member since \d+ \w+ \d{4}/.test(document.querySelector('[data-member-since]')?.textContent || ''));
  // The guest's name stays; the header now leads to the player page.
  await south.page.waitForSelector('[data-me="Kato"] a[href="/@/kato_k"]');
  await assertAccessible(south.page, 'the account page of an account');

  // Back to the game: the same seat, and play goes on.
  await south.page.goto(`${live.server.url}/g/${gameId}`);
  const after = await settled(south.page, before.version);
  assert.equal(after.you, 's', 'the account holds the guest\'s seat');
  const [next] = await playOne(pages, bySeat);
  assert.ok(next.version > before.version, `a move was played after (${before.version} -> ${next.version})`);
  await playOne(pages, bySeat);
  made.username = 'kato_k';
  made.gameId = gameId;
  made.codes = codes;
  await closeAll([south, north], [
    /HTTP 400 POST .*\/api\/account .*weak_password/,
    /console\.error: Failed to load resource: the server responded with a status of 400/,
  ]);
});

test('a link code makes a second phone the same person; the devices list signs it out', { timeout: 120000 }, async () => {
  const first = await phone('first phone');
  const second = await phone('second phone');
  await chooseName(first.page, 'Apio');
  const gameId = await createGame(first.page);

  // "change" renames the person (their game stays theirs): no new session.
  const cookie = async () => (await first.context.cookies()).find((c) => c.name === 'omweso_session')?.value;
  const token = await cookie();
  await first.page.click('[data-change-name]');
  assert.match(await first.page.locator('#name-why').innerText(), /changes on all your devices/);
  assert.equal(await first.page.inputValue('#name-input'), 'Apio');
  await first.page.fill('#name-input', 'Apio N');
  await first.page.click('#name-submit');
  await first.page.waitForSelector('[data-me="Apio N"]');
  assert.equal(await cookie(), token, 'the same device, renamed');

  // A guest links another device from the account page: a large code, a QR code, the time left.
  await first.page.goto(`${live.server.url}/account`);
  await first.page.click('[data-make-link-code]');
  const shown = first.page.locator('[data-link-code]');
  await shown.waitFor();
  const code = String(await shown.getAttribute('data-link-code'));
  assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  assert.equal(await shown.innerText(), code);
  assert.ok(((await shown.boundingBox())?.height ?? 0) >= 40, 'the code is large');
  const qr = await first.page.locator('[data-link-qr]').evaluate((el) => ({ tag: el.tagName, ns: el.namespaceURI, paths: el.querySelectorAll('path, rect').length, width: el.getBoundingClientRect().width }));
  assert.equal(qr.tag, 'svg');
  assert.equal(qr.ns, 'http://www.w3.org/2000/svg');
  assert.ok(qr.paths > 0 && qr.width >= 200, JSON.stringify(qr));
  assert.match(await first.page.locator('[data-link-countdown]').innerText(), /^(10:00|9:[0-5]\d)$/);
  assert.match(await first.page.locator('.link-instructions').innerText(), new RegExp(`On the other device open ${live.server.url}/link and enter the code, or scan the QR code`));
  await assertAccessible(first.page, 'a link code shown');

  // The second phone opens the QR code's address: the code is there, spaced; typed again
  // by hand in small letters it is spaced the same.
  await second.page.goto(`${live.server.url}/link?code=${code.replace('-', '')}`);
  assert.equal(await second.page.inputValue('#link-code'), code);
  assert.equal(await second.page.locator('#link-code').getAttribute('autocapitalize'), 'characters');
  await second.page.fill('#link-code', '');
  await second.page.locator('#link-code').pressSequentially(code.replace('-', '').toLowerCase());
  assert.equal(await second.page.inputValue('#link-code'), code);
  await assertAccessible(second.page, 'the link page');
  await second.page.click('#link-submit');
  await second.page.waitForURL(`${live.server.url}/`);
  await second.page.waitForFunction(() => [...document.querySelectorAll('[data-toast]')].some((t) => t.textContent === 'This device is now Apio N'));
  await second.page.waitForSelector('[data-me="Apio N"]');

  // It is the same person: "Your games" lists the first phone's game.
  await second.page.click('[data-account-menu] summary');
  await second.page.click('[data-my-games]');
  await second.page.waitForSelector(`[data-person-game="${gameId}"]`);
  assert.equal(await second.page.locator(`[data-person-game="${gameId}"] a`).innerText(), 'Omweso, no opponent yet');
  assert.match(await second.page.locator('[data-guest-note]').innerText(), /make an account to keep these past this device/i);

  // The first phone's devices: two, this one marked; "Sign out" the other.
  await first.page.reload();
  await first.page.waitForFunction(() => document.querySelectorAll('[data-device]').length === 2);
  assert.equal(await first.page.locator('[data-device][data-current] [data-this-device]').innerText(), 'this device');
  const other = first.page.locator('[data-device]:not([data-current]) [data-sign-out-device]');
  assert.match(await first.page.locator('[data-device]:not([data-current])').innerText(), /Last used just now/);
  await other.click();
  await first.page.waitForFunction(() => document.querySelectorAll('[data-device]').length === 1);

  // The second phone is signed out: its next call is 401, and its page asks for a name again.
  const status = await second.page.evaluate(async () => (await fetch('/api/me/games', { credentials: 'same-origin' })).status);
  assert.equal(status, 401);
  await second.page.reload();
  await second.page.waitForSelector('[data-choose-name]');
  await second.page.waitForFunction(() => [...document.querySelectorAll('[data-toast]')].some((t) => t.textContent === 'This device is signed out. Choose a name, or log in.'));
  await second.page.waitForSelector('[data-no-games]');
  assert.equal(await second.page.locator('[data-me]').count(), 0);
  // The first phone is still the person.
  await first.page.goto(`${live.server.url}/me`);
  await first.page.waitForSelector(`[data-person-game="${gameId}"]`);
  await closeAll([first, second], [
    /^\[second phone\] HTTP 401 GET .*\/api\/(me|me\/games) /,
    /^\[second phone\] console\.error: Failed to load resource: the server responded with a status of 401/,
  ]);
});

test('a player page lists the account\'s game, with a working link, to anyone', { timeout: 60000 }, async () => {
  assert.ok(made.username, 'the first test made the account');
  const reader = await phone('reader');
  await reader.page.goto(`${live.server.url}/@/${made.username}`);
  await reader.page.waitForSelector('[data-player-name]');
  assert.equal(await reader.page.locator('[data-player-name]').innerText(), 'Kato');
  assert.equal(await reader.page.locator('[data-player-username]').innerText(), '@kato_k');
  const row = reader.page.locator(`[data-person-game="${made.gameId}"]`);
  assert.equal(await row.locator('a').innerText(), 'Omweso against Nakato');
  assert.equal(await row.locator('.result-badge').innerText(), 'Being played');
  assert.equal(await reader.page.locator('[data-no-tournaments]').innerText(), 'No tournaments yet.');
  // A reader without a session is not given one, nor asked anything.
  assert.equal((await reader.context.cookies()).length, 0);
  await assertAccessible(reader.page, 'a player page');
  await row.locator('a').click();
  await reader.page.waitForURL(`${live.server.url}/g/${made.gameId}`);
  const state = await settled(reader.page);
  assert.equal(state.status, 'playing');
  assert.equal(state.you, null);
  // A username nobody has.
  await reader.page.goto(`${live.server.url}/@/nobody_here`);
  await reader.page.waitForSelector('[data-no-player]');
  await closeAll([reader], [
    /^\[reader\] HTTP 404 GET .*\/api\/players\/nobody_here /,
    /^\[reader\] console\.error: Failed to load resource: the server responded with a status of 404/,
  ]);
});

test('an account logs in on a new phone from its game and comes back to it; a recovery code sets a new password; everywhere else is signed out', { timeout: 90000 }, async () => {
  assert.ok(made.username, 'the first test made the account');
  const other = await phone('new phone');
  await other.page.goto(`${live.server.url}/g/${made.gameId}`);
  await settled(other.page);
  await other.page.click('[data-log-in-link]');
  await other.page.waitForSelector('#login');
  assert.equal(new URL(other.page.url()).searchParams.get('next'), `/g/${made.gameId}`);
  assert.equal(await other.page.locator('[data-login-note]').count(), 0, 'a device with no guest has no guest games to leave');
  await other.page.fill('#login-username', made.username);
  await other.page.fill('#login-password', 'not the password at all');
  await other.page.click('#login-submit');
  await other.page.waitForFunction(() => document.querySelector('[data-form-error="login"]')?.textContent);
  assert.equal(await other.page.evaluate(() => document.activeElement?.id), 'login-password');
  const refusal = await other.page.locator('[data-form-error="login"]').innerText();
  await other.page.fill('#login-password', PASSWORD);
  await other.page.click('#login-submit');
  await other.page.waitForURL(`${live.server.url}/g/${made.gameId}`);
  // The page it comes back to says who this device is now (a toast of a few seconds).
  await other.page.waitForFunction(() => [...document.querySelectorAll('[data-toast]')].some((t) => t.textContent === 'You are logged in as Kato'));
  const state = await settled(other.page);
  assert.equal(state.you, 's', 'the account plays its seat on the new phone');
  await other.page.waitForSelector('[data-me="Kato"]');

  // Forgot the password: a recovery code sets a new one on a third phone.
  const third = await phone('third phone');
  await third.page.goto(`${live.server.url}/account`);
  await third.page.click('[data-forgot] summary');
  await third.page.fill('#recover-username', made.username);
  await third.page.fill('#recover-code', made.codes[0]);
  await third.page.fill('#recover-password', 'the akakyala capture of a lifetime');
  await third.page.click('#recover-submit');
  await third.page.waitForSelector('[data-account-state="account"]');
  await third.page.waitForFunction(() => document.querySelectorAll('[data-device]').length === 1);
  // Every other device was signed out.
  const me = async () => other.page.evaluate(async () => (await fetch('/api/me', { credentials: 'same-origin' })).status);
  assert.equal(await me(), 401);

  // Logged in again there, then "Sign out everywhere else" (a second tap confirms) from here.
  await other.page.goto(`${live.server.url}/account`);
  await other.page.fill('#login-username', made.username);
  await other.page.fill('#login-password', 'the akakyala capture of a lifetime');
  await other.page.click('#login-submit');
  await other.page.waitForSelector('[data-account-state="account"]');
  await third.page.reload();
  await third.page.waitForFunction(() => document.querySelectorAll('[data-device]').length === 2);
  await third.page.click('[data-sign-out-others]');
  assert.equal(await third.page.locator('#others-confirm').innerText(), 'Sign out 1 other device? They will need to log in or use a link code to come back.');
  await third.page.click('[data-sign-out-others-confirm]');
  await third.page.waitForFunction(() => document.querySelectorAll('[data-device]').length === 1);
  assert.equal(await me(), 401);
  await closeAll([other, third], [
    /^\[new phone\] HTTP 401 POST .*\/api\/login .*bad_credentials/,
    /^\[new phone\] HTTP 401 GET .*\/api\/me /,
    /^\[new phone\] console\.error: Failed to load resource: the server responded with a status of 401/,
  ]);
  assert.equal(refusal, 'wrong username or password');
});
