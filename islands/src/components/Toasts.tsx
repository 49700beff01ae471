// The one toast container of a page, top right. lib/toast.ts loads this module and calls
// mountToastContainer() when the first toast is shown; every island shows its toasts here.
import { useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { dismissToast, getToasts, subscribeToasts } from '../lib/toast';
import type { Toast, ToastType } from '../lib/toast';

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

/** Renders the store's toasts, newest at the top. */
export function Toasts() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <div className="toast-container position-fixed top-0 end-0 p-3 ap-toasts" data-testid="toasts">
      {[...toasts].reverse().map((toast) => (
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
