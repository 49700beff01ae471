//! Download statistics (issue 24): the summary of a range, one package's figures, who took a
//! package (Admin only), and the packages as CSV. Admin area; moderators see the providers
//! they manage.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Json as JsonResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::error::ApiError;
use crate::api::extract::{AuthUser, PackageIdsQuery, Path, Query};
use crate::auth::require::require;
use crate::domain::input::id_of_query;
use crate::domain::permissions::Capability;
use crate::domain::statistics::DayRange;
use crate::domain::time::berlin_date;
use crate::services::insight::statistics::export::{self, View};
use crate::services::insight::statistics::mail_figures::PackageMails;
use crate::services::insight::statistics::mails;
use crate::services::insight::statistics::reports::{
    self, PackageDownloads, PackageStatistics, ProviderShare, Summary,
};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/statistics/summary", get(summary))
        .route("/statistics/providers", get(providers))
        .route("/statistics/mails", get(mails))
        .route("/statistics/downloads", get(downloads_of_packages))
        .route("/statistics/packages.csv", get(packages_csv))
        .route("/statistics/export.csv", get(export_csv))
        .route("/statistics/packages/{id}", get(package))
        .route(
            "/statistics/packages/{id}/customers",
            get(package_customers),
        )
        .route_layer(require(Capability::AdminArea))
}

/// The days of a report.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct RangeQuery {
    /// First day, `YYYY-MM-DD` (German days), years 2000–2100; empty or absent: 29 days
    /// before `to`.
    #[param(value_type = Option<String>, pattern = "^([0-9]{4}-[0-9]{2}-[0-9]{2})?$")]
    from: Option<String>,
    /// Last day, `YYYY-MM-DD`, years 2000–2100; empty or absent: today. At most 367 days
    /// after `from`.
    #[param(value_type = Option<String>, pattern = "^([0-9]{4}-[0-9]{2}-[0-9]{2})?$")]
    to: Option<String>,
}

impl RangeQuery {
    fn range(&self) -> Result<DayRange, ApiError> {
        range_of(self.from.as_deref(), self.to.as_deref())
    }
}

/// The German days `from..=to` (see [`DayRange::parse`]), counted from today in Berlin.
fn range_of(from: Option<&str>, to: Option<&str>) -> Result<DayRange, ApiError> {
    let today = berlin_date(chrono::Utc::now());
    DayRange::parse(from, to, today).map_err(ApiError::validation)
}

/// The days of a report and, optionally, one provider (described as `RangeQuery` and
/// `providerId`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SummaryQuery {
    from: Option<String>,
    to: Option<String>,
    provider_id: Option<String>,
}

impl SummaryQuery {
    /// The days and the provider asked for; either malformed: 400 naming it.
    fn parse(&self) -> Result<(DayRange, Option<i64>), ApiError> {
        Ok((
            range_of(self.from.as_deref(), self.to.as_deref())?,
            optional_id(self.provider_id.as_deref(), "providerId")?,
        ))
    }
}

#[utoipa::path(
    get,
    path = "/api/statistics/summary",
    operation_id = "getStatisticsSummary",
    tag = "statistics",
    summary = "Downloads of a range",
    description = "Totals of the range (downloads from byte 0 of single files and of files in ZIPs, distinct customer numbers, the share that came in ZIPs), the downloads of every day, the ten most downloaded packages and files, and the packages valid in the range that nobody downloaded (not archived, at most 100). Read from the anonymous daily roll-ups.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`); Moderatoren sehen nur die Anbieter, die sie verwalten (`allowedRoles`).",
    params(RangeQuery, ("providerId" = Option<String>, Query, pattern = "^(0*[1-9][0-9]{0,17})?$", description = "Only this provider (one the user manages); default: all the user manages.")),
    responses(
        (status = 200, description = "The figures. `ETag` names the answer; it is kept until downloads are counted or anything it names changes.", body = Summary, content_type = "application/json"),
        (status = 304, description = "Not modified: `If-None-Match` names the current answer."),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400, 403, 404]))),
)]
async fn summary(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<SummaryQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (range, provider) = query.parse()?;
    let answer = state
        .within_list_time(reports::summary(
            &state.db,
            &state.answers,
            &state.statistics_rankings,
            &user,
            range,
            provider,
        ))
        .await?;
    Ok(crate::api::operations::kept::json(
        answer,
        &headers,
        crate::api::operations::kept::REVALIDATE,
    ))
}

