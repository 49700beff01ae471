// The upload area of the download form: files dragged from the desktop (the browser's native
// drag events; dnd-kit cannot receive them) or chosen with the file picker.
import { useEffect, useId, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import type { UploadRequirements } from '../../../lib/downloads';

function carriesFiles(event: { dataTransfer: DataTransfer | null }): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

export interface FileDropZoneProps {
  requirements: UploadRequirements;
  onFiles: (files: File[]) => void;
}

export function FileDropZone({ requirements, onFiles }: FileDropZoneProps) {
  const [over, setOver] = useState(false);
  // dragenter/dragleave fire for every child element; count them to know when the drag left.
  const depth = useRef(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();

  // A file dropped next to the zone would make the browser open it and lose the form.
  useEffect(() => {
    function keep(event: globalThis.DragEvent) {
      if (carriesFiles(event)) event.preventDefault();
    }
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);

  function onDragEnter(event: DragEvent<HTMLDivElement>) {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setOver(true);
  }

  function onDragOver(event: DragEvent<HTMLDivElement>) {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }

  function onDragLeave(event: DragEvent<HTMLDivElement>) {
    if (!carriesFiles(event)) return;
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setOver(false);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    depth.current = 0;
    setOver(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  }

  const accept = requirements.allowedExtArray.map((ext) => `.${ext}`).join(',');

  return (
    <div
      className={`ap-drop-zone rounded-3 p-4 text-center${over ? ' ap-drop-zone-over' : ''}`}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      data-testid="drop-zone"
    >
      <i className="bi bi-cloud-arrow-up fs-2 d-block mb-2" aria-hidden="true" />
      <p className="mb-2">Dateien hierher ziehen oder</p>
      <button
        type="button"
        className="btn btn-outline-primary mb-2"
        onClick={() => inputRef.current?.click()}
        aria-describedby={hintId}
        data-testid="pick-files"
      >
        <i className="bi bi-folder2-open me-1" aria-hidden="true" />
        Dateien auswählen
      </button>
      {/* The button opens it; hidden, so keyboard and screen readers meet the button only. */}
      <input
        ref={inputRef}
        type="file"
        multiple
        accept={accept}
        className="d-none"
        tabIndex={-1}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Cleared, so choosing the same file again fires a change.
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
        data-testid="file-input"
      />
      <p id={hintId} className="small text-body-secondary mb-0" data-testid="upload-requirements">
        Maximale Dateigröße: {requirements.limitSizeMB} MB · Erlaubte Dateitypen:{' '}
        {requirements.allowedExtArray.join(', ')}
      </p>
    </div>
  );
}
