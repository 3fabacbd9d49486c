// The account pages' forms: a labelled input, the refusal shown next to the form, and a
// submit that says it is busy, puts the server's words (error.message) beside the form and
// moves focus to the field the refusal is about.

import { ApiError } from '../core/api.js';
import { h } from '../core/ui.js';

/**
 * A labelled input in a `.field`.
 * @param {string} id @param {string} label
 * @param {Record<string, string | number | boolean>} attrs the input's (type, autocomplete, ...)
 * @param {string} [hint] said under the label (and read with the input)
 */
export function field(id, label, attrs, hint) {
  const input = h('input', { id, name: id, type: 'text', required: true, ...attrs, 'aria-describedby': hint ? `${id}-hint` : null });
  const wrap = h('div', { class: 'field' },
    h('label', { for: id }, label),
    hint ? h('p', { class: 'field-hint muted small', id: `${id}-hint` }, hint) : null,
    input);
  return { wrap, input };
}

/** A password input (shown as dots; the browser's manager fills or saves it by `autocomplete`). */
export function passwordField(/** @type {string} */ id, /** @type {string} */ label, /** @type {'current-password' | 'new-password'} */ autocomplete, /** @type {string} */ hint = '') {
  return field(id, label, { type: 'password', autocomplete, minlength: autocomplete === 'new-password' ? 8 : 1, maxlength: 128 }, hint || undefined);
}

/**
 * A form whose submission calls `act`: the button is disabled meanwhile, a refusal's message
 * is shown in the form's alert and focus goes to the input `focusFor(code)` names (the
 * first input when it names none).
 * @param {{id: string, label: string, submit: string, fields: HTMLElement[],
 *   act: () => Promise<void>, focusFor?: (code: string) => HTMLInputElement | null | undefined,
 *   intro?: (Node | string)[], danger?: boolean}} spec
 */
export function apiForm(spec) {
  const error = h('p', { class: 'form-error', role: 'alert', id: `${spec.id}-error`, 'data-form-error': spec.id });
  const button = h('button', { type: 'submit', class: `button ${spec.danger ? 'danger' : 'primary'}`, id: `${spec.id}-submit` }, spec.submit);
  const form = h('form', {
    class: 'account-form', id: spec.id, 'aria-label': spec.label, 'aria-describedby': `${spec.id}-error`, novalidate: true,
    onsubmit: async (/** @type {SubmitEvent} */ ev) => {
      ev.preventDefault();
      const empty = [...form.querySelectorAll('input[required]')].find((i) => i instanceof HTMLInputElement && !i.value.trim());
      if (empty instanceof HTMLInputElement) {
        error.textContent = `Please fill in "${form.querySelector(`label[for="${empty.id}"]`)?.textContent || empty.name}".`;
        empty.focus();
        return;
      }
      button.disabled = true;
      form.setAttribute('aria-busy', 'true');
      error.textContent = '';
      try {
        await spec.act();
      } catch (e) {
        error.textContent = e instanceof Error ? e.message : String(e);
        const code = e instanceof ApiError ? e.code : '';
        const target = spec.focusFor?.(code) || form.querySelector('input');
        if (target instanceof HTMLInputElement) {
          target.focus();
          target.select();
        }
      } finally {
        button.disabled = false;
        form.removeAttribute('aria-busy');
      }
    },
  }, ...(spec.intro || []), ...spec.fields, error, h('div', { class: 'button-row' }, button));
  return form;
}

/**
 * A section of the account page with its heading.
 * @param {string} id @param {string} title @param {...(Node | string | null)} children
 */
export function section(id, title, ...children) {
  return h('section', { class: 'card account-card', id, 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title), ...children);
}
