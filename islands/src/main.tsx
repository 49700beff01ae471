// The one entry of the islands build. The server links its CSS and loads this script on every
// page; the script mounts the React islands the page contains, each loaded on demand.
import 'bootstrap/dist/css/bootstrap.min.css';
import 'bootstrap-icons/font/bootstrap-icons.css';
// The icons the portal uses from a small subset font (scripts/subset-icons.py).
import '../../style/icons-subset.css';
import '../../style/main.css';

import { islands } from './islandRegistry';
import { mountIslands } from './lib/islandLoader';
import { showPendingToasts } from './lib/toast';

function start(): void {
  void mountIslands(document, islands);
  // Toasts an action left behind when it moved to this page (e.g. "Erfolgreich angelegt").
  showPendingToasts();
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', start, { once: true });
} else {
  start();
}
