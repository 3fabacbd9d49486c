// The console's players: who joined, who is connected, their points, a way to withdraw
// each, and "Give a new device" for a player who lost theirs (a one-time code, and its QR
// code, that makes another device that player in this tournament), offered only where the
// server says it can work (`GET .../new-devices`: not for an account) with the reason
// beside it otherwise; the code shown until it is used (the `device_linked` event),
// expires or is closed; the link to send to the players; and the pairs who must never
// meet (docs/rules.md#54-pairing rule 2), added and removed by name.

import { api } from '../core/api.js';
import { h, announce, errorText } from '../core/ui.js';
import { formatPoints } from '../core/words.js';
import { plural } from '../core/plural.js';

/** How long a link code works (`LINK_CODE_LIFE_MS` in crates/people/src/codes.rs). */
const LINK_CODE_LIFE_MS = 10 * 60 * 1000;
import { ConsolePart } from './part.js';
import { timeOfDay } from '../core/when.js';

export class PlayersPart extends ConsolePart {
  /** @param {import('./console.js').DirectorConsole} owner */
  constructor(owner) {
    super(owner);
    /** @type {{a: string, b: string}} the two players chosen to keep apart, not yet added */
    this.forbidPick = { a: '', b: '' };
    /**
     * The device code last given, shown until closed.
     * @type {{player: string, name: string, code: string, expires_at_ms: number, qr_svg: string, url: string, expired?: boolean} | null}
     */
    this.deviceCode = null;
    /**
     * Whether each player may be given a new device, and why not; read from the server
     * when the players change.
     * @type {Map<string, {may_give: boolean, why_not?: string, linked_at_ms?: number}>}
     */
    this.newDevices = new Map();
    /** The players and status the list was read for ('' before the first read). */
    this.newDevicesFor = '';
    /** The name being typed for a player without a device. */
    this.addName = '';
  }

  draw() {
    const snap = this.snap;
    this.readNewDevices();
    if (!snap.players.length) {
      return [h('p', { class: 'muted' }, 'Nobody has joined yet.'), this.addWithoutDevice(), this.shareLink()];
    }
    const standings = new Map(snap.standings.map((s) => [s.player_id, s]));
    const withdrawable = snap.status !== 'finished';
    const rows = snap.players.map((p) => {
      const here = this.store.presence.has(p.player_id);
      const points = standings.get(p.player_id)?.points;
      const notes = [];
      if (p.withdrawn) notes.push('withdrawn');
      if (p.joined_after_round > 0) notes.push(`joined after round ${p.joined_after_round}`);
      if (p.player_id === snap.director) notes.push('you');
      if (p.added_by_director) notes.push('added without a device');
      return h('tr', { 'data-player-row': p.player_id, 'data-added-by-director': p.added_by_director ? 'true' : null, 'data-connected': String(here), 'data-withdrawn': String(p.withdrawn), class: p.withdrawn ? 'withdrawn' : null },
        h('th', { scope: 'row' }, p.name),
        h('td', { class: 'presence' },
          h('span', { class: `dot ${here ? 'on' : 'off'}`, 'aria-hidden': 'true' }),
          h('span', {}, here ? 'connected' : 'not connected')),
        h('td', { class: 'num' }, points === undefined ? '' : formatPoints(points)),
        h('td', { class: 'small' }, notes.join(', ')),
        h('td', { class: 'director-player-actions' },
          p.withdrawn || !withdrawable ? null : this.button(`withdraw:${p.player_id}`, {
            'data-withdraw': p.player_id, 'aria-label': `Withdraw ${p.name}`,
            onclick: () => this.withdraw(p.player_id, p.name),
          }, 'Withdraw'),
          withdrawable ? this.newDeviceButton(p.player_id, p.name) : null));
    });
    const active = snap.players.filter((p) => !p.withdrawn).length;
    return [
      h('p', { class: 'muted small' }, `${plural(active, 'active player')}${active !== snap.players.length ? `, ${snap.players.length - active} withdrawn` : ''}.`),
      h('div', { class: 'table-wrap' },
        h('table', { class: 'data-table director-players' },
          h('caption', { class: 'sr-only' }, 'The players, whether they are connected, and their points'),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Connection'), h('th', { scope: 'col', class: 'num' }, 'Points'),
            h('th', { scope: 'col' }, 'Notes'), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions')))),
          h('tbody', {}, rows))),
      this.drawDeviceCode(),
      this.addWithoutDevice(),
      snap.status === 'open' ? this.shareLink() : null,
      this.drawForbidden(),
    ];
  }

