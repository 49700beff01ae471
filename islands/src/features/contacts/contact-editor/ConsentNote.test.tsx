import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ConsentNote } from './ConsentNote';

const proven = {
  proven: true,
  confirmedAt: '2026-11-25T09:15:00Z',
  address: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  mailSentAt: '2026-11-24T16:02:00Z',
  messageId: '<doi-4-ab12@aktionsportal.example>',
  textVersion: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
};

describe('ConsentNote', () => {
  it('says when and from where the address was confirmed, in German time', () => {
    render(<ConsentNote consent={proven} />);
    expect(screen.getByTestId('consent').textContent).toContain(
      'Einwilligung: bestätigt am 25.11.2026, 10:15 von 203.0.113.7',
    );
  });

  it('opens to the mail, the browser and the version of the consent text', () => {
    render(<ConsentNote consent={proven} />);
    fireEvent.click(screen.getByText(/Einwilligung: bestätigt/));
    const note = screen.getByTestId('consent').textContent;
    expect(note).toContain('Bestätigungs-Mail gesendet am24.11.2026, 17:02');
    expect(note).toContain('<doi-4-ab12@aktionsportal.example>');
    expect(note).toContain('Mozilla/5.0 (X11; Linux x86_64)');
    expect(note).toContain(proven.textVersion);
  });

  it('says so when a confirmation has no proof', () => {
    render(<ConsentNote consent={{ ...proven, proven: false, textVersion: null }} />);
    expect(screen.getByTestId('consent').textContent).toBe('Einwilligung: Nachweis nicht vorhanden');
  });

  it('shows nothing while the address is not confirmed', () => {
    const { container } = render(<ConsentNote consent={null} />);
    expect(container.innerHTML).toBe('');
  });
});
