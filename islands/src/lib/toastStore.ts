// The toast store shared by every island of a page (spec §3 "Toast options", §9): what is
// shown, for how long, and who listens.
//
// A plain module-level store: all islands come from the one vite entry (src/main.tsx), and an ES
// module is instantiated once per page however many chunks import it, so every island sees the
// same store. The container (components/Toasts.tsx) reads it; islands show toasts through
// lib/toast.ts, which also loads the container. Apart from both, so that neither imports the
// other.

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
 * Adds a toast to the store and returns its id. The same message (type, text and detail)
 * already on screen is not stacked again: it stays once and its time starts anew. Islands
 * call `showToast` (lib/toast.ts), which also brings the container.
 */
export function addToast(input: ToastInput): number {
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
