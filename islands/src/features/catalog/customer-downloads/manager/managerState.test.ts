import { describe, expect, it } from 'vitest';
import { IDLE, filePercent, isBusy, managerReducer } from './managerState';
import type { ManagerState } from './managerState';

const files = [
  { key: 'A/a.pdf', name: 'a.pdf', size: 100 },
  { key: 'A/b.pdf', name: 'b.pdf', size: 0 },
];

describe('download manager states', () => {
  it('goes idle → downloading → zip → idle', () => {
    let state: ManagerState = managerReducer(IDLE, { type: 'start', files });
    expect(state.phase).toBe('downloading');
    expect(isBusy(state)).toBe(true);
    state = managerReducer(state, { type: 'progress', key: 'A/a.pdf', loaded: 50, total: 200 });
    const [a, b] = state.phase === 'downloading' ? state.files : [];
    expect(a && filePercent(a)).toBe(25);
    expect(b && filePercent(b)).toBe(0);
    state = managerReducer(state, { type: 'fileDone', key: 'A/a.pdf' });
    state = managerReducer(state, { type: 'fileFailed', key: 'A/b.pdf' });
    state = managerReducer(state, { type: 'zip' });
    expect(state.phase).toBe('zip');
    state = managerReducer(state, { type: 'zipProgress', percent: 40 });
    state = managerReducer(state, { type: 'zipProgress', percent: 30 });
    expect(state.phase === 'zip' && state.percent).toBe(40);
    expect(state.phase === 'zip' && state.files.map((f) => f.status)).toEqual(['done', 'failed']);
    expect(managerReducer(state, { type: 'finish' })).toEqual(IDLE);
  });

  it('cannot be started again while busy, nor with nothing chosen', () => {
    const busy = managerReducer(IDLE, { type: 'start', files });
    expect(managerReducer(busy, { type: 'start', files: [files[0]!] })).toBe(busy);
    expect(managerReducer(IDLE, { type: 'start', files: [] })).toBe(IDLE);
  });

  it('ignores events of another phase', () => {
    expect(managerReducer(IDLE, { type: 'zip' })).toBe(IDLE);
    expect(managerReducer(IDLE, { type: 'progress', key: 'x', loaded: 1, total: 2 })).toBe(IDLE);
  });
});
