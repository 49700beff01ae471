// The range's totals. A figure with a list behind it is a button that opens that list:
// Downloads the table of every day, Händler the share of dealers per provider.
import { formatCount } from '../../../lib/format';
import { formatShare } from './format';
import type { Summary } from './types';

export interface TotalsProps {
  summary: Summary;
  onShowDays: () => void;
  onShowDealers: () => void;
}

export function Totals({ summary, onShowDays, onShowDealers }: TotalsProps) {
  return (
    <div className="row row-cols-1 row-cols-sm-3 g-3 mb-4" data-testid="totals">
      <div className="col">
        <button type="button" className="ap-stats-total ap-stats-total-button" onClick={onShowDays} data-testid="total-downloads-button">
          <span className="ap-stats-total-label">Downloads</span>
          <span className="ap-stats-total-value" data-testid="total-downloads" data-value={summary.downloads}>
            {formatCount(summary.downloads)}
          </span>
          <span className="ap-stats-total-hint">je Tag anzeigen</span>
        </button>
      </div>
      <div className="col">
        <button type="button" className="ap-stats-total ap-stats-total-button" onClick={onShowDealers} data-testid="total-customers-button">
          <span className="ap-stats-total-label">Händler</span>
          <span className="ap-stats-total-value" data-testid="total-customers" data-value={summary.customers}>
            {formatCount(summary.customers)}
          </span>
          <span className="ap-stats-total-hint">je Anbieter anzeigen</span>
        </button>
      </div>
      <div className="col">
        <div className="ap-stats-total">
          <span className="ap-stats-total-label">ZIP-Anteil</span>
          <span className="ap-stats-total-value" data-testid="total-zip-share">
            {formatShare(summary.zipShare)}
          </span>
          <span className="ap-stats-total-hint">der Downloads kamen als ZIP</span>
        </div>
      </div>
    </div>
  );
}
