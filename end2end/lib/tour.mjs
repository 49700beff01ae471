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

/**
 * Clicks "Weiter" on the settled step `index` and waits for step `index + 1`. Joyride may still
 * move the tooltip after it looked settled (the long scroll from the list's end back to the
 * toolbar, under load), so a click can land beside the button, where a user would simply click
 * again: so does this, once, if step `index` is still shown after three seconds.
 */
export async function nextStep(page, index, where) {
  const next = page.locator(`[data-joyride-step="${index + 1}"]`);
  await page.getByTestId('button-primary').click();
  try {
    await next.waitFor({ timeout: 3000 });
    return;
  } catch {
    // Still on step `index`? Then the click was lost; anything else is a failure below.
  }
  if ((await page.locator(`[data-joyride-step="${index}"]`).count()) > 0) {
    await settledStep(page, index, where);
    await page.getByTestId('button-primary').click();
  }
  await next.waitFor({ timeout: 12000 }).catch((error) => {
    throw new Error(`${where}: step ${index + 2} did not follow: ${error.message}`);
  });
}
