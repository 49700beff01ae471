import { describe, expect, it } from 'vitest';
import { AUDIT_PATH, auditHistoryPath } from './audit';

describe('auditHistoryPath', () => {
  it('narrows the audit log to one record', () => {
    expect(AUDIT_PATH).toBe('/admin/audit');
    expect(auditHistoryPath('package', 12)).toBe('/admin/audit?entity=package&entityId=12');
    expect(auditHistoryPath('customerGroup', 3)).toBe('/admin/audit?entity=customerGroup&entityId=3');
  });
});
