//! Contacts and double opt-in mails (spec §7 "Contacts"). Each handler reads the request and
//! calls one service function.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Json as JsonResponse, Response};
use axum::routing::{get, patch, post, put};
use serde_json::{Value, json};

use super::extract::{AuthUser, Json, Path, Query};
use crate::auth::require::require;
use crate::domain::double_opt_in::FAILED;
use crate::domain::permissions::Capability;
use crate::error::ApiError;
use crate::server::client::Client;
use crate::services::contacts::{self, ContactPage, ContactQuery, ContactView};
use crate::services::customer_groups::{self, CustomerGroup};
use crate::services::error::ServiceError;
use crate::services::{brevo_sync, contact_mirror, double_opt_in};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    // The contacts table and the mass mail: the admin area (spec §6).
    let table = Router::new()
        .route("/contacts", get(page))
        .route("/contacts/providers/{provider_ids}", get(page_of_providers))
        .route("/contacts/marketing-retries", get(marketing_retries))
        .route("/smtp/emails", post(send_all).get(mail_job))
        .route_layer(require(Capability::AdminArea));
    // The sync manager (Admin only).
    let sync = Router::new()
        .route(
            "/syncContactsFromBrevo",
            get(sync_from_brevo)
                .layer(axum::middleware::from_fn(crate::auth::csrf::same_site_only)),
        )
        .route_layer(require(Capability::AdminOnly));
    // The contact editor (Admin, BU-Moderator, BU-DOI).
    let editor = Router::new()
        .route("/contacts", post(create))
        .route("/contacts/{id}", put(update))
        .route("/contacts/email/{email}", get(by_email))
        .route(
            "/contacts/customer-number/{number}",
            get(by_customer_number).put(save_customer_group),
        )
        .route("/contacts/{id}/lists", get(lists_of))
        .route("/contacts/lists", get(lists_without_ids))
        .route("/contacts/lists/{contact_ids}", get(lists_of_many))
        .route("/smtp/email/{email}", post(send_one))
        .route_layer(require(Capability::ContactEdit));
    // Blocking and deleting (Admin, BU-Moderator).
    let details = Router::new()
        .route("/contacts/{id}", axum::routing::delete(remove))
        .route("/contacts/email-blacklist/{id}", patch(toggle_blacklist))
        .route_layer(require(Capability::ContactDetails));
    // The link from the mail: no login (spec §2).
    let public = Router::new().route(
        "/contacts/confirm-double-opt-in/{token}",
        patch(confirm_double_opt_in),
    );
    table.merge(sync).merge(editor).merge(details).merge(public)
}

async fn page(
    State(state): State<AppState>,
    Query(query): Query<ContactQuery>,
) -> Result<JsonResponse<ContactPage>, ApiError> {
    let params = query.params(crate::domain::time::now())?;
    Ok(JsonResponse(contacts::page(&state.db, &params).await?))
}

async fn page_of_providers(
    State(state): State<AppState>,
    Path(provider_ids): Path<String>,
    Query(query): Query<ContactQuery>,
) -> Result<JsonResponse<ContactPage>, ApiError> {
    let mut params = query.params(crate::domain::time::now())?;
    params.filter.provider_ids = Some(contacts::provider_ids(&provider_ids)?);
    Ok(JsonResponse(contacts::page(&state.db, &params).await?))
}

/// A contact with this email, or an empty object (spec §7).
async fn by_email(
    State(state): State<AppState>,
    Path(email): Path<String>,
) -> Result<JsonResponse<Value>, ApiError> {
    Ok(JsonResponse(
        match contacts::by_email(&state.db, &email).await? {
            Some(contact) => json!(contact),
            None => json!({}),
        },
    ))
}

async fn by_customer_number(
    State(state): State<AppState>,
    Path(number): Path<String>,
) -> Result<JsonResponse<CustomerGroup>, ApiError> {
    Ok(JsonResponse(
        customer_groups::load(&state.db, state.planning.as_ref(), &number).await?,
    ))
}

/// The contact editor's save: the customer group as one unit.
async fn save_customer_group(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(number): Path<String>,
    Json(body): Json<Value>,
) -> Result<JsonResponse<CustomerGroup>, ApiError> {
    Ok(JsonResponse(
        customer_groups::save(
            &state.db,
            &state.marketing,
            state.planning.as_ref(),
            &user,
            &number,
            &body,
        )
        .await?,
    ))
}

