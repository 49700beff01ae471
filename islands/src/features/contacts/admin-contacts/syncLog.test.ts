import { describe, expect, it } from 'vitest';
import {
  appendToLog,
  CAP_MESSAGE,
  entryOf,
  JsonStreamSplitter,
  logEntry,
  readJsonStream,
  READY_MESSAGE,
  readyLog,
  SYNC_LOG_CAP,
} from './syncLog';

const encoder = new TextEncoder();

/** A body that delivers the given byte chunks one by one. */
function streamOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

describe('JsonStreamSplitter', () => {
  it('reads one object a line (NDJSON)', () => {
    const splitter = new JsonStreamSplitter();
    expect(splitter.push('{"result":"start","message":"a"}\n{"result":"done","message":"b"}\n')).toEqual([
      { result: 'start', message: 'a' },
      { result: 'done', message: 'b' },
    ]);
    expect(splitter.flush()).toEqual([]);
  });

  it('reads objects written back to back without newlines', () => {
    const splitter = new JsonStreamSplitter();
    expect(splitter.push('{"a":1}{"b":2}  {"c":{"d":[1,{"e":3}]}}')).toEqual([{ a: 1 }, { b: 2 }, { c: { d: [1, { e: 3 }] } }]);
  });

  it('waits for the rest of an object cut anywhere by the chunks', () => {
    const splitter = new JsonStreamSplitter();
    const text = '{"result":"page","message":"Seite 1 {von} 2","offset":0}\n{"result":"done","message":"Fertig \\"ok\\""}';
    const values: unknown[] = [];
    for (const char of text) values.push(...splitter.push(char));
    expect(values).toEqual([
      { result: 'page', message: 'Seite 1 {von} 2', offset: 0 },
      { result: 'done', message: 'Fertig "ok"' },
    ]);
  });

  it('is not misled by braces and escaped quotes inside strings', () => {
    const splitter = new JsonStreamSplitter();
    expect(splitter.push('{"message":"}\\\\"}{"message":"\\"{"}')).toEqual([{ message: '}\\' }, { message: '"{' }]);
  });

  it('answers stray text line by line, and what is left at the end', () => {
    const splitter = new JsonStreamSplitter();
    expect(splitter.push('Bad Gateway\n{"a":1}\nkaputt')).toEqual(['Bad Gateway', { a: 1 }]);
    expect(splitter.flush()).toEqual(['kaputt']);
  });

  it('answers an object cut off by the end of the stream as text', () => {
    const splitter = new JsonStreamSplitter();
    expect(splitter.push('{"result":"page","mess')).toEqual([]);
    expect(splitter.flush()).toEqual(['{"result":"page","mess']);
  });
});

describe('readJsonStream', () => {
  it('calls back for each object as soon as it is complete', async () => {
    const seen: unknown[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode('{"result":"start","message":"Los"}\n{"result":"pa'));
        await gate;
        controller.enqueue(encoder.encode('ge","message":"Seite"}{"result":"done","message":"Ende"}'));
        controller.close();
      },
    });
    const reading = readJsonStream(body, (value) => seen.push(value));
    await expect.poll(() => seen.length).toBe(1);
    expect(seen).toEqual([{ result: 'start', message: 'Los' }]);
    release();
    await reading;
    expect(seen.map((v) => (v as { result: string }).result)).toEqual(['start', 'page', 'done']);
  });

  it('decodes characters split between chunks', async () => {
    const bytes = encoder.encode('{"message":"Müller übernommen"}');
    const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of "ü"
    const seen: unknown[] = [];
    await readJsonStream(streamOf([bytes.slice(0, cut), bytes.slice(cut)]), (value) => seen.push(value));
    expect(seen).toEqual([{ message: 'Müller übernommen' }]);
  });

  it('stops quietly when aborted', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('{"result":"start","message":"Los"}\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const seen: unknown[] = [];
    const reading = readJsonStream(body, (value) => seen.push(value), controller.signal);
    await expect.poll(() => seen.length).toBe(1);
    controller.abort();
    await expect(reading).resolves.toBeUndefined();
    expect(cancelled).toBe(true);
  });
});

describe('the sync log', () => {
  it('starts with the ready message', () => {
    expect(readyLog().map((e) => [e.kind, e.message])).toEqual([['info', READY_MESSAGE]]);
  });

  it('appends up to the cap', () => {
    const log = Array.from({ length: SYNC_LOG_CAP - 1 }, (_, i) => logEntry('page', `Zeile ${i}`));
    const full = appendToLog(log, [logEntry('done', 'Fertig')]);
    expect(full).toHaveLength(SYNC_LOG_CAP);
    expect(full.at(-1)?.message).toBe('Fertig');
  });

  it('is emptied when it would exceed 4000 entries, keeping the new one', () => {
    const log = Array.from({ length: SYNC_LOG_CAP }, (_, i) => logEntry('page', `Zeile ${i}`));
    const next = appendToLog(log, [logEntry('skipped', 'Neu')]);
    expect(next.map((e) => e.message)).toEqual([CAP_MESSAGE, 'Neu']);
  });

  it('keeps only the newest of too many new entries', () => {
    const many = Array.from({ length: SYNC_LOG_CAP + 10 }, (_, i) => logEntry('page', `Zeile ${i}`));
    const next = appendToLog([], many);
    expect(next).toHaveLength(SYNC_LOG_CAP);
    expect(next[0]?.message).toBe(CAP_MESSAGE);
    expect(next.at(-1)?.message).toBe(`Zeile ${SYNC_LOG_CAP + 9}`);
  });

  it('turns streamed objects into entries', () => {
    expect(entryOf({ result: 'page', message: 'Seite 1', offset: 0 })).toMatchObject({ kind: 'page', message: 'Seite 1' });
    expect(entryOf({ result: 'error', message: 'Abbruch' })).toMatchObject({ kind: 'error', message: 'Abbruch' });
    expect(entryOf({ result: 'neu' })).toMatchObject({ kind: 'other', message: '{"result":"neu"}' });
    expect(entryOf('Bad Gateway')).toMatchObject({ kind: 'other', message: 'Bad Gateway' });
  });
});
