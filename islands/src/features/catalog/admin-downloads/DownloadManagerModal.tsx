// The download manager of the admin list: all files of one package as the server's ZIP
// (spec §4 "Download manager": idle → downloading, each file with its byte progress bar (read
// from the archive's entry headers as they stream) → zip → idle; while
// busy it can be neither closed nor restarted). A package larger than the browser limit is
// left to the browser's own download instead of being held in the page.
import { useEffect, useRef, useState } from 'react';
import { Modal } from '../../../components/Modal';
import { toastReadError } from '../../../lib/apiToasts';
import { packageZipUrl } from '../../../lib/downloads';
import type { Download } from '../../../lib/downloads';
import { formatFileSize } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { fallbackZipName, fetchPackageZip, saveAs } from './packageZip';
import { ZipEntryTracker } from './zipProgress';
import type { EntryProgress } from './zipProgress';

export const NOTHING_SELECTED_MESSAGE = 'Keine Downloads ausgewählt!';
export const DOWNLOADING_MESSAGE = 'Dateien werden heruntergeladen …';
export const ZIP_DONE_MESSAGE = 'Die Dateien wurden in eine ZIP-Datei gepackt.';

type Phase = 'idle' | 'downloading' | 'zip';

export interface DownloadManagerModalProps {
  download: Download;
  productName: string;
  browserZipLimitMb: number;
  onClose: () => void;
}

export function DownloadManagerModal({ download, productName, browserZipLimitMb, onClose }: DownloadManagerModalProps) {
  const [phase, setPhase] = useState<Phase>('idle');
  const [progress, setProgress] = useState({ received: 0, total: 0 });
  /** Per file, in the package's order (the server's ZIP keeps it). */
  const [fileProgress, setFileProgress] = useState<readonly EntryProgress[]>([]);
  const [handedToBrowser, setHandedToBrowser] = useState(false);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const files = download.Uploads;
  const totalSize = files.reduce((sum, file) => sum + file.size, 0);
  const busy = phase !== 'idle';

  async function start() {
    if (busy || files.length === 0) return;
    toast.info(DOWNLOADING_MESSAGE);
    if (totalSize > browserZipLimitMb * 1024 * 1024) {
      saveAs(packageZipUrl(download.id));
      setHandedToBrowser(true);
      return;
    }
    const current = new AbortController();
    controller.current = current;
    setPhase('downloading');
    setProgress({ received: 0, total: totalSize });
    const tracker = new ZipEntryTracker();
    setFileProgress([]);
    try {
      const { chunks, fileName } = await fetchPackageZip(
        download.id,
        (received, total) => setProgress({ received, total }),
        current.signal,
        (chunk) => {
          tracker.feed(chunk);
          setFileProgress(tracker.entries.map((entry) => ({ ...entry })));
        },
      );
      setPhase('zip');
      // Lets the "zip" state show before the archive is assembled and handed over.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const url = URL.createObjectURL(new Blob(chunks, { type: 'application/zip' }));
      saveAs(url, fileName ?? fallbackZipName(productName, new Date()));
      // The browser has taken the file once the click is handled; a minute is ample.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      toast.success(ZIP_DONE_MESSAGE);
    } catch (error) {
      if (!current.signal.aborted) toastReadError(error);
    } finally {
      if (!current.signal.aborted) setPhase('idle');
    }
  }

  const percent = progress.total > 0 ? Math.min(100, Math.round((progress.received / progress.total) * 100)) : 0;

  return (
    <Modal
      title="Download-Manager"
      onClose={onClose}
      closeDisabled={busy}
      testId="download-manager"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Schließen
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void start()}
            disabled={busy || files.length === 0}
            data-testid="start-download"
          >
            {busy ? (
              <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            ) : (
              <i className="bi bi-download me-1" aria-hidden="true" />
            )}
            Alle Dateien herunterladen
          </button>
        </>
      }
    >
      <p className="fw-semibold mb-1">{download.name}</p>
      {files.length === 0 ? (
        <div className="alert alert-warning mb-0" role="alert" data-testid="nothing-selected">
          {NOTHING_SELECTED_MESSAGE}
        </div>
      ) : (
        <>
          <p className="small text-body-secondary">
            {files.length} {files.length === 1 ? 'Datei' : 'Dateien'}, zusammen {formatFileSize(totalSize)}
          </p>
          <ul className="list-group list-group-flush mb-3 ap-manager-files">
            {files.map((file, index) => {
              const entry = phase === 'downloading' ? fileProgress[index] : undefined;
              return (
                <li key={file.id} className="list-group-item px-0" data-testid="manager-file">
                  <div className="d-flex justify-content-between gap-2">
                    <span className="text-break">{file.name}</span>
                    <span className="text-body-secondary text-nowrap">{formatFileSize(file.size)}</span>
                  </div>
                  {phase === 'downloading' && (
                    <FileProgress name={file.name} percent={entryPercent(entry)} />
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
      <div role="status" aria-live="polite" data-testid="manager-status" data-phase={phase}>
        {phase === 'downloading' && (
          <>
            <div
              className="progress mb-1"
              role="progressbar"
              aria-label="Fortschritt des Downloads"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
            >
              <div className="progress-bar" style={{ width: `${percent}%` }} />
            </div>
            <span className="small">
              {formatFileSize(progress.received)} von {formatFileSize(progress.total)} heruntergeladen
            </span>
          </>
        )}
        {phase === 'zip' && (
          <span className="small">
            <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            ZIP-Datei wird gespeichert …
          </span>
        )}
        {phase === 'idle' && handedToBrowser && (
          <span className="small">Der Download läuft im Browser weiter (Fortschritt in der Download-Leiste).</span>
        )}
      </div>
    </Modal>
  );
}

/** How much of a file has arrived: 0 before its header, 100 for an empty file once it has. */
export function entryPercent(entry: EntryProgress | undefined): number {
  if (!entry) return 0;
  if (entry.size <= 0) return 100;
  return Math.min(100, Math.round((entry.received / entry.size) * 100));
}

/** One file's bar while the package downloads; outside the live region (the overall status
 * speaks), so screen readers are not flooded. */
function FileProgress({ name, percent }: { name: string; percent: number }) {
  return (
    <div className="d-flex align-items-center gap-2 mt-1" data-testid="manager-file-progress" data-percent={percent}>
      <div
        className="progress flex-grow-1 ap-file-progress"
        role="progressbar"
        aria-label={`Fortschritt von ${name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="progress-bar" style={{ width: `${percent}%` }} />
      </div>
      <span className="small text-body-secondary text-nowrap">{percent} %</span>
    </div>
  );
}
