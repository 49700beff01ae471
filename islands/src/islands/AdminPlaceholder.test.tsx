import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import AdminPlaceholder from './AdminPlaceholder';

describe('AdminPlaceholder', () => {
  it('says the area is being built', () => {
    render(<AdminPlaceholder title="Händler" />);

    expect(screen.getByTestId('admin-placeholder').textContent).toBe(
      'Händler: Dieser Bereich wird gerade aufgebaut.',
    );
  });
});
