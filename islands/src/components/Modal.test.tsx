import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Modal } from './Modal';

function Harness({ onClose = vi.fn(), closeDisabled = false }: { onClose?: () => void; closeDisabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Öffnen
      </button>
      {open && (
        <Modal
          title="Titel"
          testId="modal"
          closeDisabled={closeDisabled}
          onClose={() => {
            onClose();
            setOpen(false);
          }}
          footer={<button type="button">Ok</button>}
        >
          <label htmlFor="feld">Feld</label>
          <input id="feld" />
        </Modal>
      )}
    </>
  );
}

describe('Modal', () => {
  it('is a labelled modal dialog with a backdrop, and focuses the first field', () => {
    render(<Harness />);
    const opener = screen.getByText('Öffnen');
    opener.focus();
    fireEvent.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Titel' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.className).toContain('d-block');
    expect(document.querySelector('.modal-backdrop')).not.toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText('Feld'));
    expect(document.body.style.overflow).toBe('hidden');
  });

  it('closes on Escape and gives the focus back', () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const opener = screen.getByText('Öffnen');
    opener.focus();
    fireEvent.click(opener);

    fireEvent.keyDown(document, { key: 'Escape' });

    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('modal')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(document.body.style.overflow).toBe('');
  });

  it('closes on a click on the backdrop area but not inside the dialog', () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    fireEvent.click(screen.getByText('Öffnen'));

    const inside = screen.getByLabelText('Feld');
    fireEvent.mouseDown(inside);
    fireEvent.click(inside);
    expect(onClose).not.toHaveBeenCalled();

    const dialog = screen.getByTestId('modal');
    fireEvent.mouseDown(dialog);
    fireEvent.click(dialog);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('stays open while closing is disabled', () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} closeDisabled />);
    fireEvent.click(screen.getByText('Öffnen'));

    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Schließen' }));

    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('modal')).not.toBeNull();
  });
});
