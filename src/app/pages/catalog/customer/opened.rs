//! The package a mail's link opened ("Zum Paket", issue 37): `/user/downloads?paket={id}` shows
//! it above the list, with its files to download at once (without JavaScript too). With
//! `&von=mail` the visit also remembers that it came from the mail (`auth::mail_visit`), so
//! its downloads count with the channel `mail`.

use leptos::prelude::*;
use url::form_urlencoded;

use crate::app::loaded::loaded;
use crate::domain::format;
use crate::domain::user::User;
use crate::services;
use crate::services::catalog::packages::PackageView;
use crate::services::error::ServiceError;
use crate::state::AppState;

/// What the URL asks to open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenRequest {
    pub package: i64,
    /// The link came from a package's mail (`von=mail`).
    pub from_mail: bool,
}

/// `paket` (a positive id) and `von` of the URL's query; `None` without a valid `paket`.
pub fn open_request(raw: Option<&str>) -> Option<OpenRequest> {
    let mut package = None;
    let mut from_mail = false;
    for (key, value) in form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
        match key.as_ref() {
            "paket" => package = value.trim().parse::<i64>().ok().filter(|id| *id > 0),
            "von" => from_mail = value == "mail",
            _ => {}
        }
    }
    package.map(|package| OpenRequest { package, from_mail })
}

/// The opened package as the page shows it.
pub enum OpenedPackage {
    Shown(Box<PackageView>),
    /// Unknown, or not (any more) the user's to see: the same answer for both.
    Unavailable,
}

/// The package of `request` as the user sees it; nothing without a user.
pub async fn load(
    state: &AppState,
    user: Option<&User>,
    request: OpenRequest,
) -> Option<OpenedPackage> {
    let user = user?;
    Some(
        match services::catalog::packages::get(&state.db, user, request.package).await {
            Ok(package) if !package.archived => OpenedPackage::Shown(Box::new(package)),
            Ok(_) | Err(ServiceError::NotFound) | Err(ServiceError::Forbidden) => {
                OpenedPackage::Unavailable
            }
            Err(err) => {
                tracing::error!(error = %err, package = request.package, "opened package");
                OpenedPackage::Unavailable
            }
        },
    )
}

/// The opened package above the list, if the URL asked for one.
#[component]
pub fn Opened() -> impl IntoView {
    match loaded::<OpenedPackage>().as_deref() {
        Some(OpenedPackage::Shown(package)) => card(package).into_any(),
        Some(OpenedPackage::Unavailable) => view! {
            <div class="alert alert-warning" role="status" data-testid="opened-package-missing">
                "Das Paket aus Ihrer E-Mail ist für Sie nicht (mehr) verfügbar."
            </div>
        }
        .into_any(),
        None => ().into_any(),
    }
}

fn card(package: &PackageView) -> impl IntoView {
    let files = package
        .uploads
        .iter()
        .map(|file| {
            view! {
                <li class="ap-opened-file">
                    <span class="ap-opened-file-name">
                        <i class="bi bi-file-earmark me-1" aria-hidden="true"></i>{file.name.clone()}
                    </span>
                    <span class="text-secondary small">{format::file_size(file.size)}</span>
                    <a class="btn btn-outline-primary btn-sm ap-opened-file-download"
                        href=file.path.clone() download=file.name.clone()
                        aria-label=format!("{} herunterladen", file.name)>
                        <i class="bi bi-download me-1" aria-hidden="true"></i>"Herunterladen"
                    </a>
                </li>
            }
        })
        .collect_view();
    let zip = (package.uploads.len() > 1).then(|| {
        view! {
            <a class="btn btn-primary mt-2" href=format!("/api/download/{}/zip", package.id)
                download="">
                <i class="bi bi-file-earmark-zip me-1" aria-hidden="true"></i>
                "Alle Dateien als ZIP herunterladen"
            </a>
        }
    });
    view! {
        <section class="card mb-3 ap-opened-package" aria-labelledby="ap-opened-title"
            data-testid="opened-package">
            <div class="card-body">
                <h2 id="ap-opened-title" class="h5 card-title">
                    {format!("Paket aus Ihrer E-Mail: {}", package.name)}
                </h2>
                <p class="card-text text-secondary small mb-2">
                    {format!(
                        "{}, gültig vom {} bis {}",
                        package.provider.name,
                        format::date(package.start_at),
                        format::date(package.end_at)
                    )}
                </p>
                <ul class="list-unstyled mb-0">{files}</ul>
                {zip}
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_positive_package_id_opens_and_von_mail_marks_the_mail() {
        assert_eq!(
            open_request(Some("paket=12&von=mail")),
            Some(OpenRequest {
                package: 12,
                from_mail: true
            })
        );
        assert_eq!(
            open_request(Some("search=x&paket=5")),
            Some(OpenRequest {
                package: 5,
                from_mail: false
            })
        );
        for bad in [
            "paket=0",
            "paket=-3",
            "paket=abc",
            "von=mail",
            "",
            "paket=99999999999999999999",
        ] {
            assert_eq!(open_request(Some(bad)), None, "{bad}");
        }
    }
}
