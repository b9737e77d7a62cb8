/**
 * The prerendered sign-in form's behaviour until React hydrates it (scripts/prerender-sign-in.ts
 * loads this tiny script, without React, before the console's own): the submit button enables
 * when both fields are filled, as in the React form, and a submit made then is held and handed to
 * React's form once it has taken over, so a visitor who signs in quickly loses nothing. It never
 * lets the browser submit the form itself (that would put the password in the address).
 * Standalone on purpose: importing app modules would tie this chunk to the entry's.
 */

/** React keeps a node's props under "__reactProps$…" once it owns the node. */
const ownedByReact = (node: Element) => Object.keys(node).some((key) => key.startsWith('__reactProps'));

/** The rule of form-rules.ts canSubmitLogin (tests/unit/identity/early-sign-in.test.ts keeps them equal). */
export const canSubmit = (username: string, password: string) => username.trim() !== '' && password.trim() !== '';

/** Sent by src/main.tsx just before it hydrates: the form's attributes must then be as rendered. */
export const HYDRATING_EVENT = 'forja:hydrating';

export function enhanceSignInForm(doc: Document, schedule: (callback: () => void) => void = (callback) => requestAnimationFrame(callback)): void {
  const username = doc.querySelector<HTMLInputElement>('[data-testid="login-username"]');
  const password = doc.querySelector<HTMLInputElement>('[data-testid="login-password"]');
  const submit = doc.querySelector<HTMLButtonElement>('[data-testid="login-submit"]');
  const form = submit?.form;
  if (!username || !password || !submit || !form || ownedByReact(form)) return;
  let held = false;
  let hydrating = false;
  const rendered = { disabled: submit.disabled, dataDisabled: submit.getAttribute('data-disabled') };

  // React reports (and does not patch) attributes that differ from the markup it hydrates: the
  // button goes back to what was rendered, and React's state (login-page.tsx) sets it again.
  doc.addEventListener(
    HYDRATING_EVENT,
    () => {
      hydrating = true;
      submit.disabled = rendered.disabled;
      if (rendered.dataDisabled === null) submit.removeAttribute('data-disabled');
      else submit.setAttribute('data-disabled', rendered.dataDisabled);
      submit.removeAttribute('aria-busy');
    },
    { once: true },
  );

  const sync = () => {
    if (ownedByReact(form) || held || hydrating) return;
    const enabled = canSubmit(username.value, password.value);
    submit.disabled = !enabled;
    submit.toggleAttribute('data-disabled', !enabled);
  };
  const handOver = () => {
    // Rendered afresh instead of hydrated (another language or theme): that form is React's already.
    if (!form.isConnected) return;
    if (!ownedByReact(form)) return schedule(handOver);
    // React's form now: its state holds what was typed (login-page.tsx), and its submit signs in.
    // If React did not take it yet, the window listener above holds it again.
    submit.removeAttribute('aria-busy');
    form.requestSubmit();
  };

  // Last in line (window, bubbling): a submit of this form nobody handled (React attached but not
  // yet done hydrating, under load) is never left to the browser, and is held again.
  doc.defaultView?.addEventListener('submit', (event) => {
    if (event.target !== form || event.defaultPrevented) return;
    event.preventDefault();
    if (!held) return;
    schedule(handOver);
  });
  form.addEventListener('input', sync);
  form.addEventListener('submit', (event) => {
    if (ownedByReact(form)) return;
    event.preventDefault();
    if (held || !canSubmit(username.value, password.value)) return;
    held = true;
    if (!hydrating) submit.setAttribute('aria-busy', 'true');
    schedule(handOver);
  });
  // Filled in before this script ran (typed fast, or by a password manager).
  sync();
  // For tests and the bench: from here a submit is taken. On <html>, outside what React hydrates.
  doc.documentElement.setAttribute('data-early-sign-in', 'ready');
}

if (typeof document !== 'undefined') {
  // Loaded async: run as soon as the document is parsed, not after the console's scripts.
  if (document.readyState === 'loading') document.addEventListener('readystatechange', () => enhanceSignInForm(document), { once: true });
  else enhanceSignInForm(document);
}
