//! Rights that hold on every call (issue 20), each tried the way a staff account would attack
//! it: another provider's files attached to one's own package, a contact moved to another
//! customer number with its lists, and what dealers are shown of a package.

mod common;

use aktionsportal::domain::roles::{ADMIN, BU_DOI, BU_MODERATOR};
use serde_json::{Value, json};

use common::{TestApp, spawn_app};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";
const STADTWERKE: &str = "GS-Aktionsportal-BU-Stadtwerke";
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde";
const NOT_YOURS: &str = aktionsportal::services::catalog::uploads::NOT_YOURS;

/// Two providers as in the demo: Stadtwerke Nord (`STADTWERKE`) and Glasfaser Süd
/// (`GLASFASER`), a list of each, and a dealer (100002) on Glasfaser's list.
struct World {
    app: TestApp,
    admin: String,
    stadtwerke: i64,
    glasfaser: i64,
    stadtwerke_list: i64,
    glasfaser_list: i64,
    dealer: String,
}

async fn world() -> World {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let stadtwerke = app
        .create_provider(&admin, "Stadtwerke Nord", STADTWERKE)
        .await;
    let glasfaser = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let stadtwerke_list = app
        .create_list(&admin, stadtwerke, "Stadtwerke Privat")
        .await;
    let glasfaser_list = app.create_list(&admin, glasfaser, "Glasfaser Privat").await;
    let dealer = app.dealer_session(100_002, &[glasfaser_list]).await;
    World {
        app,
        admin,
        stadtwerke,
        glasfaser,
        stadtwerke_list,
        glasfaser_list,
        dealer,
    }
}

impl World {
    /// Stadtwerke's package with its flyer, made by the admin: (flyer, package).
    async fn stadtwerke_package(&self) -> (i64, i64) {
        let flyer = upload(&self.app, &self.admin, "Stadtwerke Flyer.pdf", PDF).await;
        let body = package_body(
            "Stadtwerke Strom",
            self.stadtwerke,
            self.stadtwerke_list,
            &[flyer],
        );
        let (status, package) = self
            .app
            .call(&self.admin, "POST", "/api/download/", Some(body))
            .await;
        assert_eq!(status, 200, "{package}");
        (flyer, package["id"].as_i64().unwrap())
    }
}

async fn upload(app: &TestApp, token: &str, name: &str, bytes: &[u8]) -> i64 {
    let (status, answer) = app.upload(token, name, bytes).await;
    assert_eq!(status, 200, "{answer}");
    answer["id"].as_i64().unwrap()
}

fn package_body(name: &str, provider: i64, list: i64, uploads: &[i64]) -> Value {
    json!({
        "name": name,
        "startAt": "2026-01-01",
        "endAt": "2030-12-31",
        "ProviderId": provider,
        "listsIds": [list],
        "uploadsToInsert": uploads,
    })
}

/// Every package with its file ids, as the admin sees them (to prove nothing changed).
async fn packages(w: &World) -> Vec<(i64, Vec<i64>)> {
    let (status, page) = w
        .app
        .call(&w.admin, "GET", "/api/downloads/?limit=1000", None)
        .await;
    assert_eq!(status, 200);
    let mut all: Vec<(i64, Vec<i64>)> = page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let files = p["Uploads"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u["id"].as_i64().unwrap())
                .collect();
            (p["id"].as_i64().unwrap(), files)
        })
        .collect();
    all.sort();
    all
}

/// The status `token` gets for the file `upload`. The admin gets the same URL first, and must
/// get it: a 404 then says "not for you", never "no such route" or "no such file".
async fn file_status(w: &World, token: &str, upload: i64) -> u16 {
    let url = format!("/files/{upload}/x");
    let admin = w.app.get_as(&w.admin, &url).await;
    assert_eq!(admin.status(), 200, "the admin gets {url}");
    w.app.get_as(token, &url).await.status().as_u16()
}

fn assert_refused(status: u16, answer: &Value, message: &str) {
    assert_eq!(status, 403, "{answer}");
    assert_eq!(answer["code"], "forbidden", "{answer}");
    assert_eq!(answer["message"], message, "{answer}");
}

