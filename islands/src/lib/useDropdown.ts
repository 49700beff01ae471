import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';

/**
 * Open/closed state of a dropdown without Bootstrap's JavaScript: a pointer press outside
 * `container` or the Escape key closes it (Escape also returns focus to the toggle).
 */
export function useDropdown<C extends HTMLElement>(): {
  open: boolean;
  setOpen: (open: boolean | ((was: boolean) => boolean)) => void;
  containerRef: RefObject<C | null>;
  toggleRef: RefObject<HTMLButtonElement | null>;
} {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<C>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      const target = event.target;
      if (target instanceof Node && containerRef.current?.contains(target)) return;
      setOpen(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    }
    // pointerdown covers mouse, touch and pen.
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return { open, setOpen, containerRef, toggleRef };
}
