import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { clearToasts, toast } from '../lib/toast';
import { TOAST_CONTAINER_ID, cornerOf } from './Toasts';

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
    expect(container.style.top).toBe('0px');
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

  it('takes its corner from the page and starts below the header while it is in view', async () => {
    document.body.dataset.toastPosition = 'top-left';
    const header = document.createElement('header');
    header.getBoundingClientRect = () => ({ bottom: 64 }) as DOMRect;
    document.body.append(header);
    act(() => {
      toast.info('Hinweis');
    });
    const container = await screen.findByTestId('toasts');
    expect(container.className).toContain('start-0');
    await waitFor(() => expect(container.style.top).toBe('64px'));
    delete document.body.dataset.toastPosition;
  });

  it('falls back to top right for an unknown corner', () => {
    expect(cornerOf('bottom-left')).toEqual({ vertical: 'bottom', side: 'start' });
    expect(cornerOf('mitte')).toEqual({ vertical: 'top', side: 'end' });
    expect(cornerOf(undefined)).toEqual({ vertical: 'top', side: 'end' });
  });

  it('moves to the bottom while a modal is open', async () => {
    act(() => {
      toast.info('Hinweis');
    });
    const container = await screen.findByTestId('toasts');
    const modal = document.createElement('div');
    modal.className = 'modal d-block';
    act(() => document.body.append(modal));
    await waitFor(() => expect(container.style.bottom).toBe('0px'));
    expect(container.style.top).toBe('');
    act(() => modal.remove());
    await waitFor(() => expect(container.style.top).toBe('0px'));
  });
});
