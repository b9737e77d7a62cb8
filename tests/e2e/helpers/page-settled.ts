import type { Page } from 'playwright-core';

/**
 * Waits until the page is still: no request in flight, every image loaded or failed (an `onerror`
 * payload has had its chance to run), no finite animation or transition running (axe measures
 * colours as they are drawn), then two frames painted. A state, not a guessed delay.
 */
export async function pageSettled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => {
    const imagesDone = Array.from(document.images).every((image) => image.complete);
    const still = document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity);
    return imagesDone && still;
  });
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}
