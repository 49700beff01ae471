// The parts every criteria (lists) picker shares: the filter field, the loading line and the
// checkboxes. Inactive lists are struck through, marked archived (spec §6) and disabled unless
// already chosen, so an old choice can still be taken out but never newly made; above the
// picker's limit a notice says that only the first lists are shown.
import { useCallback, useId, useState } from 'react';
import StatusBadge from './StatusBadge';
import { formatCount } from '../lib/format';

export interface CriterionOption {
  id: number;
  name: string;
  active: boolean;
}

/** The chosen list ids, a toggle for one id, and a setter (for a reset). */
export function useChosenLists(initial: Iterable<number>) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set(initial));
  const toggle = useCallback((id: number) => {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  return { selected, toggle, setSelected };
}

export function CriteriaFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        Kriterien filtern
      </label>
      <input id={id} type="search" className="form-control" value={value} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}

export function CriteriaLoading() {
  return (
    <p className="text-body-secondary small mb-0" role="status">
      <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
      Kriterien werden geladen …
    </p>
  );
}

/** Lower-cased filter text, as `CriteriaChoices` compares it. */
export function criteriaNeedle(filter: string): string {
  return filter.trim().toLocaleLowerCase('de-DE');
}

export interface CriteriaChoicesProps {
  lists: readonly CriterionOption[];
  /** How many lists exist in all; above `limit` only the first `limit` were loaded. */
  total: number;
  limit: number;
  /** See `criteriaNeedle`. */
  needle: string;
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
  /** Shown but not changeable (a provider the user does not manage). */
  locked?: boolean;
}

export function CriteriaChoices({ lists, total, limit, needle, selected, onToggle, locked = false }: CriteriaChoicesProps) {
  const shown = lists.filter((list) => list.name.toLocaleLowerCase('de-DE').includes(needle));
  return (
    <>
      {total > limit && (
        <p className="small text-body-secondary mb-1">
          Es werden die ersten {formatCount(limit)} von {formatCount(total)} Kriterien angezeigt.
        </p>
      )}
      {shown.length === 0 && <p className="text-body-secondary small mb-0">Keine Kriterien gefunden.</p>}
      {shown.map((list) => (
        <CriterionChoice
          key={list.id}
          list={list}
          checked={selected.has(list.id)}
          locked={locked}
          onToggle={() => onToggle(list.id)}
        />
      ))}
    </>
  );
}

interface CriterionChoiceProps {
  list: CriterionOption;
  checked: boolean;
  locked: boolean;
  onToggle: () => void;
}

function CriterionChoice({ list, checked, locked, onToggle }: CriterionChoiceProps) {
  const id = useId();
  return (
    <div className="form-check" data-testid="criterion-choice" data-list-id={list.id} data-active={String(list.active)}>
      <input
        id={id}
        type="checkbox"
        className="form-check-input"
        checked={checked}
        disabled={locked || (!list.active && !checked)}
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
