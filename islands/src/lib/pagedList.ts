// A paged list kept in memory (spec §4 "Lists in memory"): a created item goes to the front,
// an edit replaces the item in place, a delete removes it and lowers the total by one.
// `count` is the server's total for the current filters; `items` the part loaded so far.

export interface PagedListState<T extends { id: number }> {
  items: T[];
  count: number;
}

export type PagedListAction<T extends { id: number }> =
  /** A fresh first page (new filters, or data replaced wholesale). */
  | { type: 'reset'; items: T[]; count: number }
  /** The next page ("Mehr laden"); items already shown are not repeated. */
  | { type: 'append'; items: T[]; count: number }
  | { type: 'insertFront'; item: T }
  | { type: 'replace'; item: T }
  | { type: 'remove'; id: number };

export function pagedListReducer<T extends { id: number }>(
  state: PagedListState<T>,
  action: PagedListAction<T>,
): PagedListState<T> {
  switch (action.type) {
    case 'reset':
      return { items: action.items, count: Math.max(action.count, action.items.length) };
    case 'append': {
      const known = new Set(state.items.map((item) => item.id));
      const items = [...state.items, ...action.items.filter((item) => !known.has(item.id))];
      return { items, count: Math.max(action.count, items.length) };
    }
    case 'insertFront': {
      const existed = state.items.some((item) => item.id === action.item.id);
      return {
        items: [action.item, ...state.items.filter((item) => item.id !== action.item.id)],
        count: existed ? state.count : state.count + 1,
      };
    }
    case 'replace':
      if (!state.items.some((item) => item.id === action.item.id)) return state;
      return { ...state, items: state.items.map((item) => (item.id === action.item.id ? action.item : item)) };
    case 'remove':
      if (!state.items.some((item) => item.id === action.id)) return state;
      return {
        items: state.items.filter((item) => item.id !== action.id),
        count: Math.max(0, state.count - 1),
      };
  }
}

/** Whether everything the server has for the current filters is loaded. */
export function allLoaded(state: PagedListState<{ id: number }>): boolean {
  return state.items.length >= state.count;
}
