// The admin contacts screen: /admin/contacts (spec §2 "Admin contacts", §4, §7 "Contacts", §9).
// The first page comes with the props; search, filters, sorting and "Mehr laden" fetch from the
// server, and the row actions update the table in memory (spec §4 "Lists in memory").
import { useEffect, useId, useState } from 'react';
import { FilterButtons, ListSearch, LoadMore } from '../../../components/ListScreen';
import { toastWriteError } from '../../../lib/apiToasts';
import type { PagedListAction } from '../../../lib/pagedList';
import { allLoaded } from '../../../lib/pagedList';
import { useListScreen } from '../../../lib/useListScreen';
import { toast } from '../../../lib/toast';
import {
  deleteContact,
  fetchContacts,
  sendDoubleOptIn,
  sendDoubleOptInToAll,
  toggleBlacklist,
} from './api';
import type { RowActions } from './ContactRow';
import { ContactsModals } from './ContactsModals';
import type { ModalState } from './ContactsModals';
import { ContactsTable } from './ContactsTable';
import { FilterPanel } from './FilterPanel';
import {
  activeFilterCount,
  filtersOf,
  sortedBy,
  startOffsetOf,
  urlSearchOf,
  withoutPanelFilters,
} from './listQuery';
import type { ContactFilters } from './listQuery';
import { MailJobStatus } from './MailJobStatus';
import { MarketingRetriesAlert } from './MarketingRetries';
import {
  ALREADY_DONE_CODE,
  doubleOptInSentMessage,
  massMailStartedMessage,
  ONLY_IN_PRODUCTION_CODE,
  ONLY_IN_PRODUCTION_MESSAGE,
  updatedMessage,
} from './messages';
import { MoreMenu } from './MoreMenu';
import type { Contact, ContactsQuery, ListInfo, MailJob, Paged } from './types';
import { useMailJob } from './useMailJob';
import type { MailJobState } from './useMailJob';

const REMOVED_MESSAGE = 'Erfolgreich entfernt';

export interface AdminContactsProps {
  /** The first page for `query`. */
  page: Paged<Contact>;
  /** The list parameters of the address bar, as the server read them. */
  query: ContactsQuery | null;
  /** The list the table is limited to (`?liste=`), when it exists. */
  list: ListInfo | null;
  /** Sync manager and each contact's "Verlauf" in the audit log (admin only). */
  isAdmin: boolean;
  /** Block, unblock and delete (Admin, BU-Moderator). */
  mayEditDetails: boolean;
  production: boolean;
  /** Pending contacts a mail can go to (not blocked), and all pending contacts. */
  pendingCount: number;
  pendingTotal: number;
  /** The newest mass mail. */
  job: MailJob | null;
  /** Changes that still have to reach Brevo. */
  marketingRetries: number;
  marketing: 'brevo' | 'local';
}

interface ContactWriteOptions {
  pending: ReadonlySet<number>;
  setRowPending: (id: number, busy: boolean) => void;
  dispatch: (action: PagedListAction<Contact>) => void;
  setModal: (modal: ModalState) => void;
  mailJob: MailJobState;
  /** Pending contacts a mail can go to (not blocked), and all pending contacts, as the page came. */
  initialCounts: { count: number; total: number };
}

/** The row actions (one at a time per row), deleting a contact and the double opt-in mail to all. */
function useContactWrites({ pending, setRowPending, dispatch, setModal, mailJob, initialCounts }: ContactWriteOptions) {
  const [deleting, setDeleting] = useState(false);
  const [sendingAll, setSendingAll] = useState(false);
  const [pendingCounts, setPendingCounts] = useState(initialCounts);

  async function withRow(contact: Contact, action: () => Promise<void>) {
    if (pending.has(contact.id)) return;
    setRowPending(contact.id, true);
    try {
      await action();
    } catch (error) {
      toastWriteError(error);
    } finally {
      setRowPending(contact.id, false);
    }
  }

  const actions: RowActions = {
    onShowCriteria: (contact) => setModal({ kind: 'criteria', contact }),
    onSendDoubleOptIn: (contact) =>
      void withRow(contact, async () => {
        const answer = await sendDoubleOptIn(contact.email);
        if (answer.code === ALREADY_DONE_CODE || !answer.messageId) {
          toast.info(answer.message || `${contact.email}: keine E-Mail gesendet.`);
          // The contact confirmed meanwhile: the send action goes away.
          if (answer.code === ALREADY_DONE_CODE) dispatch({ type: 'replace', item: { ...contact, doubleOptIn: true } });
        } else {
          toast.success(doubleOptInSentMessage(contact.email));
          dispatch({ type: 'replace', item: { ...contact, doubleOptInSentAt: new Date().toISOString() } });
        }
      }),
    onToggleBlock: (contact) =>
      void withRow(contact, async () => {
        const updated = await toggleBlacklist(contact.id);
        dispatch({ type: 'replace', item: updated });
        toast.success(updatedMessage(updated.email));
      }),
    onDelete: (contact) => setModal({ kind: 'delete', contact }),
  };

  async function onDelete(contact: Contact) {
    setDeleting(true);
    try {
      const answer = await deleteContact(contact.id);
      dispatch({ type: 'remove', id: contact.id });
      toast.success(answer?.message || REMOVED_MESSAGE);
      setModal(null);
    } catch (error) {
      toastWriteError(error);
    } finally {
      setDeleting(false);
    }
  }

  async function onSendAll() {
    setSendingAll(true);
    try {
      const answer = await sendDoubleOptInToAll();
      if (typeof answer.count === 'number' && typeof answer.total === 'number') {
        setPendingCounts({ count: answer.count, total: answer.total });
      }
      if (answer.code === ONLY_IN_PRODUCTION_CODE) {
        toast.warning(ONLY_IN_PRODUCTION_MESSAGE);
      } else if (answer.code === 'job_running') {
        toast.info(answer.message);
        mailJob.track(answer.job ?? null);
      } else {
        toast.success(answer.message || massMailStartedMessage(answer.count, answer.total));
        mailJob.track(answer.job ?? null);
      }
      setModal(null);
    } catch (error) {
      toastWriteError(error);
    } finally {
      setSendingAll(false);
    }
  }

  return { actions, deleting, onDelete, sendingAll, onSendAll, pendingCounts };
}

