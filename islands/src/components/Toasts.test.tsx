import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { clearToasts, toast } from '../lib/toast';
import { TOAST_CONTAINER_ID } from './Toasts';

afterEach(() => {
  act(() => clearToasts());
});

describe('Toasts', () => {
  it('mounts one container in document.body on the first toast and shows every toast there', async () => {
    act(() => {
      toast.success('Erfolgreich angelegt');
      toast.error('Ein unerwarteter Fehler ist aufgetreten!', 'Liste ist aktiv (Code: conflict)');
    });

    await waitFor(() => expect(screen.getAllByTestId('toast')).toHaveLength(2));
    act(() => {
      toast.warning('Achtung');
    });
    await waitFor(() => expect(screen.getAllByTestId('toast')).toHaveLength(3));

    expect(document.querySelectorAll(`#${TOAST_CONTAINER_ID}`)).toHaveLength(1);
    const container = screen.getByTestId('toasts');
    expect(container.className).toContain('top-0');
    expect(container.className).toContain('end-0');

    const [newest, error, success] = screen.getAllByTestId('toast');
    expect(newest?.textContent).toContain('Achtung');
    expect(newest?.getAttribute('role')).toBe('alert');
    expect(error?.textContent).toContain('Liste ist aktiv (Code: conflict)');
    expect(error?.getAttribute('data-toast-type')).toBe('error');
    expect(success?.getAttribute('role')).toBe('status');
  });

  it('closes a toast with its button', async () => {
    act(() => {
      toast.info('Hinweis');
    });
    const shown = await screen.findByTestId('toast');

    fireEvent.click(shown.querySelector('button') as HTMLButtonElement);

    expect(screen.queryByTestId('toast')).toBeNull();
  });

  it('mounts the container again when the page removed it', async () => {
    act(() => {
      toast.info('eins');
    });
    await screen.findByTestId('toast');
    document.body.innerHTML = '';

    act(() => {
      toast.info('zwei');
    });

    await waitFor(() => expect(screen.getAllByTestId('toast').map((t) => t.textContent)).toEqual(['zwei', 'eins']));
  });
});
