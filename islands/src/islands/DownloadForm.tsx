// Stand-in until the screen is built (issue 9); the server already sends its first data.
import AdminPlaceholder from './AdminPlaceholder';

export default function DownloadForm() {
  return <AdminPlaceholder title="Downloads" />;
}
