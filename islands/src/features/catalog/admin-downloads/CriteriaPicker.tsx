// The criteria (lists) picker of the download form: the chosen provider's lists, up to 1000.
// The checkboxes are the shared ones of components/CriteriaChoices; a chosen list beyond the
// first 1000 stays chosen, so an old choice never traps the package.
import { useEffect, useState } from 'react';
import { CriteriaChoices, CriteriaFilter, CriteriaLoading, criteriaNeedle, useChosenLists } from '../../../components/CriteriaChoices';
import { Modal } from '../../../components/Modal';
import { toastReadError } from '../../../lib/apiToasts';
import type { ListRef } from '../../../lib/downloads';
import { CRITERIA_LIMIT, fetchCriteria } from '../../../lib/providerLists';

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
  const { selected, toggle } = useChosenLists(chosen.map((list) => list.id));
  const [filter, setFilter] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    fetchCriteria(providerId, controller.signal)
      .then((answer) => {
        setLists(answer.content.map(({ id, name, active }) => ({ id, name, active })));
        setCount(answer.count);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        toastReadError(error);
        setLists([]);
      });
    return () => controller.abort();
  }, [providerId]);

  function apply() {
    const loaded = lists ?? [];
    const loadedIds = new Set(loaded.map((list) => list.id));
    // Chosen lists beyond the first 1000 stay chosen.
    const beyond = chosen.filter((list) => !loadedIds.has(list.id) && selected.has(list.id));
    onApply([...loaded.filter((list) => selected.has(list.id)), ...beyond]);
  }


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
      <CriteriaFilter value={filter} onChange={setFilter} />
      {lists === null ? (
        <CriteriaLoading />
      ) : (
        <fieldset>
          <legend className="visually-hidden">Kriterien von {providerName}</legend>
          <CriteriaChoices
            lists={lists}
            total={count}
            limit={CRITERIA_LIMIT}
            needle={criteriaNeedle(filter)}
            selected={selected}
            onToggle={toggle}
          />
        </fieldset>
      )}
    </Modal>
  );
}
