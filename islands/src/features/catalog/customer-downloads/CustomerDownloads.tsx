// The customer downloads page (spec §2): takes over the server-rendered toolbar and table.
import { DownloadsPage } from './DownloadsPage';
import { normalizeProps } from './props';
import type { CustomerDownloadsProps } from './props';

export default function CustomerDownloads(props: Partial<CustomerDownloadsProps>) {
  return <DownloadsPage {...normalizeProps(props)} />;
}
