// One file of the download form: drag handle, name (or its rename field), size, upload
// progress, tags and the buttons that do without dragging (rename, remove, restore).
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useEffect, useId, useRef } from 'react';
import type { Dispatch } from 'react';
import { TagIcon } from '../../../components/TagIcon';
import type { Tag } from '../../../lib/downloads';
import { typeIcon } from '../../../lib/fileIcon';
import { formatFileSize } from '../../../lib/format';
import type { FileGroup, FormAction, FormFile } from './formState';
import { validateFileName } from './validation';

export interface FileRowProps {
  file: FormFile;
  group: FileGroup;
  tags: Tag[];
  dispatch: Dispatch<FormAction>;
  /** Removes a new file, stopping its upload when it is still under way. */
  onDiscard: (key: string) => void;
}

export function FileRow({ file, group, tags, dispatch, onDiscard }: FileRowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: file.key,
    data: { group },
    attributes: { roleDescription: 'verschiebbare Datei' },
  });
  const uploading = file.uploadId === null;
  const renaming = file.renameDraft !== null;
  // When the rename field closes, the focus goes back to the button that opened it.
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(renaming);
  useEffect(() => {
    if (wasRenaming.current && !renaming) renameButton.current?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);

  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`list-group-item ap-file-row${isDragging ? ' ap-file-row-dragging' : ''}`}
      data-testid="file-row"
      data-group={group}
      data-file-name={file.name}
    >
      <div className="d-flex align-items-start gap-2">
        <button
          ref={setActivatorNodeRef}
          type="button"
          className="btn btn-sm btn-light ap-drag-handle"
          aria-label={`${file.name} verschieben`}
          title="Ziehen zum Sortieren oder Entfernen"
          data-testid="drag-handle"
          {...attributes}
          {...listeners}
        >
          <i className="bi bi-grip-vertical" aria-hidden="true" />
        </button>

        <span className="ap-thumb" aria-hidden="true">
          {file.preview ? (
            <img src={file.preview.url} alt="" loading="lazy" width={file.preview.width} height={file.preview.height} />
          ) : (
            <i className={`bi ${typeIcon(file.ext)} ap-thumb-icon`} />
          )}
        </span>

        <div className="flex-grow-1 ap-min-w-0">
          {renaming ? (
            <RenameField file={file} dispatch={dispatch} />
          ) : (
            <div className={`fw-semibold text-break${group === 'removed' ? ' text-decoration-line-through' : ''}`}>
              {file.name}
            </div>
          )}
          <div className="small text-body-secondary">{formatFileSize(file.size)}</div>
          {uploading && <UploadProgress file={file} />}
          {!uploading && group !== 'removed' && tags.length > 0 && (
            <TagChoices file={file} tags={tags} dispatch={dispatch} />
          )}
        </div>

        <div className="d-flex flex-wrap gap-1 justify-content-end">
          {group !== 'removed' && !renaming && (
            <button
              ref={renameButton}
              type="button"
              className="btn btn-sm btn-outline-secondary"
              onClick={() => dispatch({ type: 'startRename', key: file.key })}
              disabled={uploading}
              aria-label={`${file.name} umbenennen`}
              data-testid="rename-file"
            >
              <i className="bi bi-pencil me-1" aria-hidden="true" />
              Umbenennen
            </button>
          )}
          {group === 'new' && (
            <button
              type="button"
              className="btn btn-sm btn-outline-danger"
              onClick={() => onDiscard(file.key)}
              aria-label={`${file.name} entfernen`}
              data-testid="remove-file"
            >
              <i className="bi bi-x-lg me-1" aria-hidden="true" />
              Entfernen
            </button>
          )}
          {group === 'existing' && (
            <button
              type="button"
              className="btn btn-sm btn-outline-danger"
              onClick={() => dispatch({ type: 'remove', key: file.key })}
              aria-label={`${file.name} entfernen`}
              data-testid="remove-file"
            >
              <i className="bi bi-trash me-1" aria-hidden="true" />
              Entfernen
            </button>
          )}
          {group === 'removed' && (
            <button
              type="button"
              className="btn btn-sm btn-outline-success"
              onClick={() => dispatch({ type: 'restore', key: file.key })}
              aria-label={`${file.name} wiederherstellen`}
              data-testid="restore-file"
            >
              <i className="bi bi-arrow-counterclockwise me-1" aria-hidden="true" />
              Wiederherstellen
            </button>
          )}
        </div>
      </div>
    </li>
  );
}

function UploadProgress({ file }: { file: FormFile }) {
  const percent = file.size > 0 ? Math.round((file.sent / file.size) * 100) : 0;
  return (
    <div className="mt-1">
      <div
        className="progress"
        role="progressbar"
        aria-label={`Upload von ${file.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        data-testid="upload-progress"
      >
        <div className="progress-bar progress-bar-striped progress-bar-animated" style={{ width: `${percent}%` }} />
      </div>
      <div className="small text-body-secondary">
        {formatFileSize(file.sent)} von {formatFileSize(file.size)} hochgeladen
      </div>
    </div>
  );
}

function RenameField({ file, dispatch }: { file: FormFile; dispatch: Dispatch<FormAction> }) {
  const errorId = useId();
  const draft = file.renameDraft ?? '';
  const error = validateFileName(draft);
  return (
    <div className="mb-1">
      <div className="input-group input-group-sm">
        <input
          type="text"
          className={`form-control${error ? ' is-invalid' : ''}`}
          value={draft}
          aria-label={`Neuer Name für ${file.name}`}
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
          // The field appears on the user's request; taking the focus there is expected.
          autoFocus
          onChange={(event) => dispatch({ type: 'editRename', key: file.key, draft: event.target.value })}
          onKeyDown={(event) => {
            // Enter renames instead of submitting the whole form; Escape leaves rename mode.
            if (event.key === 'Enter') {
              event.preventDefault();
              if (!error) dispatch({ type: 'applyRename', key: file.key });
            } else if (event.key === 'Escape') {
              event.preventDefault();
              dispatch({ type: 'cancelRename', key: file.key });
            }
          }}
          data-testid="rename-input"
        />
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => dispatch({ type: 'applyRename', key: file.key })}
          disabled={error !== null}
          data-testid="rename-apply"
        >
          Übernehmen
        </button>
        <button
          type="button"
          className="btn btn-outline-secondary"
          onClick={() => dispatch({ type: 'cancelRename', key: file.key })}
        >
          Abbrechen
        </button>
      </div>
      {error && (
        <div id={errorId} className="small text-danger mt-1">
          {error}
        </div>
      )}
    </div>
  );
}

function TagChoices({ file, tags, dispatch }: { file: FormFile; tags: Tag[]; dispatch: Dispatch<FormAction> }) {
  const baseId = useId();
  return (
    <fieldset className="mt-1">
      <legend className="visually-hidden">Tags für {file.name}</legend>
      {tags.map((tag) => {
        const id = `${baseId}-${tag.id}`;
        return (
          <div key={tag.id} className="form-check form-check-inline small mb-0">
            <input
              id={id}
              type="checkbox"
              className="form-check-input"
              checked={file.tagsIds.includes(tag.id)}
              onChange={() => dispatch({ type: 'toggleTag', key: file.key, tagId: tag.id })}
            />
            <label htmlFor={id} className="form-check-label">
              <TagIcon tag={tag} className="me-1" />
              {tag.name}
            </label>
          </div>
        );
      })}
    </fieldset>
  );
}
