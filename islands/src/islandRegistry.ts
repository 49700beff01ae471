import type { IslandModules } from './lib/islandLoader';

// Every island by the name the server writes in `data-island` (src/app/island.rs there), one
// lazy chunk each. Each island's entry lives in the feature folder of its parts.
export const islands: IslandModules = {
  AccountMenu: () => import('./features/accounts/account/AccountMenu'),
  AdminContacts: () => import('./features/contacts/admin-contacts/AdminContacts'),
  AdminDownloads: () => import('./features/catalog/admin-downloads/AdminDownloads'),
  AdminMenu: () => import('./features/marketing/providers/AdminMenu'),
  AdminStatistics: () => import('./features/insight/admin-statistics/AdminStatistics'),
  AdminTags: () => import('./features/catalog/admin-tags/AdminTags'),
  AutoSubmit: () => import('./features/accounts/public-pages/AutoSubmit'),
  ContactEditor: () => import('./features/contacts/contact-editor/ContactEditor'),
  Countdown: () => import('./features/accounts/public-pages/Countdown'),
  CustomerDownloads: () => import('./features/catalog/customer-downloads/CustomerDownloads'),
  DownloadForm: () => import('./features/catalog/admin-downloads/DownloadForm'),
  ProviderCriteria: () => import('./features/marketing/providers/ProviderCriteria'),
};
