// The announcement of the package a download form edits (issue 37): a new package starts from
// the template, switched on; an edited one from its saved settings once loaded. It is saved
// with the package, only when touched (or new); a package that has started asks first.
import { useEffect, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { isApiError } from '../../../lib/api';
import { CONFIRMATION_REQUIRED, fetchAnnouncement, saveAnnouncement } from '../../../lib/announcements';
import type { AnnouncementDraft, AnnouncementView } from '../../../lib/announcements';
import { toastMutationError } from './toasts';

/** The draft as the server has it. */
function draftOf(view: AnnouncementView): AnnouncementDraft {
  return { announce: view.announce, subject: view.subject, text: view.text, reminderDays: view.reminderDays };
}

/** A save of the announcement waiting for "Jetzt senden": the package has started. */
interface PendingSend {
  downloadId: number;
  message: string;
  /** What follows the save (a new package: back to the list). */
  then: () => void;
}

export function useAnnouncement(downloadId: number | null, template: AnnouncementDraft) {
  const [draft, setDraft] = useState<AnnouncementDraft>(
    downloadId === null ? template : { ...template, announce: false },
  );
  const [touched, setTouched] = useState(false);
  const [view, setView] = useState<AnnouncementView | null>(null);
  const [pending, setPending] = useState<PendingSend | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (downloadId === null) return;
    const controller = new AbortController();
    fetchAnnouncement(downloadId, controller.signal)
      .then((loaded) => {
        setView(loaded);
        setDraft(draftOf(loaded));
      })
      .catch(() => {
        // Aborted, or the settings cannot be read now: the section keeps the template.
      });
    return () => controller.abort();
  }, [downloadId]);

  /** Saves the announcement of package `id`, then calls `then` (also when it failed). */
  async function save(id: number, then: () => void, confirmStarted = false) {
    try {
      const saved = await saveAnnouncement(id, draft, confirmStarted);
      setView(saved);
      setDraft(draftOf(saved));
      setTouched(false);
      then();
    } catch (error) {
      if (isApiError(error) && error.code === CONFIRMATION_REQUIRED) {
        setPending({ downloadId: id, message: error.message, then });
        return;
      }
      toastMutationError(error);
      then();
    }
  }

  function change(next: AnnouncementDraft) {
    setDraft(next);
    setTouched(true);
  }

  /** "Ankündigung sofort senden?" while a save waits for the confirmation. */
  const confirmation = pending && (
    <ConfirmModal
      title="Ankündigung sofort senden?"
      confirmLabel="Jetzt senden"
      busy={sending}
      onConfirm={() => {
        setSending(true);
        void save(pending.downloadId, pending.then, true).finally(() => {
          setSending(false);
          setPending(null);
        });
      }}
      onClose={() => {
        setPending(null);
        pending.then();
      }}
      testId="announcement-confirm"
      confirmTestId="announcement-send-now"
    >
      <p className="mb-0">{pending.message}</p>
    </ConfirmModal>
  );

  return { draft, change, touched, view, setView, save, confirmation };
}
