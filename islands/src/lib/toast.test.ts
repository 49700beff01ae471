import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, dismissToast, getToasts, MAX_TOASTS, showToast, subscribeToasts, toast, TOAST_TIMEOUT_MS } from './toast';

// The store loads the container lazily; these tests only look at the store.
vi.mock('../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  clearToasts();
  vi.useRealTimers();
});

describe('toast store', () => {
  it('adds toasts with defaults and notifies subscribers', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToasts(listener);

    const id = showToast({ message: 'Hallo' });
    toast.success('Erfolgreich angelegt');

    expect(getToasts()).toEqual([
      { id, type: 'default', message: 'Hallo', detail: null, timeout: TOAST_TIMEOUT_MS },
      expect.objectContaining({ type: 'success', message: 'Erfolgreich angelegt' }),
    ]);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    toast.info('x');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('removes a toast after 5000 ms by default', () => {
    toast.error('Fehler', 'Details');
    expect(getToasts()).toHaveLength(1);
    expect(getToasts()[0]?.detail).toBe('Details');

    vi.advanceTimersByTime(TOAST_TIMEOUT_MS - 1);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
  });

  it('honours its own timeout, and 0 means until closed', () => {
    showToast({ message: 'kurz', timeout: 1000 });
    const sticky = showToast({ message: 'bleibt', timeout: 0 });
    vi.advanceTimersByTime(1000);
    expect(getToasts().map((t) => t.message)).toEqual(['bleibt']);
    vi.advanceTimersByTime(60_000);
    expect(getToasts()).toHaveLength(1);
    dismissToast(sticky);
    expect(getToasts()).toHaveLength(0);
  });

  it('keeps at most 20, dropping the oldest', () => {
    for (let i = 1; i <= MAX_TOASTS + 5; i += 1) toast.info(`Nr. ${i}`);
    const shown = getToasts();
    expect(MAX_TOASTS).toBe(20);
    expect(shown).toHaveLength(20);
    expect(shown[0]?.message).toBe('Nr. 6');
    expect(shown.at(-1)?.message).toBe('Nr. 25');
  });

  it('closes a toast by id and ignores unknown ids', () => {
    const listener = vi.fn();
    subscribeToasts(listener);
    const id = toast.warning('Achtung');
    listener.mockClear();
    dismissToast(999);
    expect(listener).not.toHaveBeenCalled();
    dismissToast(id);
    expect(getToasts()).toHaveLength(0);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('does not stack the same message: it stays once and its time starts anew', () => {
    const first = toast.error('Der Name muss mindestens 2 Zeichen lang sein.');
    vi.advanceTimersByTime(4000);
    const again = toast.error('Der Name muss mindestens 2 Zeichen lang sein.');
    toast.error('Der Name muss mindestens 2 Zeichen lang sein.', 'anderes Detail');
    toast.warning('Der Name muss mindestens 2 Zeichen lang sein.');
    expect(again).toBe(first);
    expect(getToasts()).toHaveLength(3);
    vi.advanceTimersByTime(TOAST_TIMEOUT_MS - 1);
    expect(getToasts().map((t) => t.id)).toContain(first);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
  });
});
