import { describe, expect, it } from 'vitest';
import { deleteQuestion, imageError, nameError, pickedIcon } from './validation';

describe('tag form rules', () => {
  it('takes names of 2 to 40 characters, counted as the server counts', () => {
    expect(nameError(' F ', 2, 40)).toBe('Der Name des Tags muss mindestens 2 Zeichen lang sein.');
    expect(nameError('Fl', 2, 40)).toBeNull();
    expect(nameError('ä'.repeat(40), 2, 40)).toBeNull();
    expect(nameError('x'.repeat(41), 2, 40)).toBe('Der Name des Tags darf höchstens 40 Zeichen lang sein.');
  });

  it('takes small images of four types', () => {
    expect(imageError({ type: 'image/png', size: 16 * 1024 }, 16 * 1024)).toBeNull();
    expect(imageError({ type: 'image/png', size: 16 * 1024 + 1 }, 16 * 1024)).toBe('Das Bild darf höchstens 16 KB groß sein.');
    expect(imageError({ type: 'image/svg+xml', size: 10 }, 16 * 1024)).toContain('PNG-, JPEG-, GIF- oder WebP');
  });

  it('knows the picker’s icons and asks before taking a tag off files', () => {
    expect(pickedIcon('bi bi-star', ['star'])).toBe('star');
    expect(pickedIcon('bi bi-x', ['star'])).toBeNull();
    expect(pickedIcon('data:image/png;base64,AA', ['star'])).toBeNull();
    expect(deleteQuestion('Flyer', 0)).toBe('Den Tag „Flyer“ löschen?');
    expect(deleteQuestion('Flyer', 1)).toBe('Der Tag „Flyer“ ist an 1 Datei vergeben. Er wird dort entfernt. Löschen?');
    expect(deleteQuestion('Flyer', 3)).toContain('an 3 Dateien vergeben');
  });
});
