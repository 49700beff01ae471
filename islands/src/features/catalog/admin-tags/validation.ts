// The tag form's rules, with the server's words (src/domain/tags.rs), so the admin reads the
// same text whichever side refused.

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export function nameError(name: string, min: number, max: number): string | null {
  const length = [...name.trim()].length;
  if (length < min) return `Der Name des Tags muss mindestens ${min} Zeichen lang sein.`;
  if (length > max) return `Der Name des Tags darf höchstens ${max} Zeichen lang sein.`;
  return null;
}

export function imageError(file: { type: string; size: number }, maxBytes: number): string | null {
  if (!IMAGE_TYPES.includes(file.type)) return 'Das Bild muss eine PNG-, JPEG-, GIF- oder WebP-Datei sein.';
  if (file.size > maxBytes) return `Das Bild darf höchstens ${Math.floor(maxBytes / 1024)} KB groß sein.`;
  return null;
}

/** Whether a stored icon is one of the picker's (`bi bi-<name>`). */
export function pickedIcon(icon: string, choices: readonly string[]): string | null {
  const name = icon.startsWith('bi bi-') ? icon.slice('bi bi-'.length) : null;
  return name !== null && choices.includes(name) ? name : null;
}

export function deleteQuestion(name: string, uses: number): string {
  if (uses === 0) return `Den Tag „${name}“ löschen?`;
  const files = uses === 1 ? '1 Datei' : `${uses} Dateien`;
  return `Der Tag „${name}“ ist an ${files} vergeben. Er wird dort entfernt. Löschen?`;
}
