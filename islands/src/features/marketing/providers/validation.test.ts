import { describe, expect, it } from 'vitest';
import {
  duplicateRoleMessage,
  firstError,
  isImageFile,
  validateFolders,
  validateListName,
  validateNewRole,
  validateProviderForm,
  validateProviderName,
  validateRoles,
} from './validation';

describe('validateProviderName', () => {
  it('accepts 2 to 25 characters', () => {
    expect(validateProviderName('AB')).toBeNull();
    expect(validateProviderName('x'.repeat(25))).toBeNull();
    expect(validateProviderName('Öko')).toBeNull();
  });

  it('rejects shorter names with the minimum message', () => {
    expect(validateProviderName('')).toBe('Der Name muss mindestens 2 Zeichen lang sein.');
    expect(validateProviderName('A')).toBe('Der Name muss mindestens 2 Zeichen lang sein.');
    expect(validateProviderName('  A  ')).toBe('Der Name muss mindestens 2 Zeichen lang sein.');
  });

  it('rejects longer names with the maximum message', () => {
    expect(validateProviderName('x'.repeat(26))).toBe('Der Name darf höchstens 25 Zeichen lang sein.');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(validateProviderName('😀'.repeat(25))).toBeNull();
  });
});

describe('roles', () => {
  it('needs at least one role', () => {
    expect(validateRoles([])).toBe('Es muss mindestens eine Gruppe eingetragen werden!');
    expect(validateRoles(['GS-Aktionsportal-BU-Marke'])).toBeNull();
  });

  it('rejects a duplicate role naming it, case-insensitively', () => {
    expect(duplicateRoleMessage('GS-A')).toBe('GS-A existiert bereits in der Liste!');
    expect(validateNewRole('GS-A', ['GS-A'])).toBe('GS-A existiert bereits in der Liste!');
    expect(validateNewRole(' gs-a ', ['GS-A'])).toBe('gs-a existiert bereits in der Liste!');
    expect(validateNewRole('GS-B', ['GS-A'])).toBeNull();
  });

  it('has no message for an empty input (the add button is disabled instead)', () => {
    expect(validateNewRole('   ', ['GS-A'])).toBeNull();
  });
});

describe('validateFolders', () => {
  it('needs both folders, auto or an id', () => {
    const message = 'Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!';
    expect(validateFolders('auto', 'auto')).toBeNull();
    expect(validateFolders(3, 'auto')).toBeNull();
    expect(validateFolders(null, 'auto')).toBe(message);
    expect(validateFolders(4, null)).toBe(message);
  });
});

describe('validateProviderForm', () => {
  it('collects every error and names the first in field order', () => {
    const errors = validateProviderForm({ name: 'A', roles: [], activeFolder: null, inactiveFolder: 'auto' });
    expect(errors).toEqual({
      name: 'Der Name muss mindestens 2 Zeichen lang sein.',
      roles: 'Es muss mindestens eine Gruppe eingetragen werden!',
      folders: 'Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!',
    });
    expect(firstError(errors)).toBe('Der Name muss mindestens 2 Zeichen lang sein.');
    expect(firstError({ folders: 'x' })).toBe('x');
  });

  it('is empty for a valid form', () => {
    const errors = validateProviderForm({ name: 'Marke', roles: ['GS-A'], activeFolder: 'auto', inactiveFolder: 7 });
    expect(errors).toEqual({});
    expect(firstError(errors)).toBeNull();
  });
});

describe('validateListName', () => {
  it('allows 5 to 50 characters on create', () => {
    expect(validateListName('Fünf!', 'create')).toBeNull();
    expect(validateListName('Vier', 'create')).toBe('Der Name muss mindestens 5 Zeichen lang sein.');
    expect(validateListName('x'.repeat(50), 'create')).toBeNull();
    expect(validateListName('x'.repeat(51), 'create')).toBe('Der Name darf höchstens 50 Zeichen lang sein.');
  });

  it('allows 5 to 100 characters on rename', () => {
    expect(validateListName('Vier', 'rename')).toBe('Der Name muss mindestens 5 Zeichen lang sein.');
    expect(validateListName('x'.repeat(100), 'rename')).toBeNull();
    expect(validateListName('x'.repeat(101), 'rename')).toBe('Der Name darf höchstens 100 Zeichen lang sein.');
  });
});

describe('isImageFile', () => {
  it('goes by the MIME type, or by the extension when there is none', () => {
    expect(isImageFile({ type: 'image/png', name: 'a.png' })).toBe(true);
    expect(isImageFile({ type: 'image/svg+xml', name: 'a.svg' })).toBe(false);
    expect(isImageFile({ type: '', name: 'a.svg' })).toBe(false);
    expect(isImageFile({ type: 'image/webp', name: 'a.webp' })).toBe(true);
    expect(isImageFile({ type: 'application/pdf', name: 'a.png' })).toBe(false);
    expect(isImageFile({ type: '', name: 'LOGO.JPG' })).toBe(true);
    expect(isImageFile({ type: '', name: 'a.exe' })).toBe(false);
  });
});