#[tokio::test]
async fn a_moderator_cannot_attach_another_providers_files_by_any_call() {
    let w = world().await;
    let app = &w.app;
    // Stadtwerke's package with its flyer, and a picture the admin uploaded but attached to
    // nothing yet.
    let (flyer, stadtwerke_package) = w.stadtwerke_package().await;
    let unattached = upload(app, &w.admin, "Entwurf Plakat.png", PNG).await;

    // The moderator of Glasfaser, and a second one (another person with the same roles).
    let moderator = app
        .session_as("test:moderator", &[BU_MODERATOR, GLASFASER])
        .await;
    let colleague = app
        .session_as("test:kollegin", &[BU_MODERATOR, GLASFASER])
        .await;
    assert_eq!(file_status(&w, &moderator, flyer).await, 404);

    // The legitimate way: upload, then attach; then edit and duplicate the package.
    let own = upload(app, &moderator, "Glasfaser Flyer.pdf", PDF).await;
    let (status, own_package) = app
        .call(
            &moderator,
            "POST",
            "/api/download/",
            Some(package_body(
                "Glasfaser Herbst",
                w.glasfaser,
                w.glasfaser_list,
                &[own],
            )),
        )
        .await;
    assert_eq!(status, 200, "{own_package}");
    let own_package = own_package["id"].as_i64().unwrap();
    let before = packages(&w).await;

    // The attack of the review: create, update and duplicate with the other provider's files.
    let colleagues_fresh = upload(app, &colleague, "Kollegin Entwurf.pdf", PDF).await;
    for foreign in [flyer, unattached, colleagues_fresh] {
        let (status, answer) = app
            .call(
                &moderator,
                "POST",
                "/api/download/",
                Some(package_body(
                    "Glasfaser gekapert",
                    w.glasfaser,
                    w.glasfaser_list,
                    &[foreign],
                )),
            )
            .await;
        assert_refused(status, &answer, NOT_YOURS);
        let mut body = package_body(
            "Glasfaser Herbst",
            w.glasfaser,
            w.glasfaser_list,
            &[foreign],
        );
        body["Uploads"] = json!([{"id": own}]);
        let (status, answer) = app
            .call(
                &moderator,
                "PUT",
                &format!("/api/download/{own_package}"),
                Some(body),
            )
            .await;
        assert_refused(status, &answer, NOT_YOURS);
        // A duplicate "from fields" is a create.
        let (status, answer) = app
            .call(
                &moderator,
                "POST",
                "/api/download/duplicate",
                Some(package_body(
                    "Glasfaser Kopie gekapert",
                    w.glasfaser,
                    w.glasfaser_list,
                    &[foreign],
                )),
            )
            .await;
        assert_refused(status, &answer, NOT_YOURS);
    }
    // Copying the other provider's package is refused as before.
    let (status, _) = app
        .call(
            &moderator,
            "POST",
            "/api/download/duplicate",
            Some(json!({ "id": stadtwerke_package })),
        )
        .await;
    assert_eq!(status, 403);
    // A logo is an upload too, and providers are the admin's.
    let (status, _) = app
        .call(
            &moderator,
            "PUT",
            &format!("/api/providers/{}", w.glasfaser),
            Some(json!({
                "name": "Glasfaser Süd",
                "allowedRoles": [GLASFASER],
                "brevoActiveFolderId": "auto",
                "brevoInactiveFolderId": "auto",
                "uploadId": unattached,
            })),
        )
        .await;
    assert_eq!(status, 403);

    // Nothing changed: no package, no file, no logo; nobody got the files.
    assert_eq!(packages(&w).await, before);
    assert_eq!(file_status(&w, &moderator, flyer).await, 404);
    assert_eq!(file_status(&w, &w.dealer, flyer).await, 404);
    assert_eq!(file_status(&w, &w.dealer, unattached).await, 404);
    for id in [unattached, colleagues_fresh] {
        assert!(
            aktionsportal::db::catalog::uploads::get(&app.test_db.db, id)
                .await
                .unwrap()
                .is_some(),
            "the not-yet-attached upload {id} is still there"
        );
    }
    let stored = aktionsportal::db::marketing::providers::get(&app.test_db.db, w.glasfaser)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.upload_id, None);

    // Legitimate: the colleague attaches her own fresh upload to the Glasfaser package; once
    // it is in a package of Glasfaser, the moderator may use it in another one, and duplicate.
    let mut body = package_body(
        "Glasfaser Herbst",
        w.glasfaser,
        w.glasfaser_list,
        &[colleagues_fresh],
    );
    body["Uploads"] = json!([{"id": own}]);
    let (status, answer) = app
        .call(
            &colleague,
            "PUT",
            &format!("/api/download/{own_package}"),
            Some(body),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = app
        .call(
            &moderator,
            "POST",
            "/api/download/",
            Some(package_body(
                "Glasfaser Winter",
                w.glasfaser,
                w.glasfaser_list,
                &[colleagues_fresh, own],
            )),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let (status, copy) = app
        .call(
            &moderator,
            "POST",
            "/api/download/duplicate",
            Some(json!({ "id": own_package })),
        )
        .await;
    assert_eq!(status, 200, "{copy}");
    assert_eq!(copy["Uploads"].as_array().unwrap().len(), 2);
    // The admin may use any upload, also as a logo.
    let (status, answer) = app
        .call(
            &w.admin,
            "PUT",
            &format!("/api/providers/{}", w.glasfaser),
            Some(json!({
                "name": "Glasfaser Süd",
                "allowedRoles": [GLASFASER],
                "brevoActiveFolderId": "auto",
                "brevoInactiveFolderId": "auto",
                "uploadId": unattached,
            })),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    // The dealer of Glasfaser still never sees the Stadtwerke flyer.
    assert_eq!(file_status(&w, &w.dealer, flyer).await, 404);
}

/// The packages a dealer sees: (ids, their file ids).
async fn dealer_view(w: &World, token: &str) -> Vec<(i64, Vec<i64>)> {
    let (status, page) = w
        .app
        .call(token, "GET", "/api/downloads/contact/?limit=1000", None)
        .await;
    assert_eq!(status, 200, "{page}");
    page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let files = p["Uploads"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u["id"].as_i64().unwrap())
                .collect();
            (p["id"].as_i64().unwrap(), files)
        })
        .collect()
}