#[utoipa::path(
    get,
    path = "/api/statistics/packages/{id}",
    operation_id = "getPackageStatistics",
    tag = "statistics",
    summary = "Downloads of one package",
    description = "The package's downloads and distinct customer numbers in the range, each file's downloads, and the downloads of every day.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`) für Pakete der Anbieter, die der Benutzer verwaltet (Admin: alle).",
    params(("id" = i64, Path, description = "The package's id; not a number or unknown: 404."), RangeQuery),
    responses(
        (status = 200, description = "The figures.", body = PackageStatistics, content_type = "application/json"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400, 403, 404]))),
)]
async fn package(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Query(query): Query<RangeQuery>,
) -> Result<JsonResponse<PackageStatistics>, ApiError> {
    let range = query.range()?;
    Ok(JsonResponse(
        reports::package(&state.db, &user, id, range).await?,
    ))
}

/// Who took a package.
#[derive(Serialize, ToSchema)]
struct CustomersPage {
    /// One row per customer number, the most downloads first.
    content: Vec<CustomerTook>,
    count: i64,
}

/// A customer number and its downloads of the package's files.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct CustomerTook {
    customer_number: i64,
    downloads: i64,
    /// The last delivery (RFC 3339).
    last_at: chrono::DateTime<chrono::Utc>,
}

#[utoipa::path(
    get,
    path = "/api/statistics/packages/{id}/customers",
    operation_id = "getPackageCustomers",
    tag = "statistics",
    summary = "Which customer numbers took a package",
    description = "The customer numbers that downloaded files of the package in the range, as far as the personal events reach (`AP_STATS_PERSONAL_DAYS`, default 90 days); older days give none.\n\n**Wer darf:** nur `GS-Aktionsportal-Admin`.",
    params(("id" = i64, Path, description = "The package's id; not a number or unknown: 404."), RangeQuery),
    responses(
        (status = 200, description = "The customer numbers.", body = CustomersPage, content_type = "application/json"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400, 403, 404]))),
)]
async fn package_customers(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Path(id): Path<i64>,
    Query(query): Query<RangeQuery>,
) -> Result<JsonResponse<CustomersPage>, ApiError> {
    let range = query.range()?;
    let rows = reports::package_customers(&state.db, &user, id, range).await?;
    let content: Vec<CustomerTook> = rows
        .into_iter()
        .map(|r| CustomerTook {
            customer_number: r.customer_number,
            downloads: r.downloads,
            last_at: r.last_at,
        })
        .collect();
    Ok(JsonResponse(CustomersPage {
        count: content.len() as i64,
        content,
    }))
}

#[utoipa::path(
    get,
    path = "/api/statistics/packages.csv",
    operation_id = "getPackageStatisticsCsv",
    tag = "statistics",
    summary = "The packages' downloads as CSV",
    description = "Every package with downloads in the range (the user's providers), the most downloaded first, as CSV for German Excel: UTF-8 with a byte-order mark, `;` between cells, CRLF. Cells that begin with `=`, `+`, `-`, `@`, a tab or a carriage return get a leading `'` (CSV injection). The same as `export.csv?view=packages`.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`); Moderatoren sehen nur die Anbieter, die sie verwalten.",
    params(RangeQuery),
    responses(
        (status = 200, description = "The CSV file.", body = String, content_type = "text/csv"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400]))),
)]
async fn packages_csv(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<RangeQuery>,
) -> Result<Response, ApiError> {
    let range = query.range()?;
    let export = export::export(
        &state.db,
        &state.answers,
        &user,
        View::Packages,
        range,
        None,
        None,
    )
    .await?;
    Ok(csv_answer(export))
}

/// A statistics view to export.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExportQuery {
    view: Option<String>,
    from: Option<String>,
    to: Option<String>,
    provider_id: Option<String>,
    package_id: Option<String>,
}

/// An optional id of the query; not an id: 400 naming the parameter.
fn optional_id(text: Option<&str>, name: &str) -> Result<Option<i64>, ApiError> {
    match text.filter(|t| !t.is_empty()) {
        Some(text) => id_of_query(text)
            .map(Some)
            .ok_or_else(|| ApiError::validation(format!("{name} muss eine Zahl sein."))),
        None => Ok(None),
    }
}

