// The filter panel of the customer page's toolbar: archived switch, tags and providers, and "Filter anwenden".
import { TagIcon } from '../../../components/TagIcon';
import type { ProviderRef, Tag } from '../../../lib/downloads';
import { toggled, urlQuery } from './listState';
import type { ListState } from './listState';

interface ToolbarFilterPanelProps {
  state: ListState;
  onChange: (next: ListState) => void;
  tags: readonly Tag[];
  providers: readonly ProviderRef[];
  /** The close button: closes the panel and gives the focus back to its toggle. */
  onClose: () => void;
}

export function ToolbarFilterPanel({ state, onChange, tags, providers, onClose }: ToolbarFilterPanelProps) {
  return (
    <div className="ap-filter-panel card card-body shadow" data-testid="filter-panel">
      <div className="ap-sheet-head">
        <p className="h5 mb-0">Filter</p>
        <a
          className="btn-close"
          href={`/user/downloads${urlQuery(state)}`}
          aria-label="Filter schließen"
          data-testid="filters-close"
          onClick={(event) => {
            event.preventDefault();
            onClose();
          }}
        />
      </div>
      <div className="form-check form-switch mb-3" data-tour="filter-archived">
        <input
          className="form-check-input"
          type="checkbox"
          role="switch"
          id="ap-dl-archived"
          name="archived"
          value="true"
          checked={state.archived}
          onChange={(event) => onChange({ ...state, archived: event.target.checked })}
        />
        <label className="form-check-label" htmlFor="ap-dl-archived">
          Archivierte Downloads anzeigen
        </label>
      </div>
      <fieldset className="mb-3" data-tour="filter-tags">
        <legend className="h6 mb-1">Tags</legend>
        <p className="small text-body-secondary mb-1">Keine Auswahl: Dateien mit und ohne Tags</p>
        {tags.map((tag) => (
          <div className="form-check" key={tag.id}>
            <input
              className="form-check-input"
              type="checkbox"
              id={`ap-dl-tag-${tag.id}`}
              name="tagsIds"
              value={tag.id}
              checked={state.tagIds.includes(tag.id)}
              onChange={(event) =>
                onChange({ ...state, tagIds: toggled(state.tagIds, tag.id, event.target.checked) })
              }
            />
            <label className="form-check-label" htmlFor={`ap-dl-tag-${tag.id}`}>
              <TagIcon tag={tag} /> {tag.name}
            </label>
          </div>
        ))}
      </fieldset>
      <fieldset className="mb-3" data-tour="filter-providers">
        <legend className="h6 mb-1">Anbieter</legend>
        <p className="small text-body-secondary mb-1">Keine Auswahl: alle Anbieter</p>
        {providers.map((provider) => (
          <div className="form-check" key={provider.id}>
            <input
              className="form-check-input"
              type="checkbox"
              id={`ap-dl-provider-${provider.id}`}
              name="providerIds"
              value={provider.id}
              checked={state.providerIds.includes(provider.id)}
              onChange={(event) =>
                onChange({
                  ...state,
                  providerIds: toggled(state.providerIds, provider.id, event.target.checked),
                })
              }
            />
            <label className="form-check-label" htmlFor={`ap-dl-provider-${provider.id}`}>
              {provider.name}
            </label>
          </div>
        ))}
      </fieldset>
      <button className="btn btn-primary btn-sm" type="submit">
        Filter anwenden
      </button>
    </div>
  );
}
