// The mass double opt-in mail while it runs: polls GET /api/smtp/emails every 2 s until the
// job is done, and stops when the screen goes away.
import { useEffect, useState } from 'react';
import { toastReadError } from '../../../lib/apiToasts';
import { fetchMailJob } from './api';
import type { MailJob } from './types';

export const POLL_INTERVAL_MS = 2000;

export interface MailJobState {
  /** The job to show: a running one, or one that finished while this screen was open. */
  job: MailJob | null;
  /** Whether the job finished while watched here (then its result is shown once). */
  finishedHere: boolean;
  /** Starts watching a job (e.g. the one just started). */
  track: (job: MailJob | null) => void;
  /** Hides the result of a finished job. */
  dismiss: () => void;
}

export function useMailJob(initial: MailJob | null): MailJobState {
  // A job that was done before the page loaded is not news.
  const [job, setJob] = useState<MailJob | null>(() => (initial?.status === 'running' ? initial : null));
  const [finishedHere, setFinishedHere] = useState(false);
  const running = job?.status === 'running';

  useEffect(() => {
    if (!running) return;
    let stopped = false;
    let timer: number | undefined;
    let controller: AbortController | null = null;

    function schedule() {
      timer = window.setTimeout(() => void poll(), POLL_INTERVAL_MS);
    }

    async function poll() {
      controller = new AbortController();
      try {
        const next = await fetchMailJob(controller.signal);
        if (stopped) return;
        if (next === null) {
          setJob(null);
          return;
        }
        if (next.status !== 'running') setFinishedHere(true);
        setJob(next);
        if (next.status === 'running') schedule();
      } catch (error) {
        if (stopped) return;
        toastReadError(error);
        schedule();
      }
    }

    schedule();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      controller?.abort();
    };
  }, [running]);

  return {
    job,
    finishedHere,
    track: (next) => {
      if (next === null) return;
      setFinishedHere(next.status !== 'running');
      setJob(next);
    },
    dismiss: () => {
      setJob(null);
      setFinishedHere(false);
    },
  };
}
