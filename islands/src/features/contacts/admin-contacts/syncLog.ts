// The sync manager's log (spec §2 "Sync manager modal", §4 "Sync log", §7): the results the
// server streams for GET /api/syncContactsFromBrevo, one JSON object each. The log starts with a
// ready message (on open and on "Leeren") and is emptied when it grows past 4000 entries.
import type { Schemas } from '../../../lib/apiTypes';

/** Spec §9: the sync log keeps at most this many entries. */
export const SYNC_LOG_CAP = 4000;
export const READY_MESSAGE = 'Bereit.';
export const CAP_MESSAGE = `Das Protokoll wurde geleert (mehr als ${SYNC_LOG_CAP} Einträge).`;

/** `result` of a streamed object (SyncEvent of openapi.json); `info` for the manager's own lines. */
export type SyncLogKind = 'info' | Schemas['SyncEvent']['result'] | 'other';

export interface SyncLogEntry {
  id: number;
  kind: SyncLogKind;
  message: string;
  /** When it arrived (shown as HH:MM:SS). */
  at: Date;
}

/** One object of the stream as the server sends it (contract: `result` and a German `message`). */
export interface SyncResult {
  result?: unknown;
  message?: unknown;
  [key: string]: unknown;
}

let nextEntryId = 1;

export function logEntry(kind: SyncLogKind, message: string, at: Date = new Date()): SyncLogEntry {
  return { id: nextEntryId++, kind, message, at };
}

/** The log right after opening the manager or "Leeren". */
export function readyLog(): SyncLogEntry[] {
  return [logEntry('info', READY_MESSAGE)];
}

/**
 * The log with `entries` appended. When that would take it past SYNC_LOG_CAP entries it is
 * emptied first (spec §4): a note saying so, then the new entries (the newest ones if even
 * they are too many).
 */
export function appendToLog(log: readonly SyncLogEntry[], entries: readonly SyncLogEntry[]): SyncLogEntry[] {
  if (entries.length === 0) return log as SyncLogEntry[];
  if (log.length + entries.length <= SYNC_LOG_CAP) return [...log, ...entries];
  return [logEntry('info', CAP_MESSAGE), ...entries.slice(-(SYNC_LOG_CAP - 1))];
}

const KINDS: ReadonlySet<string> = new Set<Schemas['SyncEvent']['result']>([
  'start',
  'page',
  'skipped',
  'done',
  'error',
]);

/** A streamed object as a log line: its message, else (unexpected) the object as text. */
export function entryOf(value: unknown): SyncLogEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return logEntry('other', typeof value === 'string' ? value : JSON.stringify(value));
  }
  const result = (value as SyncResult).result;
  const message = (value as SyncResult).message;
  const kind: SyncLogKind = typeof result === 'string' && KINDS.has(result) ? (result as SyncLogKind) : 'other';
  const text = typeof message === 'string' && message !== '' ? message : JSON.stringify(value);
  return logEntry(kind, text);
}

/**
 * Splits a stream of text into JSON values, chunk by chunk: objects one a line (NDJSON), but
 * also objects written back to back without a newline (`{…}{…}`), and objects cut anywhere by the
 * chunks. Braces inside strings do not count. Text outside objects that is not whitespace (say
 * a proxy's error page) comes out as one string per line.
 */
export class JsonStreamSplitter {
  private buffer = '';
  /** Where scanning resumes inside `buffer`. */
  private scanned = 0;
  /** Start of the current object in `buffer`, or -1 outside one. */
  private start = -1;
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Feeds the next piece of text; answers the values completed by it. */
  push(text: string): unknown[] {
    this.buffer += text;
    const values: unknown[] = [];
    let i = this.scanned;
    while (i < this.buffer.length) {
      const c = this.buffer[i];
      if (this.start < 0) {
        if (c === '{' || c === '[') {
          this.start = i;
          this.depth = 1;
          this.inString = false;
          this.escaped = false;
        } else if (c !== undefined && !/\s/.test(c)) {
          // Stray text: up to the end of its line (wait for the rest of the line).
          const end = this.buffer.indexOf('\n', i);
          if (end < 0) break;
          values.push(this.buffer.slice(i, end).trim());
          i = end;
        }
      } else if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
      } else if (c === '"') {
        this.inString = true;
      } else if (c === '{' || c === '[') {
        this.depth += 1;
      } else if (c === '}' || c === ']') {
        this.depth -= 1;
        if (this.depth === 0) {
          values.push(parseOrText(this.buffer.slice(this.start, i + 1)));
          this.start = -1;
        }
      }
      i += 1;
    }
    // Keep only what is still needed.
    const keepFrom = this.start >= 0 ? this.start : i;
    this.buffer = this.buffer.slice(keepFrom);
    if (this.start >= 0) this.start = 0;
    this.scanned = i - keepFrom;
    return values;
  }

  /** The end of the stream: a last line of stray text, or an object cut off, as text. */
  flush(): unknown[] {
    const rest = this.buffer.trim();
    this.buffer = '';
    this.scanned = 0;
    this.start = -1;
    this.depth = 0;
    return rest === '' ? [] : [parseOrText(rest)];
  }
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Reads a streamed body to its end, calling `onValue` for every JSON value as soon as it is
 * complete (not only at the end). Stops quietly when `signal` aborts; other read failures
 * reject.
 */
export async function readJsonStream(
  body: ReadableStream<Uint8Array>,
  onValue: (value: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const splitter = new JsonStreamSplitter();
  const stop = () => {
    reader.cancel().catch(() => {});
  };
  signal?.addEventListener('abort', stop);
  try {
    for (;;) {
      if (signal?.aborted) return;
      const { done, value } = await reader.read();
      if (signal?.aborted) return;
      if (done) break;
      for (const item of splitter.push(decoder.decode(value, { stream: true }))) onValue(item);
    }
    for (const item of splitter.push(decoder.decode())) onValue(item);
    for (const item of splitter.flush()) onValue(item);
  } catch (error) {
    if (signal?.aborted) return;
    throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
    try {
      reader.releaseLock();
    } catch {
      // Still reading in another call: nothing to release.
    }
  }
}
