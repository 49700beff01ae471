// The download manager (spec §2, §4): the chosen files as one ZIP with a folder per package.
// Small selections are fetched (a byte progress per file) and packed in the browser with
// jszip; large ones, or when the device lacks memory, are packed by the server and saved by
// the browser's own download (its progress from the exact Content-Length, resumable).
// While busy the modal can neither be closed nor started again.
import { useMemo, useReducer, useRef, useState } from 'react';
import { Modal } from '../../../../components/Modal';
import { formatFileSize } from '../../../../lib/format';
import { toast } from '../../../../lib/toast';
import type { Selection } from '../selection';
import { fileKey, selectedBytes } from '../selection';
import { planEntries, zipName } from '../zipLayout';
import type { ZipEntryPlan } from '../zipLayout';
import { buildZip, eachLimited, fetchWithProgress, saveBlob, startDownload } from './browserZip';
import { IDLE, filePercent, isBusy, managerReducer } from './managerState';
import type { FileProgress } from './managerState';
import { chooseZipRoute, deviceMemory, isOutOfMemory, serverZipUrl } from './zipRoute';
import type { ZipRoute } from './zipRoute';

export interface DownloadManagerProps {
  selection: Selection;
  productName: string;
  browserZipLimitMb: number;
  onDeselect: (key: string) => void;
  onClear: () => void;
  onClose: () => void;
}

export const NO_DOWNLOADS_SELECTED = 'Keine Downloads ausgewählt!';
export const DOWNLOADING = 'Dateien werden heruntergeladen …';
export const ZIPPED = 'Die Dateien wurden in eine ZIP-Datei gepackt.';
/** Files fetched at the same time. */
const PARALLEL_FETCHES = 3;

function serverNotice(route: ZipRoute, limitMb: number): string | null {
  if (route.kind !== 'server') return null;
  const why =
    route.reason === 'memory'
      ? 'Für Ihre Auswahl reicht der Arbeitsspeicher dieses Geräts im Browser nicht aus. '
      : limitMb > 0
        ? `Ihre Auswahl ist größer als ${limitMb} MB. `
        : '';
  return `${why}Das ZIP-Archiv wird vom Server erstellt und direkt von Ihrem Browser gespeichert. Den Fortschritt sehen Sie in der Download-Anzeige Ihres Browsers; ein unterbrochener Download lässt sich dort fortsetzen.`;
}

function ProgressBar({ label, percent, testId }: { label: string; percent: number; testId?: string }) {
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuenow={percent}
      aria-valuemin={0}
      aria-valuemax={100}
      data-testid={testId}
    >
      <div className="progress-bar" style={{ width: `${percent}%` }} />
    </div>
  );
}

function FileRow({ file }: { file: FileProgress }) {
  const percent = filePercent(file);
  return (
    <li className="mb-2" data-testid="manager-file" data-status={file.status}>
      <div className="d-flex justify-content-between small gap-2">
        <span className="text-break">{file.name}</span>
        <span className="text-nowrap">
          {file.status === 'failed' ? (
            <span className="text-danger">Fehlgeschlagen</span>
          ) : (
            `${formatFileSize(file.loaded)}${file.total ? ` / ${formatFileSize(file.total)}` : ''}`
          )}
        </span>
      </div>
      <ProgressBar label={`Fortschritt ${file.name}`} percent={percent} />
    </li>
  );
}

type Notice = { kind: 'warning' | 'info'; text: string };

