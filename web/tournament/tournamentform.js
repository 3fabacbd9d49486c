// The page that creates a tournament (`/t/new`): every setting of `POST /api/tournaments`
// (docs/protocol.md "Tournaments"), each pre-filled with the server's default so that an
// organiser who submits at once gets exactly the documented tournament. The session that
// creates it is the director, so the page asks for a name first.

import { api } from '../core/api.js';
import { ensureSession } from '../core/session.js';
import { h, replace, errorText } from '../core/ui.js';

/**
 * The points table of docs/rules.md#52-points (and the two additions), in the order shown.
 * `only`: the rulesets where that victory exists (the others score every win as `win`).
 * @type {{key: string, label: string, value: number, hint: string, only?: string[]}[]}
 */
export const POINTS = [
  { key: 'win', label: 'Win', value: 1, hint: 'any other win (no move, resignation, abandonment, adjudication; every Oware win)' },
  { key: 'emitwe-ebiri', label: 'Win by emitwe-ebiri', value: 2, hint: 'captured in both end columns in one turn', only: ['omweso', 'mweiso'] },
  { key: 'akakyala', label: 'Win by akakyala', value: 2, hint: 'captured twice before the opponent captured at all (needs the akakyala rule)', only: ['omweso'] },
  { key: 'akawumbi', label: 'Win by akawumbi', value: 6, hint: 'captured in all eight columns in one turn', only: ['omweso'] },
  { key: 'draw', label: 'Draw', value: 0.5, hint: 'each player; also a game adjudicated level' },
  { key: 'loss', label: 'Loss', value: 0, hint: '' },
  { key: 'bye', label: 'Bye', value: 1, hint: 'the player left over when the number is odd' },
  { key: 'annulled', label: 'Annulled, not replayed', value: 0.5, hint: 'each player, when too little of the round was left to replay it' },
  { key: 'forfeit-win', label: 'Forfeit win', value: 1, hint: 'the opponent never came, or withdrew before the round started' },
  { key: 'forfeit-loss', label: 'Forfeit loss', value: 0, hint: '' },
];

/** The systems, with the one line that tells an organiser which to take. */
const SYSTEMS = [
  ['swiss', 'Swiss', 'A fixed number of rounds; each round pairs players on the same score who have not met yet. Good for many players.'],
  ['round-robin', 'Round-robin', 'Everyone plays everyone once; the number of rounds comes from the number of players.'],
  ['double-round-robin', 'Double round-robin', 'Everyone plays everyone twice, the second time with the first move swapped.'],
];


/** @param {HTMLElement} root */
export async function mountNewTournament(root) {
  document.title = 'Omweso — create a tournament';
  root.classList.add('tournament-new');
  const heading = h('h1', { id: 'tform-title' }, 'Create a tournament');
  replace(root, heading);
  // The creator is the director: a session must exist before the form means anything.
  await ensureSession('Choose your name. You will direct this tournament: its players see this name.');

  const form = buildForm();
  root.append(h('p', { class: 'lede tform-lede' },
    'Every setting below already holds the usual value: give the tournament a name and create it, or change what your club plays differently. ',
    'You direct it: you pair and start the rounds, and correct score sheets.'),
  form);
  /** @type {HTMLInputElement | null} */ (form.querySelector('#t-name'))?.focus();
}

/**
 * A labelled field: the label, the control, and an optional hint tied to the control
 * by aria-describedby.
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} control
 * @param {string | HTMLElement} [hint]
 */
function field(id, label, control, hint) {
  const hintId = `${id}-hint`;
  if (hint) control.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field', 'data-field': id },
    h('label', { for: id }, label),
    control,
    hint ? h('p', { class: 'muted small tform-hint', id: hintId }, hint) : null);
}

/**
 * A checkbox with its label beside it.
 * @param {string} id
 * @param {string} label
 * @param {boolean} checked
 * @param {string} [hint]
 */
function checkbox(id, label, checked, hint) {
  const box = h('input', { type: 'checkbox', id, name: id, checked });
  const hintId = `${id}-hint`;
  if (hint) box.setAttribute('aria-describedby', hintId);
  const wrap = h('div', { class: 'field tform-check', 'data-field': id },
    h('div', { class: 'tform-check-row' }, box, h('label', { for: id }, label)),
    hint ? h('p', { class: 'muted small tform-hint', id: hintId }, hint) : null);
  return { box, wrap };
}

