import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { navigateTo } from '../../../lib/navigate';
import Countdown from './Countdown';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));

const text = 'Sie werden in {s} Sekunden zum Portal weitergeleitet.';

beforeEach(() => {
  vi.useFakeTimers();
  vi.mocked(navigateTo).mockClear();
});

afterEach(() => {
  vi.useRealTimers();
});

function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

describe('Countdown', () => {
  it('counts down once per second and then goes to the target', () => {
    render(<Countdown seconds={3} target="/" text={text} />);
    const timer = screen.getByTestId('countdown');
    expect(timer.textContent).toBe('Sie werden in 3 Sekunden zum Portal weitergeleitet.');

    advance(999);
    expect(timer.textContent).toContain('in 3 Sekunden');
    advance(1);
    expect(timer.textContent).toContain('in 2 Sekunden');
    advance(1000);
    expect(timer.textContent).toContain('in 1 Sekunden');
    expect(navigateTo).not.toHaveBeenCalled();

    advance(1000);
    expect(timer.textContent).toContain('in 0 Sekunden');
    expect(navigateTo).toHaveBeenCalledWith('/');
  });

  it('goes at once when there is nothing to count', () => {
    render(<Countdown seconds={0} target="/user/downloads" text="{s}" />);

    expect(navigateTo).toHaveBeenCalledWith('/user/downloads');
  });

  it('stops counting when it is removed', () => {
    const { unmount } = render(<Countdown seconds={2} target="/" text={text} />);
    unmount();

    advance(5000);

    expect(navigateTo).not.toHaveBeenCalled();
  });
});
