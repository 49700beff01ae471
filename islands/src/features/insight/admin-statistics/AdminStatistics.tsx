// The statistics screen: /admin/statistics (issue 24). Downloads of a range, for all providers
// the user manages or one of them: totals, downloads per day, the top packages and files, the
// packages nobody took, what the packages' mails brought, and the share of each provider's
// dealers that took anything. Every
// figure opens the list behind it; a package opens its own figures in a dialog.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { csvUrl, exportUrl } from './api';
import { DayChart } from './DayChart';
import { formatRange } from './format';
import { MailFigures } from './MailFigures';
import { PackageStatsModal } from './PackageStatsModal';
import { ProviderShares } from './ProviderShares';
import { isDay, viewFromSearch } from './range';
import { RangeBar } from './RangeBar';
import { TopFiles, TopPackages, UntouchedPackages } from './TopLists';
import { Totals } from './Totals';
import type { DayRange, ProviderChoice, StatisticsView } from './types';
import { useStatistics } from './useStatistics';

export interface AdminStatisticsProps {
  /** GS-Aktionsportal-Admin: may see who took a package. */
  isAdmin: boolean;
  /** The providers the user manages (all for the admin). */
  providers: ProviderChoice[];
  /** Today in Germany, `YYYY-MM-DD`: the default range ends here. */
  today: string;
}

/**
 * How long the date fields wait after a change before the figures load: typing a year digit by
 * digit passes through years such as 0002, each a complete date the server would refuse.
 */
export const DATE_SETTLE_MS = 400;

interface OpenPackage {
  id: number;
  name: string;
  range: DayRange;
}

export default function AdminStatistics({ isAdmin, providers, today }: AdminStatisticsProps) {
  const ids = useId();
  const [view, setView] = useState<StatisticsView>(() => viewFromSearch(window.location.search, today, providers));
  const [fromText, setFromText] = useState(view.range.from);
  const [toText, setToText] = useState(view.range.to);
  const [dayTableOpen, setDayTableOpen] = useState(false);
  const [openPackage, setOpenPackage] = useState<OpenPackage | null>(null);
  const { shown, shares, rangeError, loading, choose } = useStatistics(view, today);
  // The latest choice, for a date change that settles after another change (e.g. the provider).
  const viewRef = useRef(view);
  const settleTimer = useRef<number | undefined>(undefined);
  const dayTableRef = useRef<HTMLDivElement>(null);
  const sharesHeadingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => () => window.clearTimeout(settleTimer.current), []);

  const choosable = useMemo(() => new Set(providers.map((provider) => provider.id)), [providers]);
  const packageNames = useMemo(
    () => new Map((shown?.summary.topPackages ?? []).map((entry) => [entry.id, entry.name] as const)),
    [shown],
  );

  function apply(next: StatisticsView) {
    const previous = viewRef.current;
    viewRef.current = next;
    setView(next);
    choose(next, previous);
  }

  function onDateChange(from: string, to: string) {
    setFromText(from);
    setToText(to);
    window.clearTimeout(settleTimer.current);
    // An empty or half-typed field loads nothing; the figures shown stay.
    if (!isDay(from) || !isDay(to)) return;
    settleTimer.current = window.setTimeout(() => apply({ ...viewRef.current, range: { from, to } }), DATE_SETTLE_MS);
  }

  function showDays() {
    flushSync(() => setDayTableOpen(true));
    dayTableRef.current?.focus();
  }

  // The CSV links follow the figures shown, not a choice still loading or refused.
  const shownRange = shown?.view.range ?? view.range;
  const providerName = (id: number | null) =>
    id === null ? 'alle Anbieter' : (providers.find((provider) => provider.id === id)?.name ?? `Anbieter ${id}`);

  return (
    <section className="ap-admin-statistics" aria-label="Statistik" data-testid="admin-statistics">
      <RangeBar
        from={fromText}
        to={toText}
        onFromChange={(value) => onDateChange(value, toText)}
        onToChange={(value) => onDateChange(fromText, value)}
        providers={providers}
        providerId={view.providerId}
        onProviderChange={(providerId) => apply({ ...viewRef.current, providerId })}
        error={rangeError}
        csvHref={csvUrl(shownRange)}
      />

      {/* Polite: a new choice's figures are announced once they are there. */}
      <p className="text-body-secondary" aria-live="polite" data-testid="shown-view">
        {shown
          ? `Zahlen für ${formatRange(shown.view.range.from, shown.view.range.to)}, ${providerName(shown.view.providerId)}.`
          : ''}
      </p>

      <div aria-busy={loading} data-testid="statistics-figures" data-loading={String(loading)}>
        {!shown ? (
          <p className="text-body-secondary" role="status">
            {loading ? 'Statistik wird geladen …' : 'Die Statistik konnte nicht geladen werden.'}
          </p>
        ) : (
          <>
            <Totals
              summary={shown.summary}
              onShowDays={showDays}
              onShowDealers={() => sharesHeadingRef.current?.focus()}
            />
            <DayChart
              days={shown.summary.days}
              title="Downloads je Tag"
              headingLevel={2}
              tableOpen={dayTableOpen}
              onTableOpenChange={setDayTableOpen}
              tableRef={dayTableRef}
              testId="summary-days"
              csvHref={exportUrl('days', shown.view.range, shown.view.providerId)}
            />
            <div className="row">
              <div className="col-12 col-lg-6">
                <TopPackages
                  packages={shown.summary.topPackages}
                  onOpenPackage={(id, name) => setOpenPackage({ id, name, range: shown.view.range })}
                  csvHref={exportUrl('packages', shown.view.range, shown.view.providerId)}
                />
              </div>
              <div className="col-12 col-lg-6">
                <TopFiles
                  files={shown.summary.topFiles}
                  packageNames={packageNames}
                  onOpenPackage={(id, name) => setOpenPackage({ id, name, range: shown.view.range })}
                  csvHref={exportUrl('files', shown.view.range, shown.view.providerId)}
                />
              </div>
            </div>
            <UntouchedPackages
              packages={shown.summary.untouchedPackages}
              csvHref={exportUrl('untouched', shown.view.range, shown.view.providerId)}
            />
            <MailFigures
              view={shown.view}
              headingId={`${ids}-mails`}
              csvHref={exportUrl('mails', shown.view.range, shown.view.providerId)}
              onOpenPackage={(id, name) => setOpenPackage({ id, name, range: shown.view.range })}
            />
          </>
        )}
        <ProviderShares
          shares={shares}
          choosable={choosable}
          selectedId={view.providerId}
          onSelect={(providerId) => apply({ ...viewRef.current, providerId })}
          headingId={`${ids}-shares`}
          headingRef={sharesHeadingRef}
          csvHref={exportUrl('providers', shownRange)}
        />
      </div>

      {openPackage && (
        <PackageStatsModal
          packageId={openPackage.id}
          name={openPackage.name}
          range={openPackage.range}
          isAdmin={isAdmin}
          onClose={() => setOpenPackage(null)}
        />
      )}
    </section>
  );
}
