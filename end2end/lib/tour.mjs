// The guided tour (react-joyride) in the browser tests.

/**
 * Waits until step `index` has settled: its tooltip opaque and the spotlight drawn. Before
 * that joyride may still scroll to the step's element or place the tooltip, and a click on
 * "Weiter" then can be lost (the long scrolls to the list's end and back to the toolbar, steps
 * 18 and 19, under load).
 */
export async function settledStep(page, index, where) {
  await page
    .waitForFunction(
      (i) => {
        const floater = document.querySelector(`[data-joyride-step="${i}"]`)?.closest('[data-testid="floater"]');
        const spot = document.querySelector('[data-testid="spotlight"]')?.getBoundingClientRect();
        return !!floater && getComputedStyle(floater).opacity === '1' && !!spot && spot.width > 0 && spot.height > 0;
      },
      index,
      { timeout: 5000 },
    )
    .catch((error) => {
      throw new Error(`${where}: the step did not settle: ${error.message}`);
    });
}
