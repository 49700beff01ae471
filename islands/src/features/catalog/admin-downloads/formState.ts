// State of the download form (spec §2 "Download form", §3 "Upload"): the package's fields and
// its files in three groups: new uploads, existing files, and existing files marked for removal.
// A reducer, so every change is one tested transition; the island only dispatches.
import type { Download, DownloadInput, FileInput, ListRef, StoredUpload } from '../../../lib/downloads';
import { berlinDay, berlinEndOfDay, berlinStartOfDay } from '../../../lib/berlinDay';
import { validateFileName } from './validation';

export type FileGroup = 'new' | 'existing' | 'removed';

export interface FormFile {
  /** Stable id for React and drag and drop (it survives the upload finishing). */
  key: string;
  /** The stored upload; null while the file is still uploading. */
  uploadId: number | null;
  name: string;
  ext: string;
  /** Bytes. */
  size: number;
  /** Bytes sent while uploading. */
  sent: number;
  tagsIds: number[];
  /** The rename field's text while the file is in rename mode, else null. */
  renameDraft: string | null;
  /** The thumbnail of a stored file that has one (new uploads get theirs later). */
  preview?: { url: string; width: number; height: number } | null;
}

export type FileGroups = Record<FileGroup, FormFile[]>;

export interface DownloadFormState {
  name: string;
  providerId: number | null;
  /** `YYYY-MM-DD`, a German calendar day. */
  startAt: string;
  endAt: string;
  lists: ListRef[];
  files: FileGroups;
  /** Whether the user changed anything since the form was loaded. */
  dirty: boolean;
}

/** A file the browser started to upload. */
export interface PendingUpload {
  key: string;
  name: string;
  ext: string;
  size: number;
}

export type FormAction =
  /** The form as the server has the package (or empty for a new one). */
  | { type: 'load'; download: Download | null }
  | { type: 'setName'; name: string }
  /** Lists belong to a provider: changing it clears them. */
  | { type: 'setProvider'; providerId: number | null }
  | { type: 'setStartAt'; value: string }
  | { type: 'setEndAt'; value: string }
  | { type: 'setLists'; lists: ListRef[] }
  | { type: 'uploadStarted'; files: PendingUpload[] }
  | { type: 'uploadProgress'; key: string; sent: number }
  /** The stored uploads of one file (an archive is unpacked into several). */
  | { type: 'uploadDone'; key: string; uploads: StoredUpload[] }
  | { type: 'uploadFailed'; key: string }
  /** A new file taken out again, or an existing one marked for removal. */
  | { type: 'remove'; key: string }
  | { type: 'restore'; key: string }
  /** Drag and drop: to `index` of `group` (within a group, or existing ⇄ removed). */
  | { type: 'move'; key: string; group: FileGroup; index: number }
  | { type: 'startRename'; key: string }
  | { type: 'editRename'; key: string; draft: string }
  | { type: 'applyRename'; key: string }
  | { type: 'cancelRename'; key: string }
  | { type: 'toggleTag'; key: string; tagId: number };

function emptyGroups(): FileGroups {
  return { new: [], existing: [], removed: [] };
}

export function initialFormState(download: Download | null): DownloadFormState {
  const files = emptyGroups();
  if (download) {
    files.existing = download.Uploads.map((file) => ({
      key: `u${file.id}`,
      uploadId: file.id,
      name: file.name,
      ext: file.ext,
      size: file.size,
      sent: file.size,
      tagsIds: [...file.tagsIds],
      renameDraft: null,
      preview:
        file.previewUrl && file.previewWidth && file.previewHeight
          ? { url: file.previewUrl, width: file.previewWidth, height: file.previewHeight }
          : null,
    }));
  }
  return {
    name: download?.name ?? '',
    providerId: download?.ProviderId ?? null,
    startAt: berlinDay(download?.startAt),
    endAt: berlinDay(download?.endAt),
    lists: download ? [...download.Lists] : [],
    files,
    dirty: false,
  };
}

/** Where the file is: its group and index, or null. */
export function locateFile(files: FileGroups, key: string): { group: FileGroup; index: number } | null {
  for (const group of ['new', 'existing', 'removed'] as const) {
    const index = files[group].findIndex((file) => file.key === key);
    if (index >= 0) return { group, index };
  }
  return null;
}

/** New uploads stay new; existing files move between the package and "to be removed". */
export function canMove(from: FileGroup, to: FileGroup): boolean {
  return from === to || (from !== 'new' && to !== 'new');
}

export function isUploading(state: DownloadFormState): boolean {
  return state.files.new.some((file) => file.uploadId === null);
}

function updateFile(state: DownloadFormState, key: string, change: (file: FormFile) => FormFile): DownloadFormState {
  const at = locateFile(state.files, key);
  if (!at) return state;
  const group = state.files[at.group].map((file, i) => (i === at.index ? change(file) : file));
  return { ...state, files: { ...state.files, [at.group]: group } };
}

function moveFile(state: DownloadFormState, key: string, to: FileGroup, index: number): DownloadFormState {
  const from = locateFile(state.files, key);
  if (!from || !canMove(from.group, to)) return state;
  const file = state.files[from.group][from.index];
  if (!file) return state;
  const files = { ...state.files, [from.group]: state.files[from.group].filter((f) => f.key !== key) };
  const target = [...files[to]];
  const at = Math.max(0, Math.min(index, target.length));
  // Dropped where it was: nothing changed.
  if (to === from.group && at === from.index) return state;
  // Leaving the package ends a rename that was under way.
  const moved = to === from.group ? file : { ...file, renameDraft: null };
  target.splice(at, 0, moved);
  files[to] = target;
  return { ...state, files, dirty: true };
}

