// E-mail on a server whose operator set up mail (docs/accounts.md#e-mail), in the browser:
// an account gives its address on the account page and confirms it by the mailed link; on
// another device "Forgot your password?" mails a reset link, whose page sets a new password
// and logs that device in, the first one signed out. A real SMTP server (Python's smtpd)
// takes the mail; real server, headless Chromium at a phone's size.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { call, session } from './helpers/protocol.js';
import { signInContext } from './helpers/tournament.js';

const PASSWORD = 'seeds in the outer row at dusk';
const NEW_PASSWORD = 'the akakyala capture of a lifetime';
/** The links' origin (the server's public origin: never taken from a request's Host). */
const ORIGIN = 'http://omweso.test';

/** Each mail as a line of JSON on stdout: its recipients, subject and decoded body. */
const CATCHER = `
import asyncore, email, email.policy, json, smtpd, sys

class Catcher(smtpd.SMTPServer):
    def process_message(self, peer, mailfrom, rcpttos, data, **kwargs):
        message = email.message_from_bytes(data, policy=email.policy.default)
        print(json.dumps({"to": rcpttos, "subject": str(message["subject"]), "body": message.get_content()}), flush=True)

server = Catcher(("127.0.0.1", int(sys.argv[1])), None, decode_data=False)
print("ready", flush=True)
asyncore.loop()
`;

/** A free port of 127.0.0.1. @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const port = await freePort();
const catcher = spawn('python3', ['-W', 'ignore', '-c', CATCHER, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
after(() => { catcher.kill(); });
/** @type {any[]} */
const mails = [];
/** @type {(() => void)[]} */
const waiting = [];
const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (catcher.stdout) });
await new Promise((resolve) => {
  lines.on('line', (line) => {
    if (line === 'ready') resolve(undefined);
    else {
      mails.push(JSON.parse(line));
      waiting.splice(0).forEach((wake) => wake());
    }
  });
});

/** The next mail, within 20 s. */
async function nextMail() {
  const deadline = Date.now() + 20000;
  while (!mails.length) {
    if (Date.now() > deadline) throw new Error('no mail came within 20 s');
    await new Promise((resolve) => { waiting.push(() => resolve(undefined)); setTimeout(resolve, 500); });
  }
  return mails.shift();
}

/** The code of the link `ORIGIN/account?what=CODE` in a mail. @param {any} mail @param {string} what */
function codeIn(mail, what) {
  const match = new RegExp(`${ORIGIN}/account\\?${what}=([0-9A-Za-z]+)`).exec(mail.body);
  assert.ok(match, `a ${what} link in: ${mail.body}`);
  return match[1];
}

const live = serverAndBrowser({
  env: {
    OMWESO_SMTP_URL: `smtp://127.0.0.1:${port}`,
    OMWESO_SMTP_FROM: 'Omweso <noreply@omweso.test>',
    OMWESO_PUBLIC_ORIGIN: ORIGIN,
  },
});

test('an account confirms its address by the mailed link, and a forgotten password is reset by mail on another phone', { timeout: 120000 }, async () => {
  const base = live.server.url;
  const guest = await session(base, 'Apio');
  const made = await call(base, guest.token, 'POST', '/api/account', { username: 'apio', password: PASSWORD });

  // The first phone gives the account an address, then opens the mailed link.
  const first = await openPage(live.browser, 'first phone', PHONE);
  await signInContext(first.context, base, { ...guest, token: made.token });
  await first.page.goto(`${base}/account`);
  await first.page.waitForSelector('#email [data-email-state="none"]');
  await first.page.fill('#email-address', 'apio@example.org');
  await first.page.fill('#email-password', PASSWORD);
  await first.page.click('#set-email-submit');
  await first.page.waitForSelector('#email [data-email-state="unverified"]');
  const confirmation = await nextMail();
  assert.deepEqual(confirmation.to, ['apio@example.org']);
  await first.page.goto(`${base}/account?verify=${codeIn(confirmation, 'verify')}`);
  await first.page.waitForFunction(() => [...document.querySelectorAll('[data-toast]')].some((t) => t.textContent === 'Your e-mail address is confirmed'));
  await first.page.waitForSelector('#email [data-email-state="verified"]');
  assert.equal(new URL(first.page.url()).search, '', 'the used code is not left in the address bar');

  // A second phone: "Forgot your password?" mails a reset link.
  const second = await openPage(live.browser, 'second phone', PHONE);
  await second.page.goto(`${base}/account`);
  await second.page.click('[data-forgot] summary');
  await second.page.fill('#reset-username', 'Apio');
  await second.page.click('#email-reset-submit');
  await second.page.waitForSelector('[data-reset-sent]:not([hidden])');
  const reset = await nextMail();
  assert.deepEqual(reset.to, ['apio@example.org']);
  await second.page.goto(`${base}/account?reset=${codeIn(reset, 'reset')}`);
  await second.page.fill('#reset-password', NEW_PASSWORD);
  await second.page.click('#reset-confirm-submit');
  await second.page.waitForSelector('[data-account-state="account"]');
  assert.equal(await second.page.locator('[data-account-username]').innerText(), '@apio');
  // The first phone was signed out; the new password logs in.
  const status = await first.page.evaluate(async () => (await fetch('/api/me', { credentials: 'same-origin' })).status);
  assert.equal(status, 401);
  await call(base, '', 'POST', '/api/login', { username: 'apio', password: NEW_PASSWORD });

  // But the 401 this test asked the signed-out phone for.
  const expected = [/^\[first phone\] console\.error: Failed to load resource: the server responded with a status of 401/, /^\[first phone\] HTTP 401 GET \S+\/api\/me /];
  const problems = [...first.problems, ...second.problems].filter((line) => !expected.some((re) => re.test(line)));
  await Promise.all([first.context.close(), second.context.close()]);
  assert.deepEqual(problems, [], `the pages logged problems:\n${problems.join('\n')}`);
});
