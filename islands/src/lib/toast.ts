// The toast store shared by every island of a page (spec §3 "Toast options", §9).
//
// A plain module-level store: all islands come from the one vite entry (src/main.tsx), and an ES
// module is instantiated once per page however many chunks import it, so every island sees the
// same store. The toast container (components/Toasts.tsx) is loaded and appended to
// document.body lazily, once, when the first toast is shown.

export type ToastType = 'success' | 'error' | 'warning' | 'info' | 'default';

/** Default time a toast stays visible (spec §9). */
export const TOAST_TIMEOUT_MS = 5000;
/** At most this many toasts are visible; the oldest make room for new ones (spec §9). */
export const MAX_TOASTS = 20;

export interface ToastInput {
  type?: ToastType;
  /** The main line. */
  message: string;
  /** A second, smaller line, e.g. the server's message and code. */
  detail?: string | null;
  /** Milliseconds until the toast disappears; 0 keeps it until it is closed. */
  timeout?: number;
}

export interface Toast {
  id: number;
  type: ToastType;
  message: string;
  detail: string | null;
  timeout: number;
}

type Listener = () => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

let containerLoading = false;

function emit(): void {
  for (const listener of listeners) listener();
}

function clearTimer(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) {
    clearTimeout(timer);
    timers.delete(id);
  }
}

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

function startTimer(toast: Toast): void {
  clearTimer(toast.id);
  if (toast.timeout > 0) {
    timers.set(
      toast.id,
      setTimeout(() => dismissToast(toast.id), toast.timeout),
    );
  }
}

/**
 * Shows a toast and returns its id. The same message (type, text and detail) already on
 * screen is not stacked again: it stays once and its time starts anew.
 */
export function showToast(input: ToastInput): number {
  const type = input.type ?? 'default';
  const detail = input.detail ?? null;
  const same = toasts.find((t) => t.type === type && t.message === input.message && t.detail === detail);
  if (same) {
    startTimer(same);
    return same.id;
  }
  const toast: Toast = {
    id: nextId++,
    type,
    message: input.message,
    detail,
    timeout: input.timeout ?? TOAST_TIMEOUT_MS,
  };
  let next = [...toasts, toast];
  while (next.length > MAX_TOASTS) {
    const [oldest, ...rest] = next;
    if (oldest) clearTimer(oldest.id);
    next = rest;
  }
  toasts = next;
  startTimer(toast);
  emit();
  ensureContainer();
  return toast.id;
}

export function dismissToast(id: number): void {
  clearTimer(id);
  if (!toasts.some((toast) => toast.id === id)) return;
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

/** Removes every toast (tests, or a page that wants a clean slate). */
export function clearToasts(): void {
  for (const id of timers.keys()) clearTimer(id);
  if (toasts.length === 0) return;
  toasts = [];
  emit();
}

/** The visible toasts, oldest first. The array is replaced (never mutated) on every change. */
export function getToasts(): readonly Toast[] {
  return toasts;
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
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
