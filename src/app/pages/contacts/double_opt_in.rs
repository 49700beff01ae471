//! The double opt-in page (spec §2): opened from the mail, no login. The GET only shows a
//! form; the confirmation happens when the form posts to the server function below, which
//! a browser with JavaScript does by itself and one without by its button. Mail scanners that
//! fetch the link therefore confirm nothing.

use leptos::prelude::*;
use leptos_meta::Meta;
use serde::Serialize;

use crate::app::island::{CountdownProps, Island, props_json};
use crate::app::layout::Layout;
use crate::app::loaded::loaded;
use crate::app::{no_store, page_env, set_status};
use crate::domain::double_opt_in::{CONSENT_TEXT, COUNTDOWN_SECONDS, FAILED, VERIFIED, link_path};
use crate::services::contacts::double_opt_in::LinkState;

/// What the route loaded for the page: the link's state and its token.
pub struct LinkPage {
    pub state: LinkState,
    pub token: String,
}

/// The path the page's form posts to (a Leptos server function with a stable endpoint).
pub const CONFIRM_PATH: &str = "/api/fn/confirm-double-opt-in";

/// Confirms the contact of the link and returns to the link's page, which then shows the
/// result. Calls the same service as `PATCH /api/contacts/confirm-double-opt-in/{token}`.
#[server(prefix = "/api/fn", endpoint = "confirm-double-opt-in")]
pub async fn confirm_double_opt_in(token: String) -> Result<(), ServerFnError> {
    use crate::server::client::Client;
    use crate::services::error::ServiceError;
    use crate::state::AppState;

    let state = use_context::<AppState>()
        .ok_or_else(|| ServerFnError::new("Der Server ist nicht bereit."))?;
    let (client, headers): (Client, axum::http::HeaderMap) = leptos_axum::extract().await?;
    let address = client.ip.to_string();
    let by = crate::services::contacts::double_opt_in::Confirming {
        address: &address,
        user_agent: headers
            .get(axum::http::header::USER_AGENT)
            .and_then(|value| value.to_str().ok()),
    };
    match crate::services::contacts::double_opt_in::confirm(&state.db, &state.marketing, &token, by)
        .await
    {
        // An unknown or expired link: the page says so.
        Ok(()) | Err(ServiceError::NotFound) => {}
        Err(err) => {
            tracing::error!(error = %err, "double opt-in confirmation failed");
            return Err(ServerFnError::new(FAILED));
        }
    }
    // Tokens are 64 hex digits; anything else goes to the page of an unknown link.
    let token: String = token
        .chars()
        .filter(char::is_ascii_hexdigit)
        .take(64)
        .collect();
    leptos_axum::redirect(&link_path(&token));
    Ok(())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AutoSubmitProps {
    form_id: &'static str,
    text: &'static str,
}

const REDIRECT_TEXT: &str = "Sie werden in {s} Sekunden zum Portal weitergeleitet.";
const FORM_ID: &str = "double-opt-in-form";

#[component]
pub fn VerifyDoubleOptIn() -> impl IntoView {
    no_store();
    let page = loaded::<LinkPage>();
    let product = page_env().config().product_name.clone();
    let content = match page.as_deref() {
        Some(LinkPage {
            state: LinkState::Pending,
            token,
        }) => {
            let props = props_json(&AutoSubmitProps {
                form_id: FORM_ID,
                text: "Ihre E-Mail-Adresse wird bestätigt …",
            });
            view! {
                <h1 class="h3">"E-Mail-Adresse bestätigen"</h1>
                <p>{CONSENT_TEXT}</p>
                <form id=FORM_ID method="post" action=CONFIRM_PATH>
                    <input type="hidden" name="token" value=token.clone()/>
                    <button type="submit" class="btn btn-primary">"E-Mail-Adresse jetzt bestätigen"</button>
                </form>
                <Island name="AutoSubmit" props=props/>
            }
            .into_any()
        }
        Some(LinkPage {
            state: LinkState::Confirmed,
            ..
        }) => {
            let props = props_json(&CountdownProps {
                seconds: COUNTDOWN_SECONDS,
                target: "/",
                text: REDIRECT_TEXT,
            });
            view! {
                <Meta http_equiv="refresh" content=format!("{COUNTDOWN_SECONDS};url=/")/>
                <h1 class="h3" data-testid="double-opt-in-verified">{VERIFIED}</h1>
                <p>{format!("Willkommen im {product} Aktionsportal! Ab sofort finden Sie Ihre Aktionen und Werbematerialien im Portal.")}</p>
                <p><a href="/user/downloads">"Zu Ihren Downloads"</a></p>
                <Island name="Countdown" props=props>
                    <p>{REDIRECT_TEXT.replace("{s}", &COUNTDOWN_SECONDS.to_string())}</p>
                </Island>
            }
            .into_any()
        }
        _ => {
            set_status(axum::http::StatusCode::NOT_FOUND);
            view! {
                <h1 class="h3">"E-Mail-Adresse bestätigen"</h1>
                <p class="text-danger" role="alert" data-testid="double-opt-in-failed">{FAILED}</p>
            }
            .into_any()
        }
    };
    view! {
        <Layout>
            <section class="ap-card-page card mx-auto">
                <div class="card-body p-4 text-center">{content}</div>
            </section>
        </Layout>
    }
}
