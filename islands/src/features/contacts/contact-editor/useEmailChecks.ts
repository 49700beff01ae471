// The server check of new emails (spec §5 "Contact edit", §9): 1000 ms after a row's email
// last changed, GET /api/contacts/email/{email} tells whether another customer uses it.
// Results are kept per email for the page's life; a save can ask for the ones still missing
// (or still under way) at once instead of waiting for the debounce.
import { useCallback, useEffect, useRef, useState } from 'react';
import { findContactByEmail } from './api';
import type { EmailCheck } from './types';

export const EMAIL_CHECK_DELAY_MS = 1000;

type Results = Readonly<Record<string, EmailCheck>>;

export interface EmailChecks {
  results: Results;
  /** (Re)starts the row's debounce for `email` (normalised); null only stops it. */
  schedule: (rowKey: string, email: string | null) => void;
  /** Checks these emails now (those not known yet) and answers all results. */
  checkNow: (emails: readonly string[]) => Promise<Results>;
  /** Forgets every result (the group was saved: emails may have moved). */
  reset: () => void;
}

export function useEmailChecks(delayMs: number = EMAIL_CHECK_DELAY_MS): EmailChecks {
  const [results, setResults] = useState<Results>({});
  // The same results for callbacks, which must not wait for a render.
  const resultsRef = useRef<Results>({});
  const timers = useRef(new Map<string, number>());
  const running = useRef(new Map<string, Promise<EmailCheck>>());
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) window.clearTimeout(timer);
      pending.clear();
      controller.current?.abort();
      controller.current = null;
    };
  }, []);

  const store = useCallback((email: string, check: EmailCheck | null) => {
    const next = { ...resultsRef.current };
    if (check === null) delete next[email];
    else next[email] = check;
    resultsRef.current = next;
    setResults(next);
  }, []);

  const run = useCallback(
    (email: string): Promise<EmailCheck> => {
      const known = resultsRef.current[email];
      if (known && known.state === 'done') return Promise.resolve(known);
      const underWay = running.current.get(email);
      if (underWay) return underWay;
      controller.current ??= new AbortController();
      const signal = controller.current.signal;
      store(email, { state: 'checking' });
      const check: Promise<EmailCheck> = findContactByEmail(email, signal)
        .then(
          (found): EmailCheck => ({ state: 'done', id: found?.id ?? null, customerNumber: found?.customerNumber ?? null }),
          (error: unknown): EmailCheck => {
            // The server checks again when saving; a failed look-up blocks nothing.
            if (!signal.aborted) console.error('[contact-editor] email check failed', error);
            return { state: 'failed' };
          },
        )
        .then((result) => {
          if (running.current.get(email) === check) running.current.delete(email);
          if (!signal.aborted) store(email, result);
          return result;
        });
      running.current.set(email, check);
      return check;
    },
    [store],
  );

  const schedule = useCallback(
    (rowKey: string, email: string | null) => {
      const timer = timers.current.get(rowKey);
      if (timer !== undefined) window.clearTimeout(timer);
      timers.current.delete(rowKey);
      if (email === null) return;
      timers.current.set(
        rowKey,
        window.setTimeout(() => {
          timers.current.delete(rowKey);
          void run(email);
        }, delayMs),
      );
    },
    [delayMs, run],
  );

  const checkNow = useCallback(
    async (emails: readonly string[]): Promise<Results> => {
      await Promise.all([...new Set(emails)].map((email) => run(email)));
      return resultsRef.current;
    },
    [run],
  );

  const reset = useCallback(() => {
    for (const timer of timers.current.values()) window.clearTimeout(timer);
    timers.current.clear();
    controller.current?.abort();
    controller.current = null;
    running.current.clear();
    resultsRef.current = {};
    setResults({});
  }, []);

  return { results, schedule, checkNow, reset };
}
