//! Every role against every page and API call that exists, with the expected answer
//! (spec §6), as the shared table in `tests/common/permission_table.rs` states it.

mod common;

use aktionsportal::domain::roles::BU_MODERATOR;
use common::permission_table::{
    ATTACKS, BODIES, PROVIDER_ROLE, ROWS, Row, SIGN_OUT, WHO, Who, content_type,
};
use common::spawn_app;
use sha2::Digest;

#[tokio::test]
async fn every_role_gets_the_expected_answer_everywhere() {
    let app = spawn_app().await;
    let provider = app
        .provider_without_folders("Glasfaser Süd", PROVIDER_ROLE)
        .await;
    assert_eq!(provider, 1);
    let list = aktionsportal::db::marketing::lists::create(
        &app.test_db.db,
        &aktionsportal::db::marketing::lists::NewListRecord {
            provider_id: 1,
            name: "Flyer Herbst".into(),
            brevo_list_id: None,
            active: true,
        },
        &aktionsportal::test_support::cli_change(),
    )
    .await
    .unwrap();
    assert_eq!(list.id, 1);
    // Provider 2 with list 2 is the moderator's own (for the attacks).
    let own = app
        .provider_without_folders("Eigener Anbieter", BU_MODERATOR)
        .await;
    let own_list = aktionsportal::db::marketing::lists::create(
        &app.test_db.db,
        &aktionsportal::db::marketing::lists::NewListRecord {
            provider_id: own,
            name: "Eigene Liste".into(),
            brevo_list_id: None,
            active: true,
        },
        &aktionsportal::test_support::cli_change(),
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
        aktionsportal::db::catalog::previews::claim(db, &sha256, now, now)
            .await
            .unwrap()
    );
    let upload = aktionsportal::db::catalog::uploads::create(
        db,
        &aktionsportal::db::catalog::uploads::NewUpload {
            name: "Flyer.pdf".into(),
            storage_key: key,
            ext: "pdf".into(),
            size: 8,
            content_type: "application/pdf".into(),
            sha256: Some(sha256.clone()),
            crc32: Some(i64::from(crc32fast::hash(b"%PDF-1.4"))),
            uploaded_by: None,
        },
        &aktionsportal::domain::audit::Actor::Cli,
    )
    .await
    .unwrap();
    let preview = aktionsportal::db::catalog::previews::StoredPreviews {
        thumb_key: store.put_bytes(b"\xFF\xD8\xFF thumb", "jpg").await.unwrap(),
        thumb_width: 320,
        thumb_height: 452,
        large_key: store.put_bytes(b"\xFF\xD8\xFF large", "jpg").await.unwrap(),
        large_width: 1200,
        large_height: 1697,
    };
    assert!(
        aktionsportal::db::catalog::previews::finish(db, &sha256, &preview)
            .await
            .unwrap()
    );
    let package = aktionsportal::db::catalog::packages::create(
        db,
        &aktionsportal::db::catalog::packages::NewPackage {
            provider_id: 1,
            name: "Herbstaktion".into(),
            start_at: chrono::Utc::now(),
            end_at: chrono::Utc::now() + chrono::Duration::days(30),
            files: vec![aktionsportal::db::catalog::packages::NewFile {
                upload_id: upload.id,
                name: "Flyer.pdf".into(),
                tag_ids: vec![],
            }],
            list_ids: vec![1],
        },
        &aktionsportal::test_support::cli_change(),
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
            request = request
                .header("content-type", content_type(body))
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
        let refused = (0..WHO.len()).filter(|&i| attack.expect[i] >= 400);
        let allowed = (0..WHO.len()).filter(|&i| attack.expect[i] < 400);
        for i in refused.chain(allowed) {
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
