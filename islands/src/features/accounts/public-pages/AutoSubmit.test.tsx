import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import AutoSubmit from './AutoSubmit';

describe('AutoSubmit', () => {
  it('submits the named form once and says so', () => {
    const form = document.createElement('form');
    form.id = 'bestaetigen';
    const submitted = vi.fn((event: Event) => event.preventDefault());
    form.addEventListener('submit', submitted);
    document.body.appendChild(form);

    render(<AutoSubmit formId="bestaetigen" text="Wird bestätigt …" />);

    expect(submitted).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('Wird bestätigt …');
    form.remove();
  });

  it('does nothing without the form', () => {
    render(<AutoSubmit formId="fehlt" text="Wird bestätigt …" />);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
