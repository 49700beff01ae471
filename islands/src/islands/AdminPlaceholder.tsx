// Stand-in for admin screens that are not built yet.
export interface AdminPlaceholderProps {
  title: string;
}

export default function AdminPlaceholder({ title }: AdminPlaceholderProps) {
  return (
    <div className="card ap-admin-placeholder" data-testid="admin-placeholder">
      <div className="card-body d-flex align-items-center gap-2">
        <i className="bi bi-cone-striped fs-4 text-warning" aria-hidden="true" />
        <p className="card-text mb-0">{title}: Dieser Bereich wird gerade aufgebaut.</p>
      </div>
    </div>
  );
}