  /**
   * "Add a player without a device": a person at the hall with no phone, added by name;
   * the director acts for them (enters their sheets), and "Give a new device" can make a
   * phone theirs later.
   */
  addWithoutDevice() {
    if (this.snap.status === 'finished') return null;
    const input = h('input', {
      type: 'text', id: 'director-add-name', maxlength: 32, autocomplete: 'off', value: this.addName, 'data-key': 'add-name',
      oninput: (/** @type {Event} */ ev) => { this.addName = /** @type {HTMLInputElement} */ (ev.target).value; },
    });
    return h('form', {
      class: 'field director-add-player', 'data-add-player': true, novalidate: true,
      onsubmit: (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        this.addPlayer();
      },
    },
    h('label', { for: 'director-add-name' }, 'Add a player without a device'),
    h('div', { class: 'invite-row' }, input,
      h('button', { type: 'submit', class: 'button secondary small', 'data-action': 'add-player', 'data-key': 'add-player', 'data-add-player-submit': true, disabled: this.console.busy.has('add-player') }, 'Add')),
    h('p', { class: 'muted small' }, 'Their name as it goes on the sheets. You enter their results; "Give a new device" makes a phone theirs later.'));
  }

  addPlayer() {
    const name = this.addName.trim();
    if (!name) {
      this.alert('players', 'Type the player\'s name first.');
      /** @type {HTMLElement | null} */ (this.el.querySelector('#director-add-name'))?.focus();
      return;
    }
    this.act('add-player', 'players',
      async () => {
        await api('POST', `/api/tournaments/${this.store.id}/players`, { name });
        this.addName = '';
      },
      () => `${name} is added, without a device.`,
      (e) => `${name} was not added: ${errorText(e)}`);
  }

  /**
   * The pairs who must never meet (docs/rules.md#54-pairing rule 2), chosen from the players' names:
   * the list, each with a button to let them meet again, and two selects to add a pair.
   */
  drawForbidden() {
    const snap = this.snap;
    const pairs = snap.settings.forbidden_pairs || [];
    const open = snap.status !== 'finished';
    const nameOf = (/** @type {string} */ id) => snap.players.find((p) => p.player_id === id)?.name || 'a player who has not joined';
    const list = pairs.length
      ? h('ul', { class: 'director-forbidden-list' }, pairs.map(([a, b], i) => h('li', { 'data-forbidden-pair': `${a} ${b}` },
        h('span', {}, `${nameOf(a)} and ${nameOf(b)}`),
        open ? this.button('forbid', {
          'data-forbidden-remove': i, 'data-key': `forbid-remove-${a}-${b}`, 'aria-label': `Let ${nameOf(a)} and ${nameOf(b)} meet`,
          onclick: () => this.saveForbidden(pairs.filter((_, j) => j !== i), `${nameOf(a)} and ${nameOf(b)} may meet again.`),
        }, 'Remove') : null)))
      : h('p', { class: 'muted small', 'data-forbidden-none': true }, 'None: anyone may meet anyone.');
    const heading = h('h4', { id: 'director-forbidden-title' }, 'Pairs who must never meet');
    const active = snap.players.filter((p) => !p.withdrawn);
    if (!open || active.length < 2) return h('div', { class: 'director-forbidden', 'aria-labelledby': heading.id, role: 'group' }, heading, list);
    const select = (/** @type {'a' | 'b'} */ key, /** @type {string} */ label) => [
      h('label', { for: `forbid-${key}` }, label),
      h('select', {
        id: `forbid-${key}`, 'data-key': `forbid-${key}`, 'data-forbid-pick': key,
        onchange: (/** @type {Event} */ ev) => { this.forbidPick[key] = /** @type {HTMLSelectElement} */ (ev.target).value; },
      },
      h('option', { value: '' }, 'Choose a player'),
      active.map((p) => h('option', { value: p.player_id, selected: p.player_id === this.forbidPick[key] }, p.name))),
    ];
    return h('div', { class: 'director-forbidden', 'aria-labelledby': heading.id, role: 'group' },
      heading,
      h('p', { class: 'muted small' }, 'Family, club mates: the pairing keeps them apart from the next round paired on.'),
      list,
      h('div', { class: 'director-forbid-add' },
        h('span', { class: 'field inline' }, ...select('a', 'Keep')),
        h('span', { class: 'field inline' }, ...select('b', 'apart from')),
        this.button('forbid', { 'data-forbid-add': true, onclick: () => this.addForbidden() }, 'Add the pair')));
  }

