// The ten recovery codes, shown once (after making an account, or asking for a new set):
// a list to write down, copy or print, and a step that says they were written down before
// the page moves on. Each code sets a new password once (`Forgot your password?`).

import { h, toast } from '../core/ui.js';

/**
 * The codes' card; `done` runs when the person says they have written them down.
 * @param {string[]} codes @param {() => void} done
 */
export function recoveryCodesCard(codes, done) {
  const list = h('ol', { class: 'recovery-codes', 'data-recovery-codes': true },
    codes.map((code) => h('li', {}, h('code', {}, code))));
  const text = codes.join('\n');
  const copy = h('button', {
    type: 'button', class: 'button secondary', 'data-copy-codes': true,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
        toast('The recovery codes are copied');
      } catch {
        // No clipboard (a page not served over https): select them for the person to copy.
        const range = document.createRange();
        range.selectNodeContents(list);
        const selection = getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
        toast('The codes are selected: copy them');
      }
    },
  }, 'Copy');
  const print = h('button', { type: 'button', class: 'button secondary', 'data-print-codes': true, onclick: () => printCodes() }, 'Print');
  const written = h('input', { type: 'checkbox', id: 'codes-written', 'data-codes-written': true });
  const next = h('button', {
    type: 'button', class: 'button primary', id: 'codes-done', disabled: true, 'data-codes-done': true,
    onclick: () => done(),
  }, 'Continue');
  written.addEventListener('change', () => { next.disabled = !written.checked; });
  const card = h('section', { class: 'card account-card recovery-card', id: 'recovery-codes', 'aria-labelledby': 'recovery-title', tabindex: -1 },
    h('h2', { id: 'recovery-title' }, 'Your recovery codes'),
    h('p', {}, 'Write these down now and keep them somewhere safe: they are shown only this once. '
      + 'If you forget your password, one of them sets a new one (each code works once).'),
    list,
    h('div', { class: 'button-row no-print' }, copy, print),
    h('p', { class: 'check-row no-print' }, written, h('label', { for: 'codes-written' }, 'I have written them down')),
    h('div', { class: 'button-row no-print' }, next));
  return card;
}

/** The browser's print dialog (the page's print styles show only the codes). */
function printCodes() {
  document.body.classList.add('printing-codes');
  window.print();
  document.body.classList.remove('printing-codes');
}
