// The criteria (lists) picker of the contact editor: every provider of the props with its
// lists, up to 1000 each (spec §9). Inactive lists are disabled, struck through and marked
// archived (spec §6); one that is already chosen can still be taken out. A provider's lists can
// be chosen only where the user manages the provider (the server lists no others): of the
// other providers the group's own lists are shown, not changed. Admins can go back to the
// criteria the group had when the page was loaded.
import { useEffect, useId, useState } from 'react';
import {
  CriteriaChoices,
  CriteriaFilter,
  CriteriaLoading,
  criteriaNeedle,
  useChosenLists,
} from '../../../components/CriteriaChoices';
import { Modal } from '../../../components/Modal';
import { toastReadError } from '../../../lib/apiToasts';
import { CRITERIA_LIMIT, fetchCriteria } from '../../../lib/providerLists';
import type { ListRef, ProviderRef } from './types';

export interface CriteriaPickerProps {
  providers: readonly ProviderRef[];
  chosen: readonly number[];
  /** What a reset goes back to. */
  original: readonly number[];
  /** Lists known by name (the group's), shown for providers the user does not manage. */
  known: readonly ListRef[];
  /** Admins may reset (spec §6). */
  mayReset: boolean;
  /** The chosen list ids, and the lists the picker loaded (for their names). */
  onApply: (lists: number[], loaded: ListRef[]) => void;
  onClose: () => void;
}

type Loaded = { lists: ListRef[]; count: number } | 'failed';

export function CriteriaPicker({ providers, chosen, original, known, mayReset, onApply, onClose }: CriteriaPickerProps) {
  const [loaded, setLoaded] = useState<Readonly<Record<number, Loaded>>>({});
  const { selected, toggle, setSelected } = useChosenLists(chosen);
  const [filter, setFilter] = useState('');

  const managed = providers.filter((provider) => provider.mayManage);
  // Of providers the user does not manage: those where the group has lists.
  const foreign = providers
    .filter((provider) => !provider.mayManage)
    .map((provider) => ({
      provider,
      lists: known
        .filter((list) => list.providerId === provider.id)
        .sort((a, b) => a.name.localeCompare(b.name, 'de-DE')),
    }))
    .filter((entry) => entry.lists.length > 0);

  useEffect(() => {
    const controller = new AbortController();
    for (const provider of providers) {
      if (!provider.mayManage) continue;
      fetchCriteria(provider.id, controller.signal)
        .then((answer) => {
          const lists = answer.content.map(({ id, name, active }) => ({ id, name, active, providerId: provider.id }));
          setLoaded((current) => ({ ...current, [provider.id]: { lists, count: answer.count } }));
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          toastReadError(error);
          setLoaded((current) => ({ ...current, [provider.id]: 'failed' }));
        });
    }
    return () => controller.abort();
  }, [providers]);

  function apply() {
    const lists = Object.values(loaded).flatMap((entry) => (entry === 'failed' ? [] : entry.lists));
    onApply([...selected], lists);
  }

  const allLoaded = managed.every((provider) => loaded[provider.id] !== undefined);
  const needle = criteriaNeedle(filter);

  return (
    <Modal
      title="Kriterien auswählen"
      onClose={onClose}
      size="lg"
      testId="criteria-picker"
      footer={
        <>
          <span className="me-auto small text-body-secondary" aria-live="polite" data-testid="criteria-chosen-count">
            {selected.size} ausgewählt
          </span>
          {mayReset && (
            <button
              type="button"
              className="btn btn-outline-secondary"
              onClick={() => setSelected(new Set(original))}
              data-testid="criteria-reset"
            >
              <i className="bi bi-arrow-counterclockwise me-1" aria-hidden="true" />
              Zurücksetzen
            </button>
          )}
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Abbrechen
          </button>
          <button type="button" className="btn btn-primary" onClick={apply} disabled={!allLoaded} data-testid="criteria-apply">
            Übernehmen
          </button>
        </>
      }
    >
      <CriteriaFilter value={filter} onChange={setFilter} />
      {managed.length + foreign.length === 0 && <p className="text-body-secondary mb-0">Keine Anbieter vorhanden.</p>}
      {managed.map((provider) => (
        <ProviderLists
          key={provider.id}
          provider={provider}
          loaded={loaded[provider.id]}
          needle={needle}
          selected={selected}
          onToggle={toggle}
        />
      ))}
      {foreign.map(({ provider, lists }) => (
        <ProviderLists
          key={provider.id}
          provider={provider}
          loaded={{ lists, count: lists.length }}
          needle={needle}
          selected={selected}
          onToggle={toggle}
        />
      ))}
    </Modal>
  );
}

interface ProviderListsProps {
  provider: ProviderRef;
  loaded: Loaded | undefined;
  needle: string;
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
}

function ProviderLists({ provider, loaded, needle, selected, onToggle }: ProviderListsProps) {
  const hintId = useId();
  return (
    <fieldset
      className="mb-3"
      data-testid="criteria-provider"
      data-provider-id={provider.id}
      aria-describedby={provider.mayManage ? undefined : hintId}
    >
      <legend className="h6 mb-1">{provider.name}</legend>
      {!provider.mayManage && (
        <p id={hintId} className="small text-body-secondary mb-1">
          Die Kriterien dieses Anbieters dürfen Sie nicht ändern; gezeigt werden die der Kundengruppe.
        </p>
      )}
      {loaded === undefined && <CriteriaLoading />}
      {loaded === 'failed' && <p className="text-danger small mb-0">Die Kriterien konnten nicht geladen werden.</p>}
      {loaded !== undefined && loaded !== 'failed' && (
        <CriteriaChoices
          lists={loaded.lists}
          total={loaded.count}
          limit={CRITERIA_LIMIT}
          needle={needle}
          selected={selected}
          onToggle={onToggle}
          locked={!provider.mayManage}
        />
      )}
    </fieldset>
  );
}