  /** Adds the pair chosen in the two selects. */
  addForbidden() {
    const { a, b } = this.forbidPick;
    if (!a || !b) {
      this.alert('players', 'Choose the two players to keep apart.');
      return;
    }
    if (a === b) {
      this.alert('players', 'Choose two different players: a player is never paired with themselves.');
      return;
    }
    const pairs = this.snap.settings.forbidden_pairs || [];
    if (pairs.some((p) => p.includes(a) && p.includes(b))) {
      this.alert('players', 'Those two are kept apart already.');
      return;
    }
    const name = (/** @type {string} */ id) => this.store.name(id);
    this.saveForbidden([...pairs, [a, b]], `${name(a)} and ${name(b)} will never be paired.`).then((ok) => {
      if (ok) this.forbidPick = { a: '', b: '' };
      this.redraw(['players']);
    });
  }

  /**
   * Sends the whole new list of forbidden pairs.
   * @param {[string, string][]} pairs @param {string} said
   */
  saveForbidden(pairs, said) {
    return this.act('forbid', 'players',
      () => api('PUT', `/api/tournaments/${this.store.id}/forbidden-pairs`, { forbidden_pairs: pairs }),
      () => said,
      (e) => `The pairs who must never meet were not saved: ${errorText(e)}`);
  }

