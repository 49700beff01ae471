// Create or edit a download package: /admin/download/add/ and /admin/download/edit/{id}
// (spec §2 "Download form", §5, §8). The form starts from the props; files upload as soon as
// they are dropped or picked, and the package is saved with their stored ids.
import { useEffect, useId, useReducer, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import type { AnnouncementDraft } from '../../../lib/announcements';
import { createDownload, updateDownload } from '../../../lib/downloads';
import type { Download, ProviderRef, Tag, UploadRequirements } from '../../../lib/downloads';
import { navigateTo } from '../../../lib/navigate';
import { showAfterNavigation, toast } from '../../../lib/toast';
import { AnnouncementSection } from './AnnouncementSection';
import { useAnnouncement } from './useAnnouncement';
import { CriteriaPicker } from './CriteriaPicker';
import { CriteriaField, FormActions, PackageFields } from './DownloadFormFields';
import { FileDropZone } from './FileDropZone';
import { FileGroups } from './FileGroups';
import { formReducer, initialFormState, isUploading, toDownloadInput } from './formState';
import type { FileGroup } from './formState';
import { CREATED_MESSAGE, toastMutationError, UPDATED_MESSAGE } from './toasts';
import { useUploads } from './useUploads';
import { validatePackage } from './validation';

export const DOWNLOADS_PATH = '/admin/downloads';

export interface DownloadFormProps {
  mode: 'add' | 'edit';
  /** The package being edited (edit mode). */
  download: Download | null;
  /** The providers the user may choose (spec §6); an edited package's provider is one of them. */
  providers: ProviderRef[];
  requirements: UploadRequirements;
  tags: Tag[];
  /** What the section "Ankündigung per E-Mail" of a new package starts with. */
  announcement: AnnouncementDraft;
}

const ADD_GROUPS: readonly FileGroup[] = ['new'];
const EDIT_GROUPS: readonly FileGroup[] = ['new', 'existing', 'removed'];

/** Warns before the page is left with unsaved changes; `leave()` goes back to the list on purpose. */
function useLeaveGuard(dirty: boolean) {
  // Set once the page is left on purpose, so the unsaved-changes warning stays quiet.
  const leaving = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    function warn(event: BeforeUnloadEvent) {
      if (!leaving.current) event.preventDefault();
    }
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  function leave() {
    leaving.current = true;
    navigateTo(DOWNLOADS_PATH);
  }

  return leave;
}

export default function DownloadForm({ mode, download, providers, requirements, tags, announcement }: DownloadFormProps) {
  const editing = mode === 'edit' && download !== null;
  // The package as the server last answered it: what an edit is compared with.
  const [original, setOriginal] = useState<Download | null>(editing ? download : null);
  const [state, dispatch] = useReducer(formReducer, original, initialFormState);
  const [saving, setSaving] = useState(false);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const uploads = useUploads(requirements, dispatch);
  const ids = useId();
  const downloadId = original?.id ?? null;
  const announcementState = useAnnouncement(downloadId, announcement);
  const leave = useLeaveGuard(state.dirty || announcementState.touched);

  const provider = providers.find((p) => p.id === state.providerId) ?? null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const problem = validatePackage({
      name: state.name,
      providerId: state.providerId,
      startAt: state.startAt,
      endAt: state.endAt,
      listCount: state.lists.length,
      uploading: isUploading(state),
    });
    if (problem) {
      toast.error(problem);
      return;
    }
    setSaving(true);
    const input = toDownloadInput(state, original);
    try {
      if (original) {
        // The answer is the package as the server now has it: the form starts over from it.
        const saved = await updateDownload(original.id, input);
        setOriginal(saved);
        dispatch({ type: 'load', download: saved });
        toast.success(UPDATED_MESSAGE);
        if (announcementState.touched) await announcementState.save(saved.id, () => undefined);
        setSaving(false);
      } else {
        const created = await createDownload(input);
        showAfterNavigation({ type: 'success', message: CREATED_MESSAGE });
        await announcementState.save(created.id, leave);
      }
    } catch (error) {
      toastMutationError(error);
      setSaving(false);
    }
  }

  return (
    <form className="ap-download-form" noValidate onSubmit={(event) => void onSubmit(event)} data-testid="download-form">
      <div className="row g-3">
        <PackageFields ids={ids} state={state} dispatch={dispatch} providers={providers} providerLocked={original !== null} />

        <CriteriaField ids={ids} lists={state.lists} provider={provider} onOpenPicker={() => setPickerOpen(true)} />

        <div className="col-12">
          <h2 className="h5">Dateien</h2>
          <FileDropZone requirements={requirements} onFiles={uploads.add} />
        </div>
        <div className="col-12">
          <FileGroups
            files={state.files}
            groups={original ? EDIT_GROUPS : ADD_GROUPS}
            tags={tags}
            dispatch={dispatch}
            onDiscard={(key) => {
              uploads.cancel(key);
              dispatch({ type: 'remove', key });
            }}
          />
        </div>

        <AnnouncementSection
          ids={ids}
          downloadId={downloadId}
          draft={announcementState.draft}
          onChange={announcementState.change}
          view={announcementState.view}
          onView={announcementState.setView}
        />
      </div>

      <FormActions
        backPath={DOWNLOADS_PATH}
        dirty={state.dirty}
        onConfirmLeave={() => setConfirmLeave(true)}
        saving={saving}
        editing={original !== null}
      />

      {pickerOpen && provider && (
        <CriteriaPicker
          providerId={provider.id}
          providerName={provider.name}
          chosen={state.lists}
          onApply={(lists) => {
            dispatch({ type: 'setLists', lists });
            setPickerOpen(false);
          }}
          onClose={() => setPickerOpen(false)}
        />
      )}
      {announcementState.confirmation}
      {confirmLeave && (
        <ConfirmModal
          title="Ungespeicherte Änderungen"
          confirmLabel="Verwerfen"
          danger
          onConfirm={leave}
          onClose={() => setConfirmLeave(false)}
          testId="leave-modal"
          confirmTestId="confirm-leave"
        >
          <p className="mb-0">Ihre Änderungen sind noch nicht gespeichert. Wollen Sie sie verwerfen und zurückgehen?</p>
        </ConfirmModal>
      )}
    </form>
  );
}
