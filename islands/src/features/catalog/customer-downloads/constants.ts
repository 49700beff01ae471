/** Rows per page and per "Weitere laden" (spec §9). */
export const PAGE_SIZE = 20;
/** Pause after the last keystroke before the search asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;
