// Links to the audit log (/admin/audit, "Protokoll", admins only). The server renders that page
// and reads its filters from the address: `entity` and `entityId` narrow it to one record's
// history ("Verlauf").

export const AUDIT_PATH = '/admin/audit';

/** The kinds of record the audit log filters by (its `entity` parameter). */
export type AuditEntity =
  | 'provider'
  | 'list'
  | 'package'
  | 'upload'
  | 'contact'
  | 'customerGroup'
  | 'tag'
  | 'user'
  | 'import'
  | 'sync';

/** The audit log narrowed to one record: its "Verlauf". */
export function auditHistoryPath(entity: AuditEntity, entityId: number): string {
  const params = new URLSearchParams({ entity, entityId: String(entityId) });
  return `${AUDIT_PATH}?${params.toString()}`;
}
