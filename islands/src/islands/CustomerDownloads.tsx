// The customer downloads page (spec §2): takes over the server-rendered toolbar and table.
import { DownloadsPage } from '../features/customer-downloads/DownloadsPage';
import { normalizeProps } from '../features/customer-downloads/props';
import type { CustomerDownloadsProps } from '../features/customer-downloads/props';

export default function CustomerDownloads(props: Partial<CustomerDownloadsProps>) {
  return <DownloadsPage {...normalizeProps(props)} />;
}
