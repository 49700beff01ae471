// Arrow keys in an open dropdown menu: Down/Up move between its items (from the toggle to the
// first or last), Home/End jump to the ends. Tab and Escape keep their usual meaning.
import type { KeyboardEvent } from 'react';

export function moveInMenu(event: KeyboardEvent<HTMLElement>, open: boolean): void {
  if (!open || !['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
  const items = Array.from(
    event.currentTarget.querySelectorAll<HTMLElement>('.dropdown-item:not(:disabled):not(.disabled)'),
  );
  if (items.length === 0) return;
  event.preventDefault();
  const at = items.findIndex((item) => item === document.activeElement);
  let next: number;
  if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = items.length - 1;
  else if (event.key === 'ArrowDown') next = at < 0 ? 0 : (at + 1) % items.length;
  else next = at < 0 ? items.length - 1 : (at - 1 + items.length) % items.length;
  items[next]?.focus();
}
