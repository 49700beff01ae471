// Statistics as the server sends them, typed from openapi.json, for the tests.
import { addDays } from './range';
import type { CustomersPage, DayCount, PackageMails, PackageStatistics, ProviderShare, Summary } from './types';

/** Every day from `from` to `to` with `downloads(index)` downloads. */
export function days(from: string, to: string, downloads: (index: number) => number = () => 0): DayCount[] {
  const out: DayCount[] = [];
  for (let day = from, index = 0; day <= to; day = addDays(day, 1), index += 1) {
    out.push({ date: day, downloads: downloads(index) });
  }
  return out;
}

export function summary(overrides: Partial<Summary> = {}): Summary {
  return {
    downloads: 12345,
    customers: 42,
    zipShare: 0.75,
    days: days('2026-06-02', '2026-07-01', (index) => (index === 3 ? 17 : 1)),
    topPackages: [
      { id: 7, name: 'Glasfaser-Sommeraktion Privatkunden', downloads: 900 },
      { id: 8, name: 'Stadtwerke Nord Strom-Wechselbonus', downloads: 40 },
    ],
    topFiles: [
      { id: 31, name: 'Flyer Glasfaser Sommeraktion.pdf', packageId: 7, downloads: 600 },
      { id: 55, name: 'Alter Flyer.pdf', packageId: 99, downloads: 3 },
    ],
    untouchedPackages: [{ id: 12, name: 'Energie Plus Ökostrom Frühjahr' }],
    ...overrides,
  };
}

export function providerShares(): ProviderShare[] {
  return [
    { id: 1, name: 'Stadtwerke Nord', customers: 3, dealers: 4, share: 0.75 },
    { id: 2, name: 'Glasfaser Süd', customers: 1, dealers: 8, share: 0.125 },
  ];
}

export function packageStatistics(overrides: Partial<PackageStatistics> = {}): PackageStatistics {
  return {
    downloads: 900,
    customers: 12,
    files: [
      { id: 31, name: 'Flyer Glasfaser Sommeraktion.pdf', downloads: 600 },
      { id: 32, name: 'Banner Glasfaser Sommeraktion.png', downloads: 300 },
    ],
    days: days('2026-06-02', '2026-07-01', () => 30),
    mails: null,
    ...overrides,
  };
}

/** What the mails of a package brought (`GET /api/statistics/mails`, a package's `mails`). */
export function packageMails(overrides: Partial<PackageMails> = {}): PackageMails {
  return {
    id: 7,
    name: 'Glasfaser Sommeraktion',
    sent: 1234,
    failed: 4,
    unsubscribes: 3,
    mailDownloads: 210,
    mailedCustomers: 400,
    tookAfterwards: 120,
    tookShare: 0.3,
    ...overrides,
  };
}

export function customersPage(): CustomersPage {
  return {
    // 14:07 in UTC is 16:07 in Berlin in summer.
    content: [{ customerNumber: 100001, downloads: 5, lastAt: '2026-06-30T14:07:00Z' }],
    count: 1,
  };
}
