import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, checkState, fileKey, selectedBytes, withFiles, withPackages } from './selection';
import { download, file } from './testData';

const a = download(1, [file(11, 1, 'a.pdf'), file(12, 1, 'b.pdf')]);
const b = download(2, [file(11, 2, 'a.pdf')]);

describe('selection', () => {
  it('counts a file once per package it is chosen in', () => {
    let selection = withFiles(EMPTY_SELECTION, a, [a.Uploads[0]!], true);
    selection = withFiles(selection, a, [a.Uploads[0]!], true);
    expect(selection.size).toBe(1);
    selection = withFiles(selection, b, b.Uploads, true);
    expect(selection.size).toBe(2);
    expect([...selection.keys()]).toEqual([fileKey(1, 11), fileKey(2, 11)]);
    expect(selectedBytes(selection)).toBe(22_000);
  });

  it('shows none, some or all for a tri-state checkbox', () => {
    const one = withFiles(EMPTY_SELECTION, a, [a.Uploads[1]!], true);
    expect(checkState(EMPTY_SELECTION, a.Uploads)).toBe('none');
    expect(checkState(one, a.Uploads)).toBe('some');
    expect(checkState(withPackages(one, [a], true), a.Uploads)).toBe('all');
    expect(checkState(one, [])).toBe('none');
  });

  it('selects and drops every file of the loaded packages', () => {
    const all = withPackages(EMPTY_SELECTION, [a, b], true);
    expect(all.size).toBe(3);
    expect(all.get(fileKey(1, 12))?.position).toBe(1);
    expect(withPackages(all, [a], false).size).toBe(1);
  });
});
