// The contact editor's header card: the customer number and the company (typed in for a new group).

export interface EditorHeaderProps {
  /** Unique within the page: the element ids derive from it. */
  idPrefix: string;
  /** The customer number shown (the placeholder until loaded). */
  shownNumber: string | number;
  /** The company shown when it cannot be edited (the placeholder until loaded). */
  shownCompany: string;
  /** A new group without a known company: the company is typed in. */
  companyEditable: boolean;
  companyName: string;
  companyError: string | null;
  onCompanyChange: (value: string) => void;
}

export function EditorHeader({
  idPrefix: ids,
  shownNumber,
  shownCompany,
  companyEditable,
  companyName,
  companyError,
  onCompanyChange,
}: EditorHeaderProps) {
  return (
    <div className="card mb-4">
      <div className="card-body">
        <div className="row g-3 align-items-start">
          <div className="col-sm-4 col-lg-3">
            <div className="form-label fw-semibold mb-1" id={`${ids}-number-label`}>
              Kundennummer
            </div>
            <div aria-labelledby={`${ids}-number-label`} data-testid="customer-number">
              {shownNumber}
            </div>
          </div>
          <div className="col-sm-8 col-lg-6">
            {companyEditable ? (
              <>
                <label htmlFor={`${ids}-company`} className="form-label fw-semibold mb-1">
                  Firma
                </label>
                <input
                  id={`${ids}-company`}
                  type="text"
                  className={`form-control${companyError ? ' is-invalid' : ''}`}
                  value={companyName}
                  required
                  maxLength={100}
                  aria-invalid={Boolean(companyError)}
                  aria-describedby={companyError ? `${ids}-company-error` : `${ids}-company-hint`}
                  onChange={(event) => onCompanyChange(event.target.value)}
                  data-testid="company-input"
                />
                {companyError ? (
                  <div id={`${ids}-company-error`} className="invalid-feedback d-block">
                    {companyError}
                  </div>
                ) : (
                  <div id={`${ids}-company-hint`} className="form-text">
                    Zu dieser Kundennummer gibt es noch keine Kontakte: die Kundengruppe wird neu angelegt.
                  </div>
                )}
              </>
            ) : (
              <>
                <div className="form-label fw-semibold mb-1" id={`${ids}-company-label`}>
                  Firma
                </div>
                <div aria-labelledby={`${ids}-company-label`} className="text-break" data-testid="company-name">
                  {shownCompany}
                </div>
              </>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
