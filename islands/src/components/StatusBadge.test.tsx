import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import StatusBadge, { endDateClass } from './StatusBadge';

describe('StatusBadge', () => {
  it('shows the German label with its colour class', () => {
    render(<StatusBadge badge="LÄUFT IN KÜRZE AB" />);
    const badge = screen.getByText('LÄUFT IN KÜRZE AB');
    expect(badge.className).toBe('ap-badge ap-badge-ending-soon');
  });

  it('shows nothing without a badge', () => {
    const { container } = render(<StatusBadge badge={null} />);
    expect(container.innerHTML).toBe('');
  });

  it('colours end dates: red expired, orange ending soon, blue upcoming', () => {
    expect(endDateClass('BEENDET')).toBe('ap-date-expired');
    expect(endDateClass('LÄUFT IN KÜRZE AB')).toBe('ap-date-ending-soon');
    expect(endDateClass('BEVORSTEHENDE')).toBe('ap-date-upcoming');
    expect(endDateClass('NEU')).toBe('');
  });
});