fn contact_body(customer_number: i64, company: &str, email: &str, lists: &[i64]) -> Value {
    json!({
        "customerNumber": customer_number,
        "companyName": company,
        "email": email,
        "salutation": 2,
        "firstname": "Karl",
        "lastname": "Kunde",
        "listsIds": lists,
        "uncheckedListsIds": [],
    })
}

#[tokio::test]
async fn a_contact_cannot_be_moved_to_another_customer_around_the_editors_rules() {
    let w = world().await;
    let app = &w.app;
    let db = &app.test_db.db;
    // The victim: a contact of customer 100004 on Stadtwerke's list, which offers a package.
    let (flyer, _) = w.stadtwerke_package().await;
    let (status, contact) = app
        .call(
            &w.admin,
            "POST",
            "/api/contacts",
            Some(contact_body(
                100_004,
                "Vierte Kunde GmbH",
                "karl@vierte.example",
                &[w.stadtwerke_list],
            )),
        )
        .await;
    assert_eq!(status, 201, "{contact}");
    let id = contact["id"].as_i64().unwrap();
    let before = aktionsportal::db::contacts::get_contact(db, id)
        .await
        .unwrap()
        .unwrap();
    let dealer_before = dealer_view(&w, &w.dealer).await;
    assert_eq!(file_status(&w, &w.dealer, flyer).await, 404);
    let company_of = |number: i64| async move {
        aktionsportal::db::contacts::get_company(db, number)
            .await
            .unwrap()
            .unwrap()
            .company_name
    };
    let dealers_company = company_of(100_002).await;

    // BU-DOI and a moderator of another provider move the contact to the dealer's number
    // and rename the dealer's company on the way.
    let doi = app.session_with_roles(&[BU_DOI]).await;
    let moderator = app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;
    for attacker in [&doi, &moderator] {
        let (status, answer) = app
            .call(
                attacker,
                "PUT",
                &format!("/api/contacts/{id}"),
                Some(contact_body(
                    100_002,
                    "Gekapert GmbH",
                    "karl@vierte.example",
                    &[w.stadtwerke_list],
                )),
            )
            .await;
        assert_refused(
            status,
            &answer,
            aktionsportal::services::contacts::MOVE_REFUSED,
        );
        // Without naming the lists at all.
        let mut body = contact_body(100_002, "Gekapert GmbH", "karl@vierte.example", &[]);
        body["listsIds"] = Value::Null;
        let (status, answer) = app
            .call(attacker, "PUT", &format!("/api/contacts/{id}"), Some(body))
            .await;
        assert_eq!(status, 403, "{answer}");
    }
    // BU-DOI adds no list and takes none off, here as in the contact editor.
    let (status, answer) = app
        .call(
            &doi,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(contact_body(
                100_004,
                "Vierte Kunde GmbH",
                "karl@vierte.example",
                &[w.stadtwerke_list, w.glasfaser_list],
            )),
        )
        .await;
    assert_eq!(status, 403, "{answer}");
    let doi_stadtwerke = app.session_with_roles(&[BU_DOI, STADTWERKE]).await;
    let mut body = contact_body(100_004, "Vierte Kunde GmbH", "karl@vierte.example", &[]);
    body["uncheckedListsIds"] = json!([w.stadtwerke_list]);
    let (status, answer) = app
        .call(
            &doi_stadtwerke,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(body),
        )
        .await;
    assert_refused(
        status,
        &answer,
        aktionsportal::services::contacts::DOI_KEEPS_LISTS,
    );
    let (status, answer) = app
        .call(
            &doi_stadtwerke,
            "PUT",
            "/api/contacts/customer-number/100004",
            Some(json!({
                "customerNumber": 100_004,
                "companyName": "Vierte Kunde GmbH",
                "listsIds": [],
                "uncheckedListsIds": [w.stadtwerke_list],
                "contacts": [],
            })),
        )
        .await;
    assert_refused(
        status,
        &answer,
        aktionsportal::services::contacts::DOI_KEEPS_LISTS,
    );
    // Nor does BU-DOI put a new contact on a list its group does not have.
    let (status, answer) = app
        .call(
            &doi_stadtwerke,
            "POST",
            "/api/contacts",
            Some(contact_body(
                100_002,
                "Müller GmbH",
                "neu@vierte.example",
                &[w.stadtwerke_list],
            )),
        )
        .await;
    assert_refused(
        status,
        &answer,
        aktionsportal::services::contacts::DOI_KEEPS_LISTS,
    );
    // A new contact's company name renames no existing company.
    let (status, created) = app
        .call(
            &w.admin,
            "POST",
            "/api/contacts",
            Some(contact_body(
                100_002,
                "Gekapert GmbH",
                "neu@zweite.example",
                &[],
            )),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["companyName"], dealers_company);

    // Nothing changed: the contact, its lists, the company, what the dealer sees.
    let after = aktionsportal::db::contacts::get_contact(db, id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (after.customer_number, &after.email, &after.company_name),
        (before.customer_number, &before.email, &before.company_name)
    );
    assert_eq!(
        aktionsportal::db::contacts::list_ids_of_contact(db, id)
            .await
            .unwrap(),
        vec![w.stadtwerke_list]
    );
    assert_eq!(company_of(100_002).await, dealers_company);
    assert_eq!(dealer_view(&w, &w.dealer).await, dealer_before);
    assert_eq!(file_status(&w, &w.dealer, flyer).await, 404);

    // Legitimate: a moderator who manages every list of the contact may move it; the target
    // company keeps its name, and the old one stays as it was.
    let moderator_stadtwerke = app.session_with_roles(&[BU_MODERATOR, STADTWERKE]).await;
    let (status, moved) = app
        .call(
            &moderator_stadtwerke,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(contact_body(
                100_002,
                "Gekapert GmbH",
                "karl@vierte.example",
                &[w.stadtwerke_list],
            )),
        )
        .await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["customerNumber"], 100_002);
    assert_eq!(moved["companyName"], dealers_company);
    assert_eq!(company_of(100_002).await, dealers_company);
    assert_eq!(company_of(100_004).await, "Vierte Kunde GmbH");
    // Its own company may still be renamed by the contact's body.
    let (status, renamed) = app
        .call(
            &w.admin,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(contact_body(
                100_002,
                "Zweite Kunde GmbH",
                "karl@vierte.example",
                &[w.stadtwerke_list],
            )),
        )
        .await;
    assert_eq!(status, 200, "{renamed}");
    assert_eq!(company_of(100_002).await, "Zweite Kunde GmbH");
}