export function formReducer(state: DownloadFormState, action: FormAction): DownloadFormState {
  switch (action.type) {
    case 'load':
      return initialFormState(action.download);
    case 'setName':
      return { ...state, name: action.name, dirty: true };
    case 'setProvider':
      if (action.providerId === state.providerId) return state;
      return { ...state, providerId: action.providerId, lists: [], dirty: true };
    case 'setStartAt':
      return { ...state, startAt: action.value, dirty: true };
    case 'setEndAt':
      return { ...state, endAt: action.value, dirty: true };
    case 'setLists':
      return { ...state, lists: action.lists, dirty: true };
    case 'uploadStarted': {
      const added = action.files.map((file) => ({
        ...file,
        uploadId: null,
        sent: 0,
        tagsIds: [],
        renameDraft: null,
      }));
      return { ...state, files: { ...state.files, new: [...state.files.new, ...added] }, dirty: true };
    }
    case 'uploadProgress':
      return updateFile(state, action.key, (file) => ({ ...file, sent: Math.min(action.sent, file.size) }));
    case 'uploadDone': {
      const index = state.files.new.findIndex((file) => file.key === action.key);
      const file = state.files.new[index];
      if (!file) return state;
      const stored: FormFile[] = action.uploads.map((upload, i) => ({
        // An archive's first file keeps the key (and so its place and focus).
        key: i === 0 ? file.key : `${file.key}-${upload.id}`,
        uploadId: upload.id,
        name: upload.name,
        ext: upload.ext,
        size: upload.size,
        sent: upload.size,
        tagsIds: [...file.tagsIds],
        renameDraft: null,
      }));
      const next = [...state.files.new];
      next.splice(index, 1, ...stored);
      return { ...state, files: { ...state.files, new: next } };
    }
    case 'uploadFailed': {
      if (!state.files.new.some((file) => file.key === action.key)) return state;
      return { ...state, files: { ...state.files, new: state.files.new.filter((file) => file.key !== action.key) } };
    }
    case 'remove': {
      const at = locateFile(state.files, action.key);
      if (at?.group === 'new') {
        return {
          ...state,
          files: { ...state.files, new: state.files.new.filter((file) => file.key !== action.key) },
          dirty: true,
        };
      }
      if (at?.group === 'existing') return moveFile(state, action.key, 'removed', state.files.removed.length);
      return state;
    }
    case 'restore': {
      const at = locateFile(state.files, action.key);
      if (at?.group !== 'removed') return state;
      return moveFile(state, action.key, 'existing', state.files.existing.length);
    }
    case 'move':
      return moveFile(state, action.key, action.group, action.index);
    case 'startRename': {
      const at = locateFile(state.files, action.key);
      if (!at || at.group === 'removed') return state;
      return updateFile(state, action.key, (file) =>
        file.uploadId === null ? file : { ...file, renameDraft: file.name },
      );
    }
    case 'editRename':
      return updateFile(state, action.key, (file) =>
        file.renameDraft === null ? file : { ...file, renameDraft: action.draft },
      );
    case 'applyRename': {
      const at = locateFile(state.files, action.key);
      const file = at ? state.files[at.group][at.index] : undefined;
      if (!file || file.renameDraft === null || validateFileName(file.renameDraft) !== null) return state;
      const name = file.renameDraft.trim();
      return { ...updateFile(state, action.key, (f) => ({ ...f, name, renameDraft: null })), dirty: true };
    }
    case 'cancelRename':
      return updateFile(state, action.key, (file) => ({ ...file, renameDraft: null }));
    case 'toggleTag': {
      const next = updateFile(state, action.key, (file) => ({
        ...file,
        tagsIds: file.tagsIds.includes(action.tagId)
          ? file.tagsIds.filter((id) => id !== action.tagId)
          : [...file.tagsIds, action.tagId],
      }));
      return next === state ? state : { ...next, dirty: true };
    }
  }
}

type StoredFile = FormFile & { uploadId: number };

function stored(files: FormFile[]): StoredFile[] {
  return files.filter((file): file is StoredFile => file.uploadId !== null);
}

function fileInput(file: StoredFile): FileInput {
  return { id: file.uploadId, name: file.name, tagsIds: file.tagsIds };
}

/**
 * The body of `POST /api/download/` (no `original`) or `PUT /api/download/{id}`. A day left
 * as it was keeps the package's exact instant, so saving does not move a start of 08:00 to 00:00;
 * a new day is sent as the instant its Berlin day starts or ends, so the body means the same
 * whatever zone the browser is in.
 */
export function toDownloadInput(state: DownloadFormState, original: Download | null): DownloadInput {
  const listsIds = state.lists.map((list) => list.id);
  const base = {
    name: state.name.trim(),
    startAt:
      original && berlinDay(original.startAt) === state.startAt
        ? original.startAt
        : (berlinStartOfDay(state.startAt) ?? state.startAt),
    endAt:
      original && berlinDay(original.endAt) === state.endAt
        ? original.endAt
        : (berlinEndOfDay(state.endAt) ?? state.endAt),
    ProviderId: state.providerId,
    listsIds,
    uploadsToInsert: stored(state.files.new).map(fileInput),
  };
  if (!original) return base;
  return {
    ...base,
    uncheckedListsIds: original.listsIds.filter((id) => !listsIds.includes(id)),
    Uploads: stored(state.files.existing).map(fileInput),
    uploadsToDelete: stored(state.files.removed).map((file) => file.uploadId),
  };
}
