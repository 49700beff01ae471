// The tour's completion flag in localStorage (spec §2, §9): set when the tour is skipped or
// finished; while it is missing, the tour starts on its own.
export const TOUR_FLAG_KEY = 'aktionsportal:tour-downloads-completed';

export function tourCompleted(): boolean {
  try {
    return window.localStorage.getItem(TOUR_FLAG_KEY) !== null;
  } catch {
    // No storage (privacy mode): do not force the tour on every visit.
    return true;
  }
}

export function markTourCompleted(): void {
  try {
    window.localStorage.setItem(TOUR_FLAG_KEY, new Date().toISOString());
  } catch {
    // Nothing to keep it in; the tour simply may show again.
  }
}