#[tokio::test]
async fn dealers_see_neither_role_names_nor_other_customers_lists() {
    let w = world().await;
    let app = &w.app;
    let other_list = app
        .create_list(&w.admin, w.glasfaser, "Glasfaser Gewerbe")
        .await;
    let file = upload(app, &w.admin, "Glasfaser Flyer.pdf", PDF).await;
    let mut body = package_body("Glasfaser Herbst", w.glasfaser, w.glasfaser_list, &[file]);
    body["listsIds"] = json!([w.glasfaser_list, other_list]);
    let (status, package) = app
        .call(&w.admin, "POST", "/api/download/", Some(body))
        .await;
    assert_eq!(status, 200, "{package}");
    let id = package["id"].as_i64().unwrap();

    // The dealer: the provider without its internal role names (the field stays, empty) and
    // only the list that gave them the package.
    let (status, page) = app
        .call(&w.dealer, "GET", "/api/downloads/contact/", None)
        .await;
    assert_eq!(status, 200);
    let (status, one) = app
        .call(&w.dealer, "GET", &format!("/api/download/{id}"), None)
        .await;
    assert_eq!(status, 200);
    for seen in [&page["content"][0], &one] {
        assert_eq!(seen["id"], id);
        assert_eq!(seen["Provider"]["allowedRoles"], json!([]), "{seen}");
        assert_eq!(seen["listsIds"], json!([w.glasfaser_list]), "{seen}");
        assert_eq!(
            seen["Lists"],
            json!([{"id": w.glasfaser_list, "name": "Glasfaser Privat", "active": true}])
        );
        assert!(!seen.to_string().contains(GLASFASER), "{seen}");
        assert!(!seen.to_string().contains("Gewerbe"), "{seen}");
    }
    let page = app
        .get_as(&w.dealer, "/user/downloads")
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("Glasfaser Herbst"));
    assert!(
        !page.contains(GLASFASER),
        "the page's data hold no role names"
    );
    assert!(!page.contains("Glasfaser Gewerbe"));

    // Staff of the provider and the admin see everything.
    let staff = app.session_with_roles(&[BU_MODERATOR, GLASFASER]).await;
    for token in [&staff, &w.admin] {
        let (_, one) = app
            .call(token, "GET", &format!("/api/download/{id}"), None)
            .await;
        assert_eq!(one["Provider"]["allowedRoles"], json!([GLASFASER]));
        let mut lists: Vec<i64> = serde_json::from_value(one["listsIds"].clone()).unwrap();
        lists.sort_unstable();
        assert_eq!(lists, [w.glasfaser_list, other_list]);
    }
}