  /** The link to send to the players, with a copy button. */
  shareLink() {
    const url = `${location.origin}/t/${this.store.id}`;
    const input = h('input', { type: 'text', id: 'director-share', readonly: true, value: url, 'data-key': 'share', onfocus: (/** @type {FocusEvent} */ ev) => /** @type {HTMLInputElement} */ (ev.target).select() });
    return h('div', { class: 'field director-share' },
      h('label', { for: 'director-share' }, 'Send this link to the players'),
      h('div', { class: 'invite-row' }, input,
        h('button', {
          type: 'button', class: 'button secondary small', 'data-key': 'share-copy',
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(url);
              announce('The link is copied.');
            } catch {
              input.select();
              announce('Select the link and copy it.');
            }
          },
        }, 'Copy')));
  }

  /**
   * The code just given to a player who lost their device: large, with its QR code, and
   * what to do with it on the new device.
   */
  drawDeviceCode() {
    const given = this.deviceCode;
    if (!given) return null;
    const close = h('button', { type: 'button', class: 'button secondary small', 'data-key': 'device-code-close', onclick: () => { this.deviceCode = null; this.redraw(['players']); } }, 'Done');
    // A code lives ten minutes: it was made then, and any use since is this one's.
    const made = given.expires_at_ms - LINK_CODE_LIFE_MS;
    const linkedAt = this.newDevices.get(given.player)?.linked_at_ms;
    if (linkedAt !== undefined && linkedAt >= made) {
      return h('div', { class: 'director-device-code', role: 'region', 'aria-label': `A new device for ${given.name}`, 'data-device-code': given.player, 'data-device-code-used': 'true' },
        h('h4', {}, `A new device for ${given.name}`),
        h('p', { class: 'notice' }, `Used at ${timeOfDay(linkedAt)}: ${given.name}'s new device is linked. The code works no more.`),
        close);
    }
    if (given.expired) {
      return h('div', { class: 'director-device-code', role: 'region', 'aria-label': `A new device for ${given.name}`, 'data-device-code': given.player, 'data-device-code-expired': 'true' },
        h('h4', {}, `A new device for ${given.name}`),
        h('p', { class: 'notice' }, `The code expired at ${timeOfDay(given.expires_at_ms)} unused: give a new one if ${given.name} still needs it.`),
        close);
    }
    const qr = h('div', { class: 'link-code-qr', 'aria-hidden': 'true' });
    const svg = svgFrom(given.qr_svg);
    if (svg) qr.append(svg);
    const until = timeOfDay(given.expires_at_ms);
    return h('div', { class: 'director-device-code', role: 'region', 'aria-label': `A new device for ${given.name}`, 'data-device-code': given.player },
      h('h4', {}, `A new device for ${given.name}`),
      h('p', { class: 'link-code', 'data-link-code': given.code }, given.code),
      qr,
      h('p', {}, `On the new device, scan the QR code, or open ${location.host}/link and enter this code. It works once, until ${until}; the new device is then ${given.name} in this tournament only, and goes straight to their table or their sheet during a round, to the tournament's page between rounds.`),
      close);
  }

  /**
   * "Give a new device" where the server says a code can work; else why not, in words,
   * beside the other actions (an account logs in; nothing while the list is being read).
   * @param {string} playerId @param {string} name
   */
  newDeviceButton(playerId, name) {
    const known = this.newDevices.get(playerId);
    if (!known) return null;
    if (!known.may_give) {
      return h('span', { class: 'muted small director-no-device', 'data-no-device-code': playerId }, known.why_not || '');
    }
    return this.button(`device:${playerId}`, {
      'data-device-code-for': playerId, 'aria-label': `Give a new device to ${name}`,
      onclick: () => this.giveDevice(playerId, name),
    }, 'Give a new device');
  }

  /** Reads who may be given a new device, once for each set of players and status. */
  readNewDevices() {
    const snap = this.snap;
    const key = `${snap.status}:${snap.players.map((p) => p.player_id).join(',')}`;
    if (key === this.newDevicesFor) return;
    this.newDevicesFor = key;
    api('GET', `/api/tournaments/${this.store.id}/new-devices`).then((answer) => {
      this.newDevices = new Map(answer.players.map((/** @type {any} */ p) => [p.player_id, p]));
      this.redraw(['players']);
    }).catch((e) => {
      // Read again at the next change; the buttons stay hidden meanwhile.
      this.newDevicesFor = '';
      this.alert('players', `Who may get a new device could not be read: ${errorText(e)}`);
    });
  }

  /**
   * A director's code was used: the player has a new device (`device_linked`).
   * @param {{player_id: string, at_ms: number}} linked
   */
  linked(linked) {
    const known = this.newDevices.get(linked.player_id);
    if (known) known.linked_at_ms = linked.at_ms;
    const given = this.deviceCode;
    if (given && given.player === linked.player_id) announce(`${given.name}'s new device is linked.`);
  }

  /**
   * Redraws the code shown once it expires (server time `now`).
   * @param {number} now
   */
  tick(now) {
    const given = this.deviceCode;
    if (given && !given.expired && now >= given.expires_at_ms) {
      given.expired = true;
      this.redraw(['players']);
    }
  }

  /** @param {string} playerId @param {string} name */
  giveDevice(playerId, name) {
    this.act(`device:${playerId}`, 'players',
      async () => {
        const answer = await api('POST', `/api/tournaments/${this.store.id}/players/${playerId}/link-code`, {});
        this.deviceCode = { player: playerId, name, ...answer };
      },
      () => `A code for ${name}'s new device is shown under the players.`,
      (e) => `No code was made for ${name}: ${errorText(e)}`);
  }

  /** @param {string} playerId @param {string} name */
  withdraw(playerId, name) {
    const round = this.lastRound();
    const paired = round?.status === 'paired' && round.pairings.some((p) => p.first === playerId || p.second === playerId);
    const consequence = paired
      ? ` ${name} is paired in round ${round?.number}, not started: their opponent will win by forfeit when it starts (or edit the pairing first).`
      : ' A game they are playing goes on.';
    if (!window.confirm(`Withdraw ${name} from the tournament? They will not be paired again.${consequence}`)) return;
    this.act(`withdraw:${playerId}`, 'players',
      () => api('POST', `/api/tournaments/${this.store.id}/withdraw`, { player_id: playerId }),
      () => `${name} is withdrawn.`,
      (e) => `Could not withdraw ${name}: ${errorText(e)}`);
  }
}

/**
 * The SVG document the server made (a QR code), as a node of this page: parsed as SVG and
 * imported, never written as HTML (the page's CSP allows no inline script, and nothing of
 * it could run); anything but drawing is left out.
 * @param {string} text
 * @returns {Element | null}
 */
export function svgFrom(text) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  if (root.localName !== 'svg' || doc.getElementsByTagName('parsererror').length) return null;
  for (const el of [...root.querySelectorAll('script, foreignObject, a, use')]) el.remove();
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const attr of [...el.attributes]) {
      if (attr.name.toLowerCase().startsWith('on') || attr.name.toLowerCase().includes('href')) el.removeAttribute(attr.name);
    }
  }
  root.setAttribute('role', 'img');
  return document.importNode(root, true);
}
