// The name of a list (criterion): create (5–50 characters) or rename (5–100 characters).
import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Modal } from '../../../components/Modal';
import { toast } from '../../../lib/toast';
import { validateListName } from './validation';
import type { ListNameMode } from './validation';

export interface CriterionNameModalProps {
  mode: ListNameMode;
  initialName?: string;
  /** Saves the trimmed name (the parent closes the modal on success and reports failures). */
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}

export function CriterionNameModal({ mode, initialName = '', onSubmit, onClose }: CriterionNameModalProps) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const errorId = useId();
  const isCreate = mode === 'create';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const problem = validateListName(name, mode);
    setError(problem);
    if (problem) {
      toast.error(problem);
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await onSubmit(name.trim());
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title={isCreate ? 'Kriterium anlegen' : 'Kriterium umbenennen'}
      onClose={onClose}
      testId="criterion-modal"
      closeDisabled={busy}
      onSubmit={(event) => void submit(event)}
      formTestId="criterion-form"
      initialFocusRef={inputRef}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Abbrechen
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="criterion-submit">
            {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {isCreate ? 'Anlegen' : 'Speichern'}
          </button>
        </>
      }
    >
      <label htmlFor={inputId} className="form-label">
        Name
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="text"
        className={`form-control${error ? ' is-invalid' : ''}`}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setError(null);
        }}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        data-testid="criterion-name"
      />
      {error && (
        <div id={errorId} className="invalid-feedback">
          {error}
        </div>
      )}
    </Modal>
  );
}
