import { describe, expect, it } from 'vitest';
import { typeIcon } from './fileIcon';

describe('typeIcon', () => {
  it('names the icon of each file type, and a plain one for the rest', () => {
    expect(typeIcon('pdf')).toBe('bi-file-earmark-pdf');
    expect(typeIcon('PNG')).toBe('bi-file-earmark-image');
    expect(typeIcon('mov')).toBe('bi-file-earmark-play');
    expect(typeIcon('xlsx')).toBe('bi-file-earmark-excel');
    expect(typeIcon('unbekannt')).toBe('bi-file-earmark');
  });
});
