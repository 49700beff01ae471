// The one toast container of a page, in the corner the portal is configured for (the body's
// data-toast-position, AP_TOAST_POSITION; top right by default). lib/toast.ts loads this
// module and calls mountToastContainer() when the first toast is shown; every island shows
// its toasts here. Toasts keep clear of the page header (they start below it while it is in
// view) and of open modals (they sit under the modal layer, style/main.css).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { dismissToast, getToasts, subscribeToasts } from '../lib/toastStore';
import type { Toast, ToastType } from '../lib/toastStore';

export const TOAST_CONTAINER_ID = 'ap-toasts';

const LOOK: Record<ToastType, { className: string; icon: string; darkBackground: boolean }> = {
  success: { className: 'text-bg-success', icon: 'bi-check-circle-fill', darkBackground: true },
  error: { className: 'text-bg-danger', icon: 'bi-x-octagon-fill', darkBackground: true },
  warning: { className: 'text-bg-warning', icon: 'bi-exclamation-triangle-fill', darkBackground: false },
  info: { className: 'text-bg-info', icon: 'bi-info-circle-fill', darkBackground: false },
  default: { className: 'bg-body', icon: 'bi-bell-fill', darkBackground: false },
};

function ToastItem({ toast }: { toast: Toast }) {
  const look = LOOK[toast.type];
  const urgent = toast.type === 'error' || toast.type === 'warning';
  return (
    <div
      className={`toast show border-0 ap-toast ${look.className}`}
      role={urgent ? 'alert' : 'status'}
      aria-live={urgent ? 'assertive' : 'polite'}
      aria-atomic="true"
      data-testid="toast"
      data-toast-type={toast.type}
    >
      <div className="d-flex align-items-start">
        <div className="toast-body d-flex gap-2">
          <i className={`bi ${look.icon} flex-shrink-0`} aria-hidden="true" />
          <div>
            <div className="fw-semibold" data-testid="toast-message">
              {toast.message}
            </div>
            {toast.detail && (
              <div className="small mt-1 text-break" data-testid="toast-detail">
                {toast.detail}
              </div>
            )}
          </div>
        </div>
        <button
          type="button"
          className={`btn-close me-2 mt-2 ms-auto flex-shrink-0${look.darkBackground ? ' btn-close-white' : ''}`}
          aria-label="Schließen"
          onClick={() => dismissToast(toast.id)}
        />
      </div>
    </div>
  );
}

type Corner = { vertical: 'top' | 'bottom'; side: 'start' | 'end' };

const CORNERS: Record<string, Corner> = {
  'top-right': { vertical: 'top', side: 'end' },
  'top-left': { vertical: 'top', side: 'start' },
  'bottom-right': { vertical: 'bottom', side: 'end' },
  'bottom-left': { vertical: 'bottom', side: 'start' },
};

/** The configured corner; top right when unset or unknown. */
export function cornerOf(position: string | undefined): Corner {
  return CORNERS[position ?? ''] ?? { vertical: 'top', side: 'end' };
}

/** Pixels of the page header still in view: toasts at the top start below them. */
function useHeaderClearance(active: boolean): number {
  const [clearance, setClearance] = useState(0);
  useEffect(() => {
    const header = document.querySelector('header');
    if (!active || !header) return;
    const measure = () => setClearance(Math.max(0, Math.round(header.getBoundingClientRect().bottom)));
    measure();
    window.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
    };
  }, [active]);
  return clearance;
}

/** Whether a modal is open (modals are rendered into document.body). */
function useModalOpen(): boolean {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const check = () => setOpen(document.querySelector('body > .modal') !== null);
    check();
    const observer = new MutationObserver(check);
    observer.observe(document.body, { childList: true });
    return () => observer.disconnect();
  }, []);
  return open;
}

/**
 * Renders the store's toasts, newest nearest to the corner. While a modal is open they move to
 * the bottom, where a dialog (drawn at the top) usually leaves room; they stay under the modal
 * layer, so they never cover its controls.
 */
export function Toasts() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  const corner = cornerOf(document.body.dataset.toastPosition);
  const modalOpen = useModalOpen();
  const atTop = corner.vertical === 'top' && !modalOpen;
  const clearance = useHeaderClearance(atTop);
  return (
    <div
      className={`toast-container position-fixed ${corner.side}-0 p-3 ap-toasts`}
      style={atTop ? { top: clearance, maxHeight: `calc(100vh - ${clearance}px)` } : { bottom: 0 }}
      data-testid="toasts"
    >
      {(atTop ? [...toasts].reverse() : toasts).map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

let host: HTMLElement | null = null;
let root: Root | null = null;

/** Appends the container to document.body once; mounts it again if the page removed it. */
export function mountToastContainer(): void {
  if (host?.isConnected) return;
  root?.unmount();
  host = document.createElement('div');
  host.id = TOAST_CONTAINER_ID;
  document.body.append(host);
  root = createRoot(host);
  root.render(<Toasts />);
}
