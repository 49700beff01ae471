import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, withFiles } from './selection';
import { download, file } from './testData';
import { planEntries, safeSegment, uniqueName, zipName } from './zipLayout';

describe('ZIP layout (the same as the server ZIP)', () => {
  it('is named by the German date and the portal', () => {
    // 23:30 UTC on 30 November is already 1 December in Germany.
    expect(zipName('Netzvermarktung', new Date('2026-11-30T23:30:00Z'))).toBe('2026-12-01_Netzvermarktung Aktionsportal.zip');
    expect(zipName('E2E', new Date('2026-07-01T10:00:00Z'))).toBe('2026-07-01_E2E Aktionsportal.zip');
  });

  it('makes names safe path segments', () => {
    expect(safeSegment('Aktion 1/2\\3')).toBe('Aktion 1_2_3');
    expect(safeSegment('  ..versteckt ')).toBe('versteckt');
    expect(safeSegment('a\u0007b')).toBe('a_b');
    expect(safeSegment('')).toBe('Datei');
    expect(safeSegment('x'.repeat(300))).toHaveLength(200);
  });

  it('numbers clashing names, ignoring case', () => {
    const taken = new Set<string>();
    expect(uniqueName('Flyer.pdf', taken)).toBe('Flyer.pdf');
    expect(uniqueName('flyer.PDF', taken)).toBe('flyer (2).PDF');
    expect(uniqueName('Flyer.pdf', taken)).toBe('Flyer (3).pdf');
    expect(uniqueName('.env', new Set(['.env']))).toBe('.env (2)');
  });

  it('puts each package in its own folder, packages in the order chosen, files in package order', () => {
    const first = download(7, [file(1, 7, 'Flyer.pdf'), file(2, 7, 'Flyer.pdf')], { name: 'Sommer' });
    first.Uploads.forEach((f) => (f.downloadName = 'Sommer'));
    const second = download(3, [file(5, 3, 'Plakat.svg')]);
    second.Uploads.forEach((f) => (f.downloadName = 'sommer'));
    let selection = withFiles(EMPTY_SELECTION, first, [first.Uploads[1]!], true);
    selection = withFiles(selection, second, second.Uploads, true);
    selection = withFiles(selection, first, [first.Uploads[0]!], true);
    expect(planEntries(selection.values()).map((e) => e.path)).toEqual([
      'Sommer/Flyer.pdf',
      'Sommer/Flyer (2).pdf',
      'sommer (2)/Plakat.svg',
    ]);
  });
});
