// "Ankündigung per E-Mail" of the download form (issue 37): whether the package is announced at
// its start to the confirmed contacts of its criteria, with which subject and text, and how many
// days before its end those who took it are told. Shows how many contacts it reaches, the mail
// as it will be sent ("Vorschau"), sends it to oneself ("Testmail an mich"), and, once queued,
// how the mails stand with the addresses that failed.
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { Modal } from '../../../components/Modal';
import {
  announceAgain,
  endNoticeText,
  fetchFailures,
  previewAnnouncement,
  previewPageUrl,
  recipientsText,
  sendTestMail,
  statusText,
} from '../../../lib/announcements';
import type { AnnouncementDraft, AnnouncementView, FailedMail, MailPreview } from '../../../lib/announcements';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { toastMutationError } from './toasts';

/** The mail as the preview shows it: its subject and text part, and its HTML part's page. */
type ShownPreview = MailPreview & { url: string };

export interface AnnouncementSectionProps {
  /** Prefix of the fields' ids. */
  ids: string;
  /** The saved package (`null` before it is created: no preview or test mail yet). */
  downloadId: number | null;
  draft: AnnouncementDraft;
  onChange: (draft: AnnouncementDraft) => void;
  /** The settings as the server has them (edit mode, once loaded). */
  view: AnnouncementView | null;
  /** The settings as the server answered "Erneut ankündigen". */
  onView: (view: AnnouncementView) => void;
}

