//! Every role against every page and API call that exists, with the expected answer
//! (spec §6). Later issues add their rows here.

mod common;

use aktionsportal::domain::roles::{ADMIN, BU_DOI, BU_MODERATOR, DEVELOPER, PORTAL, PROVISION};
use common::spawn_app;
use sha2::Digest;

/// A provider role as spec §6 describes them (free text in `allowedRoles`).
const PROVIDER_ROLE: &str = "GS-Aktionsportal-BU-Glasfaser";

#[derive(Clone, Copy)]
enum Who {
    Anonymous,
    Roles(&'static [&'static str]),
}

const WHO: [Who; 8] = [
    Who::Anonymous,
    Who::Roles(&[ADMIN]),
    Who::Roles(&[BU_MODERATOR]),
    Who::Roles(&[BU_DOI]),
    Who::Roles(&[PORTAL]),
    Who::Roles(&[PROVISION]),
    Who::Roles(&[DEVELOPER]),
    Who::Roles(&[PROVIDER_ROLE]),
];

/// Expected status for each entry of `WHO`, in order:
/// anonymous, admin, moderator, DOI, portal, provision, developer, provider role.
struct Row {
    method: &'static str,
    path: &'static str,
    expect: [u16; 8],
}

/// Valid bodies for the writes, so that a row expecting 403 cannot pass on a 400 (a body the
/// server refuses before it decides on the permission). Rows not named here send no body.
const BODIES: &[(&str, &str, &str)] = &[
    // The confirmation page's form (a link that is no link confirms nothing).
    ("POST", "/api/fn/confirm-double-opt-in", "token=abc"),
    (
        "POST",
        "/api/providers/",
        r#"{"name":"Neuer Anbieter","allowedRoles":["GS-Aktionsportal-BU-Neu"],"brevoActiveFolderId":"auto","brevoInactiveFolderId":"auto","uploadId":null}"#,
    ),
    (
        "PUT",
        "/api/providers/1",
        r#"{"name":"Glasfaser Süd","allowedRoles":["GS-Aktionsportal-BU-Glasfaser"],"brevoActiveFolderId":"auto","brevoInactiveFolderId":"auto","uploadId":null}"#,
    ),
    (
        "POST",
        "/api/providers/1/lists",
        r#"{"name":"Neue Liste Herbst"}"#,
    ),
    ("PATCH", "/api/lists/name/1", r#"{"name":"Flyer Herbst"}"#),
    ("PATCH", "/api/lists/status/1", r#"{"active":true}"#),
    (
        "POST",
        "/api/download/",
        r#"{"name":"Neues Paket Herbst","startAt":"2026-01-01","endAt":"2030-12-31","ProviderId":1,"listsIds":[1],"uploadsToInsert":[]}"#,
    ),
    ("POST", "/api/download/duplicate", r#"{"id":1}"#),
    (
        "PUT",
        "/api/download/1",
        r#"{"name":"Herbstaktion","startAt":"2026-01-01","endAt":"2030-12-31","ProviderId":1,"listsIds":[1],"uncheckedListsIds":[]}"#,
    ),
    (
        "POST",
        "/api/contacts",
        r#"{"customerNumber":100555,"companyName":"Müller GmbH","email":"neu@example.de","salutation":3,"firstname":"Nina","lastname":"Neu","listsIds":[1]}"#,
    ),
    (
        "PUT",
        "/api/contacts/1",
        r#"{"customerNumber":100555,"companyName":"Müller GmbH","email":"kontakt@example.de","salutation":2,"firstname":"Max","lastname":"Müller","listsIds":[1],"uncheckedListsIds":[]}"#,
    ),
    (
        "PUT",
        "/api/contacts/customer-number/100555",
        r#"{"customerNumber":100555,"companyName":"Müller GmbH","listsIds":[1],"uncheckedListsIds":[1],"contacts":[],"alphaPlanContacts":[]}"#,
    ),
];

const ROWS: &[Row] = &[
    // Pages: 302 is the guard's redirect (to /login without a session, else /unauthorized).
    // Provider 1 belongs to PROVIDER_ROLE, which the moderator lacks.
    Row {
        method: "GET",
        path: "/user/downloads",
        expect: [302, 200, 200, 302, 200, 200, 302, 302],
    },
    Row {
        method: "GET",
        path: "/admin/contacts",
        expect: [302, 200, 200, 302, 302, 302, 302, 302],
    },
    Row {
        method: "GET",
        path: "/admin/contact/edit/100001",
        expect: [302, 200, 200, 200, 302, 302, 302, 302],
    },
    Row {
        method: "GET",
        path: "/admin/provider/1",
        expect: [302, 200, 302, 302, 302, 302, 302, 302],
    },
    Row {
        method: "GET",
        path: "/admin/downloads",
        expect: [302, 200, 200, 302, 302, 302, 302, 302],
    },
    Row {
        method: "GET",
        path: "/admin/download/add",
        expect: [302, 200, 200, 302, 302, 302, 302, 302],
    },
    Row {
        method: "GET",
        // Package 1 belongs to provider 1, whose role the moderator lacks.
        path: "/admin/download/edit/1",
        expect: [302, 200, 302, 302, 302, 302, 302, 302],
    },
    Row {
        method: "GET",
        // A link that is no link: the failure text, for everybody.
        path: "/user/verify-double-opt-in/abc",
        expect: [404; 8],
    },
    Row {
        method: "GET",
        path: "/login-failed",
        expect: [200; 8],
    },
    Row {
        method: "GET",
        path: "/unauthorized",
        expect: [200; 8],
    },
    // API calls.
    Row {
        method: "GET",
        path: "/api/auth/responseUserData",
        expect: [401, 200, 200, 200, 200, 200, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/login/user",
        expect: [401, 200, 200, 200, 200, 200, 200, 200],
    },
    // Providers, folders, lists: provider 1 belongs to PROVIDER_ROLE, which the moderator
    // lacks. Writes send valid bodies (BODIES), so a 403 is the permission's, not a 400's.
    Row {
        method: "GET",
        path: "/api/providers/",
        expect: [401, 200, 200, 403, 403, 403, 403, 403],
    },
    Row {
        method: "POST",
        path: "/api/providers/",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "PUT",
        path: "/api/providers/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "DELETE",
        path: "/api/providers/999/",
        expect: [401, 404, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/providers/1/lists/",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "POST",
        path: "/api/providers/1/lists",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "PATCH",
        path: "/api/lists/name/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "PATCH",
        path: "/api/lists/status/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "DELETE",
        path: "/api/lists/1",
        expect: [401, 409, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/sync/providers/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/providers/contact/999",
        expect: [401, 404, 404, 404, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/brevo/folders/",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/brevo/folder/1/lists/",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "POST",
        path: "/api/upload/",
        expect: [401, 400, 400, 403, 403, 403, 403, 403],
    },
    // Download packages: package 1 of provider 1 (PROVIDER_ROLE) holds file 1 and is offered
    // to list 1, which no contact is on. The admin list shows every package to the admin
    // area; writes need Admin or the provider's role (the moderator lacks it); a customer
    // sees the package only through its lists (none here): 404.
    Row {
        method: "GET",
        path: "/api/downloads/",
        expect: [401, 200, 200, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/downloads/contact/",
        expect: [401, 200, 200, 403, 200, 200, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/downloads/tags/",
        expect: [401, 200, 200, 403, 200, 200, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/download/1",
        expect: [401, 200, 200, 403, 404, 404, 403, 403],
    },
    Row {
        method: "POST",
        path: "/api/download/",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "POST",
        path: "/api/download/duplicate",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "PUT",
        path: "/api/download/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "PATCH",
        path: "/api/download/changeArchiveStatus/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "PATCH",
        path: "/api/download/changeArchiveStatus/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "DELETE",
        path: "/api/download/999",
        expect: [401, 404, 404, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/download/1/zip",
        expect: [401, 200, 404, 403, 404, 404, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/downloads/zip?files=1:1",
        expect: [401, 200, 404, 403, 404, 404, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/upload-requirements/",
        expect: [401, 200, 200, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/files/1/Flyer.pdf",
        expect: [401, 200, 404, 404, 404, 404, 404, 200],
    },
    // A file's preview has exactly the file's rights.
    Row {
        method: "GET",
        path: "/previews/1/thumb.jpg",
        expect: [401, 200, 404, 404, 404, 404, 404, 200],
    },
    // Contacts (spec §7): the table and the mass mail for the admin area, the editor's calls
    // also for BU-DOI, blocking and deleting not for BU-DOI; confirming needs nobody.
    Row {
        method: "GET",
        path: "/api/contacts",
        expect: [401, 200, 200, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/contacts/providers/[1]",
        expect: [401, 200, 200, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/contacts/marketing-retries",
        expect: [401, 200, 200, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/contacts/email/kontakt@example.de",
        expect: [401, 200, 200, 200, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/contacts/customer-number/100555",
        expect: [401, 200, 200, 200, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/contacts/1/lists",
        expect: [401, 200, 200, 200, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/contacts/lists/[1]",
        expect: [401, 200, 200, 200, 403, 403, 403, 403],
    },
    Row {
        method: "POST",
        path: "/api/contacts",
        expect: [401, 201, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "PUT",
        path: "/api/contacts/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    Row {
        method: "PATCH",
        path: "/api/contacts/email-blacklist/1",
        expect: [401, 200, 200, 403, 403, 403, 403, 403],
    },
    Row {
        method: "DELETE",
        path: "/api/contacts/999",
        expect: [401, 404, 404, 403, 403, 403, 403, 403],
    },
    Row {
        method: "PATCH",
        path: "/api/contacts/confirm-double-opt-in/abc",
        expect: [404; 8],
    },
    Row {
        method: "POST",
        path: "/api/fn/confirm-double-opt-in",
        expect: [200; 8],
    },
    Row {
        method: "POST",
        // The admin's mail goes out; the next ones within a minute are refused (409).
        path: "/api/smtp/email/kontakt@example.de",
        expect: [401, 200, 409, 409, 403, 403, 403, 403],
    },
    Row {
        method: "POST",
        path: "/api/smtp/emails",
        expect: [401, 200, 200, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/smtp/emails",
        expect: [401, 200, 200, 403, 403, 403, 403, 403],
    },
    // The contact editor's save (a body is needed), the planning import, and the sync
    // manager (Admin only; without Brevo there is nothing to sync: 409).
    Row {
        method: "PUT",
        path: "/api/contacts/customer-number/100555",
        expect: [401, 200, 200, 200, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/planning/status",
        expect: [401, 200, 200, 403, 403, 403, 403, 403],
    },
    Row {
        method: "POST",
        path: "/api/planning/csv/preview",
        expect: [401, 400, 400, 403, 403, 403, 403, 403],
    },
    Row {
        method: "POST",
        path: "/api/planning/csv/import",
        expect: [401, 400, 400, 403, 403, 403, 403, 403],
    },
    Row {
        method: "GET",
        path: "/api/syncContactsFromBrevo",
        expect: [401, 409, 403, 403, 403, 403, 403, 403],
    },
];

/// A call with a body that tries to cross a right (issue 20), with the expected answer per
/// role. These run after `ROWS`, each role in reverse order (the admin last), so the one
/// allowed change comes after every refused try.
struct Attack {
    method: &'static str,
    path: &'static str,
    body: &'static str,
    expect: [u16; 8],
}

const ATTACKS: &[Attack] = &[
    // Upload 1 is provider 1's (in package 1); provider 2 is the moderator's own. Putting the
    // other provider's file into one's own package is refused.
    Attack {
        method: "POST",
        path: "/api/download/",
        body: r#"{"name":"Fremde Datei im eigenen Paket","startAt":"2026-01-01","endAt":"2030-12-31","ProviderId":2,"listsIds":[2],"uploadsToInsert":[{"id":1}]}"#,
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
    // Contact 1 (customer 100555, on provider 1's list) moved to the test users' customer
    // number 100001, keeping its lists: only for who manages each of them.
    Attack {
        method: "PUT",
        path: "/api/contacts/1",
        body: r#"{"customerNumber":100001,"companyName":"Gekapert GmbH","email":"kontakt@example.de","salutation":2,"firstname":"Max","lastname":"Müller","listsIds":[],"uncheckedListsIds":[]}"#,
        expect: [401, 200, 403, 403, 403, 403, 403, 403],
    },
];

/// Last: signing out ends the sessions the rows above use.
const SIGN_OUT: &[Row] = &[
    Row {
        method: "GET",
        path: "/api/auth/logout",
        expect: [303; 8],
    },
    Row {
        method: "POST",
        path: "/api/auth/logout",
        expect: [303; 8],
    },
];

#[tokio::test]
async fn every_role_gets_the_expected_answer_everywhere() {
    let app = spawn_app().await;
    let provider = app
        .provider_without_folders("Glasfaser Süd", PROVIDER_ROLE)
        .await;
    assert_eq!(provider, 1);
    let list = aktionsportal::db::lists::create(
        &app.test_db.db,
        &aktionsportal::db::lists::NewList {
            provider_id: 1,
            name: "Flyer Herbst".into(),
            brevo_list_id: None,
            active: true,
        },
    )
    .await
    .unwrap();
    assert_eq!(list.id, 1);
    // Provider 2 with list 2 is the moderator's own (for the attacks).
    let own = app
        .provider_without_folders("Eigener Anbieter", BU_MODERATOR)
        .await;
    let own_list = aktionsportal::db::lists::create(
        &app.test_db.db,
        &aktionsportal::db::lists::NewList {
            provider_id: own,
            name: "Eigene Liste".into(),
            brevo_list_id: None,
            active: true,
        },
    )
    .await
    .unwrap();
    assert_eq!((own, own_list.id), (2, 2));
    let store = aktionsportal::storage::FileStore::new(app.test_db.data_dir.join("files")).unwrap();
    let key = store.put_bytes(b"%PDF-1.4", "pdf").await.unwrap();
    let db = &app.test_db.db;
    // Upload 1 has its previews (as the worker would store them).
    let sha256: String = sha2::Sha256::digest(b"%PDF-1.4")
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let now = chrono::Utc::now();
    assert!(
        aktionsportal::db::previews::claim(db, &sha256, now, now)
            .await
            .unwrap()
    );
    let upload = aktionsportal::db::uploads::create(
        db,
        &aktionsportal::db::uploads::NewUpload {
            name: "Flyer.pdf".into(),
            storage_key: key,
            ext: "pdf".into(),
            size: 8,
            content_type: "application/pdf".into(),
            sha256: Some(sha256.clone()),
            crc32: Some(i64::from(crc32fast::hash(b"%PDF-1.4"))),
            uploaded_by: None,
        },
    )
    .await
    .unwrap();
    let preview = aktionsportal::db::previews::Stored {
        thumb_key: store.put_bytes(b"\xFF\xD8\xFF thumb", "jpg").await.unwrap(),
        thumb_width: 320,
        thumb_height: 452,
        large_key: store.put_bytes(b"\xFF\xD8\xFF large", "jpg").await.unwrap(),
        large_width: 1200,
        large_height: 1697,
    };
    assert!(
        aktionsportal::db::previews::finish(db, &sha256, &preview)
            .await
            .unwrap()
    );
    let package = aktionsportal::db::downloads::create(
        db,
        &aktionsportal::db::downloads::NewDownload {
            provider_id: 1,
            name: "Herbstaktion".into(),
            start_at: chrono::Utc::now(),
            end_at: chrono::Utc::now() + chrono::Duration::days(30),
            files: vec![aktionsportal::db::downloads::NewFile {
                upload_id: upload.id,
                name: "Flyer.pdf".into(),
                tag_ids: vec![],
            }],
            list_ids: vec![1],
        },
    )
    .await
    .unwrap();
    assert_eq!((upload.id, package.id), (1, 1));
    aktionsportal::db::contacts::upsert_company(db, 100_555, "Müller GmbH")
        .await
        .unwrap();
    let contact = aktionsportal::db::contacts::create_contact(
        db,
        &aktionsportal::db::contacts::NewContact {
            // Not the test users' customer number: the package stays theirs to not see.
            customer_number: 100_555,
            brevo_contact_id: None,
            email: "kontakt@example.de".into(),
            salutation: 2,
            firstname: "Max".into(),
            lastname: "Müller".into(),
            extern_id: None,
            double_opt_in: false,
            email_blacklisted: false,
        },
    )
    .await
    .unwrap();
    aktionsportal::db::contacts::set_lists(db, contact.id, &[1])
        .await
        .unwrap();
    assert_eq!(contact.id, 1);
    let mut tokens = Vec::new();
    for who in WHO {
        tokens.push(match who {
            Who::Anonymous => None,
            Who::Roles(roles) => Some(app.session_with_roles(roles).await),
        });
    }
    let mut wrong = Vec::new();
    let mut check = async |method: &str, path: &str, body: Option<&str>, i: usize, expect: u16| {
        let mut request = app.client.request(method.parse().unwrap(), app.url(path));
        if let Some(token) = &tokens[i] {
            request = request.header("cookie", format!("ap_session={token}"));
        }
        if let Some(body) = body {
            // JSON bodies start with `{` or `[`; the others are forms.
            let content_type = if body.starts_with(['{', '[']) {
                "application/json"
            } else {
                "application/x-www-form-urlencoded"
            };
            request = request
                .header("content-type", content_type)
                .body(body.to_string());
        }
        let status = request.send().await.unwrap().status().as_u16();
        if status != expect {
            let who = match WHO[i] {
                Who::Anonymous => "anonym".to_string(),
                Who::Roles(roles) => roles.join("+"),
            };
            wrong.push(format!(
                "{method} {path} as {who}: {status}, expected {expect}"
            ));
        }
    };
    let body_of = |row: &Row| {
        BODIES
            .iter()
            .find(|(method, path, _)| *method == row.method && *path == row.path)
            .map(|(.., body)| *body)
    };
    for row in ROWS {
        for i in 0..WHO.len() {
            check(row.method, row.path, body_of(row), i, row.expect[i]).await;
        }
    }
    for attack in ATTACKS {
        for i in (0..WHO.len()).rev() {
            check(
                attack.method,
                attack.path,
                Some(attack.body),
                i,
                attack.expect[i],
            )
            .await;
        }
    }
    for row in SIGN_OUT {
        for i in 0..WHO.len() {
            check(row.method, row.path, body_of(row), i, row.expect[i]).await;
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
