// "How to play" (`/howto/omweso`, `/howto/mweiso`, `/howto/oware`): each game in plain
// words for a newcomer - the start, a turn (sowing, relay, capture, reverse pits), how you
// win, the referee's count - with pictures drawn by the game's own board (board/board.js), so
// that what the page shows is what a game looks like. The rules in full: docs/rules.md.

import { Board } from '../board/board.js';
import { cellOf, parsePosition } from '../board/notation.js';
import { h, replace } from '../core/ui.js';
import { RULESET_NAMES } from '../core/words.js';

/** @typedef {import('../board/notation.js').Ruleset} Ruleset */
/**
 * A picture: a position, pits marked (`from`: where the seeds were lifted, `to`: where the
 * last one fell, `taken`: captured, `reverse`: reverse pits, `no`: not allowed) and its
 * caption.
 * @typedef {{position: string, caption: string, from?: string[], to?: string[],
 *   taken?: string[], reverse?: string[], no?: string[]}} Picture
 */
/** @typedef {{heading: string, text: string[], pictures?: Picture[]}} Part */

export const GAMES = /** @type {const} */ (['omweso', 'mweiso', 'oware']);

const OMWESO_START = '4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s';
const MWEISO_START = '2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 s';

/** The referee's count, the same for every game. */
const REFEREE = {
  heading: 'The referee’s count',
  text: [
    'At a tournament table there is a referee’s count: once your opponent’s sowing is over '
    + 'and shown on your screen, you have a few seconds (3 in the tournament setting) to '
    + 'start your turn. Miss it and your opponent may steal the turn: they play it instead, '
    + 'from the same board, and then it is your turn again. Casual games have no count - '
    + 'take your time.',
  ],
};

/** Omweso: the worked example of docs/rules.md (section 1.6). */
const OMWESO = /** @type {Part[]} */ ([
  {
    heading: 'The board and the start',
    text: [
      'Omweso is played on a board of four rows of eight pits. You own the two rows nearest '
      + 'you - 16 pits - and your opponent the other two. You only ever sow in your own pits.',
      'Each player has 32 seeds. In the usual start they sit four to a pit in your outer row; '
      + 'other starts put two in every pit, or let each player arrange their 32 seeds freely.',
    ],
    pictures: [{ position: OMWESO_START, caption: 'The start: four seeds in each outer pit. South (you) owns rows 1 and 2, North rows 3 and 4.' }],
  },
  {
    heading: 'A turn: sowing, relay and capture',
    text: [
      'Pick one of your pits with at least two seeds, lift them all, and drop them one by one '
      + 'into the next pits, anticlockwise round your two rows. A pit with a single seed cannot '
      + 'be played.',
      'Where the last seed falls decides what happens next. If the pit was empty, your turn '
      + 'ends. If it already held seeds, you pick them all up and carry on sowing from there: '
      + 'that is a relay, and a turn can relay many times.',
      'A capture: if the last seed falls in one of your inner pits that already held seeds, '
      + 'and both of your opponent’s pits in the same column hold seeds, you take all of '
      + 'them and sow them on, starting just after the pit where the lap began. Captures are '
      + 'not optional.',
    ],
    pictures: [
      {
        position: '5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s',
        from: ['E1'], to: ['H2'], taken: ['H3', 'H4'],
        caption: 'South sows the 4 seeds of E1: F1, G1, H1, H2. H2 already held seeds, and North’s H3 and H4 both hold seeds: South captures those 6.',
      },
      {
        position: '5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n',
        from: ['E1'], to: ['F2'],
        caption: 'The 6 captured seeds are sown from E1, where the lap began: F1, G1, H1, H2, G2, F2. F2 was empty, so the turn ends.',
      },
    ],
  },
  {
    heading: 'Reverse pits',
    text: [
      'Your two leftmost pits in each of your rows are the reverse pits. From them you may '
      + 'sow clockwise instead - but only when that lap’s last seed makes a capture. When '
      + 'both directions are allowed, the page asks you which way to go.',
    ],
    pictures: [{ position: OMWESO_START, reverse: ['A1', 'B1', 'A2', 'B2'], caption: 'South’s reverse pits: A1, B1, A2 and B2.' }],
  },
  {
    heading: 'How you win',
    text: [
      'You win when your opponent has no pit with two or more seeds left after your turn: '
      + 'they cannot move. You also win at once by capturing in both end columns (A and H) in '
      + 'one turn, or in all eight columns. In tournament games a third way is on (akakyala): '
      + 'capture in two of your turns before your opponent has captured anything.',
      'Omweso has no draws. Very rarely a turn could go on for ever; the game is then '
      + 'annulled and replayed.',
    ],
  },
  REFEREE,
]);

