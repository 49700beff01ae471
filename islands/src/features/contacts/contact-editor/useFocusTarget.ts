// Focus handling of the contact editor: focus an element of the form now, or after the next render.
import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';

export type FocusTarget = { rowKey: string; field: string } | { selector: string };

export interface FocusControl {
  formRef: RefObject<HTMLFormElement | null>;
  /** Focuses the target after the next render (it may not exist yet). */
  focusLater: (target: FocusTarget) => void;
  focusNow: (target: FocusTarget) => void;
}

function selectorOf(target: FocusTarget): string {
  return 'selector' in target ? target.selector : `[data-row-key="${target.rowKey}"] [data-field="${target.field}"]`;
}

export function useFocusTarget(): FocusControl {
  const focusRef = useRef<FocusTarget | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // Focus follows a contact that moved to another section (and goes to the first error).
  useEffect(() => {
    const target = focusRef.current;
    if (!target) return;
    focusRef.current = null;
    const form = formRef.current;
    if (!form) return;
    form.querySelector<HTMLElement>(selectorOf(target))?.focus();
  });

  function focusLater(target: FocusTarget) {
    focusRef.current = target;
  }

  function focusNow(target: FocusTarget) {
    formRef.current?.querySelector<HTMLElement>(selectorOf(target))?.focus();
  }

  return { formRef, focusLater, focusNow };
}