export function AnnouncementSection({ ids, downloadId, draft, onChange, view, onView }: AnnouncementSectionProps) {
  const [preview, setPreview] = useState<ShownPreview | null>(null);
  const [failures, setFailures] = useState<FailedMail[] | null>(null);
  const [busy, setBusy] = useState<'preview' | 'test' | 'failures' | 'again' | null>(null);
  const [askAgain, setAskAgain] = useState(false);
  const set = (change: Partial<AnnouncementDraft>) => onChange({ ...draft, ...change });

  async function run(kind: 'preview' | 'test' | 'failures' | 'again') {
    if (downloadId === null || busy) return;
    setBusy(kind);
    try {
      if (kind === 'preview') {
        const mail = await previewAnnouncement(downloadId, draft);
        setPreview({ ...mail, url: previewPageUrl(downloadId, draft) });
      }
      if (kind === 'test') {
        const sent = await sendTestMail(downloadId, draft);
        toast.success(`Testmail an ${sent.sentTo} gesendet.`);
      }
      if (kind === 'failures') setFailures(await fetchFailures(downloadId));
      if (kind === 'again') {
        onView(await announceAgain(downloadId));
        toast.success('Die Ankündigung geht an die Kontakte, die sie noch nicht erreicht hat.');
      }
    } catch (error) {
      toastMutationError(error);
    } finally {
      setBusy(null);
    }
  }

  const queued = view?.announcedAt && view.mails ? statusText(view.announcedAt, view.mails) : null;
  const reminded =
    view?.remindedAt && view.endNoticeMails ? endNoticeText(view.remindedAt, view.endNoticeMails) : null;
  return (
    <fieldset className="col-12 border rounded p-3" data-testid="announcement-section">
      <legend className="h5 float-none w-auto px-1 mb-2">Ankündigung per E-Mail</legend>
      {queued && (
        <p className="mb-2" role="status" data-testid="announcement-status">
          {queued}
          {view?.mails && view.mails.failed > 0 && (
            <button
              type="button"
              className="btn btn-link p-0 ms-2 align-baseline"
              onClick={() => void run('failures')}
              data-testid="announcement-failures"
            >
              Fehlgeschlagene anzeigen
            </button>
          )}
          <button
            type="button"
            className="btn btn-link p-0 ms-2 align-baseline"
            onClick={() => setAskAgain(true)}
            data-testid="announce-again"
          >
            Erneut ankündigen
          </button>
        </p>
      )}
      {reminded && (
        <p className="mb-2" role="status" data-testid="end-notice-status">
          {reminded}
        </p>
      )}
      {askAgain && (
        <ConfirmModal
          title="Erneut ankündigen?"
          confirmLabel="Erneut ankündigen"
          busy={busy === 'again'}
          onConfirm={() => void run('again').finally(() => setAskAgain(false))}
          onClose={() => setAskAgain(false)}
          testId="announce-again-confirm"
          confirmTestId="announce-again-send"
        >
          <p className="mb-0">
            Die Ankündigung geht an die Kontakte der Kriterien, die sie noch nicht erreicht hat: neu hinzugekommene und
            solche, bei denen der Versand fehlgeschlagen ist. Wer sie schon erhalten hat, bekommt sie nicht noch einmal.
          </p>
        </ConfirmModal>
      )}
      <AnnouncementFields ids={ids} draft={draft} set={set} view={view} />
      <div className="d-flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-outline-secondary"
          disabled={downloadId === null || busy !== null}
          onClick={() => void run('preview')}
          data-testid="announcement-preview"
        >
          <i className="bi bi-eye me-1" aria-hidden="true" />
          Vorschau
        </button>
        <button
          type="button"
          className="btn btn-outline-secondary"
          disabled={downloadId === null || busy !== null}
          onClick={() => void run('test')}
          data-testid="announcement-test-mail"
        >
          {busy === 'test' && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          <i className="bi bi-envelope me-1" aria-hidden="true" />
          Testmail an mich
        </button>
      </div>
      {downloadId === null && <div className="form-text">Vorschau und Testmail gibt es nach dem Anlegen.</div>}

      <AnnouncementDialogs
        preview={preview}
        failures={failures}
        onClosePreview={() => setPreview(null)}
        onCloseFailures={() => setFailures(null)}
      />
    </fieldset>
  );
}

interface AnnouncementFieldsProps {
  ids: string;
  draft: AnnouncementDraft;
  set: (change: Partial<AnnouncementDraft>) => void;
  view: AnnouncementView | null;
}

/** "Bei Start ankündigen" with how many it reaches, Betreff, Text and the reminder's days. */
function AnnouncementFields({ ids, draft, set, view }: AnnouncementFieldsProps) {
  return (
    <>
      <div className="form-check form-switch mb-2">
        <input
          id={`${ids}-announce`}
          className="form-check-input"
          type="checkbox"
          role="switch"
          checked={draft.announce}
          disabled={Boolean(view?.announcedAt)}
          onChange={(event) => set({ announce: event.target.checked })}
          aria-describedby={`${ids}-announce-hint`}
          data-testid="announce"
        />
        <label htmlFor={`${ids}-announce`} className="form-check-label">
          Bei Start ankündigen
        </label>
        <div id={`${ids}-announce-hint`} className="form-text" data-testid="announcement-recipients">
          {view?.announcedAt
            ? 'Die Ankündigung wurde bereits versendet.'
            : view
              ? `Die Ankündigung ${recipientsText(view.recipients)}: an jeden bestätigten, nicht gesperrten Kontakt der Kriterien, jede Adresse einmal.`
              : 'Die Ankündigung geht an jeden bestätigten, nicht gesperrten Kontakt der Kriterien, jede Adresse einmal.'}
        </div>
      </div>
      <div className="mb-2">
        <label htmlFor={`${ids}-subject`} className="form-label">
          Betreff
        </label>
        <input
          id={`${ids}-subject`}
          className="form-control"
          maxLength={150}
          value={draft.subject}
          onChange={(event) => set({ subject: event.target.value })}
          aria-describedby={`${ids}-placeholders`}
          data-testid="announcement-subject"
        />
      </div>
      <div className="mb-2">
        <label htmlFor={`${ids}-text`} className="form-label">
          Text
        </label>
        <textarea
          id={`${ids}-text`}
          className="form-control"
          rows={4}
          maxLength={2000}
          value={draft.text}
          onChange={(event) => set({ text: event.target.value })}
          aria-describedby={`${ids}-placeholders`}
          data-testid="announcement-text"
        />
        <div id={`${ids}-placeholders`} className="form-text">
          Platzhalter: {'{Paket}'}, {'{Anbieter}'}, {'{Gültig ab}'}, {'{Gültig bis}'}
        </div>
      </div>
      <div className="mb-3">
        <label htmlFor={`${ids}-reminder`} className="form-label">
          Erinnerung vor Ablauf (Tage, 0 = keine)
        </label>
        <input
          id={`${ids}-reminder`}
          className="form-control ap-input-days"
          type="number"
          inputMode="numeric"
          min={0}
          max={60}
          value={draft.reminderDays}
          onChange={(event) => set({ reminderDays: Number(event.target.value) })}
          aria-describedby={`${ids}-reminder-hint`}
          data-testid="announcement-reminder"
        />
        <div id={`${ids}-reminder-hint`} className="form-text">
          So viele Tage vor dem Enddatum erhalten die Kontakte jeder Kundennummer, die das Paket heruntergeladen hat, einen
          Hinweis.
        </div>
      </div>
    </>
  );
}

interface AnnouncementDialogsProps {
  preview: ShownPreview | null;
  failures: FailedMail[] | null;
  onClosePreview: () => void;
  onCloseFailures: () => void;
}

/** The mail as it will be sent, and the addresses it could not reach. */
function AnnouncementDialogs({ preview, failures, onClosePreview, onCloseFailures }: AnnouncementDialogsProps) {
  return (
    <>
      {preview && (
        <Modal title="Vorschau der Ankündigung" size="lg" onClose={onClosePreview} testId="announcement-preview-modal">
          <p className="mb-2">
            <strong>Betreff:</strong> {preview.subject}
          </p>
          <iframe
            className="ap-mail-preview w-100 border rounded"
            title="Die E-Mail, wie sie versendet wird"
            sandbox=""
            src={preview.url}
          />
          <details className="mt-2">
            <summary>Textfassung</summary>
            <pre className="ap-mail-text mb-0">{preview.text}</pre>
          </details>
        </Modal>
      )}
      {failures && (
        <Modal title="Fehlgeschlagene Zustellungen" size="lg" onClose={onCloseFailures} testId="announcement-failures-modal">
          {failures.length === 0 ? (
            <p className="mb-0">Keine.</p>
          ) : (
            <ul className="list-unstyled mb-0">
              {failures.map((failed) => (
                <li key={failed.contactId} className="mb-2 text-break">
                  <strong>{failed.email ?? 'Kontakt gelöscht'}</strong>
                  {failed.state === 'pending' ? ' (wird erneut versucht)' : ''}: {failed.error ?? 'unbekannter Grund'}{' '}
                  <span className="text-body-secondary">({formatDateTime(failed.updatedAt)})</span>
                </li>
              ))}
            </ul>
          )}
        </Modal>
      )}
    </>
  );
}