/**
 * A number input. `empty`: what leaving it empty means (off), else it is required.
 * @param {string} id
 * @param {number} value
 * @param {{min?: number, max?: number, step?: string, empty?: string}} [opts]
 */
function number(id, value, opts = {}) {
  return h('input', {
    type: 'number', id, name: id, value: String(value), inputmode: 'decimal',
    min: opts.min, max: opts.max, step: opts.step || 'any',
    placeholder: opts.empty || null, class: 'tform-number',
  });
}

function buildForm() {
  const name = h('input', { type: 'text', id: 't-name', name: 't-name', required: true, maxlength: 80, autocomplete: 'off', placeholder: 'e.g. Kampala Open' });
  const federation = h('input', { type: 'text', id: 't-federation', name: 't-federation', maxlength: 3, autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. UGA', class: 'tform-number' });

  const rated = checkbox('t-rated', 'Rated', false,
    'The players are seeded by their rating for this game when round 1 is paired, and every game between two players with an account changes their ratings (corrected sheets too). Off: a casual tournament, seeded in the order players joined.');

  // ---- the game ----
  const ruleset = h('select', { id: 't-ruleset', name: 't-ruleset' },
    h('option', { value: 'omweso', selected: true }, 'Omweso (4×8, Uganda)'),
    h('option', { value: 'mweiso' }, 'Mweiso (4×8, Kagera)'),
    h('option', { value: 'oware' }, 'Oware Abapa (2×6)'));
  const setup = h('select', { id: 't-setup', name: 't-setup' },
    h('option', { value: 'free', selected: true }, 'Free: each player arranges their 32 seeds'),
    h('option', { value: 'outer' }, 'Outer row: 4 seeds in each outer pit'),
    h('option', { value: 'even' }, 'Even: 2 seeds in every pit'));
  const setupField = field('t-setup', 'Start', setup,
    'Omweso only (Mweiso and Oware have one start). Free: the first player arranges, then the second, seeing it; each has 2 minutes, and a player whose time runs out is given the outer row.');

  // ---- the time control: the `tournament` preset's values ----
  const referee = number('t-referee', 3, { min: 0.1, max: 3600, empty: 'off' });
  const moveLimit = number('t-move-limit', 180, { min: 1, max: 86400, empty: 'off' });
  const pace = number('t-sowing-pace', 4, { min: 0.1, max: 1000 });
  const akakyala = checkbox('t-akakyala', 'Akakyala rule', true,
    'Omweso only: a player who captures twice before the opponent has captured at all wins.');
  const abandon = number('t-abandon', 60, { min: 1, max: 86400 });
  const grace = number('t-grace', 60, { min: 1, max: 86400 });

  // ---- the system ----
  const playedAt = h('select', { id: 't-played-at', name: 't-played-at', 'data-played-at-select': true },
    h('option', { value: 'online', selected: true }, 'Online: on this site'),
    h('option', { value: 'board' }, 'Over the board: wooden boards, results from phones'));
  const system = h('select', { id: 't-system', name: 't-system', 'aria-describedby': 't-system-hint' },
    SYSTEMS.map(([value, text]) => h('option', { value, selected: value === 'swiss' }, text)));
  const systemHint = h('ul', { class: 'muted small tform-hint tform-systems', id: 't-system-hint' },
    SYSTEMS.map(([value, text, line]) => h('li', { 'data-system-line': value }, h('strong', {}, `${text}: `), line)));
  const rounds = number('t-rounds', 5, { min: 1, max: 30, step: '1' });
  const roundsField = field('t-rounds', 'Rounds', rounds, 'From 1 to 30.');
  const roundsNote = h('p', { class: 'muted small tform-hint', id: 't-rounds-note', role: 'note' });
  const roundMinutes = number('t-round-minutes', 15, { min: 5, max: 1440 });
  const balance = checkbox('t-balance', 'Balance the first move', true,
    'Nobody moves first (or second) three rounds running, and everyone moves first about as often as second.');

  // ---- the points ----
  const pointInputs = POINTS.map((p) => ({ ...p, input: number(`t-points-${p.key}`, p.value, { min: 0, max: 100 }) }));
  const pointFields = pointInputs.map((p) => ({ ...p, wrap: field(`t-points-${p.key}`, p.label, p.input, p.hint || undefined) }));
  const pointsNote = h('p', { class: 'muted small tform-hint', id: 't-points-note', role: 'note' });

  const error = h('p', { class: 'form-error', role: 'alert', id: 't-error', 'data-form-error': true });
  const submit = h('button', { type: 'submit', class: 'button primary big', id: 'create-tournament' }, 'Create the tournament');

  /** Shows only what applies to the game and the system chosen. */
  const sync = () => {
    const game = ruleset.value;
    const omweso = game === 'omweso';
    setup.disabled = !omweso;
    setupField.hidden = !omweso;
    akakyala.box.disabled = !omweso;
    akakyala.wrap.hidden = !omweso;
    const swiss = system.value === 'swiss';
    rounds.disabled = !swiss;
    roundsField.hidden = !swiss;
    roundsNote.textContent = swiss ? ''
      : system.value === 'round-robin'
        ? 'A round-robin has as many rounds as it takes everyone to meet once: one fewer than the players (as many as the players when their number is odd, each sitting out once). Players may join until round 1 is paired.'
        : 'A double round-robin plays that schedule twice: twice one fewer than the players (twice their number when it is odd). Players may join until round 1 is paired.';
    const hiddenKeys = [];
    for (const p of pointFields) {
      let applies = !p.only || p.only.includes(game);
      if (p.key === 'akakyala' && omweso && !akakyala.box.checked) applies = false;
      p.wrap.hidden = !applies;
      p.input.disabled = !applies;
      if (!applies) hiddenKeys.push(p.label.replace(/^Win by /, ''));
    }
    pointsNote.textContent = game === 'oware'
      ? 'Oware has no emitwe-ebiri, akakyala or akawumbi: every Oware win scores the win value.'
      : game === 'mweiso'
        ? 'Mweiso has no akakyala or akawumbi (Omweso rules): its other wins score the win value.'
        : hiddenKeys.length ? 'With the akakyala rule off no game is won by akakyala.' : '';
  };
  ruleset.addEventListener('change', sync);
  system.addEventListener('change', sync);
  akakyala.box.addEventListener('change', sync);
  sync();

  /**
   * A number from an input; `null` when empty and `allowEmpty`; throws words otherwise.
   * @param {HTMLInputElement} input
   * @param {string} what
   * @param {boolean} [allowEmpty]
   */
  const read = (input, what, allowEmpty = false) => {
    const text = input.value.trim();
    if (!text) {
      if (allowEmpty) return null;
      throw new FormError(`${what}: enter a number.`, input);
    }
    const value = Number(text);
    // A number input whose text is not a number reads as ''; Number() catches the rest.
    if (!Number.isFinite(value)) throw new FormError(`${what}: "${text}" is not a number.`, input);
    return value;
  };

  /** The request body, or a FormError naming the field. */
  const body = () => {
    const nameText = name.value.trim();
    if (!nameText) throw new FormError('Give the tournament a name.', name);
    const fed = federation.value.trim().toUpperCase();
    if (fed && !/^[A-Z]{3}$/.test(fed)) throw new FormError('Federation: three letters, a FIDE code like UGA, or nothing.', federation);
    const game = ruleset.value;
    /** @type {Record<string, number>} */
    const points = {};
    for (const p of pointInputs) {
      if (p.input.disabled) continue;
      points[p.key] = /** @type {number} */ (read(p.input, `Points for ${p.label.toLowerCase()}`));
    }
    return {
      name: nameText,
      ruleset: game,
      setup: game === 'omweso' ? setup.value : 'outer',
      // Named preset: fields left out take the tournament preset's values, not casual's.
      time_control: {
        preset: 'tournament',
        referee_seconds: read(referee, 'Referee count', true),
        move_limit_seconds: read(moveLimit, 'Move limit', true),
        sowing_pace: read(pace, 'Sowing pace'),
        akakyala: game === 'omweso' && akakyala.box.checked,
        abandon_seconds: read(abandon, 'Abandonment'),
        disconnect_grace_seconds: read(grace, 'Disconnect grace'),
      },
      system: system.value,
      ...(system.value === 'swiss' ? { rounds: read(rounds, 'Rounds') } : {}),
      round_minutes: read(roundMinutes, 'Round time limit'),
      balance_first_move: balance.box.checked,
      played_at: playedAt.value,
      points,
      ...(rated.box.checked ? { rated: true } : {}),
      ...(fed ? { federation: fed } : {}),
    };
  };

  const form = h('form', {
    class: 'tform', 'aria-labelledby': 'tform-title', novalidate: true, 'data-new-tournament': true,
    onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      error.textContent = '';
      let request;
      try {
        request = body();
      } catch (e) {
        error.textContent = errorText(e);
        if (e instanceof FormError) e.input.focus();
        return;
      }
      submit.disabled = true;
      submit.textContent = 'Creating…';
      try {
        const created = await api('POST', '/api/tournaments', request);
        location.assign(created.url + location.search);
      } catch (e) {
        // 400 bad_settings says which setting and its bounds, in words.
        error.textContent = `The server refused these settings: ${errorText(e)}`;
        submit.disabled = false;
        submit.textContent = 'Create the tournament';
      }
    },
  },
  h('div', { class: 'tform-grid' },
    h('fieldset', { class: 'card tform-set' },
      h('legend', {}, 'Name and game'),
      field('t-name', 'Tournament name', name, 'Required. Up to 80 characters; players see it on the tournament page.'),
      field('t-ruleset', 'Game', ruleset),
      setupField,
      rated.wrap,
      field('t-federation', 'Federation (optional)', federation, 'The FIDE code the tournament report (TRF) names, like UGA. Empty: it names none.')),
    h('fieldset', { class: 'card tform-set' },
      h('legend', {}, 'Time control'),
      h('p', { class: 'muted small' }, 'The tournament preset: a 3-second referee count, a 3-minute move limit, akakyala on.'),
      field('t-referee', 'Referee count (seconds)', referee, 'A player who has not started their turn in this time may have it stolen. Empty: no referee count.'),
      field('t-move-limit', 'Move limit (seconds)', moveLimit, 'A turn must be completed within this time (decisions and sowing), or the game is annulled. Empty: no limit (a turn is still capped at 20,000 seeds).'),
      field('t-sowing-pace', 'Sowing pace (seeds a second)', pace, 'How fast a hand sows: with the move limit it bounds a turn (180 s × 4 = 720 seeds).'),
      akakyala.wrap,
      field('t-abandon', 'Abandonment (seconds)', abandon, 'After a turn is open to stealing, nobody moving for this long loses the player whose turn it was.'),
      field('t-grace', 'Disconnect grace (seconds)', grace, 'A player away from their game longer than this loses it; one who never came loses by forfeit.')),
    h('fieldset', { class: 'card tform-set' },
      h('legend', {}, 'Rounds'),
      field('t-system', 'System', system),
      systemHint,
      roundsField,
      roundsNote,
      field('t-played-at', 'Played', playedAt, 'Over the board: the games are played on wooden boards in a hall, the players enter each result on their phones. You can change it per round and per table before a round starts.'),
      field('t-round-minutes', 'Round time limit (minutes)', roundMinutes, 'From 5 to 1440 (a round must hold a 3-minute turn and a no-show’s abandonment). When it runs out, unfinished games are adjudicated on the seeds (Oware: on the captures).'),
      balance.wrap),
    h('fieldset', { class: 'card tform-set tform-points' },
      h('legend', {}, 'Points'),
      h('p', { class: 'muted small' }, 'From 0 to 100, up to three decimals. Standings count every score sheet as it stands.'),
      pointsNote,
      h('div', { class: 'tform-points-grid' }, pointFields.map((p) => p.wrap))),
    h('div', { class: 'card tform-set tform-forbidden' },
      h('h3', {}, 'Pairs who must never meet'),
      h('p', { class: 'muted small tform-hint', 'data-forbidden-note': true },
        'Family, club mates: once the players have joined, choose them by name on your director\'s console ("Pairs who must never meet"). The pairing keeps them apart from the next round paired.'))),
  error,
  h('div', { class: 'form-actions tform-actions' }, submit));
  return form;
}

/** A refusal of the form's own, naming the input to fix. */
class FormError extends Error {
  /** @param {string} message @param {HTMLElement} input */
  constructor(message, input) {
    super(message);
    this.input = input;
  }
}
