// The criteria (lists) picker of the download form: the chosen provider's lists, up to 1000.
// Inactive lists are disabled, struck through and marked archived (spec §6); one that is
// already chosen can still be taken out, so an old choice never traps the package.
import { useEffect, useId, useState } from 'react';
import { Modal } from '../../components/Modal';
import StatusBadge from '../../components/StatusBadge';
import { toastReadError } from '../../lib/apiToasts';
import type { ListRef } from '../../lib/downloads';
import { formatCount } from '../../lib/format';
import { CRITERIA_LIMIT, fetchProviderCriteria } from './api';

export interface CriteriaPickerProps {
  providerId: number;
  providerName: string;
  chosen: ListRef[];
  onApply: (lists: ListRef[]) => void;
  onClose: () => void;
}

export function CriteriaPicker({ providerId, providerName, chosen, onApply, onClose }: CriteriaPickerProps) {
  const [lists, setLists] = useState<ListRef[] | null>(null);
  const [count, setCount] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set(chosen.map((list) => list.id)));
  const [filter, setFilter] = useState('');
  const filterId = useId();

  useEffect(() => {
    const controller = new AbortController();
    fetchProviderCriteria(providerId, controller.signal)
      .then((answer) => {
        const byName = [...answer.content].sort((a, b) => a.name.localeCompare(b.name, 'de-DE'));
        setLists(byName);
        setCount(answer.count);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        toastReadError(error);
        setLists([]);
      });
    return () => controller.abort();
  }, [providerId]);

  function toggle(id: number) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  function apply() {
    const loaded = lists ?? [];
    const loadedIds = new Set(loaded.map((list) => list.id));
    // Chosen lists beyond the first 1000 stay chosen.
    const beyond = chosen.filter((list) => !loadedIds.has(list.id) && selected.has(list.id));
    onApply([...loaded.filter((list) => selected.has(list.id)), ...beyond]);
  }

  const needle = filter.trim().toLocaleLowerCase('de-DE');
  const shown = (lists ?? []).filter((list) => list.name.toLocaleLowerCase('de-DE').includes(needle));

  return (
    <Modal
      title={`Kriterien auswählen: ${providerName}`}
      onClose={onClose}
      size="lg"
      testId="criteria-picker"
      footer={
        <>
          <span className="me-auto small text-body-secondary" data-testid="criteria-chosen-count">
            {selected.size} ausgewählt
          </span>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Abbrechen
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={apply}
            disabled={lists === null}
            data-testid="criteria-apply"
          >
            Übernehmen
          </button>
        </>
      }
    >
      <div className="mb-3">
        <label htmlFor={filterId} className="form-label">
          Kriterien filtern
        </label>
        <input
          id={filterId}
          type="search"
          className="form-control"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      </div>
      {lists === null ? (
        <p className="text-body-secondary" role="status">
          <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
          Kriterien werden geladen …
        </p>
      ) : (
        <fieldset>
          <legend className="visually-hidden">Kriterien von {providerName}</legend>
          {count > CRITERIA_LIMIT && (
            <p className="small text-body-secondary">
              Es werden die ersten {formatCount(CRITERIA_LIMIT)} von {formatCount(count)} Kriterien angezeigt.
            </p>
          )}
          {shown.length === 0 && <p className="text-body-secondary mb-0">Keine Kriterien gefunden.</p>}
          {shown.map((list) => (
            <CriterionChoice
              key={list.id}
              list={list}
              checked={selected.has(list.id)}
              onToggle={() => toggle(list.id)}
            />
          ))}
        </fieldset>
      )}
    </Modal>
  );
}

function CriterionChoice({ list, checked, onToggle }: { list: ListRef; checked: boolean; onToggle: () => void }) {
  const id = useId();
  return (
    <div className="form-check" data-testid="criterion-choice" data-list-id={list.id} data-active={String(list.active)}>
      <input
        id={id}
        type="checkbox"
        className="form-check-input"
        checked={checked}
        disabled={!list.active && !checked}
        onChange={onToggle}
      />
      <label htmlFor={id} className="form-check-label">
        <span className={list.active ? undefined : 'text-decoration-line-through'}>{list.name}</span>
        {!list.active && (
          <>
            {' '}
            <StatusBadge badge="ARCHIVIERT" />
          </>
        )}
      </label>
    </div>
  );
}