/// Streams the sync's results as JSON objects, one per line, as they come.
async fn sync_from_brevo(State(state): State<AppState>) -> Result<Response, ApiError> {
    let held = brevo_sync::acquire(&state.db, &state.marketing).await?;
    let (sender, receiver) = tokio::sync::mpsc::channel(64);
    tokio::spawn(brevo_sync::run(
        state.db.clone(),
        held,
        state.config.brevo_sync_page_size,
        sender,
    ));
    let lines = futures_util::stream::unfold(receiver, |mut receiver| async move {
        let event = receiver.recv().await?;
        let mut line = serde_json::to_vec(&event).unwrap_or_default();
        line.push(b'\n');
        Some((Ok::<_, std::convert::Infallible>(line), receiver))
    });
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, "application/x-ndjson"),
            (axum::http::header::CACHE_CONTROL, "no-store"),
            // Proxies must pass each line on at once.
            (
                axum::http::HeaderName::from_static("x-accel-buffering"),
                "no",
            ),
        ],
        axum::body::Body::from_stream(lines),
    )
        .into_response())
}

async fn lists_of(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<JsonResponse<Value>, ApiError> {
    let lists = contacts::lists_of(&state.db, id).await?;
    Ok(JsonResponse(
        json!({ "count": lists.len(), "content": lists }),
    ))
}

async fn lists_without_ids() -> ApiError {
    ApiError::validation(contacts::NO_CONTACT_IDS)
}

async fn lists_of_many(
    State(state): State<AppState>,
    Path(contact_ids): Path<String>,
) -> Result<JsonResponse<Value>, ApiError> {
    let (lists, count) = contacts::lists_of_many(&state.db, Some(&contact_ids)).await?;
    Ok(JsonResponse(json!({ "count": count, "content": lists })))
}

async fn create(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Json(body): Json<Value>,
) -> Result<(StatusCode, JsonResponse<ContactView>), ApiError> {
    let contact = contacts::create(&state.db, &state.marketing, &user, &body).await?;
    Ok((StatusCode::CREATED, JsonResponse(contact)))
}

async fn update(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Json(body): Json<Value>,
) -> Result<JsonResponse<ContactView>, ApiError> {
    Ok(JsonResponse(
        contacts::update(&state.db, &state.marketing, &user, id, &body).await?,
    ))
}

async fn remove(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<JsonResponse<Value>, ApiError> {
    contacts::delete(&state.db, &state.marketing, id).await?;
    Ok(JsonResponse(
        json!({ "message": "Erfolgreich entfernt", "id": id }),
    ))
}

async fn toggle_blacklist(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<JsonResponse<ContactView>, ApiError> {
    Ok(JsonResponse(
        contacts::toggle_blacklist(&state.db, &state.marketing, id).await?,
    ))
}

/// 200 when confirmed; 404 with the page's failure text for an unknown or expired link.
async fn confirm_double_opt_in(
    State(state): State<AppState>,
    client: Client,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let address = client.ip.to_string();
    match double_opt_in::confirm(&state.db, &state.marketing, &token, Some(&address)).await {
        Ok(()) => Ok(JsonResponse(json!({
            "code": "DOUBLE_OPT-IN_CONFIRMED",
            "message": crate::domain::double_opt_in::VERIFIED,
        }))
        .into_response()),
        Err(ServiceError::NotFound) => Ok((
            StatusCode::NOT_FOUND,
            JsonResponse(json!({ "code": "double_opt_in_failed", "message": FAILED })),
        )
            .into_response()),
        Err(err) => Err(err.into()),
    }
}

async fn send_one(
    State(state): State<AppState>,
    Path(email): Path<String>,
) -> Result<JsonResponse<double_opt_in::SendAnswer>, ApiError> {
    Ok(JsonResponse(
        double_opt_in::send_one(&state.db, &state.mailer, &state.mail_settings, &email).await?,
    ))
}

async fn send_all(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
) -> Result<JsonResponse<double_opt_in::MassAnswer>, ApiError> {
    Ok(JsonResponse(
        double_opt_in::send_all(&state.db, &state.mail_settings, &state.mail_jobs, &user).await?,
    ))
}

/// The newest mass mail and how far it has come.
async fn mail_job(State(state): State<AppState>) -> Result<JsonResponse<Value>, ApiError> {
    Ok(JsonResponse(double_opt_in::job_json(
        double_opt_in::latest_job(&state.db).await?,
    )))
}

/// Changes that still have to reach Brevo (visible to admins until done).
async fn marketing_retries(State(state): State<AppState>) -> Result<JsonResponse<Value>, ApiError> {
    let (content, count) = contact_mirror::open_retries(&state.db).await?;
    Ok(JsonResponse(json!({ "content": content, "count": count })))
}
