// Submits a server-rendered form as soon as the page has loaded (the double opt-in page):
// with JavaScript the confirmation needs no click, without it the form's own button works.
import { useEffect, useState } from 'react';

export interface AutoSubmitProps {
  /** The id of the form to submit. */
  formId: string;
  /** What the page says while the form is sent. */
  text: string;
}

function formOf(formId: string): HTMLFormElement | null {
  const form = document.getElementById(formId);
  return form instanceof HTMLFormElement ? form : null;
}

export default function AutoSubmit({ formId, text }: AutoSubmitProps) {
  const [present] = useState(() => formOf(formId) !== null);

  useEffect(() => {
    formOf(formId)?.requestSubmit();
  }, [formId]);

  return present ? (
    <p className="mt-3" role="status" data-testid="auto-submit">
      {text}
    </p>
  ) : null;
}