#[utoipa::path(
    get,
    path = "/api/statistics/export.csv",
    operation_id = "exportStatisticsCsv",
    tag = "statistics",
    summary = "A statistics view as CSV",
    description = "One view of the statistics screen as CSV for German Excel (UTF-8 with BOM, `;`, CRLF, days as `TT.MM.JJJJ`, shares with a decimal comma, formula cells neutralised): `days` (downloads per day), `packages`, `files`, `untouched` (packages valid in the range nobody downloaded), `providers` (each provider's share of its dealers), `package` (one package's files; needs `packageId`). `providerId` narrows `days`, `packages`, `files` and `untouched` as on the screen.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`); Moderatoren sehen nur die Anbieter, die sie verwalten.",
    params(
        ("view" = String, Query, pattern = "^(days|packages|files|untouched|providers|package)$", description = "The view."),
        RangeQuery,
        ("providerId" = Option<String>, Query, pattern = "^(0*[1-9][0-9]{0,17})?$", description = "Only this provider (one the user manages)."),
        ("packageId" = Option<String>, Query, pattern = "^(0*[1-9][0-9]{0,17})?$", description = "The package of `view=package`."),
    ),
    responses(
        (status = 200, description = "The CSV file.", body = String, content_type = "text/csv"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400, 403, 404]))),
)]
async fn export_csv(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<ExportQuery>,
) -> Result<Response, ApiError> {
    let view = query.view.as_deref().and_then(View::parse).ok_or_else(|| {
        ApiError::validation(format!(
            "view muss eines von {} sein.",
            View::WORDS.join(", ")
        ))
    })?;
    let range = range_of(query.from.as_deref(), query.to.as_deref())?;
    let provider = optional_id(query.provider_id.as_deref(), "providerId")?;
    let package = optional_id(query.package_id.as_deref(), "packageId")?;
    let export = export::export(
        &state.db,
        &state.answers,
        &user,
        view,
        range,
        provider,
        package,
    )
    .await?;
    Ok(csv_answer(export))
}

/// A CSV file to save (RFC 6266 name, so umlauts survive).
fn csv_answer(export: export::Export) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                crate::api::catalog::delivery::content_disposition(&export.file_name, false),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        crate::api::operations::kept::body(export.csv),
    )
        .into_response()
}

#[utoipa::path(
    get,
    path = "/api/statistics/providers",
    operation_id = "getProviderShares",
    tag = "statistics",
    summary = "How many of each provider's dealers took anything",
    description = "Per provider the user sees: the distinct customer numbers that downloaded its files in the range, its dealers (distinct customer numbers with a contact on one of its lists), and the share.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`); Moderatoren sehen nur die Anbieter, die sie verwalten.",
    params(RangeQuery),
    responses(
        (status = 200, description = "One entry per provider.", body = Vec<ProviderShare>, content_type = "application/json"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400]))),
)]
async fn providers(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<RangeQuery>,
) -> Result<JsonResponse<Vec<ProviderShare>>, ApiError> {
    let range = query.range()?;
    Ok(JsonResponse(
        reports::provider_shares(&state.db, &state.answers, &user, range).await?,
    ))
}

#[utoipa::path(
    get,
    path = "/api/statistics/mails",
    operation_id = "getMailFigures",
    tag = "statistics",
    summary = "What the packages' mails brought",
    description = "The packages whose announcement or notice before the end was queued in the range (at most 100, the newest first), each with the mails sent and failed, the unsubscribes through their links, the downloads that followed a mail's link (channel `mail`), and how many of the customer numbers the announcement reached took anything of the package afterwards. Read fresh on every request.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`); Moderatoren sehen nur die Pakete der Anbieter, die sie verwalten.",
    params(RangeQuery, ("providerId" = Option<String>, Query, pattern = "^(0*[1-9][0-9]{0,17})?$", description = "Only this provider (one the user manages); default: all the user manages.")),
    responses(
        (status = 200, description = "One entry per package.", body = Vec<PackageMails>, content_type = "application/json"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 404, response = crate::api::responses::NotFound),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400, 403, 404]))),
)]
async fn mails(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<SummaryQuery>,
) -> Result<JsonResponse<Vec<PackageMails>>, ApiError> {
    let (range, provider) = query.parse()?;
    Ok(JsonResponse(
        state
            .within_list_time(mails::mailed(&state.db, &user, range, provider))
            .await?,
    ))
}

#[utoipa::path(
    get,
    path = "/api/statistics/downloads",
    operation_id = "getPackageDownloads",
    tag = "statistics",
    summary = "All-time downloads of packages",
    description = "The downloads of each named package since the statistics began (the admin downloads list's column). Packages of providers a moderator does not manage are left out; packages nobody downloaded have 0.\n\n**Wer darf:** Admin-Bereich (Capability `AdminArea`).",
    params(PackageIdsQuery),
    responses(
        (status = 200, description = "One entry per package the user may see.", body = Vec<PackageDownloads>, content_type = "application/json"),
        (status = 400, response = crate::api::responses::BadQuery),
        (status = 401, response = crate::api::responses::NotLoggedIn),
        (status = 403, response = crate::api::responses::Forbidden),
        (status = 500, response = crate::api::responses::InternalError),
        (status = 503, response = crate::api::responses::Timeout),
    ),
    extensions(("x-access" = json!({"capability": "AdminArea"})), ("x-rule-statuses" = json!([400]))),
)]
async fn downloads_of_packages(
    State(state): State<AppState>,
    AuthUser(user): AuthUser,
    Query(query): Query<PackageIdsQuery>,
) -> Result<JsonResponse<Vec<PackageDownloads>>, ApiError> {
    Ok(JsonResponse(
        reports::downloads_of_packages(&state.db, &user, &query.ids()?).await?,
    ))
}
