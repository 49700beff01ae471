// How far the mass double opt-in mail has come: a progress bar while it runs, the result once
// it finished while the screen was open.
import { formatCount } from '../../../lib/format';
import type { MailJob } from './types';

/** Items handled so far (sent, failed or skipped). */
export function processed(job: MailJob): number {
  return job.sent + job.failed + job.skipped;
}

export function progressText(job: MailJob): string {
  const parts = [`${formatCount(job.sent)}/${formatCount(job.total)} gesendet`];
  if (job.failed > 0) parts.push(`${formatCount(job.failed)} fehlgeschlagen`);
  if (job.skipped > 0) parts.push(`${formatCount(job.skipped)} übersprungen`);
  return parts.join(', ');
}

export function MailJobStatus({ job, onDismiss }: { job: MailJob; onDismiss: () => void }) {
  if (job.status !== 'running') {
    return (
      <div
        className={`alert ${job.failed > 0 ? 'alert-warning' : 'alert-success'} d-flex align-items-start gap-2 mb-3`}
        role="status"
        data-testid="mail-job-done"
      >
        <i className="bi bi-envelope-check flex-shrink-0 mt-1" aria-hidden="true" />
        <div className="flex-grow-1">Double-Opt-In-Versand abgeschlossen: {progressText(job)}.</div>
        <button type="button" className="btn-close" aria-label="Hinweis schließen" onClick={onDismiss} />
      </div>
    );
  }
  const percent = job.total > 0 ? Math.min(100, Math.round((processed(job) / job.total) * 100)) : 0;
  return (
    <div className="card card-body mb-3 py-2" data-testid="mail-job-progress">
      <div className="d-flex align-items-center gap-2 mb-1 small">
        <span className="spinner-border spinner-border-sm" aria-hidden="true" />
        <span data-testid="mail-job-text">Double-Opt-In-Versand läuft: {progressText(job)}</span>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label="Fortschritt des Double-Opt-In-Versands"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={progressText(job)}
      >
        <div className="progress-bar" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
