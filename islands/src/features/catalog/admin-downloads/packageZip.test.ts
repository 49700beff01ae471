import { describe, expect, it } from 'vitest';
import { fallbackZipName, fileNameOf } from './packageZip';

describe('fileNameOf', () => {
  it('prefers the UTF-8 name of Content-Disposition', () => {
    expect(
      fileNameOf(`attachment; filename="2026-11-23_E2E Aktionsportal.zip"; filename*=UTF-8''2026-11-23_S%C3%BCd%20Aktionsportal.zip`),
    ).toBe('2026-11-23_Süd Aktionsportal.zip');
  });

  it('falls back to the plain name, or null', () => {
    expect(fileNameOf('attachment; filename="Paket.zip"')).toBe('Paket.zip');
    expect(fileNameOf('attachment; filename=Paket.zip')).toBe('Paket.zip');
    expect(fileNameOf('attachment')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});

describe('fallbackZipName', () => {
  it('is the German date and the portal name', () => {
    expect(fallbackZipName('Netzvermarktung', new Date('2026-11-30T23:30:00Z'))).toBe(
      '2026-12-01_Netzvermarktung Aktionsportal.zip',
    );
  });
});
