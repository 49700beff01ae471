// The provider form's roles field: the role input with its add button, and the entered roles as badges.
import type { ProviderFormIds, RoleInput } from './useProviderForm';

interface ProviderRolesFieldProps {
  ids: ProviderFormIds;
  roles: string[];
  /** The form's error for the roles (none entered). */
  error: string | undefined;
  input: RoleInput;
}

export function ProviderRolesField({ ids, roles, error, input }: ProviderRolesFieldProps) {
  const { roleRef, roleInput, roleError, roleCandidate, addRole, removeRole, onRoleKeyDown, changeRoleInput } = input;
  return (
    <div className="mb-3">
      <label htmlFor={ids.role} className="form-label">
        Gruppen (Rollen)
      </label>
      <div className={`input-group${roleError || error ? ' has-validation' : ''}`}>
        <input
          ref={roleRef}
          id={ids.role}
          type="text"
          className={`form-control${roleError || error ? ' is-invalid' : ''}`}
          value={roleInput}
          onChange={(event) => changeRoleInput(event.target.value)}
          onKeyDown={onRoleKeyDown}
          placeholder="z. B. GS-Aktionsportal-BU-Marke"
          autoComplete="off"
          aria-invalid={roleError || error ? true : undefined}
          aria-describedby={[ids.roleHelp, roleError || error ? ids.roleError : null].filter(Boolean).join(' ')}
          data-testid="role-input"
        />
        <button
          type="button"
          className="btn btn-outline-primary"
          onClick={addRole}
          disabled={roleCandidate === ''}
          data-testid="role-add"
        >
          <i className="bi bi-plus-lg me-1" aria-hidden="true" />
          Hinzufügen
        </button>
        {(roleError || error) && (
          <div id={ids.roleError} className="invalid-feedback" data-testid="role-error">
            {roleError ?? error}
          </div>
        )}
      </div>
      <div id={ids.roleHelp} className="form-text">
        Mitglieder dieser Gruppen dürfen den Anbieter sehen und verwalten.
      </div>
      {roles.length > 0 && (
        <ul className="list-unstyled d-flex flex-wrap gap-2 mt-2 mb-0" aria-label="Eingetragene Gruppen">
          {roles.map((role) => (
            <li key={role}>
              <span className="badge text-bg-primary d-inline-flex align-items-center gap-1 ap-role-badge" data-testid="role-badge">
                <span>{role}</span>
                <button
                  type="button"
                  className="btn-close btn-close-white ap-role-remove"
                  aria-label={`Gruppe ${role} entfernen`}
                  onClick={() => removeRole(role)}
                />
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
