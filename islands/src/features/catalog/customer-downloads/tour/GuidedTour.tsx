// The guided tour (react-joyride, loaded only when it runs). Skipping or finishing stores the
// completion flag; finishing reloads the page (spec §2). Steps whose element is missing (no
// rows) are left out; one that disappears during the tour is passed over by joyride itself.
import { useEffect, useMemo } from 'react';
import { EVENTS, STATUS, useJoyride } from 'react-joyride';
import type { EventData, Step } from 'react-joyride';
import { markTourCompleted } from './tourFlag';
import { presentSteps, stepElement } from './steps';

export interface GuidedTourProps {
  /** Opens the filter panel for the steps inside it and closes it for the others. */
  onFiltersOpen: (open: boolean) => void;
  /** The tour was skipped (it reloads the page when finished). */
  onEnd: () => void;
}

const LOCALE = {
  back: 'Zurück',
  close: 'Schließen',
  last: 'Fertig',
  next: 'Weiter',
  nextWithProgress: 'Weiter ({current} von {total})',
  open: 'Rundgang öffnen',
  skip: 'Überspringen',
};

function nextFrame(): Promise<void> {
  return new Promise((resolve) => window.requestAnimationFrame(() => resolve()));
}

export default function GuidedTour({ onFiltersOpen, onEnd }: GuidedTourProps) {
  // The steps are chosen once, when the tour starts.
  const steps = useMemo<Step[]>(
    () =>
      presentSteps(document).map((step) => ({
        id: step.id,
        // Resolved when the step shows: the element shown at the screen's width then.
        target: () => stepElement(document, step),
        title: step.title,
        content: step.content,
        before: async () => {
          onFiltersOpen(step.filters === true);
          await nextFrame();
        },
      })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  function onEvent(data: EventData) {
    if (data.type !== EVENTS.TOUR_END) return;
    markTourCompleted();
    onFiltersOpen(false);
    if (data.status === STATUS.FINISHED) window.location.reload();
    else onEnd();
  }

  const { controls, Tour } = useJoyride({
    run: true,
    continuous: true,
    steps,
    locale: LOCALE,
    // No beacon and no loader: both inject <style> elements, which the CSP forbids.
    loaderComponent: null,
    options: {
      skipBeacon: true,
      showProgress: true,
      buttons: ['back', 'skip', 'primary'],
      closeButtonAction: 'skip',
      dismissKeyAction: false,
      overlayClickAction: false,
      primaryColor: '#004b87',
      textColor: '#212529',
      zIndex: 1070,
    },
    onEvent,
  });

  // Joyride titles each step with an <h4>, placed after the footer's <h2> headings: a jump of
  // two levels for screen readers' heading lists. The title is a level-2 heading, like the
  // footer's.
  useEffect(() => {
    const level = () => document.getElementById('joyride-tooltip-title')?.setAttribute('aria-level', '2');
    level();
    const observer = new MutationObserver(level);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);

  // Escape ends the tour, as it closes any dialog.
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') controls.skip('button_close');
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [controls]);

  return Tour;
}
