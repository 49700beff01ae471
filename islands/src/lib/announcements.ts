// A package's announcement by email (issue 37): its settings, the mail as it will be sent, a
// test mail to oneself, and the addresses it could not reach (openapi.json "AnnouncementView").
import { apiFetch } from './api';
import type { Narrowed, Schemas } from './apiTypes';
import { formatCount, formatDate } from './format';

export type AnnouncementView = Schemas['AnnouncementView'];
export type AnnouncementMails = Schemas['AnnouncementMails'];
export type MailPreview = Schemas['MailPreview'];
export type TestMailSent = Schemas['TestMailSent'];
export type FailedMail = Schemas['FailedMail'];
export type AnnouncementStatus = Schemas['AnnouncementStatus'];

/** What the form edits: "Bei Start ankündigen", subject, text and "Erinnerung vor Ablauf". */
export type AnnouncementDraft = Narrowed<
  Schemas['AnnouncementInput'],
  { announce: boolean; subject: string; text: string; reminderDays: number }
>;

/** The code of a save that needs the confirmation of an immediate sending. */
export const CONFIRMATION_REQUIRED = 'confirmation_required';

function path(downloadId: number, rest = ''): string {
  return `/api/download/${downloadId}/announcement${rest}`;
}

export function fetchAnnouncement(downloadId: number, signal?: AbortSignal): Promise<AnnouncementView> {
  return apiFetch<AnnouncementView>(path(downloadId), { signal });
}

/** Saves the settings; `confirmStarted` confirms that a started package is announced at once. */
export function saveAnnouncement(
  downloadId: number,
  draft: AnnouncementDraft,
  confirmStarted = false,
): Promise<AnnouncementView> {
  return apiFetch<AnnouncementView>(path(downloadId), { method: 'PUT', body: { ...draft, confirmStarted } });
}

export function previewAnnouncement(downloadId: number, draft: AnnouncementDraft): Promise<MailPreview> {
  return apiFetch<MailPreview>(path(downloadId, '/preview'), { method: 'POST', body: draft });
}

/** The mail's HTML part as a page of its own, for the preview's frame (its own policy allows the mail's inline styles). */
export function previewPageUrl(downloadId: number, draft: AnnouncementDraft): string {
  const query = new URLSearchParams({ subject: draft.subject, text: draft.text });
  return `${path(downloadId, '/preview.html')}?${query.toString()}`;
}

/** "Erneut ankündigen": to the addresses the announcement has not reached. */
export function announceAgain(downloadId: number): Promise<AnnouncementView> {
  return apiFetch<AnnouncementView>(path(downloadId, '/again'), { method: 'POST' });
}

export function sendTestMail(downloadId: number, draft: AnnouncementDraft): Promise<TestMailSent> {
  return apiFetch<TestMailSent>(path(downloadId, '/test-mail'), { method: 'POST', body: draft });
}

/** How the announcements of the packages `ids` stand (the admin list; those not announced are left out). */
export function fetchAnnouncementStatuses(ids: readonly number[], signal?: AbortSignal): Promise<AnnouncementStatus[]> {
  return apiFetch<AnnouncementStatus[]>(`/api/announcements?ids=${ids.join(',')}`, { signal });
}

export function fetchFailures(downloadId: number, signal?: AbortSignal): Promise<FailedMail[]> {
  return apiFetch<FailedMail[]>(path(downloadId, '/failures?limit=100'), { signal });
}

/** "Angekündigt am 01.03.2030 an 1.234 Kontakte (1.200 gesendet, 4 fehlgeschlagen)", in German time. */
export function statusText(announcedAt: string, mails: AnnouncementMails): string {
  return `Angekündigt am ${formatDate(announcedAt)} ${sentText(mails)}`;
}

/** "Erinnerung vor Ablauf am 01.03.2030 an 12 Kontakte (12 gesendet, 0 fehlgeschlagen)", in German time. */
export function endNoticeText(remindedAt: string, mails: AnnouncementMails): string {
  return `Erinnerung vor Ablauf am ${formatDate(remindedAt)} ${sentText(mails)}`;
}

function sentText(mails: AnnouncementMails): string {
  const parts = [`${formatCount(mails.sent)} gesendet`, `${formatCount(mails.failed)} fehlgeschlagen`];
  if (mails.waiting > 0) parts.push(`${formatCount(mails.waiting)} wartend`);
  return `an ${contacts(mails.recipients)} (${parts.join(', ')})`;
}

/** "wird an 1.234 Kontakte gesendet". */
export function recipientsText(recipients: number): string {
  return `wird an ${contacts(recipients)} gesendet`;
}

function contacts(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'Kontakt' : 'Kontakte'}`;
}