/// The link in the newest confirmation mail Brevo sent.
fn last_link(brevo: &common::fake_brevo::FakeBrevo) -> String {
    let mails = brevo.sent_emails();
    let html = mails.last().expect("a mail").body["htmlContent"]
        .as_str()
        .unwrap()
        .to_string();
    common::fake_smtp::double_opt_in_token(&html).expect("a link in the mail")
}

async fn confirm(app: &TestApp, token: &str) -> u16 {
    app.client
        .patch(app.url(&format!("/api/contacts/confirm-double-opt-in/{token}")))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// Mails the confirmation to `email` now (the one-minute pause between two mails is
/// over) and returns the mail's link.
async fn mail_link(
    app: &TestApp,
    brevo: &common::fake_brevo::FakeBrevo,
    admin: &str,
    id: i64,
    email: &str,
) -> String {
    aktionsportal::db::contacts::mark_mail_sent(
        &app.test_db.db,
        id,
        chrono::Utc::now() - chrono::Duration::minutes(2),
        None,
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    let (status, sent) = app
        .call(admin, "POST", &format!("/api/smtp/email/{email}"), None)
        .await;
    assert_eq!((status, &sent["code"]), (200, &json!("DOUBLE_OPT-IN_SENT")));
    last_link(brevo)
}

fn brevo_consent(brevo: &common::fake_brevo::FakeBrevo, email: &str) -> Value {
    brevo
        .contact_by_email(email)
        .unwrap_or_else(|| panic!("{email} in Brevo"))
        .attributes["DOUBLE_OPT-IN"]
        .clone()
}

async fn confirmed(app: &TestApp, id: i64) -> (bool, String) {
    let contact = aktionsportal::db::contacts::get_contact(&app.test_db.db, id)
        .await
        .unwrap()
        .unwrap();
    (contact.double_opt_in, contact.email)
}

#[tokio::test]
async fn consent_belongs_to_the_address_it_was_given_for() {
    let (app, brevo) = common::spawn_app_with_brevo(2000).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let doi = app.session_with_roles(&[BU_DOI]).await;
    let body = |email: &str| contact_body(100_007, "Sieben GmbH", email, &[]);
    let (status, contact) = app
        .call(
            &admin,
            "POST",
            "/api/contacts",
            Some(body("anna@example.de")),
        )
        .await;
    assert_eq!(status, 201, "{contact}");
    let id = contact["id"].as_i64().unwrap();

    // A link mailed to the old address confirms nothing once the address changed.
    let old_link = mail_link(&app, &brevo, &admin, id, "anna@example.de").await;
    let (status, changed) = app
        .call(
            &doi,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(body("anna.neu@example.de")),
        )
        .await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(confirm(&app, &old_link).await, 404);
    assert_eq!(
        confirmed(&app, id).await,
        (false, "anna.neu@example.de".into())
    );

    // A newer link ends the older ones; the newest confirms the new address.
    let older = mail_link(&app, &brevo, &admin, id, "anna.neu@example.de").await;
    let newest = mail_link(&app, &brevo, &admin, id, "anna.neu@example.de").await;
    assert_ne!(older, newest);
    assert_eq!(confirm(&app, &older).await, 404);
    assert_eq!(confirm(&app, &newest).await, 200);
    assert_eq!(
        confirmed(&app, id).await,
        (true, "anna.neu@example.de".into())
    );
    assert_eq!(brevo_consent(&brevo, "anna.neu@example.de"), 1);

    // The contact's edit: the new address starts unconfirmed, here and in Brevo.
    let (status, changed) = app
        .call(
            &doi,
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(body("anna.drei@example.de")),
        )
        .await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["doubleOptIn"], false);
    assert_eq!(changed["doubleOptInAt"], Value::Null);
    assert_eq!(brevo_consent(&brevo, "anna.drei@example.de"), 2);
    assert_eq!(confirm(&app, &newest).await, 404, "the old address's link");

    // The contact editor's save: the same.
    let link = mail_link(&app, &brevo, &admin, id, "anna.drei@example.de").await;
    assert_eq!(confirm(&app, &link).await, 200);
    let (status, group) = app
        .call(
            &doi,
            "PUT",
            "/api/contacts/customer-number/100007",
            Some(json!({
                "customerNumber": 100_007,
                "companyName": "Sieben GmbH",
                "listsIds": [],
                "uncheckedListsIds": [],
                "contacts": [{
                    "id": id, "email": "anna.vier@example.de", "salutation": 2,
                    "firstname": "Karl", "lastname": "Kunde",
                }],
            })),
        )
        .await;
    assert_eq!(status, 200, "{group}");
    assert_eq!(group["content"][0]["doubleOptIn"], false);
    assert_eq!(brevo_consent(&brevo, "anna.vier@example.de"), 2);
    assert_eq!(confirm(&app, &link).await, 404);

    // The sync from Brevo: an address changed there, while Brevo still says "confirmed".
    let link = mail_link(&app, &brevo, &admin, id, "anna.vier@example.de").await;
    assert_eq!(confirm(&app, &link).await, 200);
    let brevo_id = brevo.contact_by_email("anna.vier@example.de").unwrap().id;
    {
        let mut state = brevo.lock();
        let contact = state.contacts.get_mut(&brevo_id).unwrap();
        contact.email = Some("anna.fuenf@example.de".into());
        contact.modified_at = common::fake_brevo::fake_now();
    }
    let response = app
        .client
        .get(app.url("/api/syncContactsFromBrevo"))
        .header("cookie", format!("ap_session={admin}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let log = response.text().await.unwrap();
    assert!(log.contains("\"result\":\"done\""), "{log}");
    assert_eq!(
        confirmed(&app, id).await,
        (false, "anna.fuenf@example.de".into())
    );
    assert_eq!(brevo_consent(&brevo, "anna.fuenf@example.de"), 2);
    assert_eq!(confirm(&app, &link).await, 404);
}
