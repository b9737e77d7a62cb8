/**
 * Whether a pointer is pressed on a button right now. A field loses focus on the button's
 * pointerdown, before its click; forms skip the blur's re-validation then, so no error line
 * appears or goes away (moving the button) between press and release (issue 27 item 2).
 */
let pressed: Element | null = null;
let listening = false;

function listen(): void {
  if (listening || typeof document === 'undefined') return;
  listening = true;
  // Capture: seen before any handler can stop it, and before the focused field's blur.
  document.addEventListener('pointerdown', (event) => {
    pressed = event.target instanceof Element ? event.target.closest('button, [role="button"]') : null;
  }, true);
  const release = () => {
    pressed = null;
  };
  document.addEventListener('pointerup', release, true);
  document.addEventListener('pointercancel', release, true);
}

listen();

export function isPointerPressingButton(): boolean {
  return pressed !== null && pressed.isConnected;
}
