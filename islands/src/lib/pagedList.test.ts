import { describe, expect, it } from 'vitest';
import { allLoaded, pagedListReducer } from './pagedList';
import type { PagedListState } from './pagedList';

interface Item {
  id: number;
  name: string;
}

const start: PagedListState<Item> = {
  items: [
    { id: 3, name: 'drei' },
    { id: 2, name: 'zwei' },
  ],
  count: 5,
};

describe('pagedListReducer', () => {
  it('puts a created item at the front and raises the count', () => {
    const next = pagedListReducer(start, { type: 'insertFront', item: { id: 9, name: 'neu' } });
    expect(next.items.map((i) => i.id)).toEqual([9, 3, 2]);
    expect(next.count).toBe(6);
  });

  it('does not count an item twice when it is already there', () => {
    const next = pagedListReducer(start, { type: 'insertFront', item: { id: 2, name: 'zwei*' } });
    expect(next.items).toEqual([{ id: 2, name: 'zwei*' }, { id: 3, name: 'drei' }]);
    expect(next.count).toBe(5);
  });

  it('replaces an edited item in place', () => {
    const next = pagedListReducer(start, { type: 'replace', item: { id: 2, name: 'ZWEI' } });
    expect(next.items).toEqual([{ id: 3, name: 'drei' }, { id: 2, name: 'ZWEI' }]);
    expect(next.count).toBe(5);
    expect(pagedListReducer(start, { type: 'replace', item: { id: 7, name: 'x' } })).toBe(start);
  });

  it('removes a deleted item and lowers the count', () => {
    const next = pagedListReducer(start, { type: 'remove', id: 3 });
    expect(next.items.map((i) => i.id)).toEqual([2]);
    expect(next.count).toBe(4);
    expect(pagedListReducer(start, { type: 'remove', id: 99 })).toBe(start);
    expect(pagedListReducer({ items: [{ id: 1, name: 'a' }], count: 0 }, { type: 'remove', id: 1 }).count).toBe(0);
  });

  it('resets to a new first page and appends further pages without repeats', () => {
    const reset = pagedListReducer(start, { type: 'reset', items: [{ id: 8, name: 'acht' }], count: 3 });
    expect(reset).toEqual({ items: [{ id: 8, name: 'acht' }], count: 3 });
    const appended = pagedListReducer(reset, {
      type: 'append',
      items: [
        { id: 8, name: 'acht' },
        { id: 7, name: 'sieben' },
      ],
      count: 3,
    });
    expect(appended.items.map((i) => i.id)).toEqual([8, 7]);
    expect(allLoaded(appended)).toBe(false);
    expect(allLoaded(pagedListReducer(appended, { type: 'append', items: [{ id: 6, name: 's' }], count: 3 }))).toBe(true);
  });
});
