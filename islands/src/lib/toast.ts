// Toasts for the islands (spec §3 "Toast options", §9): `toast.success(…)`, and toasts kept for
// the next page. They live in lib/toastStore.ts; the container (components/Toasts.tsx) is
// loaded and appended to document.body lazily, once, when the first toast is shown.

import { MAX_TOASTS, addToast } from './toastStore';
import type { ToastInput } from './toastStore';

export { MAX_TOASTS, TOAST_TIMEOUT_MS, clearToasts, dismissToast, getToasts, subscribeToasts } from './toastStore';
export type { Toast, ToastInput, ToastType } from './toastStore';

let containerLoading = false;

/** Loads and mounts the toast container the first time it is needed (and again if it was removed). */
function ensureContainer(): void {
  if (typeof document === 'undefined' || containerLoading) return;
  containerLoading = true;
  import('../components/Toasts')
    .then((module) => {
      module.mountToastContainer();
    })
    .catch((error: unknown) => {
      console.error('[toast] could not load the toast container', error);
    })
    .finally(() => {
      containerLoading = false;
    });
}

/**
 * Shows a toast and returns its id. The same message (type, text and detail) already on
 * screen is not stacked again: it stays once and its time starts anew.
 */
export function showToast(input: ToastInput): number {
  const id = addToast(input);
  ensureContainer();
  return id;
}

/** Shorthands: `toast.success('Erfolgreich angelegt')`. */
export const toast = {
  success: (message: string, detail?: string | null) => showToast({ type: 'success', message, detail }),
  error: (message: string, detail?: string | null) => showToast({ type: 'error', message, detail }),
  warning: (message: string, detail?: string | null) => showToast({ type: 'warning', message, detail }),
  info: (message: string, detail?: string | null) => showToast({ type: 'info', message, detail }),
  show: (message: string, detail?: string | null) => showToast({ type: 'default', message, detail }),
};

const PENDING_KEY = 'ap:pending-toasts';

/**
 * Shows a toast on the next page instead of this one, for actions that end by navigating
 * (the page change would otherwise swallow it). Kept in sessionStorage for that one load.
 */
export function showAfterNavigation(input: ToastInput): void {
  try {
    const raw = window.sessionStorage.getItem(PENDING_KEY);
    const pending: ToastInput[] = raw ? (JSON.parse(raw) as ToastInput[]) : [];
    pending.push(input);
    window.sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending.slice(-MAX_TOASTS)));
  } catch {
    // Storage unavailable (privacy mode): show it here, however briefly.
    showToast(input);
  }
}

/** Shows (once) the toasts an earlier page left for this one. Called by the islands loader. */
export function showPendingToasts(): void {
  let pending: ToastInput[] = [];
  try {
    const raw = window.sessionStorage.getItem(PENDING_KEY);
    if (!raw) return;
    window.sessionStorage.removeItem(PENDING_KEY);
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed)) pending = parsed as ToastInput[];
  } catch {
    return;
  }
  for (const input of pending) {
    if (input && typeof input.message === 'string') showToast(input);
  }
}
