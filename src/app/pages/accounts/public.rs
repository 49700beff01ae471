//! Pages anyone may open; they work without JavaScript (spec §2).

use axum::http::StatusCode;
use leptos::prelude::*;
use leptos_meta::Meta;

use crate::app::island::{CountdownProps, Island, props_json};
use crate::app::layout::{LOGIN_URL, LOGOUT_URL, Layout};
use crate::app::{no_store, page_env, set_status};
use crate::domain::access::{RETURN_PARAM, safe_return_path};

/// Seconds the server-down page waits before it tries the portal again (spec §9).
pub const SERVER_DOWN_COUNTDOWN_SECONDS: u32 = 10;

/// The page to return to after signing in, from this request's `next` parameter (checked).
fn return_target() -> Option<String> {
    leptos_router::hooks::use_query_map()
        .with_untracked(|q| q.get(RETURN_PARAM))
        .and_then(|next| safe_return_path(&next))
}

#[component]
pub fn Login() -> impl IntoView {
    no_store();
    let partner_signup = page_env().config().partner_signup_url.clone();
    let login_url = match return_target() {
        Some(next) => format!(
            "{LOGIN_URL}?{RETURN_PARAM}={}",
            url::form_urlencoded::byte_serialize(next.as_bytes()).collect::<String>()
        ),
        None => LOGIN_URL.to_string(),
    };
    view! {
        <Meta http_equiv="refresh" content=format!("0;url={login_url}")/>
        <Layout>
            <section class="ap-card-page card mx-auto">
                <div class="card-body p-4 text-center">
                    <h1 class="h3">"Anmeldung"</h1>
                    <p>"Sie werden zur Anmeldung weitergeleitet. Falls nichts passiert, melden Sie sich bitte über den folgenden Link an."</p>
                    <a class="btn btn-primary" href=login_url>
                        <i class="bi bi-box-arrow-in-right"></i>" Jetzt anmelden"
                    </a>
                    <hr/>
                    <p class="mb-1">"Sie sind noch kein Partner?"</p>
                    <a href=partner_signup rel="noopener">"Jetzt Partner werden"</a>
                </div>
            </section>
        </Layout>
    }
}

#[component]
pub fn LoginFailed() -> impl IntoView {
    no_store();
    // Too many logins started from one address (the only reason given here).
    let too_many = leptos_router::hooks::use_query_map().with_untracked(|q| {
        (q.get("fehler").as_deref() == Some("zu-viele")).then(|| {
            let minutes: u64 = q.get("minuten").and_then(|m| m.parse().ok()).unwrap_or(15);
            format!(
                "Von Ihrer Adresse wurden zu viele Anmeldungen begonnen. Bitte versuchen Sie es in {} Minuten erneut.",
                minutes.clamp(1, 15)
            )
        })
    });
    view! {
        <Layout>
            <section class="ap-card-page card mx-auto">
                <div class="card-body p-4 text-center">
                    <h1 class="h3">"Anmeldung fehlgeschlagen"</h1>
                    {too_many.map(|message| view! { <div class="alert alert-warning" role="alert">{message}</div> })}
                    <p>"Die Anmeldung hat leider nicht funktioniert. Bitte wenden Sie sich an Ihren Account Manager."</p>
                    <a class="btn btn-primary" href="/login">"Erneut versuchen"</a>
                </div>
            </section>
        </Layout>
    }
}

/// Where /unauthorized leads back to: the user's start page, never a page that would send
/// the user here again. A user whose roles allow no page at all can only sign in as someone
/// else (the logout ends at the login); without a user, `/` leads to the login.
fn way_back(user: Option<&crate::domain::user::User>) -> (&'static str, &'static str) {
    match user {
        None => ("/", "Zurück zum Portal"),
        Some(user) => match crate::domain::access::first_allowed_page(user) {
            Some(start) => (start, "Zurück zum Portal"),
            None => (LOGOUT_URL, "Mit einem anderen Konto anmelden"),
        },
    }
}

#[component]
pub fn Unauthorized() -> impl IntoView {
    no_store();
    let (back, label) = way_back(crate::app::current_user().as_ref());
    view! {
        <Layout>
            <section class="ap-card-page card mx-auto">
                <div class="card-body p-4 text-center">
                    <h1 class="h3">"Keine Berechtigung"</h1>
                    <p>"Ihnen fehlen die nötigen Berechtigungen für diesen Bereich. Bitte beantragen Sie den Zugang über ein Helpdesk-Ticket."</p>
                    <a class="btn btn-primary" href=back data-testid="unauthorized-back">{label}</a>
                </div>
            </section>
        </Layout>
    }
}

const SERVER_DOWN_REDIRECT_TEXT: &str = "Sie werden in {s} Sekunden zum Portal weitergeleitet.";

