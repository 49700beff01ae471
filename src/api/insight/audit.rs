//! The audit log (issue 24): `GET /api/audit`, a page of entries, newest first. Admin only;
//! no call changes or deletes an entry.

use axum::Router;
use axum::extract::State;
use axum::response::Json as JsonResponse;
use axum::routing::get;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, Query};
use crate::auth::require::require;
use crate::domain::permissions::Capability;
use crate::services::insight::audit::{self, AuditPage, AuditQuery};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/audit", get(list))
        .route_layer(require(Capability::AdminOnly))
}

/// The filter and page of `GET /api/audit`; every filter may be empty (any).
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
struct AuditParams {
    /// Entries per page, 1–1000 (default 20).
    #[param(minimum = 1, maximum = 1000)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    limit: Option<i64>,
    /// Entries to skip, from 0.
    #[param(minimum = 0)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    offset: Option<i64>,
    /// What the change happened to: `provider`, `list`, `package`, `upload`, `contact`,
    /// `customerGroup`, `tag`, `user`, `import` or `sync`.
    #[param(value_type = Option<String>, pattern = "^(provider|list|package|upload|contact|customerGroup|tag|user|import|sync)?$")]
    entity: Option<String>,
    /// The record's id (with `entity`: that record's history); digits only, at most 18
    /// significant ones.
    #[param(value_type = Option<String>, pattern = "^(0*[1-9][0-9]{0,17})?$")]
    entity_id: Option<String>,
    /// Who: a login (e-mail address), `CLI` or `System`; exact, at most 255 characters.
    #[param(value_type = Option<String>, max_length = 255)]
    actor: Option<String>,
    /// From this German day on, `YYYY-MM-DD`, years 2000–2100; anything else answers 400.
    #[param(value_type = Option<String>, pattern = "^([0-9]{4}-[0-9]{2}-[0-9]{2})?$")]
    from: Option<String>,
    /// Up to the end of this German day, `YYYY-MM-DD`, years 2000–2100; not before `from`.
    #[param(value_type = Option<String>, pattern = "^([0-9]{4}-[0-9]{2}-[0-9]{2})?$")]
    to: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/audit",
    operation_id = "getAuditLog",
    tag = "audit",
    summary = "The audit log",
    description = "Every change made through the portal or the CLI, newest first: when, who (`actor`: a login, `CLI` or `System`), what (`action`, `entity`, `entityId`) and the changed fields before → after (`changes`, by their stored key, each with the German `label` of the screen where it is edited; a set of ids whose order alone changed is no change). Each entry keeps the name its record had when it was written (`entityName`) and gives today's (`currentName`). Filtered by entity, entity id, actor and German days, a page at a time. Entries are written in the transaction of their change and kept for `AP_AUDIT_DAYS` (default 730); no call changes or deletes one.\n\n**Wer darf:** nur `GS-Aktionsportal-Admin` (Capability `AdminOnly`).",
    params(AuditParams),
    responses(
        (status = 200, description = "A page of entries and how many match.", body = AuditPage, content_type = "application/json", example = json!({"content": [{"at": "2026-11-24T09:15:02.123456Z", "actor": "admin@example.com", "action": "update", "actionLabel": "geändert", "entity": "provider", "entityLabel": "Anbieter", "entityId": 3, "entityName": "Strom & Gas", "currentName": "Strom & Gas", "changes": {"name": {"before": "Strom", "after": "Strom & Gas", "label": "Name"}}, "erasures": []}], "count": 1})),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminOnly"})), ("x-rule-statuses" = json!([400]))),
)]
async fn list(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(params): Query<AuditParams>,
) -> Result<JsonResponse<AuditPage>, ApiError> {
    let query = AuditQuery {
        entity: params.entity.as_deref(),
        entity_id: params.entity_id.as_deref(),
        actor: params.actor.as_deref(),
        from: params.from.as_deref(),
        to: params.to.as_deref(),
        limit: params.limit,
        offset: params.offset,
    };
    Ok(JsonResponse(
        state
            .within_list_time(audit::page(&state.db, &user, &query))
            .await?,
    ))
}
