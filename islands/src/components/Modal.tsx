// A Bootstrap modal driven by React state (no Bootstrap JS): `modal d-block` plus a backdrop,
// rendered into document.body. Escape and a click on the backdrop close it (only the topmost
// modal reacts), the focus moves into the dialog on open, stays inside while Tab cycles, and
// returns to where it was when the modal closes. The parent mounts it to open it.
import { useEffect, useId, useRef } from 'react';
import type { FormEvent, KeyboardEvent as ReactKeyboardEvent, ReactNode, RefObject } from 'react';
import { createPortal } from 'react-dom';

export interface ModalProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'lg' | 'xl';
  /** Extra classes of the dialog element, e.g. `ap-side-panel` to dock it to the right edge. */
  dialogClassName?: string;
  /** data-testid of the dialog element. */
  testId?: string;
  /** While true (e.g. saving), Escape, the backdrop and the close button do nothing. */
  closeDisabled?: boolean;
  /** Wraps body and footer in a <form> (so the footer's submit button submits it). */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** data-testid of that form. */
  formTestId?: string;
  /** Element to focus on open; default: the first field, else the dialog itself. */
  initialFocusRef?: RefObject<HTMLElement | null>;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
const FIELDS = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';

/** Open modals, innermost last: only the last one answers Escape. */
const openModals: symbol[] = [];
let savedBodyOverflow = '';

export function Modal({
  title,
  onClose,
  children,
  footer,
  size,
  dialogClassName,
  testId,
  closeDisabled = false,
  onSubmit,
  formTestId,
  initialFocusRef,
}: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const pressStartedOnBackdrop = useRef(false);
  // The latest callbacks, without re-running the open/close effect.
  const latest = useRef({ onClose, closeDisabled });
  useEffect(() => {
    latest.current = { onClose, closeDisabled };
  });

  useEffect(() => {
    const me = Symbol('modal');
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (openModals.length === 0) {
      savedBodyOverflow = document.body.style.overflow;
      document.body.style.overflow = 'hidden';
    }
    openModals.push(me);

    const dialog = dialogRef.current;
    const target =
      initialFocusRef?.current ?? dialog?.querySelector<HTMLElement>(FIELDS) ?? dialog ?? null;
    target?.focus();

    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || openModals.at(-1) !== me) return;
      if (latest.current.closeDisabled) return;
      event.stopPropagation();
      latest.current.onClose();
    }
    document.addEventListener('keydown', onKeyDown);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const index = openModals.indexOf(me);
      if (index >= 0) openModals.splice(index, 1);
      if (openModals.length === 0) document.body.style.overflow = savedBodyOverflow;
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
    // Runs once per opening; the initial focus target is read on open only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function trapTab(event: ReactKeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  const header = (
    <div className="modal-header">
      <h2 className="modal-title h5" id={titleId}>
        {title}
      </h2>
      <button
        type="button"
        className="btn-close"
        aria-label="Schließen"
        disabled={closeDisabled}
        onClick={onClose}
      />
    </div>
  );
  const inner = (
    <>
      <div className="modal-body">{children}</div>
      {footer !== undefined && <div className="modal-footer">{footer}</div>}
    </>
  );

  return createPortal(
    <>
      <div
        ref={dialogRef}
        className="modal d-block ap-modal"
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        onKeyDown={trapTab}
        onMouseDown={(event) => {
          pressStartedOnBackdrop.current = event.target === event.currentTarget;
        }}
        onClick={(event) => {
          const onBackdrop = pressStartedOnBackdrop.current && event.target === event.currentTarget;
          pressStartedOnBackdrop.current = false;
          if (onBackdrop && !closeDisabled) onClose();
        }}
      >
        <div
          className={`modal-dialog modal-dialog-scrollable${size ? ` modal-${size}` : ''}${dialogClassName ? ` ${dialogClassName}` : ''}`}
        >
          <div className="modal-content">
            {header}
            {onSubmit ? (
              <form
                className="d-flex flex-column overflow-hidden"
                noValidate
                onSubmit={onSubmit}
                data-testid={formTestId}
              >
                {inner}
              </form>
            ) : (
              inner
            )}
          </div>
        </div>
      </div>
      <div className="modal-backdrop show" />
    </>,
    document.body,
  );
}
