// The tag screen: /admin/tags (issue 25, admins only). Every tag with its icon and how many
// files carry it; a new tag, a change of name or icon, and deleting one, which asks first and
// names the files it leaves.
import { useEffect, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { TagIcon } from '../../../components/TagIcon';
import { toastReadError, toastWriteError } from '../../../lib/apiToasts';
import { toast } from '../../../lib/toast';
import { deleteTag, fetchTags } from './api';
import type { TagView } from './api';
import { TagFormModal } from './TagFormModal';
import type { TagRules } from './TagFormModal';
import { deleteQuestion } from './validation';

export type AdminTagsProps = TagRules;

export default function AdminTags(rules: AdminTagsProps) {
  const [tags, setTags] = useState<TagView[] | null>(null);
  const [editing, setEditing] = useState<TagView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<TagView | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchTags(controller.signal)
      .then(setTags)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) toastReadError(error);
      });
    return () => controller.abort();
  }, [version]);

  async function onDelete() {
    if (!deleting || busy) return;
    setBusy(true);
    try {
      await deleteTag(deleting.id);
      toast.success(`Der Tag „${deleting.name}“ wurde gelöscht.`);
      setDeleting(null);
      setVersion((v) => v + 1);
    } catch (error) {
      toastWriteError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div data-testid="admin-tags" data-loaded={tags !== null ? 'true' : 'false'}>
      <p>
        Tags kennzeichnen die Dateien der Download-Pakete; Kunden filtern ihre Downloads danach.
      </p>
      <button type="button" className="btn btn-primary mb-3" onClick={() => setEditing('new')} data-testid="new-tag">
        <i className="bi bi-plus-lg me-1" aria-hidden="true" />
        Neuer Tag
      </button>
      {tags === null ? (
        <p aria-live="polite">Die Tags werden geladen …</p>
      ) : tags.length === 0 ? (
        <p>Es gibt noch keine Tags.</p>
      ) : (
        <div className="table-responsive">
          <table className="table align-middle">
            <caption className="visually-hidden">Tags</caption>
            <thead>
              <tr>
                <th scope="col">Symbol</th>
                <th scope="col">Name</th>
                <th scope="col" className="text-end">
                  Dateien
                </th>
                <th scope="col">
                  <span className="visually-hidden">Aktionen</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tags.map((tag) => (
                <tr key={tag.id} data-testid="tag-row" data-name={tag.name}>
                  <td>
                    <TagIcon tag={tag} />
                  </td>
                  <td className="text-break">{tag.name}</td>
                  <td className="text-end">{tag.uses}</td>
                  <td className="text-end">
                    {/* On a phone the two buttons stand one above the other instead of
                        pushing the table wider than the screen. */}
                    <div className="d-inline-flex flex-wrap justify-content-end gap-1">
                      <button
                        type="button"
                        className="btn btn-sm btn-outline-secondary"
                        onClick={() => setEditing(tag)}
                        aria-label={`${tag.name} bearbeiten`}
                        title="Bearbeiten"
                      >
                        <i className="bi bi-pencil" aria-hidden="true" />
                      </button>
                      <button
                        type="button"
                        className="btn btn-sm btn-outline-danger"
                        onClick={() => setDeleting(tag)}
                        aria-label={`${tag.name} löschen`}
                        title="Löschen"
                      >
                        <i className="bi bi-trash" aria-hidden="true" />
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing !== null && (
        <TagFormModal
          rules={rules}
          tag={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            toast.success(editing === 'new' ? `Der Tag „${saved.name}“ wurde angelegt.` : `Der Tag „${saved.name}“ wurde gespeichert.`);
            setEditing(null);
            setVersion((v) => v + 1);
          }}
        />
      )}
      {deleting !== null && (
        <ConfirmModal
          title="Tag löschen"
          confirmLabel="Löschen"
          danger
          busy={busy}
          onConfirm={() => void onDelete()}
          onClose={() => setDeleting(null)}
          testId="confirm-tag-delete"
          confirmTestId="confirm-tag-delete-button"
        >
          <p className="mb-0">{deleteQuestion(deleting.name, deleting.uses)}</p>
        </ConfirmModal>
      )}
    </div>
  );
}
