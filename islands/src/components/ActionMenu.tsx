// A button that opens a menu of actions (a row's "…", the contacts' "Mehr"): Bootstrap's
// dropdown markup without its script, closed by Escape or a click elsewhere (useDropdown), the
// arrow keys moving between the items (menuKeys).
import { useId } from 'react';
import type { ReactNode } from 'react';
import { moveInMenu } from '../lib/menuKeys';
import { useDropdown } from '../lib/useDropdown';

/** Makes an item's click handler: closes the menu, puts the focus back on its toggle (where a
 * modal opened by the item returns it), then runs the action. */
export type RunAction = (action: () => void) => () => void;

export interface ActionMenuProps {
  /** What the toggle shows (icon and text). */
  toggle: ReactNode;
  toggleClassName: string;
  /** The toggle's accessible name when its content has none (an icon only). */
  toggleLabel?: string;
  toggleTitle?: string;
  toggleTestId: string;
  disabled?: boolean;
  /** Classes of the wrapper beside `dropdown`. */
  className?: string;
  menuClassName?: string;
  menuLabel: string;
  menuTestId: string;
  children: (run: RunAction) => ReactNode;
}

export function ActionMenu({
  toggle,
  toggleClassName,
  toggleLabel,
  toggleTitle,
  toggleTestId,
  disabled = false,
  className,
  menuClassName,
  menuLabel,
  menuTestId,
  children,
}: ActionMenuProps) {
  const { open, setOpen, containerRef, toggleRef } = useDropdown<HTMLDivElement>();
  const menuId = useId();

  const run: RunAction = (action) => () => {
    toggleRef.current?.focus();
    setOpen(false);
    action();
  };

  return (
    <div
      className={className ? `dropdown ${className}` : 'dropdown'}
      ref={containerRef}
      onKeyDown={(event) => moveInMenu(event, open)}
    >
      <button
        ref={toggleRef}
        type="button"
        className={toggleClassName}
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={toggleLabel}
        title={toggleTitle}
        disabled={disabled}
        onClick={() => setOpen((was) => !was)}
        data-testid={toggleTestId}
      >
        {toggle}
      </button>
      {open && (
        <ul
          id={menuId}
          className={`dropdown-menu dropdown-menu-end show${menuClassName ? ` ${menuClassName}` : ''}`}
          data-bs-popper="static"
          aria-label={menuLabel}
          data-testid={menuTestId}
        >
          {children(run)}
        </ul>
      )}
    </div>
  );
}
