// Packages as the server sends them, for the tests of this feature.
import type { Download, DownloadFile } from '../../../lib/downloads';

export function file(id: number, downloadId: number, name: string, extra: Partial<DownloadFile> = {}): DownloadFile {
  return {
    id,
    name,
    path: `/files/${id}/${encodeURIComponent(name)}`,
    ext: name.split('.').pop() ?? '',
    size: 1000 * id,
    contentType: 'application/pdf',
    tagsIds: [],
    downloadId,
    downloadName: `Paket ${downloadId}`,
    createdAt: '2026-11-01T10:00:00Z',
    updatedAt: '2026-11-01T10:00:00Z',
    badge: null,
    newSinceVisit: false,
    ...extra,
  };
}

export function download(id: number, files: DownloadFile[], extra: Partial<Download> = {}): Download {
  return {
    id,
    name: `Paket ${id}`,
    startAt: '2026-11-01T00:00:00Z',
    endAt: '2026-12-31T22:59:59Z',
    createdAt: '2026-11-01T10:00:00Z',
    updatedAt: '2026-11-02T10:00:00Z',
    archived: false,
    archivedAt: null,
    ProviderId: 1,
    Provider: { id: 1, name: 'Glasfaser Süd', allowedRoles: [], Upload: null },
    Uploads: files,
    Lists: [],
    listsIds: [],
    badge: null,
    mayManage: false,
    newSinceVisit: false,
    ...extra,
  };
}