const MWEISO = /** @type {Part[]} */ ([
  {
    heading: 'The board and the start',
    text: [
      'Mweiso, from Kagera in Tanzania, is Omweso’s cousin: the same board of four rows of '
      + 'eight, the same sowing, relay and capture. It starts with two seeds in every pit.',
    ],
    pictures: [{ position: MWEISO_START, reverse: ['A1', 'B2'], caption: 'The start: two seeds in every pit. South’s reverse pits, marked, are only A1 and B2.' }],
  },
  {
    heading: 'The opening: both at once',
    text: [
      'The game opens with both players playing at the same time: each sows one turn from a '
      + 'pit of their outer row, but never from the fourth or fifth pit from their left. '
      + 'The opening turn is always sown anticlockwise.',
      'Captures in the opening count on the board straight away, and whoever finishes their '
      + 'opening turn first moves first afterwards. If the other player’s capture leaves the '
      + 'pit you chose with fewer than two seeds, you choose again.',
    ],
    pictures: [{ position: MWEISO_START, from: ['A1', 'B1', 'C1', 'F1', 'G1', 'H1'], no: ['D1', 'E1'], caption: 'South’s opening: any outer pit except D1 and E1 (crossed).' }],
  },
  {
    heading: 'A turn: sowing, relay and capture',
    text: [
      'After the opening, players take turns. Lift all the seeds of one of your pits with at '
      + 'least two, and sow them anticlockwise round your two rows. If the last seed falls in '
      + 'an empty pit, the turn ends; if the pit held seeds, pick them up and sow on (a relay).',
      'If the last seed falls in one of your inner pits that held seeds and both opposing '
      + 'pits in that column hold seeds, you capture them and sow them on from where the lap '
      + 'began.',
      'At the start of your turn you may sow clockwise from a reverse pit, only if that '
      + 'makes a capture. After a '
      + 'clockwise capture you may sow the seeds clockwise again, sow them anticlockwise, or '
      + 'leave them and sow clockwise from your other reverse pit - the page offers each '
      + 'choice as it comes.',
    ],
  },
  {
    heading: 'How you win',
    text: [
      'The player who cannot move - no pit with two or more seeds - loses. You also win by '
      + 'capturing in both end columns, A and H, in one turn. The opening’s captures decide '
      + 'nothing by themselves: the game can first be won in the turns after it.',
    ],
  },
  REFEREE,
]);

