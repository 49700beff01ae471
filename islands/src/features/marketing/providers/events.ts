// Islands of one page do not share React state; a saved provider is announced on window so
// that, e.g., the admin menu can show the new name without a reload.
import type { Provider } from './types';

export const PROVIDER_SAVED_EVENT = 'ap:provider-saved';

export function announceProviderSaved(provider: Provider): void {
  window.dispatchEvent(new CustomEvent<Provider>(PROVIDER_SAVED_EVENT, { detail: provider }));
}

/** Calls `listener` for every announced provider; returns the unsubscribe function. */
export function onProviderSaved(listener: (provider: Provider) => void): () => void {
  function handle(event: Event) {
    if (event instanceof CustomEvent) listener(event.detail as Provider);
  }
  window.addEventListener(PROVIDER_SAVED_EVENT, handle);
  return () => window.removeEventListener(PROVIDER_SAVED_EVENT, handle);
}
