// The prerendered sign-in form before React hydrates it (src/identity/early-sign-in.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { canSubmit, enhanceSignInForm, HYDRATING_EVENT } from '../../../src/identity/early-sign-in.ts';
import { canSubmitLogin } from '../../../src/identity/form-rules.ts';

let scheduled: (() => void)[] = [];
const schedule = (callback: () => void) => void scheduled.push(callback);
const runScheduled = () => {
  const now = scheduled;
  scheduled = [];
  for (const callback of now) callback();
};

function prerenderedForm() {
  document.body.innerHTML = `<div id="root"><form>
    <input data-testid="login-username"><input type="password" data-testid="login-password">
    <button type="submit" disabled data-disabled="true" data-testid="login-submit">Iniciar sesión</button></form></div>`;
  const form = document.querySelector('form')!;
  const get = (id: string) => document.querySelector<HTMLInputElement>(`[data-testid="${id}"]`)!;
  const type = (id: string, value: string) => {
    get(id).value = value;
    get(id).dispatchEvent(new Event('input', { bubbles: true }));
  };
  /** Fills both fields and submits, as a visitor would: returns the submit event. */
  const fillAndSubmit = () => {
    type('login-username', 'admin');
    type('login-password', 'secret');
    const event = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(event);
    return event;
  };
  return { form, submit: get('login-submit') as unknown as HTMLButtonElement, type, fillAndSubmit };
}

/** What hydration does to a node, as far as the script can see: React's props on it. */
const hydrate = (node: Element) => Object.assign(node, { __reactProps$test: {} });

beforeEach(() => {
  scheduled = [];
});

describe('the sign-in form before hydration', () => {
  it('enables submit exactly when both fields are filled, by the same rule as the React form', () => {
    const { submit, type } = prerenderedForm();
    enhanceSignInForm(document, schedule);
    expect(submit.disabled).toBe(true);
    type('login-username', 'admin');
    expect(submit.disabled).toBe(true);
    type('login-password', '   ');
    expect(submit.disabled).toBe(true);
    type('login-password', 'secret');
    expect(submit.disabled).toBe(false);
    expect(submit.hasAttribute('data-disabled')).toBe(false);
    type('login-username', '');
    expect(submit.disabled).toBe(true);
    for (const [user, pass] of [['', ''], ['a', ''], [' ', 'b'], ['a', 'b'], ['\t', '\n'], [' a ', ' b ']]) expect(canSubmit(user, pass), `${user}/${pass}`).toBe(canSubmitLogin(user, pass));
  });

  it('counts what was filled in before it ran (a password manager)', () => {
    const { submit } = prerenderedForm();
    document.querySelector<HTMLInputElement>('[data-testid="login-username"]')!.value = 'admin';
    document.querySelector<HTMLInputElement>('[data-testid="login-password"]')!.value = 'secret';
    enhanceSignInForm(document, schedule);
    expect(submit.disabled).toBe(false);
  });

  it('never lets the browser submit the form, holds the submit, and hands it to React once hydrated', () => {
    const { form, submit, type, fillAndSubmit } = prerenderedForm();
    const reactSubmits: Event[] = [];
    // Stands in for React's own submit handler (which prevents the browser's submit too).
    document.getElementById('root')!.addEventListener('submit', (event) => {
      if (Object.keys(form).some((key) => key.startsWith('__reactProps'))) {
        event.preventDefault();
        reactSubmits.push(event);
      }
    });
    enhanceSignInForm(document, schedule);
    const early = fillAndSubmit();
    expect(early.defaultPrevented).toBe(true);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    // A second press while held is not queued twice.
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    runScheduled();
    expect(reactSubmits).toHaveLength(0);
    hydrate(form);
    hydrate(submit);
    runScheduled();
    expect(reactSubmits).toHaveLength(1);
    expect(submit.hasAttribute('aria-busy')).toBe(false);
    expect(scheduled).toHaveLength(0);
  });

  it('ignores an empty form submit, and leaves a hydrated form to React', () => {
    const { form, submit, type } = prerenderedForm();
    enhanceSignInForm(document, schedule);
    const empty = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(empty);
    expect(empty.defaultPrevented).toBe(true);
    expect(scheduled).toHaveLength(0);
    hydrate(form);
    type('login-username', 'admin');
    type('login-password', 'secret');
    expect(submit.disabled).toBe(true); // React's to change now, not this script's
    const late = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(late);
    // Not held: React's to handle. Only the last-in-line guard keeps the browser from submitting it.
    expect(scheduled).toHaveLength(0);
    expect(late.defaultPrevented).toBe(true);
  });

  it('puts the button back as rendered when hydration starts, so React finds its own markup', () => {
    const { submit, type, fillAndSubmit } = prerenderedForm();
    enhanceSignInForm(document, schedule);
    expect(document.documentElement.getAttribute('data-early-sign-in')).toBe('ready');
    fillAndSubmit();
    expect(submit.disabled).toBe(false);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    document.dispatchEvent(new Event(HYDRATING_EVENT));
    expect(submit.disabled).toBe(true);
    expect(submit.getAttribute('data-disabled')).toBe('true');
    expect(submit.hasAttribute('aria-busy')).toBe(false);
    // Still held, and handed over once React owns the form.
    type('login-password', 'other');
    expect(submit.disabled).toBe(true);
    expect(scheduled).toHaveLength(1);
  });

  it('holds a handed-over submit again when React did not take it yet, and never lets the browser submit', () => {
    const { form, fillAndSubmit } = prerenderedForm();
    enhanceSignInForm(document, schedule);
    fillAndSubmit();
    hydrate(form);
    const seen: Event[] = [];
    form.addEventListener('submit', (event) => seen.push(event));
    runScheduled(); // requestSubmit: nobody prevents it (React attached but not done)
    expect(seen).toHaveLength(1);
    expect(seen[0].defaultPrevented).toBe(true);
    expect(scheduled).toHaveLength(1);
  });

  it('stops waiting when the form was replaced instead of hydrated', () => {
    const { fillAndSubmit } = prerenderedForm();
    enhanceSignInForm(document, schedule);
    fillAndSubmit();
    document.getElementById('root')!.replaceChildren();
    runScheduled();
    expect(scheduled).toHaveLength(0);
  });
});