const OWARE = /** @type {Part[]} */ ([
  {
    heading: 'The board and the start',
    text: [
      'Oware (Abapa) is played on two rows of six houses with 48 seeds, four in each house. '
      + 'The row nearest you is yours; your captured seeds go to your store at the side.',
    ],
    pictures: [{ position: '4,4,4,4,4,4/4,4,4,4,4,4 s 0 0', caption: 'The start: four seeds in every house. South owns row 1.' }],
  },
  {
    heading: 'A turn: sowing and capture',
    text: [
      'Lift all the seeds of one of your houses and sow them one by one anticlockwise, into '
      + 'the following houses on both sides of the board. With 12 or more seeds you go all '
      + 'the way round, skipping the house you started from.',
      'If your last seed lands in one of your opponent’s houses and makes it hold 2 or 3 '
      + 'seeds, you capture them - and also the seeds of the houses just before it on their '
      + 'side that hold 2 or 3, until one does not.',
      'You must leave your opponent something to play: if their side is empty, you must '
      + 'sow seeds into it. A move that would take every seed on their side captures nothing.',
    ],
    pictures: [
      {
        position: '4,4,3,3,1,2/4,4,5,0,0,1 s 9 8',
        from: ['C1'], to: ['E2'], taken: ['E2', 'F2'],
        caption: 'South sows the 5 seeds of C1: D1, E1, F1, F2, E2. E2 now holds 2 and F2, just before it, holds 3: South captures both, 5 seeds.',
      },
    ],
  },
  {
    heading: 'How you win',
    text: [
      'Capture more than half the seeds - 25 of 48 - and you win; 24 each is a draw. When a '
      + 'player cannot move, the game ends and each player keeps the seeds on their own side. '
      + 'When a few seeds chase each other round the board and no one can capture any more, '
      + 'either player may propose to stop and share what is left.',
    ],
  },
  REFEREE,
]);

const PARTS = { omweso: OMWESO, mweiso: MWEISO, oware: OWARE };

/**
 * The board of a picture, as an image with its caption (the board's pits are not buttons
 * here: it is hidden from screen readers, whose users get the caption).
 * @param {Ruleset} ruleset @param {Picture} picture
 */
function figure(ruleset, picture) {
  const board = new Board(ruleset);
  board.setPosition(parsePosition(ruleset, picture.position));
  const cells = (/** @type {string[] | undefined} */ names) => (names || []).map((n) => cellOf(ruleset, n)).filter((c) => c >= 0);
  board.mark('pic-from', cells(picture.from));
  board.mark('pic-to', cells(picture.to));
  board.mark('pic-taken', cells(picture.taken));
  board.mark('pic-reverse', cells(picture.reverse));
  board.mark('pic-no', cells(picture.no));
  board.svg.setAttribute('aria-hidden', 'true');
  board.svg.removeAttribute('role');
  board.svg.removeAttribute('aria-label');
  board.svg.classList.add('howto-board');
  return h('figure', { class: 'howto-figure' }, board.svg, h('figcaption', {}, picture.caption));
}

/**
 * Mounts the page for the game named in the path (`/howto/<game>`).
 * @param {HTMLElement} root
 * @param {string} path
 */
export async function mountHowto(root, path) {
  const name = (/^\/howto\/([^/]+)\/?$/.exec(path)?.[1] || 'omweso').toLowerCase();
  root.classList.add('howto');
  const nav = h('nav', { class: 'howto-nav', 'aria-label': 'Games' },
    GAMES.map((g) => h('a', { href: `/howto/${g}`, 'aria-current': g === name ? 'page' : null, class: 'button secondary small' }, RULESET_NAMES[g])));
  if (!(GAMES).includes(/** @type {any} */ (name))) {
    document.title = 'How to play — Omweso';
    replace(root, h('section', { class: 'card' },
      h('h1', {}, 'How to play'),
      h('p', {}, 'There is no guide for that game. Choose one:'), nav,
      h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))));
    return;
  }
  const ruleset = /** @type {Ruleset} */ (name);
  const title = `How to play ${RULESET_NAMES[ruleset]}`;
  document.title = `${title} — Omweso`;
  replace(root,
    h('article', { class: 'howto-page' },
      h('header', { class: 'howto-head' },
        h('h1', {}, title),
        nav,
        h('p', { class: 'lede' }, 'The game in a few minutes, with pictures. Seeds are lifted from a pit and dropped one by one into the next pits: that is sowing, the heart of every mancala game.')),
      PARTS[ruleset].map((part) => h('section', { class: 'card howto-part' },
        h('h2', {}, part.heading),
        part.text.map((t) => h('p', {}, t)),
        (part.pictures || []).map((p) => figure(ruleset, p)))),
      h('p', { class: 'howto-foot' },
        h('a', { class: 'button primary', href: '/' }, 'Play a game'), ' ',
        h('a', { class: 'button secondary', href: '/analysis' }, 'Try moves on the analysis board'))));
}
