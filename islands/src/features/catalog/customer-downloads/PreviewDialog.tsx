// The preview dialog (issue 21): a package's file large, with its name and size, a download
// link and the download manager's choice. The arrow keys, the buttons or a swipe move to the
// package's next and previous file. A full-screen sheet on phones.
import { useEffect, useRef } from 'react';
import type { TouchEvent } from 'react';
import { Modal } from '../../../components/Modal';
import type { Download, DownloadFile } from '../../../lib/downloads';
import { typeIcon } from '../../../lib/fileIcon';
import { formatFileSize } from '../../../lib/format';

export interface PreviewDialogProps {
  download: Download;
  /** The file shown: its index among the package's files. */
  index: number;
  onIndex: (index: number) => void;
  /** Whether the shown file is chosen for the download manager. */
  selected: boolean;
  onSelect: (download: Download, files: readonly DownloadFile[], on: boolean) => void;
  onClose: () => void;
}

/** A button to the previous or next file. */
function NavButton({
  label,
  icon,
  disabled,
  onClick,
}: {
  label: string;
  icon: string;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className="btn btn-outline-secondary ap-preview-nav"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
    >
      <i className={`bi ${icon}`} aria-hidden="true" />
    </button>
  );
}

/** How far a finger must move sideways to count as a swipe (CSS px). */
const SWIPE = 50;

export default function PreviewDialog({ download, index, onIndex, selected, onSelect, onClose }: PreviewDialogProps) {
  const files = download.Uploads;
  const file = files[Math.min(Math.max(index, 0), files.length - 1)];
  const count = files.length;
  const touchStart = useRef<number | null>(null);
  const previous = () => onIndex((index - 1 + count) % count);
  const next = () => onIndex((index + 1) % count);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (count < 2) return;
      if (event.key === 'ArrowLeft') {
        event.preventDefault();
        onIndex((index - 1 + count) % count);
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        onIndex((index + 1) % count);
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [index, count, onIndex]);

  if (!file) return null;

  function onTouchStart(event: TouchEvent) {
    touchStart.current = event.touches[0]?.clientX ?? null;
  }

  function onTouchEnd(event: TouchEvent) {
    const start = touchStart.current;
    touchStart.current = null;
    const end = event.changedTouches[0]?.clientX;
    if (start === null || end === undefined || count < 2) return;
    if (end - start > SWIPE) previous();
    else if (start - end > SWIPE) next();
  }

  const large = file.previewLargeUrl;
  // The large preview has the thumbnail's proportions; its size keeps the space while it loads.
  const width = file.previewWidth ? Math.round(file.previewWidth * 3.75) : undefined;
  const height = file.previewHeight && file.previewWidth ? Math.round(file.previewHeight * 3.75) : undefined;

  return (
    <Modal
      title={file.name}
      onClose={onClose}
      size="lg"
      dialogClassName="modal-fullscreen-md-down"
      testId="preview-dialog"
      footer={
        <>
          <button
            type="button"
            className="btn btn-outline-primary"
            data-testid="preview-select"
            aria-pressed={selected}
            onClick={() => onSelect(download, [file], !selected)}
          >
            <i className={`bi ${selected ? 'bi-check2-square' : 'bi-plus-square'}`} aria-hidden="true" />{' '}
            {selected ? 'Im Download-Manager' : 'Zum Download-Manager hinzufügen'}
          </button>
          <a className="btn btn-primary" href={file.path} download={file.name} data-testid="preview-download">
            <i className="bi bi-download" aria-hidden="true" /> Herunterladen
          </a>
        </>
      }
    >
      <div className="ap-preview" onTouchStart={onTouchStart} onTouchEnd={onTouchEnd}>
        {large ? (
          <img
            key={file.id}
            className="ap-preview-image"
            src={large}
            alt={`Vorschau von ${file.name}`}
            width={width}
            height={height}
            data-testid="preview-image"
          />
        ) : (
          <p className="text-center text-secondary my-5">
            <i className={`bi ${typeIcon(file.ext)} display-1 d-block mb-2`} aria-hidden="true" />
            Für diese Datei gibt es keine Vorschau.
          </p>
        )}
      </div>
      <div className="d-flex align-items-center justify-content-between gap-2 mt-3">
        <NavButton label="Vorherige Datei" icon="bi-chevron-left" disabled={count < 2} onClick={previous} />
        <p className="mb-0 text-center" aria-live="polite" data-testid="preview-position">
          Datei {index + 1} von {count} · {formatFileSize(file.size)}
          <span className="visually-hidden">: {file.name}</span>
        </p>
        <NavButton label="Nächste Datei" icon="bi-chevron-right" disabled={count < 2} onClick={next} />
      </div>
    </Modal>
  );
}