/** The chip of the criterion the table is limited to, with a button that lifts the limit. */
function ListChip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <div className="mb-3">
      <span
        className="badge rounded-pill text-bg-info d-inline-flex align-items-center gap-2 fs-6 fw-normal ps-3 pe-2 py-1"
        data-testid="list-chip"
      >
        <span>Kriterium: {label}</span>
        <button
          type="button"
          className="btn-close"
          aria-label="Kriterium-Filter entfernen"
          onClick={onRemove}
          data-testid="list-chip-remove"
        />
      </span>
    </div>
  );
}

export default function AdminContacts({
  page,
  query,
  list,
  isAdmin,
  mayEditDetails,
  production,
  pendingCount,
  pendingTotal,
  job,
  marketingRetries,
}: AdminContactsProps) {
  const {
    list: contacts,
    dispatch,
    filters,
    filtersRef,
    searchText,
    loading,
    pending,
    load,
    applyFilters,
    currentFilters,
    onSearchChange,
    setRowPending,
  } = useListScreen<Contact, ContactFilters>({
    first: { items: page?.content ?? [], count: page?.count ?? 0 },
    initialFilters: filtersOf(query),
    fetchPage: fetchContacts,
    onFiltersApplied: (next) =>
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${urlSearchOf(next)}`),
  });
  const [panelOpen, setPanelOpen] = useState(() => activeFilterCount(filters) > 0);
  const [modal, setModal] = useState<ModalState>(null);
  const mailJob = useMailJob(job);
  const { actions, deleting, onDelete, sendingAll, onSendAll, pendingCounts } = useContactWrites({
    pending,
    setRowPending,
    dispatch,
    setModal,
    mailJob,
    initialCounts: { count: pendingCount, total: pendingTotal },
  });

  const ids = useId();

  // An address with an offset brought a later page: "Mehr laden" counts from the first one.
  useEffect(() => {
    if (startOffsetOf(query) > 0) void load(filtersRef.current, 'reset');
    // Once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const filterCount = activeFilterCount(filters);
  const complete = allLoaded(contacts);
  const panelId = `${ids}-filters`;
  const mailRunning = mailJob.job?.status === 'running';
  const listLabel =
    filters.liste === null
      ? null
      : list && list.id === filters.liste
        ? `${list.name} (${list.providerName})`
        : `Nr. ${filters.liste}`;

  return (
    <section className="ap-admin-contacts" data-testid="admin-contacts" aria-label="Händler">
      <MarketingRetriesAlert count={marketingRetries} />

      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <ListSearch
          label="Kontakte durchsuchen"
          value={searchText}
          onChange={onSearchChange}
          testId="contacts-search"
          className="ap-contacts-search"
          style={{ minWidth: '14rem', maxWidth: '28rem' }}
          title="E-Mail, Name, Firma oder Kundennummer"
        />
        <FilterButtons
          panelOpen={panelOpen}
          onTogglePanel={() => setPanelOpen((open) => !open)}
          panelId={panelId}
          count={filterCount}
          countPrefix="aktiv: "
          onReset={() => applyFilters(withoutPanelFilters(currentFilters()))}
        />
        <MoreMenu
          isAdmin={isAdmin}
          mailBusy={sendingAll || mailRunning}
          onSendAll={() => setModal({ kind: 'sendAll' })}
          onSync={() => setModal({ kind: 'sync' })}
          onImportPlanning={() => setModal({ kind: 'importPlanning' })}
        />
      </div>

      {panelOpen && <FilterPanel id={panelId} filters={filters} onChange={(next) => applyFilters({ ...next, search: searchText.trim() })} />}

      {listLabel !== null && (
        <ListChip label={listLabel} onRemove={() => applyFilters({ ...currentFilters(), liste: null })} />
      )}

      {mailJob.job && <MailJobStatus job={mailJob.job} onDismiss={mailJob.dismiss} />}

      <ContactsTable
        contacts={contacts.items}
        loading={loading}
        filters={filters}
        onSort={(column) => applyFilters(sortedBy(currentFilters(), column))}
        pending={pending}
        mayEditDetails={mayEditDetails}
        isAdmin={isAdmin}
        actions={actions}
      />

      <LoadMore
        loaded={contacts.items.length}
        total={contacts.count}
        loading={loading}
        disabled={complete}
        onLoadMore={() => void load(filtersRef.current, 'append')}
      />

      <ContactsModals
        modal={modal}
        onClose={() => setModal(null)}
        isAdmin={isAdmin}
        production={production}
        deleting={deleting}
        onDelete={(contact) => void onDelete(contact)}
        sendingAll={sendingAll}
        onSendAll={() => void onSendAll()}
        pendingCounts={pendingCounts}
        onSynced={() => void load(filtersRef.current, 'reset')}
      />
    </section>
  );
}
