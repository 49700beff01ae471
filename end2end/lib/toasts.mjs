// The islands' toasts as a user meets them.

/**
 * Waits for a toast of that type (`success`, `error`, `warning`, …) and exact message, then
 * closes it: toasts sit on top of the controls for 5 s. It may have closed on its own already.
 */
export async function expectToast(page, type, message) {
  const toast = page
    .locator(`[data-testid="toast"][data-toast-type="${type}"]`)
    .filter({ has: page.getByTestId('toast-message').getByText(message, { exact: true }) })
    .first();
  await toast.waitFor({ timeout: 10_000 });
  await toast.getByRole('button', { name: 'Schließen' }).click({ timeout: 2_000 }).catch(() => {});
  await toast.waitFor({ state: 'detached' });
}
