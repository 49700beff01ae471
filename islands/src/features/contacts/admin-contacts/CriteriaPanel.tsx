// The criteria side panel of a contact (spec §2 "Admin contacts"): the lists the contact is on,
// grouped by provider; inactive lists struck through and marked archived (spec §6).
import { useEffect, useState } from 'react';
import { Modal } from '../../../components/Modal';
import { toastReadError } from '../../../lib/apiToasts';
import { fetchContactLists } from './api';
import type { Contact, ContactList } from './types';

export interface ProviderGroup {
  providerId: number;
  providerName: string;
  lists: ContactList[];
}

/** Lists grouped by provider, providers and lists each sorted by name (German collation). */
export function groupByProvider(lists: readonly ContactList[]): ProviderGroup[] {
  const groups = new Map<number, ProviderGroup>();
  for (const list of lists) {
    let group = groups.get(list.ProviderId);
    if (!group) {
      group = { providerId: list.ProviderId, providerName: list.providerName, lists: [] };
      groups.set(list.ProviderId, group);
    }
    group.lists.push(list);
  }
  const byName = (a: string, b: string) => a.localeCompare(b, 'de-DE');
  return [...groups.values()]
    .sort((a, b) => byName(a.providerName, b.providerName))
    .map((group) => ({ ...group, lists: [...group.lists].sort((a, b) => byName(a.name, b.name)) }));
}

type State = { kind: 'loading' } | { kind: 'failed' } | { kind: 'loaded'; groups: ProviderGroup[] };

export function CriteriaPanel({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    fetchContactLists(contact.id, controller.signal)
      .then((lists) => setState({ kind: 'loaded', groups: groupByProvider(lists) }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        toastReadError(error);
        setState({ kind: 'failed' });
      });
    return () => controller.abort();
  }, [contact.id]);

  return (
    <Modal
      title={`Kriterien: ${contact.email}`}
      onClose={onClose}
      dialogClassName="ap-side-panel"
      testId="criteria-panel"
      footer={
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Schließen
        </button>
      }
    >
      {state.kind === 'loading' && (
        <p className="text-body-secondary mb-0" role="status">
          <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
          Kriterien werden geladen …
        </p>
      )}
      {state.kind === 'failed' && <p className="text-body-secondary mb-0">Die Kriterien konnten nicht geladen werden.</p>}
      {state.kind === 'loaded' && state.groups.length === 0 && (
        <p className="text-body-secondary mb-0" data-testid="criteria-empty">
          Keine Kriterien hinterlegt.
        </p>
      )}
      {state.kind === 'loaded' &&
        state.groups.map((group) => (
          <section key={group.providerId} className="mb-3" aria-label={group.providerName} data-testid="criteria-group">
            <h3 className="h6">{group.providerName}</h3>
            <ul className="list-group">
              {group.lists.map((list) => (
                <li
                  key={list.id}
                  className="list-group-item"
                  data-testid="panel-criterion"
                  data-active={String(list.active)}
                >
                  <span className={list.active ? undefined : 'text-decoration-line-through'}>{list.name}</span>
                  {!list.active && <span className="ap-badge ap-badge-archived ms-2">archiviert</span>}
                </li>
              ))}
            </ul>
          </section>
        ))}
    </Modal>
  );
}
