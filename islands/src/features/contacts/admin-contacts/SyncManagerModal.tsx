// The sync manager (spec §2 "Sync manager modal", §4 "Sync log", §7; admin only): a warning, a
// console-like log of the results the server streams, "Leeren", the direction (only from Brevo
// into the portal) and the start button. The log shows each result as it arrives. Closing the
// modal while a sync runs stops reading the stream.
import { useEffect, useId, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { Modal } from '../../../components/Modal';
import { isApiError, UNEXPECTED_ERROR_MESSAGE } from '../../../lib/api';
import { errorDetail } from '../../../lib/apiToasts';
import { formatTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { startBrevoSync } from './rawApi';
import { appendToLog, entryOf, logEntry, readJsonStream, readyLog } from './syncLog';
import type { SyncLogEntry } from './syncLog';

export const SYNC_TITLE = 'Sync-Manager';
export const SYNC_WARNING =
  'Die Synchronisierung übernimmt die Kontakte aus dem Marketing-Dienst (Brevo) ins Portal: neue Kontakte werden angelegt, bestehende geändert. Das kann einige Zeit dauern.';
export const REQUESTED_MESSAGE = 'Synchronisierung angefordert …';
export const INTERRUPTED_MESSAGE = 'Die Verbindung wurde unterbrochen, bevor die Synchronisierung fertig war.';
export const FROM_BREVO_LABEL = 'Vom Marketing-Dienst (Brevo) ins Portal';
export const TO_BREVO_LABEL = 'Vom Portal zum Marketing-Dienst';

export interface SyncManagerModalProps {
  onClose: () => void;
  /** A sync finished ("done"): contacts may have changed. */
  onSynced?: () => void;
}

/** "Richtung": only from Brevo into the portal; the other way is shown, disabled. */
function SyncDirectionFieldset({ ids }: { ids: string }) {
  return (
    <fieldset className="mb-3">
      <legend className="fs-6 fw-semibold mb-2">Richtung</legend>
      <div className="form-check">
        <input
          id={`${ids}-from`}
          type="radio"
          className="form-check-input"
          name={`${ids}-direction`}
          value="fromBrevo"
          checked
          readOnly
          data-testid="sync-direction-from"
        />
        <label htmlFor={`${ids}-from`} className="form-check-label">
          {FROM_BREVO_LABEL}
        </label>
      </div>
      <div className="form-check">
        <input
          id={`${ids}-to`}
          type="radio"
          className="form-check-input"
          name={`${ids}-direction`}
          value="toBrevo"
          disabled
          aria-describedby={`${ids}-to-note`}
          data-testid="sync-direction-to"
        />
        <label htmlFor={`${ids}-to`} className="form-check-label">
          {TO_BREVO_LABEL}
        </label>
        <div id={`${ids}-to-note`} className="form-text mt-0">
          Nicht verfügbar: Änderungen im Portal gehen schon beim Speichern an den Marketing-Dienst.
        </div>
      </div>
    </fieldset>
  );
}

interface SyncLogViewProps {
  ids: string;
  log: SyncLogEntry[];
  running: boolean;
  logRef: RefObject<HTMLDivElement | null>;
  onClear: () => void;
}

/** "Protokoll" with "Leeren", and the console-like log. */
function SyncLogView({ ids, log, running, logRef, onClear }: SyncLogViewProps) {
  return (
    <>
      <div className="d-flex align-items-center justify-content-between gap-2 mb-1">
        <h3 className="fs-6 fw-semibold mb-0" id={`${ids}-log-title`}>
          Protokoll
        </h3>
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onClear} data-testid="sync-clear">
          <i className="bi bi-eraser me-1" aria-hidden="true" />
          Leeren
        </button>
      </div>
      <div
        ref={logRef}
        className="ap-sync-log mb-3"
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-labelledby={`${ids}-log-title`}
        aria-busy={running}
        tabIndex={0}
        data-testid="sync-log"
      >
        {log.map((entry) => (
          <div key={entry.id} className={`ap-sync-log-line ap-sync-log-${entry.kind}`} data-testid="sync-log-entry" data-result={entry.kind}>
            <span className="ap-sync-log-time">[{formatTime(entry.at)}]</span> {entry.message}
          </div>
        ))}
      </div>
    </>
  );
}

export function SyncManagerModal({ onClose, onSynced }: SyncManagerModalProps) {
  const [log, setLog] = useState<SyncLogEntry[]>(readyLog);
  const [running, setRunning] = useState(false);
  const ids = useId();
  const logRef = useRef<HTMLDivElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const runRef = useRef<AbortController | null>(null);
  const latestOnSynced = useRef(onSynced);
  useEffect(() => {
    latestOnSynced.current = onSynced;
  });

  // Closing (unmounting) ends the reading, quietly.
  useEffect(
    () => () => {
      runRef.current?.abort();
      runRef.current = null;
    },
    [],
  );

  // Like a console: the newest line stays in view.
  useEffect(() => {
    const element = logRef.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [log]);

  function append(...entries: SyncLogEntry[]) {
    setLog((current) => appendToLog(current, entries));
  }

  async function start() {
    if (runRef.current) return;
    const controller = new AbortController();
    runRef.current = controller;
    // The start button is disabled while the sync runs: the focus moves on to the log (and so
    // stays inside the modal).
    if (document.activeElement === startRef.current) logRef.current?.focus();
    setRunning(true);
    append(logEntry('info', REQUESTED_MESSAGE));
    let finished = false;
    try {
      const body = await startBrevoSync(controller.signal);
      await readJsonStream(
        body,
        (value) => {
          const entry = entryOf(value);
          append(entry);
          if (entry.kind === 'done') {
            finished = true;
            toast.success(entry.message);
            latestOnSynced.current?.();
          } else if (entry.kind === 'error') {
            finished = true;
            toast.error(entry.message);
          }
        },
        controller.signal,
      );
      if (!finished && !controller.signal.aborted) append(logEntry('error', INTERRUPTED_MESSAGE));
    } catch (error) {
      if (controller.signal.aborted) return;
      if (!isApiError(error)) {
        console.error('[sync] reading the stream failed', error);
        append(logEntry('error', INTERRUPTED_MESSAGE));
      } else if (error.status === 401 || error.code === 'not_logged_in' || error.code === 'unauthorized_login') {
        append(logEntry('error', error.message));
      } else if (error.status === 409) {
        // sync_running, marketing_not_connected: the server's own words.
        append(logEntry('error', error.message));
        toast.warning(error.message);
      } else if (error.status === 0) {
        console.error('[sync] network failure', error);
        append(logEntry('error', error.message));
      } else {
        append(logEntry('error', `${UNEXPECTED_ERROR_MESSAGE} ${errorDetail(error)}`));
        toast.error(UNEXPECTED_ERROR_MESSAGE, errorDetail(error));
      }
    } finally {
      if (runRef.current === controller) {
        runRef.current = null;
        setRunning(false);
      }
    }
  }

  function clear() {
    setLog(readyLog());
  }

  return (
    <Modal
      title={SYNC_TITLE}
      onClose={onClose}
      size="lg"
      testId="sync-manager-modal"
      initialFocusRef={startRef}
      footer={
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Schließen
        </button>
      }
    >
      <div className="alert alert-warning d-flex gap-2 align-items-start" data-testid="sync-warning">
        <i className="bi bi-exclamation-triangle-fill fs-5" aria-hidden="true" />
        <p className="mb-0">{SYNC_WARNING}</p>
      </div>

      <SyncDirectionFieldset ids={ids} />

      <SyncLogView ids={ids} log={log} running={running} logRef={logRef} onClear={clear} />

      <button
        ref={startRef}
        type="button"
        className="btn btn-primary"
        onClick={() => void start()}
        disabled={running}
        data-testid="sync-start"
      >
        {running ? (
          <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
        ) : (
          <i className="bi bi-arrow-repeat me-1" aria-hidden="true" />
        )}
        Synchronisierung starten
      </button>
      {running && (
        <span className="ms-2 text-body-secondary small" role="status">
          Synchronisierung läuft … Das Schließen des Fensters beendet nur die Anzeige; die Synchronisierung läuft auf dem
          Server weiter.
        </span>
      )}
    </Modal>
  );
}
