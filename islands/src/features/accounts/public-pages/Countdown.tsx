// Counts down once per second and then sends the browser on (server-down page, double opt-in).
// The page also carries a meta refresh, so it works without JavaScript as well.
import { useEffect, useState } from 'react';
import { navigateTo } from '../../../lib/navigate';

export interface CountdownProps {
  seconds: number;
  /** Where to go at zero. */
  target: string;
  /** Text with `{s}` for the remaining seconds. */
  text: string;
}

export default function Countdown({ seconds, target, text }: CountdownProps) {
  const [remaining, setRemaining] = useState(() =>
    Number.isFinite(seconds) ? Math.max(0, Math.floor(seconds)) : 0,
  );

  useEffect(() => {
    if (remaining <= 0) {
      navigateTo(target);
      return;
    }
    const timer = window.setTimeout(() => setRemaining((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [remaining, target]);

  return (
    <p className="ap-countdown" role="timer" data-testid="countdown">
      {text.replaceAll('{s}', String(remaining))}
    </p>
  );
}
