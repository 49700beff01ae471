//! The planning system (AlphaPlan ERP) as the source of a customer's contacts.
//!
//! AlphaPlan publishes no API (external-apis §3), so the portal defines its own small contract,
//! served by whatever the company puts in front of AlphaPlan (a plugin, a view behind a small
//! web service):
//!
//! `GET {AP_PLANNING_URL}/customers/{customerNumber}` (with `Authorization: Bearer
//! {AP_PLANNING_TOKEN}` when a token is set) answers
//!
//! ```json
//! { "customerNumber": 10042, "companyName": "Muster GmbH",
//!   "contacts": [ { "salutation": 2, "firstname": "Max", "lastname": "Muster",
//!                   "email": "max@muster.de" } ] }
//! ```
//!
//! or 404 for an unknown customer. `salutation` is spec §3's number (0–4) or its German word.

use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

/// Largest answer accepted (a company with some hundred contacts is far below).
const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

/// A contact as the planning system names it (checked by the caller).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlannedContact {
    #[serde(default)]
    pub salutation: Value,
    #[serde(default)]
    pub firstname: String,
    #[serde(default)]
    pub lastname: String,
    #[serde(default)]
    pub email: String,
}

/// A company as the planning system knows it.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlannedCompany {
    #[serde(default)]
    pub company_name: String,
    #[serde(default)]
    pub contacts: Vec<PlannedContact>,
}

/// Why the planning system gave no answer.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlanningError {
    #[error("planning system did not answer in time")]
    Timeout,
    #[error("planning system unreachable: {0}")]
    Unreachable(String),
    #[error("planning system answered {0}")]
    Status(u16),
    #[error("planning system answered something that is not the contract: {0}")]
    Malformed(String),
}

/// The planning system's client; `None` in the state when `AP_PLANNING_URL` is not set.
#[derive(Clone, Debug)]
pub struct PlanningClient {
    http: reqwest::Client,
    base_url: String,
    token: Option<String>,
}

impl PlanningClient {
    pub fn new(base_url: &str, token: Option<String>, timeout: Duration) -> PlanningClient {
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        PlanningClient {
            http,
            base_url: base_url.trim_end_matches('/').to_string(),
            token,
        }
    }

    /// The company and its contacts; `Ok(None)` when the planning system does not know it.
    pub async fn customer(
        &self,
        customer_number: i64,
    ) -> Result<Option<PlannedCompany>, PlanningError> {
        let url = format!("{}/customers/{customer_number}", self.base_url);
        let mut request = self.http.get(&url).header("accept", "application/json");
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.map_err(classify)?;
        match response.status().as_u16() {
            200 => {}
            404 => return Ok(None),
            other => return Err(PlanningError::Status(other)),
        }
        let body = match super::read_body(response, MAX_BODY_BYTES).await {
            Ok(body) => body,
            Err(super::BodyError::TooLarge) => {
                return Err(PlanningError::Malformed("answer too large".into()));
            }
            Err(super::BodyError::Transport(err)) => return Err(classify(err)),
        };
        serde_json::from_slice::<PlannedCompany>(&body)
            .map(Some)
            .map_err(|err| PlanningError::Malformed(err.to_string()))
    }
}

fn classify(err: reqwest::Error) -> PlanningError {
    if err.is_timeout() {
        PlanningError::Timeout
    } else {
        PlanningError::Unreachable(super::error_chain(&err))
    }
}
