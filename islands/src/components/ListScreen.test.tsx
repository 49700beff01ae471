import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { FilterButtons, LoadMore, RowMenu } from './ListScreen';

describe('RowMenu', () => {
  function renderMenu(onEdit = vi.fn()) {
    render(
      <RowMenu label="Aktionen für Sommeraktion" title="Aktionen" disabled={false} busy={false}>
        {(run) => (
          <>
            <li>
              <button type="button" className="dropdown-item" onClick={run(onEdit)}>
                Bearbeiten
              </button>
            </li>
            <li>
              <button type="button" className="dropdown-item">
                Löschen
              </button>
            </li>
          </>
        )}
      </RowMenu>,
    );
    return onEdit;
  }

  it('opens a labelled menu whose item closes it, focuses the toggle and runs the action', () => {
    const onEdit = renderMenu();
    const toggle = screen.getByRole('button', { name: 'Aktionen für Sommeraktion' });
    fireEvent.click(toggle);
    expect(screen.getByTestId('row-menu').getAttribute('aria-label')).toBe('Aktionen für Sommeraktion');

    fireEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    expect(onEdit).toHaveBeenCalledOnce();
    expect(screen.queryByTestId('row-menu')).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

  it('moves between the items with the arrow keys', () => {
    renderMenu();
    const toggle = screen.getByTestId('row-actions');
    fireEvent.click(toggle);
    fireEvent.keyDown(toggle, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Bearbeiten');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Löschen');
  });

  it('shows a spinner and cannot open while the row is busy', () => {
    render(
      <RowMenu label="Aktionen" title="Aktionen" disabled={false} busy>
        {() => null}
      </RowMenu>,
    );
    expect(screen.getByTestId('row-actions')).toHaveProperty('disabled', true);
  });
});

describe('FilterButtons', () => {
  it('counts the filters in effect, with a prefix for screen readers only', () => {
    render(<FilterButtons panelOpen={false} onTogglePanel={vi.fn()} panelId="p" count={2} countPrefix="aktiv: " onReset={vi.fn()} />);
    expect(screen.getByTestId('filter-count').textContent).toBe('aktiv: 2');
    expect(screen.getByTestId('filters-reset')).toHaveProperty('disabled', false);
  });

  it('offers no reset without filters', () => {
    render(<FilterButtons panelOpen={false} onTogglePanel={vi.fn()} panelId="p" count={0} onReset={vi.fn()} />);
    expect(screen.queryByTestId('filter-count')).toBeNull();
    expect(screen.getByTestId('filters-reset')).toHaveProperty('disabled', true);
  });
});

describe('LoadMore', () => {
  it('says how many of all are loaded', () => {
    render(<LoadMore loaded={20} total={45} loading={false} disabled={false} onLoadMore={vi.fn()} />);
    expect(screen.getByTestId('load-more').textContent).toBe('Mehr laden (20/45)');
    expect(screen.getByTestId('loaded-total').textContent).toBe('20/45');
  });
});