/// Shown when the portal's server could not be reached. Answers 503 so that monitors and
/// caches treat it as an outage; the meta refresh returns to `/` without JavaScript.
#[component]
pub fn ServerDown() -> impl IntoView {
    set_status(StatusCode::SERVICE_UNAVAILABLE);
    no_store();
    let seconds = SERVER_DOWN_COUNTDOWN_SECONDS;
    let props = props_json(&CountdownProps {
        seconds,
        target: "/",
        text: SERVER_DOWN_REDIRECT_TEXT,
    });
    view! {
        <Meta http_equiv="refresh" content=format!("{seconds};url=/")/>
        <Layout>
            <section class="ap-card-page card mx-auto">
                <div class="card-body p-4 text-center">
                    <p class="display-3 fw-bold text-danger mb-0">"500"</p>
                    <h1 class="h3">"Server nicht erreichbar"</h1>
                    <p>"Wir führen gerade Wartungsarbeiten durch. Bitte versuchen Sie es in wenigen Minuten erneut."</p>
                    <Island name="Countdown" props=props>
                        <p>{SERVER_DOWN_REDIRECT_TEXT.replace("{s}", &seconds.to_string())}</p>
                    </Island>
                    <a href="/">"Zum Portal"</a>
                </div>
            </section>
        </Layout>
    }
}

#[component]
pub fn NotFound() -> impl IntoView {
    set_status(StatusCode::NOT_FOUND);
    view! {
        <Layout>
            <section class="ap-card-page card mx-auto">
                <div class="card-body p-4 text-center">
                    <p class="display-3 fw-bold text-secondary mb-0">"404"</p>
                    <h1 class="h3">"Seite nicht gefunden"</h1>
                    <p>"Die angeforderte Seite existiert nicht oder wurde verschoben."</p>
                    <a class="btn btn-primary" href="/">"Zum Portal"</a>
                </div>
            </section>
        </Layout>
    }
}

/// German message for an error code the login form redirects back with.
fn login_error_message(code: &str, minutes: Option<u64>) -> Option<String> {
    match code {
        "zugangsdaten" => Some("Login oder Passwort ist nicht korrekt.".into()),
        "gesperrt" => Some(format!(
            "Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es in {} Minuten erneut.",
            minutes.unwrap_or(15)
        )),
        "ausgelastet" => Some(
            "Die Anmeldung ist gerade stark ausgelastet. Bitte versuchen Sie es in einer Minute erneut."
                .into(),
        ),
        "intern" => {
            Some("Ein unerwarteter Fehler ist aufgetreten! Bitte versuchen Sie es erneut.".into())
        }
        _ => None,
    }
}

/// The server login endpoint with local accounts: a plain form that posts back to itself.
#[component]
pub fn LocalLogin() -> impl IntoView {
    no_store();
    if let Some(user) = crate::app::current_user() {
        crate::app::redirect_to(crate::domain::access::start_page(&user));
        return ().into_any();
    }
    let query = leptos_router::hooks::use_query_map();
    let error = query.with_untracked(|q| {
        let minutes = q.get("minuten").and_then(|m| m.parse().ok());
        q.get("fehler")
            .and_then(|code| login_error_message(&code, minutes))
    });
    let partner_signup = page_env().config().partner_signup_url.clone();
    let next = return_target().unwrap_or_default();
    view! {
        <Layout>
            <section class="ap-card-page ap-card-narrow card mx-auto">
                <form class="card-body p-4" method="post" action=LOGIN_URL>
                    <h1 class="h3 mb-3">"Anmelden"</h1>
                    <input type="hidden" name=RETURN_PARAM value=next/>
                    {error.map(|message| view! { <div class="alert alert-danger" role="alert">{message}</div> })}
                    <div class="mb-3">
                        <label class="form-label" for="login">"Login"</label>
                        <input class="form-control" id="login" name="login" type="text"
                            autocomplete="username" required autofocus maxlength="100"/>
                    </div>
                    <div class="mb-3">
                        <label class="form-label" for="password">"Passwort"</label>
                        <input class="form-control" id="password" name="password" type="password"
                            autocomplete="current-password" required maxlength="1024"/>
                    </div>
                    <button class="btn btn-primary w-100" type="submit">
                        <i class="bi bi-box-arrow-in-right"></i>" Anmelden"
                    </button>
                    <p class="small text-center mt-3 mb-0">
                        "Noch kein Partner? "<a href=partner_signup rel="noopener">"Jetzt Partner werden"</a>
                    </p>
                </form>
            </section>
        </Layout>
    }
    .into_any()
}

/// `GET /api/auth/logout` when another site sent the browser: signing out needs a click here,
/// so no other site can end our users' sessions.
#[component]
pub fn ConfirmLogout() -> impl IntoView {
    no_store();
    view! {
        <Layout>
            <section class="ap-card-page card mx-auto">
                <form class="card-body p-4 text-center" method="post" action=LOGOUT_URL>
                    <h1 class="h3">"Abmelden"</h1>
                    <p>"Möchten Sie sich vom Aktionsportal abmelden?"</p>
                    <button class="btn btn-primary" type="submit">
                        <i class="bi bi-box-arrow-right"></i>" Jetzt abmelden"
                    </button>
                    <a class="btn btn-link" href="/">"Zurück zum Portal"</a>
                </form>
            </section>
        </Layout>
    }
}

#[cfg(test)]
mod tests {
    use super::login_error_message;

    #[test]
    fn login_errors_are_german_and_unknown_codes_show_nothing() {
        assert_eq!(
            login_error_message("zugangsdaten", None).unwrap(),
            "Login oder Passwort ist nicht korrekt."
        );
        assert!(
            login_error_message("gesperrt", Some(7))
                .unwrap()
                .contains("in 7 Minuten")
        );
        assert!(login_error_message("<script>", None).is_none());
    }
}
