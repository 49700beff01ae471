// The Bootstrap icon of a file type, shown where a file has no preview. The server page says
// the same (src/domain/files.rs `type_icon`).

const ICONS: Record<string, string> = {
  pdf: 'bi-file-earmark-pdf',
  jpg: 'bi-file-earmark-image',
  jpeg: 'bi-file-earmark-image',
  png: 'bi-file-earmark-image',
  gif: 'bi-file-earmark-image',
  webp: 'bi-file-earmark-image',
  svg: 'bi-file-earmark-image',
  psd: 'bi-file-earmark-image',
  ai: 'bi-file-earmark-image',
  eps: 'bi-file-earmark-image',
  indd: 'bi-file-earmark-image',
  mp4: 'bi-file-earmark-play',
  m4v: 'bi-file-earmark-play',
  mov: 'bi-file-earmark-play',
  zip: 'bi-file-earmark-zip',
  docx: 'bi-file-earmark-word',
  xlsx: 'bi-file-earmark-excel',
  csv: 'bi-file-earmark-spreadsheet',
  pptx: 'bi-file-earmark-ppt',
  txt: 'bi-file-earmark-text',
};

export function typeIcon(ext: string): string {
  return ICONS[ext.toLowerCase()] ?? 'bi-file-earmark';
}
