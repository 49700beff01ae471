// The tag form as a modal (issue 25): a name and an icon, picked from the Bootstrap icons the
// server offers or uploaded as a small image (sent as a `data:` URL inside the JSON body).
import { useId, useRef, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { Modal } from '../../../components/Modal';
import { TagIcon } from '../../../components/TagIcon';
import { isApiError } from '../../../lib/api';
import { toastWriteError } from '../../../lib/apiToasts';
import { createTag, updateTag } from './api';
import type { TagView } from './api';
import { IMAGE_TYPES, imageError, nameError, pickedIcon } from './validation';

export interface TagRules {
  iconChoices: readonly string[];
  maxImageBytes: number;
  nameMin: number;
  nameMax: number;
}

export interface TagFormModalProps {
  rules: TagRules;
  /** The tag being changed; none: a new one. */
  tag: TagView | null;
  onClose: () => void;
  onSaved: (tag: TagView) => void;
}

/** Which kind of icon the form holds. */
type IconChoice = { kind: 'pick'; name: string } | { kind: 'image'; src: string } | { kind: 'kept'; icon: string };

function initialIcon(tag: TagView | null, choices: readonly string[]): IconChoice {
  if (!tag) return { kind: 'pick', name: choices[0] ?? 'tag' };
  const picked = pickedIcon(tag.icon, choices);
  if (picked) return { kind: 'pick', name: picked };
  if (tag.icon.startsWith('data:')) return { kind: 'image', src: tag.icon };
  return { kind: 'kept', icon: tag.icon };
}

function iconValue(choice: IconChoice): string {
  if (choice.kind === 'pick') return `bi bi-${choice.name}`;
  if (choice.kind === 'image') return choice.src;
  return choice.icon;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('read'));
    reader.readAsDataURL(file);
  });
}

interface IconFieldsetProps {
  /** Prefix of the fields' ids. */
  ids: string;
  choices: readonly string[];
  maxImageBytes: number;
  icon: IconChoice;
  onPick: (choice: string) => void;
  onImage: (event: ChangeEvent<HTMLInputElement>) => void;
  problem: string | null;
}

/** "Symbol": the offered icons as radio buttons, an own image, the chosen icon and its problem. */
function IconFieldset({ ids, choices, maxImageBytes, icon, onPick, onImage, problem }: IconFieldsetProps) {
  const iconErrorId = `${ids}-icon-error`;
  return (
    <fieldset aria-describedby={problem ? iconErrorId : undefined}>
      <legend className="form-label fs-6">Symbol</legend>
      <div className="d-flex flex-wrap gap-1 mb-2" data-testid="icon-choices">
        {choices.map((choice) => {
          const id = `${ids}-icon-${choice}`;
          return (
            <span key={choice}>
              <input
                type="radio"
                className="btn-check"
                name={`${ids}-icon`}
                id={id}
                checked={icon.kind === 'pick' && icon.name === choice}
                onChange={() => onPick(choice)}
              />
              <label className="btn btn-outline-secondary ap-icon-choice" htmlFor={id} title={choice}>
                <i className={`bi bi-${choice}`} aria-hidden="true" />
                <span className="visually-hidden">{choice}</span>
              </label>
            </span>
          );
        })}
      </div>
      <div className="d-flex align-items-center gap-2 flex-wrap">
        <label htmlFor={`${ids}-image`} className="btn btn-outline-primary mb-0">
          <i className="bi bi-upload me-1" aria-hidden="true" />
          Eigenes Bild hochladen
        </label>
        <input
          id={`${ids}-image`}
          type="file"
          className="visually-hidden"
          accept={IMAGE_TYPES.join(',')}
          onChange={onImage}
          data-testid="tag-image"
        />
        <span className="small text-body-secondary">
          PNG, JPEG, GIF oder WebP, höchstens {Math.floor(maxImageBytes / 1024)} KB
        </span>
      </div>
      <p className="mt-2 mb-0" data-testid="tag-icon-preview">
        Gewählt: <TagIcon tag={{ icon: iconValue(icon) }} className="me-1" />
        {icon.kind === 'pick' ? icon.name : icon.kind === 'image' ? 'eigenes Bild' : 'bisheriges Symbol'}
      </p>
      {problem && (
        <div id={iconErrorId} className="invalid-feedback d-block" role="alert">
          {problem}
        </div>
      )}
    </fieldset>
  );
}

export function TagFormModal({ rules, tag, onClose, onSaved }: TagFormModalProps) {
  const [name, setName] = useState(tag?.name ?? '');
  const [icon, setIcon] = useState<IconChoice>(() => initialIcon(tag, rules.iconChoices));
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const [iconProblem, setIconProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const ids = useId();

  async function onImage(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = imageError(file, rules.maxImageBytes);
    setIconProblem(problem);
    if (problem) return;
    try {
      setIcon({ kind: 'image', src: await readAsDataUrl(file) });
    } catch {
      setIconProblem('Das Bild konnte nicht gelesen werden.');
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const problem = nameError(name, rules.nameMin, rules.nameMax);
    setNameProblem(problem);
    if (problem) {
      nameRef.current?.focus();
      return;
    }
    setSaving(true);
    try {
      const input = { name: name.trim(), icon: iconValue(icon) };
      const saved = tag ? await updateTag(tag.id, input) : await createTag(input);
      onSaved(saved);
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        setNameProblem(error.message);
        nameRef.current?.focus();
      } else if (isApiError(error) && error.status === 400) {
        setIconProblem(error.message);
      } else {
        toastWriteError(error);
      }
    } finally {
      setSaving(false);
    }
  }

  const nameErrorId = `${ids}-name-error`;
  return (
    <Modal
      title={tag ? `Tag „${tag.name}“ bearbeiten` : 'Neuer Tag'}
      onClose={onClose}
      closeDisabled={saving}
      onSubmit={(event) => void onSubmit(event)}
      testId="tag-form-modal"
      formTestId="tag-form"
      initialFocusRef={nameRef}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
            Abbrechen
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving} data-testid="tag-save">
            {saving && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            Speichern
          </button>
        </>
      }
    >
      <div className="mb-3">
        <label htmlFor={`${ids}-name`} className="form-label">
          Name
        </label>
        <input
          ref={nameRef}
          id={`${ids}-name`}
          className={`form-control${nameProblem ? ' is-invalid' : ''}`}
          value={name}
          maxLength={rules.nameMax + 20}
          required
          aria-invalid={nameProblem ? true : undefined}
          aria-describedby={nameProblem ? nameErrorId : undefined}
          onChange={(event) => setName(event.target.value)}
          data-testid="tag-name"
        />
        {nameProblem && (
          <div id={nameErrorId} className="invalid-feedback d-block" role="alert">
            {nameProblem}
          </div>
        )}
      </div>
      <IconFieldset
        ids={ids}
        choices={rules.iconChoices}
        maxImageBytes={rules.maxImageBytes}
        icon={icon}
        onPick={(choice) => {
          setIcon({ kind: 'pick', name: choice });
          setIconProblem(null);
        }}
        onImage={(event) => void onImage(event)}
        problem={iconProblem}
      />
    </Modal>
  );
}
