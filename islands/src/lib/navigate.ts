/**
 * Sends the browser to another page. One place for it, so tests can replace it
 * (`vi.mock('../lib/navigate')`) instead of navigating their test document.
 */
export function navigateTo(url: string): void {
  window.location.assign(url);
}
