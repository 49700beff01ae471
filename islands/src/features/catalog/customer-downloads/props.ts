// What the server page hands the island (src/app/pages/catalog/customer.rs `CustomerDownloadsProps`).
import type { DownloadFile, DownloadPage, ListQuery, ProviderRef, Tag } from '../../../lib/downloads';

export interface CustomerDownloadsProps {
  /** The first page for `query`, as the server rendered it. */
  page: DownloadPage;
  /** The URL's search, filters and sort. */
  query: ListQuery;
  tags: Tag[];
  /** The providers whose packages the user sees. */
  providers: ProviderRef[];
  productName: string;
  /** Selections up to this size (MiB) are zipped in the browser, larger ones by the server. */
  browserZipLimitMb: number;
}

function array<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/** The props with safe defaults for anything missing (a bad page never crashes the island). */
export function normalizeProps(raw: Partial<CustomerDownloadsProps>): CustomerDownloadsProps {
  const content = array<DownloadPage['content'][number]>(raw.page?.content).map((download) => ({
    ...download,
    Uploads: array<DownloadFile>(download.Uploads),
  }));
  const count = Number(raw.page?.count);
  const limit = Number(raw.browserZipLimitMb);
  return {
    page: { content, count: Number.isFinite(count) ? Math.max(count, content.length) : content.length },
    query: typeof raw.query === 'object' && raw.query !== null ? raw.query : {},
    tags: array(raw.tags),
    providers: array(raw.providers),
    productName: typeof raw.productName === 'string' ? raw.productName : '',
    browserZipLimitMb: Number.isFinite(limit) && limit >= 0 ? limit : 500,
  };
}
