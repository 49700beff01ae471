// The download manager's states (spec §4): idle → downloading (a byte progress per file) →
// zip (compressing) → idle. Starting again is refused while busy; so is closing (the modal
// reads `isBusy`).

export interface FileProgress {
  key: string;
  name: string;
  /** Bytes received so far. */
  loaded: number;
  /** Bytes expected (Content-Length), or null while unknown. */
  total: number | null;
  status: 'waiting' | 'loading' | 'done' | 'failed';
}

export type ManagerState =
  | { phase: 'idle' }
  | { phase: 'downloading'; files: FileProgress[] }
  | { phase: 'zip'; files: FileProgress[]; percent: number };

export type ManagerAction =
  | { type: 'start'; files: { key: string; name: string; size: number }[] }
  | { type: 'progress'; key: string; loaded: number; total: number | null }
  | { type: 'fileDone'; key: string }
  | { type: 'fileFailed'; key: string }
  | { type: 'zip' }
  | { type: 'zipProgress'; percent: number }
  | { type: 'finish' };

export const IDLE: ManagerState = { phase: 'idle' };

export function isBusy(state: ManagerState): boolean {
  return state.phase !== 'idle';
}

function updateFile(files: FileProgress[], key: string, change: Partial<FileProgress>): FileProgress[] {
  return files.map((file) => (file.key === key ? { ...file, ...change } : file));
}

export function managerReducer(state: ManagerState, action: ManagerAction): ManagerState {
  switch (action.type) {
    case 'start':
      if (isBusy(state) || action.files.length === 0) return state;
      return {
        phase: 'downloading',
        files: action.files.map((file) => ({
          key: file.key,
          name: file.name,
          loaded: 0,
          // The listed size until the answer's Content-Length says otherwise.
          total: file.size > 0 ? file.size : null,
          status: 'waiting',
        })),
      };
    case 'progress':
      if (state.phase !== 'downloading') return state;
      return {
        ...state,
        files: updateFile(state.files, action.key, {
          loaded: action.loaded,
          total: action.total,
          status: 'loading',
        }),
      };
    case 'fileDone':
    case 'fileFailed':
      if (state.phase !== 'downloading') return state;
      return {
        ...state,
        files: updateFile(state.files, action.key, { status: action.type === 'fileDone' ? 'done' : 'failed' }),
      };
    case 'zip':
      if (state.phase !== 'downloading') return state;
      return { phase: 'zip', files: state.files, percent: 0 };
    case 'zipProgress':
      if (state.phase !== 'zip') return state;
      return { ...state, percent: Math.min(100, Math.max(state.percent, action.percent)) };
    case 'finish':
      return IDLE;
  }
}

/** Percent of a file's bytes received (0 while the size is unknown). */
export function filePercent(file: FileProgress): number {
  if (file.status === 'done') return 100;
  if (!file.total) return 0;
  return Math.min(100, Math.round((file.loaded / file.total) * 100));
}