/** Making the ZIP of the planned entries: in the browser or by the server, with its progress and notice. */
function useZipDownload(entries: readonly ZipEntryPlan[], route: ZipRoute, productName: string, browserZipLimitMb: number) {
  const [state, dispatch] = useReducer(managerReducer, IDLE);
  const [notice, setNotice] = useState<Notice | null>(null);
  const running = useRef(false);
  const busy = isBusy(state);

  function viaServer(plans: readonly ZipEntryPlan[], text: string) {
    startDownload(serverZipUrl(plans), zipName(productName, new Date()));
    setNotice({ kind: 'info', text });
    toast.success(DOWNLOADING);
  }

  async function inBrowser(plans: readonly ZipEntryPlan[]) {
    dispatch({ type: 'start', files: plans.map(({ path, file }) => ({ key: path, name: file.name, size: file.size })) });
    toast.success(DOWNLOADING);
    const fetched: { plan: ZipEntryPlan; data: Uint8Array }[] = [];
    const failed: string[] = [];
    await eachLimited(plans, PARALLEL_FETCHES, async (plan) => {
      try {
        const data = await fetchWithProgress(plan.file.path, (loaded, size) =>
          dispatch({ type: 'progress', key: plan.path, loaded, total: size }),
        );
        fetched.push({ plan, data });
        dispatch({ type: 'fileDone', key: plan.path });
      } catch (error) {
        if (isOutOfMemory(error)) throw error;
        console.warn('[download-manager] file failed', plan.file.name, error);
        failed.push(plan.file.name);
        dispatch({ type: 'fileFailed', key: plan.path });
      }
    });
    if (fetched.length === 0) {
      dispatch({ type: 'finish' });
      toast.error('Keine der ausgewählten Dateien konnte geladen werden.', failed.join(', '));
      setNotice({ kind: 'warning', text: `Nicht geladen: ${failed.join(', ')}` });
      return;
    }
    dispatch({ type: 'zip' });
    // Keep the planned order, whatever order the fetches finished in.
    fetched.sort((a, b) => plans.indexOf(a.plan) - plans.indexOf(b.plan));
    const blob = await buildZip(fetched, (percent) => dispatch({ type: 'zipProgress', percent }));
    saveBlob(blob, zipName(productName, new Date()));
    dispatch({ type: 'finish' });
    toast.success(ZIPPED);
    if (failed.length > 0) {
      toast.warning('Nicht alle Dateien konnten geladen werden.', failed.join(', '));
      setNotice({
        kind: 'warning',
        text: `Das ZIP-Archiv enthält die übrigen Dateien. Nicht geladen: ${failed.join(', ')}`,
      });
    }
  }

  async function start() {
    if (running.current || busy) return;
    if (entries.length === 0) {
      setNotice({ kind: 'warning', text: NO_DOWNLOADS_SELECTED });
      toast.warning(NO_DOWNLOADS_SELECTED);
      return;
    }
    running.current = true;
    setNotice(null);
    const plans = entries;
    try {
      if (route.kind === 'server') {
        viaServer(plans, serverNotice(route, browserZipLimitMb) ?? '');
      } else {
        await inBrowser(plans);
      }
    } catch (error) {
      dispatch({ type: 'finish' });
      if (isOutOfMemory(error)) {
        viaServer(
          plans,
          'Der Arbeitsspeicher des Browsers hat für das ZIP-Archiv nicht gereicht. Es wird stattdessen vom Server erstellt; den Fortschritt sehen Sie in der Download-Anzeige Ihres Browsers.',
        );
      } else {
        console.error('[download-manager]', error);
        toast.error('Das ZIP-Archiv konnte nicht erstellt werden.');
      }
    } finally {
      running.current = false;
    }
  }

  return { state, notice, busy, start };
}

export default function DownloadManager({
  selection,
  productName,
  browserZipLimitMb,
  onDeselect,
  onClear,
  onClose,
}: DownloadManagerProps) {
  const entries = useMemo(() => planEntries(selection.values()), [selection]);
  const total = selectedBytes(selection);
  const route = chooseZipRoute(total, browserZipLimitMb, deviceMemory());
  const { state, notice, busy, start } = useZipDownload(entries, route, productName, browserZipLimitMb);

  const footer = (
    <>
      <button
        type="button"
        className="btn btn-outline-secondary me-auto"
        disabled={busy || entries.length === 0}
        onClick={onClear}
      >
        Auswahl leeren
      </button>
      <button type="button" className="btn btn-outline-secondary" disabled={busy} onClick={onClose}>
        Schließen
      </button>
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy}
        data-testid="manager-start"
        onClick={() => void start()}
      >
        {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
        Als ZIP herunterladen
      </button>
    </>
  );

  return (
    <Modal
      title="Download-Manager"
      onClose={onClose}
      closeDisabled={busy}
      footer={footer}
      size="lg"
      dialogClassName="modal-fullscreen-md-down"
      testId="download-manager"
    >
      <div aria-live="polite">
        {notice && (
          <div className={`alert alert-${notice.kind}`} role="status" data-testid="manager-notice">
            {notice.text}
          </div>
        )}
      </div>
      {state.phase === 'idle' ? (
        entries.length === 0 ? (
          !notice && (
            <p className="mb-0" data-testid="manager-empty">
              {NO_DOWNLOADS_SELECTED} Wählen Sie in der Tabelle die Dateien aus, die Sie herunterladen möchten.
            </p>
          )
        ) : (
          <>
            <p data-testid="manager-summary">
              {entries.length === 1 ? '1 Datei' : `${entries.length} Dateien`}, zusammen {formatFileSize(total)}. Das
              ZIP-Archiv „{zipName(productName, new Date())}“ enthält einen Ordner je Paket.
            </p>
            {route.kind === 'server' && (
              <div className="alert alert-info" data-testid="manager-server-route">
                {serverNotice(route, browserZipLimitMb)}
              </div>
            )}
            <ul className="list-unstyled mb-0 ap-manager-list">
              {entries.map(({ path, file }) => (
                <li key={path} className="d-flex align-items-center gap-2 py-1 border-bottom">
                  <i className="bi bi-file-earmark" aria-hidden="true" />
                  <span className="text-break flex-grow-1">{path}</span>
                  <span className="small text-secondary text-nowrap">{formatFileSize(file.size)}</span>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-secondary"
                    aria-label={`${file.name} aus der Auswahl entfernen`}
                    onClick={() => onDeselect(fileKey(file.downloadId, file.id))}
                  >
                    <i className="bi bi-x-lg" aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          </>
        )
      ) : (
        <>
          <p className="fw-semibold" data-testid="manager-phase">
            {state.phase === 'downloading' ? 'Dateien werden geladen …' : 'ZIP-Archiv wird erstellt …'}
          </p>
          <ul className="list-unstyled">
            {state.files.map((file) => (
              <FileRow key={file.key} file={file} />
            ))}
          </ul>
          {state.phase === 'zip' && (
            <ProgressBar label="Fortschritt ZIP-Archiv" percent={Math.round(state.percent)} testId="zip-progress" />
          )}
        </>
      )}
    </Modal>
  );
}
