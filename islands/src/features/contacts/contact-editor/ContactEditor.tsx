// The contact editor: /admin/contact/edit/{customerNumber} (spec §2 "Contact edit", §3
// "Customer group", §4 "Contact editing", §5 "Contact edit", §6). It loads the customer group
// (contacts and import candidates of the planning system), lets the user edit, add, take over
// and remove contacts and choose the group's criteria, and saves everything with one PUT.
// The state and handlers live in useContactEditor; each section of the page is its own component.
import { useId } from 'react';
import { ActiveContactsSection } from './ActiveContactsSection';
import { CandidatesSection } from './CandidatesSection';
import { CriteriaSection } from './CriteriaSection';
import { EditorFooter } from './EditorFooter';
import { EditorHeader } from './EditorHeader';
import { EditorLoadStatus } from './EditorLoadStatus';
import { EditorModals } from './EditorModals';
import { PLACEHOLDER_COMPANY, PLACEHOLDER_CUSTOMER_NUMBER } from './messages';
import { NewContactsSection } from './NewContactsSection';
import { RemovedSection } from './RemovedSection';
import type { ListRef, ProviderRef } from './types';
import { useContactEditor } from './useContactEditor';

export const CONTACTS_PATH = '/admin/contacts';

export interface ContactEditorProps {
  /** The customer number as the address has it (raw path text). */
  customerNumber: string;
  permissions?: {
    /** Admin or BU-Moderator: names, removing, blocking, criteria. false means BU-DOI. */
    editDetails?: boolean;
    /** The criteria picker's reset (spec §6). */
    admin?: boolean;
  };
  /** The providers whose lists the criteria picker shows. */
  providers?: ProviderRef[];
  /** Where "Zurück" leads: the contacts list, or the start page for BU-DOI (no admin area). */
  backPath?: string;
}

const NO_PROVIDERS: ProviderRef[] = [];

export default function ContactEditor({
  customerNumber,
  permissions,
  providers,
  backPath = CONTACTS_PATH,
}: ContactEditorProps) {
  const mayEditDetails = permissions?.editDetails === true;
  const isAdmin = permissions?.admin === true;
  const providerList = providers ?? NO_PROVIDERS;
  const { formRef, ...editor } = useContactEditor({ customerNumber, mayEditDetails, contactsPath: CONTACTS_PATH });
  const { state, dispatch, loading, loadError, busy } = editor;
  const ids = useId();

  const shownNumber = state.loaded ? (state.customerNumber ?? customerNumber) : PLACEHOLDER_CUSTOMER_NUMBER;
  const shownCompany = state.loaded ? state.companyName : PLACEHOLDER_COMPANY;
  const openCandidates = state.candidates.filter((c) => !c.taken);
  const ready = state.loaded && loadError === null;

  return (
    <form
      ref={formRef}
      className="ap-contact-editor"
      noValidate
      onSubmit={(event) => void editor.onSubmit(event)}
      aria-busy={loading || busy}
      data-testid="contact-editor"
      data-loaded={String(ready)}
    >
      <div className="visually-hidden" role="status" aria-live="polite">
        {editor.announcement}
      </div>

      <EditorHeader
        idPrefix={ids}
        shownNumber={shownNumber}
        shownCompany={shownCompany}
        companyEditable={state.companyEditable}
        companyName={state.companyName}
        companyError={editor.companyError}
        onCompanyChange={(value) => dispatch({ type: 'setCompany', value })}
      />

      <EditorLoadStatus loading={loading} loadError={loadError} onRetry={editor.retry} />

      {ready && (
        <>
          <CriteriaSection
            idPrefix={ids}
            lists={state.lists}
            listNames={editor.listNames}
            listsError={editor.listsError}
            mayEditDetails={mayEditDetails}
            onOpenPicker={() => editor.setPickerOpen(true)}
          />
          <ActiveContactsSection
            idPrefix={ids}
            rows={state.active}
            rowErrors={editor.rowErrors}
            isChecking={editor.isChecking}
            mayEditDetails={mayEditDetails}
            isAdmin={isAdmin}
            blocking={editor.blocking}
            onEdit={editor.onEditExisting}
            onErase={editor.setErasing}
            onToggleBlock={(row) => void editor.onToggleBlock(row)}
            onRemove={editor.onRemove}
          />
          <NewContactsSection
            idPrefix={ids}
            rows={state.fresh}
            rowErrors={editor.rowErrors}
            isChecking={editor.isChecking}
            onEdit={editor.onEditNew}
            onDiscard={editor.onDiscardNew}
            onAdd={editor.onAddNew}
          />
          <CandidatesSection
            idPrefix={ids}
            candidates={openCandidates}
            message={state.message}
            onTake={editor.onTakeCandidate}
          />
          <RemovedSection idPrefix={ids} rows={state.removed} onRestore={editor.onRestore} />
        </>
      )}

      <EditorFooter backPath={backPath} ready={ready} busy={busy} creating={state.creating} />

      <EditorModals
        pickerOpen={editor.pickerOpen}
        providers={providerList}
        lists={state.lists}
        originalLists={state.originalLists}
        listNames={editor.listNames}
        isAdmin={isAdmin}
        onApplyCriteria={(lists: number[], loaded: ListRef[]) => {
          editor.rememberListNames(loaded);
          dispatch({ type: 'setLists', lists });
          editor.setPickerOpen(false);
        }}
        onClosePicker={() => editor.setPickerOpen(false)}
        confirm={editor.confirm}
        saving={editor.saving}
        fresh={state.fresh}
        removed={state.removed}
        onConfirmCreate={editor.onConfirmCreate}
        onConfirmDelete={() => void editor.save()}
        onCloseConfirm={editor.closeConfirm}
        erasing={editor.erasing}
        erasureBusy={editor.erasureBusy}
        onConfirmErase={() => void editor.onErase()}
        onCloseErase={() => editor.setErasing(null)}
      />
    </form>
  );
}
