// The criteria side panel of the admin list: the package's lists grouped by provider (a
// package has one provider, so one group), inactive lists struck through and marked archived.
import { Modal } from '../../../components/Modal';
import StatusBadge from '../../../components/StatusBadge';
import type { Download } from '../../../lib/downloads';

export function CriteriaPanel({ download, onClose }: { download: Download; onClose: () => void }) {
  const lists = [...download.Lists].sort((a, b) => a.name.localeCompare(b.name, 'de-DE'));
  return (
    <Modal title={`Kriterien: ${download.name}`} onClose={onClose} dialogClassName="ap-side-panel" testId="criteria-panel">
      <section aria-label={download.Provider.name}>
        <h3 className="h6">{download.Provider.name}</h3>
        {lists.length === 0 ? (
          <p className="text-body-secondary mb-0">Keine Kriterien hinterlegt.</p>
        ) : (
          <ul className="list-group">
            {lists.map((list) => (
              <li key={list.id} className="list-group-item" data-testid="panel-criterion">
                <span className={list.active ? undefined : 'text-decoration-line-through'}>{list.name}</span>
                {!list.active && (
                  <>
                    {' '}
                    <StatusBadge badge="ARCHIVIERT" />
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </Modal>
  );
}
