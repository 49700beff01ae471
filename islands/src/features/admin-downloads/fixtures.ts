// Packages and files as the server sends them, for the tests of the download screens.
import type { Download, DownloadFile } from '../../lib/downloads';

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
