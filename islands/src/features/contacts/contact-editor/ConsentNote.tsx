// The proof of a contact's consent in the contact editor (DSGVO Art. 7(1)): when and from
// where the address was confirmed, and, opened, the mail and the request behind it.
import type { Schemas } from '../../../lib/apiTypes';
import { formatDateTime } from '../../../lib/format';

/** What the server sends as `consent` of a contact: `null` while unconfirmed. */
export type Consent = Schemas['ConsentProof'];

export function ConsentNote({ consent }: { consent: Consent | null | undefined }) {
  if (!consent) return null;
  if (!consent.proven) {
    return (
      <small className="d-block text-body-secondary mt-1" data-testid="consent">
        Einwilligung: Nachweis nicht vorhanden
      </small>
    );
  }
  const from = consent.address ? ` von ${consent.address}` : '';
  return (
    <details className="small mt-1" data-testid="consent">
      <summary>
        Einwilligung: bestätigt am {formatDateTime(consent.confirmedAt)}
        {from}
      </summary>
      <dl className="mb-0 ap-consent">
        <dt>Bestätigungs-Mail gesendet am</dt>
        <dd>{consent.mailSentAt ? formatDateTime(consent.mailSentAt) : 'unbekannt'}</dd>
        <dt>Message-ID der Mail</dt>
        <dd className="text-break">{consent.messageId ?? 'unbekannt'}</dd>
        <dt>Browser</dt>
        <dd className="text-break">{consent.userAgent ?? 'unbekannt'}</dd>
        <dt>Version des Einwilligungstexts</dt>
        <dd className="text-break">
          <code>{consent.textVersion}</code>
        </dd>
      </dl>
    </details>
  );
}
