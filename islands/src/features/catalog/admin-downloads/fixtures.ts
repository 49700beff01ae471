// Packages and files as the server sends them, for the tests of the download screens.
import type { Download, DownloadFile } from '../../../lib/downloads';

export function file(id: number, overrides: Partial<DownloadFile> = {}): DownloadFile {
  return {
    id,
    name: `Datei ${id}.pdf`,
    path: `/files/${id}/Datei%20${id}.pdf`,
    ext: 'pdf',
    size: 1000 * id,
    contentType: 'application/pdf',
    tagsIds: [],
    downloadId: 7,
    downloadName: 'Sommeraktion',
    createdAt: '2026-05-01T08:00:00Z',
    updatedAt: '2026-05-01T08:00:00Z',
    badge: null,
    newSinceVisit: false,
    ...overrides,
  };
}

export function download(id: number, overrides: Partial<Download> = {}): Download {
  return {
    id,
    name: `Aktion ${id}`,
    // 1 June 00:00 and 30 June 23:59:59 in Berlin (summer time).
    startAt: '2026-05-31T22:00:00Z',
    endAt: '2026-06-30T21:59:59Z',
    createdAt: '2026-05-01T08:00:00Z',
    updatedAt: '2026-05-02T09:30:00Z',
    archived: false,
    archivedAt: null,
    ProviderId: 2,
    Provider: { id: 2, name: 'Glasfaser Süd', allowedRoles: ['GS-Aktionsportal-BU-Glasfaser'], Upload: null },
    Uploads: [file(11), file(12, { tagsIds: [1] })],
    Lists: [
      { id: 21, name: 'Glasfaser Privatkunden', active: true },
      { id: 22, name: 'Vorvermarktung Landkreis', active: false },
    ],
    listsIds: [21, 22],
    badge: 'BEVORSTEHENDE',
    mayManage: true,
    newSinceVisit: false,
    ...overrides,
  };
}

/** A local header as src/storage/zip.rs writes it (stored, sizes known; ZIP64 extra if `big`). */
export function localHeader(name: string, size: number, big = false): Uint8Array {
  const nameBytes = new TextEncoder().encode(name);
  const header = new Uint8Array(30 + nameBytes.length + (big ? 20 : 0));
  const view = new DataView(header.buffer);
  view.setUint32(0, 0x04034b50, true);
  view.setUint16(4, big ? 45 : 20, true);
  view.setUint16(6, 1 << 11, true);
  const size32 = big ? 0xffffffff : size;
  view.setUint32(18, size32, true);
  view.setUint32(22, size32, true);
  view.setUint16(26, nameBytes.length, true);
  view.setUint16(28, big ? 20 : 0, true);
  header.set(nameBytes, 30);
  if (big) {
    const at = 30 + nameBytes.length;
    view.setUint16(at, 0x0001, true);
    view.setUint16(at + 2, 16, true);
    view.setBigUint64(at + 4, BigInt(size), true);
    view.setBigUint64(at + 12, BigInt(size), true);
  }
  return header;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
