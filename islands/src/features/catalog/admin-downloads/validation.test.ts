import { describe, expect, it } from 'vitest';
import {
  checkFile,
  END_BEFORE_START,
  END_REQUIRED,
  extensionOf,
  LISTS_REQUIRED,
  PROVIDER_REQUIRED,
  START_REQUIRED,
  UPLOADS_PENDING,
  validateDownloadName,
  validateFileName,
  validatePackage,
} from './validation';
import type { PackageValues } from './validation';

const valid: PackageValues = {
  name: 'Sommeraktion',
  providerId: 2,
  startAt: '2026-06-01',
  endAt: '2026-06-30',
  listCount: 1,
  uploading: false,
};

describe('validateDownloadName', () => {
  it('takes 5 to 100 characters, counted after trimming', () => {
    expect(validateDownloadName('Flyer')).toBeNull();
    expect(validateDownloadName('ä'.repeat(100))).toBeNull();
    expect(validateDownloadName('  Test  ')).toBe('Die Bezeichnung muss mindestens 5 Zeichen lang sein.');
    expect(validateDownloadName('')).toBe('Die Bezeichnung muss mindestens 5 Zeichen lang sein.');
    expect(validateDownloadName('x'.repeat(101))).toBe('Die Bezeichnung darf höchstens 100 Zeichen lang sein.');
  });
});

describe('validateFileName', () => {
  it('takes 5 to 255 characters without a path', () => {
    expect(validateFileName('Flyer.pdf')).toBeNull();
    expect(validateFileName('x'.repeat(255))).toBeNull();
    expect(validateFileName('a.ai')).toBe('Der Dateiname muss mindestens 5 Zeichen lang sein.');
    expect(validateFileName('x'.repeat(256))).toBe('Der Dateiname darf höchstens 255 Zeichen lang sein.');
    expect(validateFileName('../etc/passwd')).toBe('Der Dateiname darf keine Schrägstriche enthalten.');
    expect(validateFileName('.htaccess')).toBe('Der Dateiname darf nicht mit einem Punkt beginnen.');
  });
});

describe('validatePackage', () => {
  it('accepts a complete package', () => {
    expect(validatePackage(valid)).toBeNull();
  });

  it('names the first problem in the order of the fields', () => {
    expect(validatePackage({ ...valid, name: 'Kurz', providerId: null })).toBe(
      'Die Bezeichnung muss mindestens 5 Zeichen lang sein.',
    );
    expect(validatePackage({ ...valid, providerId: null, listCount: 0 })).toBe(PROVIDER_REQUIRED);
    expect(validatePackage({ ...valid, startAt: '' })).toBe(START_REQUIRED);
    expect(validatePackage({ ...valid, startAt: '2026-02-30' })).toBe(START_REQUIRED);
    expect(validatePackage({ ...valid, endAt: '' })).toBe(END_REQUIRED);
    expect(validatePackage({ ...valid, endAt: '2026-05-31' })).toBe(END_BEFORE_START);
    expect(validatePackage({ ...valid, endAt: '2026-06-01' })).toBeNull();
    expect(validatePackage({ ...valid, listCount: 0 })).toBe(LISTS_REQUIRED);
    expect(LISTS_REQUIRED).toBe('Es muss mindestens ein Kriterium hinterlegt werden');
    expect(validatePackage({ ...valid, uploading: true })).toBe(UPLOADS_PENDING);
  });
});

describe('checkFile', () => {
  const requirements = { limitSizeMB: 2, allowedExtArray: ['pdf', 'png', 'zip'] };

  it('lets allowed, non-empty files within the limit pass', () => {
    expect(checkFile({ name: 'Flyer.PDF', size: 2 * 1024 * 1024 }, requirements)).toBeNull();
  });

  it('refuses empty files, naming them', () => {
    expect(checkFile({ name: 'Leer.pdf', size: 0 }, requirements)).toBe('Die Datei Leer.pdf muss größer als 0 KB sein.');
  });

  it('refuses files over the limit', () => {
    expect(checkFile({ name: 'Video.pdf', size: 2 * 1024 * 1024 + 1 }, requirements)).toBe(
      'Die Datei Video.pdf ist zu groß. Erlaubt sind höchstens 2 MB.',
    );
  });

  it('refuses other extensions and files without one', () => {
    expect(checkFile({ name: 'Tool.exe', size: 10 }, requirements)).toBe(
      'Nicht erlaubter Dateityp: Tool.exe. Endungen: exe. Erlaubt sind: pdf, png, zip.',
    );
    expect(checkFile({ name: 'README', size: 10 }, requirements)).toBe(
      'Nicht erlaubter Dateityp: README. Endungen: (ohne Endung). Erlaubt sind: pdf, png, zip.',
    );
  });
});

describe('extensionOf', () => {
  it('reads the extension as the server does', () => {
    expect(extensionOf('Flyer.Sommer.PDF')).toBe('pdf');
    expect(extensionOf('.pdf')).toBeNull();
    expect(extensionOf('Datei.')).toBeNull();
    expect(extensionOf('Datei.p-f')).toBeNull();
    expect(extensionOf('ohne')).toBeNull();
  });
});
