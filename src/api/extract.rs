//! Extractors whose rejections answer like every other error: `{message, code}` in German.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::api::error::ApiError;
use crate::domain::paging::Paging;
use crate::server::limits::is_slow_body;

/// Query parameters; malformed ones give 400.
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| Query(q.0))
            .map_err(|e| {
                tracing::debug!(rejection = %e.body_text(), "query rejected");
                ApiError::validation("Die Adresse enthält ungültige Parameter.")
            })
    }
}

/// Path parameters; an id that is not a number names no record, so 404.
pub struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| Path(p.0))
            .map_err(|_| ApiError::NotFound)
    }
}

/// A JSON body, deserialized into the type that also describes it in the API description.
/// A missing content type or malformed JSON gives 400, as does a value of the wrong shape
/// (the message names the field); a body over the limit 413, one that arrives too slowly 408.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        if !is_json(request.headers()) {
            return Err(ApiError::validation(
                "Die Anfrage muss JSON senden (Content-Type: application/json).",
            ));
        }
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                tracing::debug!(rejection = %rejection.body_text(), "body rejected");
                if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::PayloadTooLarge {
                        message: format!(
                            "Die Anfrage ist zu groß. Erlaubt sind höchstens {} MB.",
                            JSON_BODY_LIMIT / (1024 * 1024)
                        ),
                    }
                } else if is_slow_body(&rejection) {
                    ApiError::SlowRequest
                } else {
                    ApiError::validation("Die Anfrage hat nicht das erwartete Format.")
                }
            })?;
        parse_json(&bytes).map(Json).map_err(ApiError::validation)
    }
}

/// `application/json` or a `+json` type, as axum's own extractor accepts.
fn is_json(headers: &axum::http::HeaderMap) -> bool {
    let Some(mime) = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
    else {
        return false;
    };
    let mime = mime.trim().to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

/// The body as `T`, or a German message that names the field whose value has the wrong
/// shape (`Das Feld „contacts[2].email“ …`).
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        tracing::debug!(%path, error = %inner, "body rejected");
        if !inner.is_data() {
            return "Die Anfrage ist kein gültiges JSON.".to_string();
        }
        let text = inner.to_string();
        let missing = text
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next());
        match (missing, path.as_str()) {
            (Some(field), ".") => format!("Das Feld „{field}“ fehlt."),
            (Some(field), path) => format!("Das Feld „{path}.{field}“ fehlt."),
            (None, ".") => "Die Anfrage hat nicht das erwartete Format.".to_string(),
            (None, path) => format!("Das Feld „{path}“ hat nicht das erwartete Format."),
        }
    })?;
    // Nothing but whitespace may follow the value.
    deserializer
        .end()
        .map_err(|_| "Die Anfrage ist kein gültiges JSON.".to_string())?;
    Ok(value)
}

/// The largest JSON body accepted (axum's default body limit).
pub const JSON_BODY_LIMIT: usize = 2 * 1024 * 1024;

/// The signed-in user; without one, 401 with code `not_logged_in`.
pub struct AuthUser(pub crate::domain::user::User);

impl<S: Send + Sync> FromRequestParts<S> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<crate::domain::user::CurrentUser>()
            .and_then(|current| current.0.clone())
            .map(AuthUser)
            .ok_or(ApiError::Unauthorized {
                code: "not_logged_in",
            })
    }
}

/// Paging and filter parameters the list calls share (spec §3 "Paging", §9).
#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Page size; default 20 (spec §9), 1–1000 (others answer 400).
    #[param(minimum = 1, maximum = 1000)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    pub limit: Option<i64>,
    /// Entries to skip; from 0 (negative answers 400).
    #[param(minimum = 0)]
    #[serde(default, deserialize_with = "crate::domain::paging::integer")]
    pub offset: Option<i64>,
    /// `ASC` or `DESC` (default), any letter case; anything else answers 400.
    #[param(value_type = Option<crate::domain::paging::SortOrder>, inline)]
    pub sort: Option<String>,
    /// Read by the lists that sort by more than one column; the calls documented with these
    /// parameters sort by id and do not read it.
    #[param(ignore)]
    pub sort_by: Option<String>,
    /// Part of the name, any letter case; trimmed, empty means no filter.
    pub search: Option<String>,
}

impl PageQuery {
    /// The page asked for, up to `max_limit` entries; out of range answers 400.
    pub fn paging(&self, max_limit: i64) -> Result<Paging, ApiError> {
        Paging::parse(self.limit, self.offset, self.sort.as_deref(), max_limit)
            .map_err(ApiError::validation)
    }

    pub fn search(&self) -> String {
        crate::domain::text::search_text(self.search.as_deref().unwrap_or(""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::paging::MAX_PAGE_SIZE;

    /// A `limit`, `offset` or `sort` as a client might send it.
    fn value() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::prop_oneof![
            proptest::prelude::any::<String>(),
            "[-+ ]?[0-9]{0,22}(\\.[0-9]{0,3})?",
            "(?i)(asc|desc|x)?",
        ]
    }

    #[test]
    fn paging_numbers_are_whole_numbers_as_described() {
        let page = |query: &str| {
            let uri: axum::http::Uri = format!("/api/contacts?{query}").parse().unwrap();
            axum::extract::Query::<PageQuery>::try_from_uri(&uri).map(|q| q.0)
        };
        assert_eq!(page("limit=50&offset=-0").unwrap().limit, Some(50));
        assert_eq!(page("").unwrap().limit, None);
        for bad in [
            "limit=%2B1",
            "offset=%201",
            "limit=1.0",
            "limit=",
            "offset=99999999999999999999",
        ] {
            assert!(page(bad).is_err(), "{bad}");
        }
    }

    proptest::proptest! {
        /// No query panics the paging (read as the handlers read it, through axum's query
        /// extractor), and an accepted page is within its bounds.
        #[test]
        fn no_query_panics_the_paging(limit in value(), offset in value(), sort in value()) {
            let query = url::form_urlencoded::Serializer::new(String::new())
                .append_pair("limit", &limit)
                .append_pair("offset", &offset)
                .append_pair("sort", &sort)
                .finish();
            let uri: axum::http::Uri = format!("/api/contacts?{query}").parse().unwrap();
            if let Ok(axum::extract::Query(page)) =
                axum::extract::Query::<PageQuery>::try_from_uri(&uri)
                && let Ok(paging) = page.paging(MAX_PAGE_SIZE)
            {
                proptest::prop_assert!((1..=MAX_PAGE_SIZE).contains(&paging.limit));
                proptest::prop_assert!(paging.offset >= 0);
                // Only whole numbers as the description writes them (no `+1`, no spaces).
                let whole = |t: &str| {
                    let digits = t.strip_prefix('-').unwrap_or(t);
                    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
                };
                proptest::prop_assert!(whole(&limit) && whole(&offset), "{limit:?} {offset:?}");
            }
        }
    }
}

/// `?ids=…`: the packages of a list's page, for the figures asked per page (the admin list's
/// downloads and announcements).
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PackageIdsQuery {
    /// Package ids as a JSON array or separated by commas, at most 1000.
    #[param(value_type = crate::domain::input::IdsText)]
    ids: Option<String>,
}

impl PackageIdsQuery {
    /// The ids, or a German 400 when there are none or they are malformed.
    pub fn ids(&self) -> Result<Vec<i64>, ApiError> {
        crate::domain::input::ids_in_text(self.ids.as_deref().unwrap_or(""))
            .filter(|ids| !ids.is_empty())
            .ok_or_else(|| {
                ApiError::validation("ids muss eine Liste von Download-Ids sein, z. B. 1,2,3.")
            })
    }
}
