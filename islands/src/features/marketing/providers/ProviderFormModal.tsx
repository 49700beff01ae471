// The provider form as a modal (spec §2 "Add-provider modal"): used by "Neuer Anbieter" in the
// admin menu (create) and by the settings button of the criteria screen (edit). Its state and
// handlers live in useProviderForm.ts, its sections in the Provider*Field(s)/Footer/Preview files.
import { Modal } from '../../../components/Modal';
import { ProviderFolderFields } from './ProviderFolderFields';
import { ProviderFormFooter } from './ProviderFormFooter';
import { ProviderLogoField } from './ProviderLogoField';
import { ProviderNameField } from './ProviderNameField';
import { ProviderPreview } from './ProviderPreview';
import { ProviderRolesField } from './ProviderRolesField';
import { useProviderForm } from './useProviderForm';
import type { ProviderFormOptions } from './useProviderForm';

export { CREATED_MESSAGE, UPDATED_MESSAGE } from './useProviderForm';

export interface ProviderFormModalProps extends ProviderFormOptions {
  /** Edit mode: shows "Anbieter löschen", which calls this. */
  onDelete?: () => void;
}

export function ProviderFormModal({ mode, provider, onClose, onCreated, onSaved, onDelete }: ProviderFormModalProps) {
  const state = useProviderForm({ mode, provider, onClose, onCreated, onSaved });
  const { isCreate, form, errors, ids, saving, update, clearError } = state;

  const footer = (
    <ProviderFormFooter
      isCreate={isCreate}
      onDelete={onDelete}
      onClose={onClose}
      saving={saving}
      busy={state.busy}
      createAnotherId={ids.createAnother}
      createAnother={state.createAnother}
      onCreateAnotherChange={state.setCreateAnother}
    />
  );

  return (
    <Modal
      title={isCreate ? 'Neuer Anbieter' : 'Anbieter-Einstellungen'}
      onClose={onClose}
      size="lg"
      testId="provider-form-modal"
      closeDisabled={saving}
      onSubmit={(event) => void state.onSubmit(event)}
      formTestId="provider-form"
      initialFocusRef={state.nameRef}
      footer={footer}
    >
      <ProviderNameField
        ids={ids}
        value={form.name}
        error={errors.name}
        onChange={(value) => {
          update('name', value);
          clearError('name');
        }}
        inputRef={state.nameRef}
      />
      <ProviderRolesField ids={ids} roles={form.roles} error={errors.roles} input={state.roleField} />
      <ProviderFolderFields
        ids={ids}
        activeFolder={form.activeFolder}
        inactiveFolder={form.inactiveFolder}
        onChange={(key, choice) => {
          update(key, choice);
          clearError('folders');
        }}
        folders={state.folders}
        loading={state.foldersLoading}
        error={errors.folders}
        activeFolderRef={state.activeFolderRef}
      />
      <ProviderLogoField ids={ids} upload={form.upload} saving={saving} logo={state.logo} onRemove={() => update('upload', null)} />
      <ProviderPreview name={form.name} upload={form.upload} today={state.today} />
    </Modal>
  );
}
