//! The permission table (spec §6): every role, and users with several roles, against every
//! page and call, with the answer each must get. `tests/permissions.rs` sends the requests;
//! `tests/openapi.rs` checks that the description documents every status the table expects.
//! Later issues add their rows here.

use aktionsportal::domain::roles::{ADMIN, BU_DOI, BU_MODERATOR, DEVELOPER, PORTAL, PROVISION};

/// A provider role as spec §6 describes them (free text in `allowedRoles`).
pub const PROVIDER_ROLE: &str = "GS-Aktionsportal-BU-Glasfaser";

#[derive(Clone, Copy)]
pub enum Who {
    Anonymous,
    Roles(&'static [&'static str]),
}

pub const WHO: [Who; 10] = [
    Who::Anonymous,
    Who::Roles(&[ADMIN]),
    Who::Roles(&[BU_MODERATOR]),
    Who::Roles(&[BU_DOI]),
    Who::Roles(&[PORTAL]),
    Who::Roles(&[PROVISION]),
    Who::Roles(&[DEVELOPER]),
    Who::Roles(&[PROVIDER_ROLE]),
    // Several roles: each right of one role holds beside the other's.
    Who::Roles(&[BU_DOI, ADMIN]),
    Who::Roles(&[BU_MODERATOR, PROVIDER_ROLE]),
];

/// Expected status for each entry of `WHO`, in order: anonymous, admin, moderator, DOI,
/// portal, provision, developer, provider role, DOI + admin, moderator + provider role.
/// The roles run in this order, so a write the admin made already can meet a taken name or
/// email (400, 409) for a later user: that answer comes after the right was granted.
pub struct Row {
    pub method: &'static str,
    pub path: &'static str,
    pub expect: [u16; 10],
}

/// The boundary of `UPLOAD_FORM`.
const BOUNDARY: &str = "ap-permissions-boundary";

const UPLOAD_FORM: &str = "--ap-permissions-boundary\r\n\
     Content-Disposition: form-data; name=\"files[0]\"; filename=\"Flyer.pdf\"\r\n\
     Content-Type: application/pdf\r\n\r\n\
     %PDF-1.4 Flyer\r\n\
     --ap-permissions-boundary--\r\n";

const PLANNING_CSV: &str = "E-Mail;Kundennummer;Firma;Anrede;Vorname;Nachname\r\n\
     rechte@planung.example;500001;Planung KG;Frau;Rita;Rechte\r\n";

/// The content type a body of `BODIES` or `ATTACKS` goes out with.
pub fn content_type(body: &str) -> String {
    if body.starts_with(['{', '[']) {
        "application/json".into()
    } else if body.starts_with("--") {
        format!("multipart/form-data; boundary={BOUNDARY}")
    } else if body.starts_with("E-Mail;") {
        "text/csv".into()
    } else {
        "application/x-www-form-urlencoded".into()
    }
}

/// Valid bodies for the writes, so that a row expecting 403 cannot pass on a 400 (a body the
/// server refuses before it decides on the permission). Rows not named here send no body.
pub const BODIES: &[(&str, &str, &str)] = &[
    // A small PDF as the upload form sends it.
    ("POST", "/api/upload/", UPLOAD_FORM),
    // A planning CSV with one contact.
    ("POST", "/api/planning/csv/preview", PLANNING_CSV),
    ("POST", "/api/planning/csv/import", PLANNING_CSV),
    // The confirmation page's form (a link that is no link confirms nothing).
    ("POST", "/api/fn/confirm-double-opt-in", "token=abc"),
    // A mail program's one-click unsubscribe (a link that is no link blocks nobody).
    ("POST", "/api/unsubscribe/abc", "List-Unsubscribe=One-Click"),
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
    (
        "POST",
        "/api/tags",
        r#"{"name":"Rechte-Tag","icon":"bi bi-star"}"#,
    ),
    (
        "PUT",
        "/api/tags/999",
        r#"{"name":"Rechte-Tag 2","icon":"bi bi-star"}"#,
    ),
    ("PATCH", "/api/lists/status/1", r#"{"active":true}"#),
    (
        "POST",
        "/api/download/",
        r#"{"name":"Neues Paket Herbst","startAt":"2026-01-01","endAt":"2030-12-31","ProviderId":1,"listsIds":[1],"uploadsToInsert":[]}"#,
    ),
    ("POST", "/api/download/duplicate", r#"{"id":1}"#),
    (
        "PUT",
        "/api/download/1/announcement",
        r#"{"announce":true,"subject":"Neu: {Paket}","text":"Ab {Gültig ab}.","reminderDays":3,"confirmStarted":true}"#,
    ),
    (
        "POST",
        "/api/download/1/announcement/preview",
        r#"{"announce":true,"subject":"Neu: {Paket}","text":"Ab {Gültig ab}.","reminderDays":3}"#,
    ),
    (
        "POST",
        "/api/download/1/announcement/test-mail",
        r#"{"announce":true,"subject":"Neu: {Paket}","text":"Ab {Gültig ab}.","reminderDays":3}"#,
    ),
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

pub const ROWS: &[Row] = &[
    // Pages: 302 is the guard's redirect (to /login without a session, else /unauthorized).
    // Provider 1 belongs to PROVIDER_ROLE, which the moderator lacks.
    Row {
        method: "GET",
        path: "/user/downloads",
        expect: [302, 200, 200, 302, 200, 200, 302, 302, 200, 200],
    },
    Row {
        method: "GET",
        path: "/admin/contacts",
        expect: [302, 200, 200, 302, 302, 302, 302, 302, 200, 200],
    },
    Row {
        method: "GET",
        path: "/admin/contact/edit/100001",
        expect: [302, 200, 200, 200, 302, 302, 302, 302, 200, 200],
    },
    // The contact editor's start page (issue 35): whoever may open the contact editor.
    Row {
        method: "GET",
        path: "/admin/contact/edit",
        expect: [302, 200, 200, 200, 302, 302, 302, 302, 200, 200],
    },
    Row {
        method: "GET",
        path: "/admin/provider/1",
        expect: [302, 200, 302, 302, 302, 302, 302, 302, 200, 200],
    },
    Row {
        method: "GET",
        path: "/admin/downloads",
        expect: [302, 200, 200, 302, 302, 302, 302, 302, 200, 200],
    },
    Row {
        method: "GET",
        path: "/admin/statistics",
        expect: [302, 200, 200, 302, 302, 302, 302, 302, 200, 200],
    },
    Row {
        method: "GET",
        path: "/admin/audit?entity=package&entityId=1",
        expect: [302, 200, 302, 302, 302, 302, 302, 302, 200, 302],
    },
    // Tag management (issue 25): the admin alone.
    Row {
        method: "GET",
        path: "/admin/tags",
        expect: [302, 200, 302, 302, 302, 302, 302, 302, 200, 302],
    },
    Row {
        method: "GET",
        path: "/admin/download/add",
        expect: [302, 200, 200, 302, 302, 302, 302, 302, 200, 200],
    },
    Row {
        method: "GET",
        // Package 1 belongs to provider 1, whose role the moderator lacks.
        path: "/admin/download/edit/1",
        expect: [302, 200, 302, 302, 302, 302, 302, 302, 200, 200],
    },
    Row {
        method: "GET",
        // A link that is no link: the failure text, for everybody.
        path: "/user/verify-double-opt-in/abc",
        expect: [404; 10],
    },
    Row {
        method: "GET",
        path: "/login-failed",
        expect: [200; 10],
    },
    Row {
        method: "GET",
        path: "/unauthorized",
        expect: [200; 10],
    },
    // API calls.
    Row {
        method: "GET",
        path: "/api/auth/responseUserData",
        expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/login/user",
        expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200],
    },
    // Providers, folders, lists: provider 1 belongs to PROVIDER_ROLE, which the moderator
    // lacks. Writes send valid bodies (BODIES), so a 403 is the permission's, not a 400's.
    Row {
        method: "GET",
        path: "/api/providers/",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "POST",
        path: "/api/providers/",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 400, 403],
    },
    Row {
        method: "PUT",
        path: "/api/providers/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 403],
    },
    Row {
        method: "DELETE",
        path: "/api/providers/999/",
        expect: [401, 404, 403, 403, 403, 403, 403, 403, 404, 403],
    },
    Row {
        method: "GET",
        path: "/api/providers/1/lists/",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "POST",
        path: "/api/providers/1/lists",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "PATCH",
        path: "/api/lists/name/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "PATCH",
        path: "/api/lists/status/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "DELETE",
        path: "/api/lists/1",
        expect: [401, 409, 403, 403, 403, 403, 403, 403, 409, 409],
    },
    Row {
        method: "GET",
        path: "/api/sync/providers/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/providers/contact/999",
        expect: [401, 404, 404, 404, 403, 403, 403, 403, 404, 404],
    },
    Row {
        method: "GET",
        path: "/api/brevo/folders/",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 403],
    },
    Row {
        method: "GET",
        path: "/api/brevo/folder/1/lists/",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 403],
    },
    Row {
        method: "POST",
        path: "/api/upload/",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    // Download packages: package 1 of provider 1 (PROVIDER_ROLE) holds file 1 and is offered
    // to list 1, which no contact is on. The admin list shows every package to the admin
    // area; writes need Admin or the provider's role (the moderator lacks it); a customer
    // sees the package only through its lists (none here): 404.
    Row {
        method: "GET",
        path: "/api/downloads/",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/downloads/contact/",
        expect: [401, 200, 200, 403, 200, 200, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/downloads/tags/",
        expect: [401, 200, 200, 403, 200, 200, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/download/1",
        expect: [401, 200, 200, 403, 404, 404, 403, 403, 200, 200],
    },
    Row {
        method: "POST",
        path: "/api/download/",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "POST",
        path: "/api/download/duplicate",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "PUT",
        path: "/api/download/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    // A package's mails: only Admin and the provider's roles, as for its writes.
    Row {
        method: "GET",
        path: "/api/download/1/announcement",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "PUT",
        path: "/api/download/1/announcement",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "POST",
        path: "/api/download/1/announcement/preview",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/download/1/announcement/failures",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "POST",
        path: "/api/download/1/announcement/test-mail",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    // Announced by the PUT above (the package has started and the body confirms it).
    Row {
        method: "POST",
        path: "/api/download/1/announcement/again",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/download/1/announcement/preview.html?subject=Neu&text=Ab",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "PATCH",
        path: "/api/download/changeArchiveStatus/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "PATCH",
        path: "/api/download/changeArchiveStatus/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "DELETE",
        path: "/api/download/999",
        expect: [401, 404, 404, 403, 403, 403, 403, 403, 404, 404],
    },
    Row {
        method: "GET",
        path: "/api/download/1/zip",
        expect: [401, 200, 404, 403, 404, 404, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/downloads/zip?files=1:1",
        expect: [401, 200, 404, 403, 404, 404, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/upload-requirements/",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/files/1/Flyer.pdf",
        expect: [401, 200, 404, 404, 404, 404, 404, 200, 200, 200],
    },
    // A file's preview has exactly the file's rights.
    Row {
        method: "GET",
        path: "/previews/1/thumb.jpg",
        expect: [401, 200, 404, 404, 404, 404, 404, 200, 200, 200],
    },
    // A mail's picture: the address is the key, the same answer for everybody (a wrong tag
    // opens nothing).
    Row {
        method: "GET",
        path: "/mail-bilder/1/abc",
        expect: [404; 10],
    },
    // Contacts (spec §7): the table and the mass mail for the admin area, the editor's calls
    // also for BU-DOI, blocking and deleting not for BU-DOI; confirming needs nobody.
    Row {
        method: "GET",
        path: "/api/contacts",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/contacts/providers/[1]",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/contacts/marketing-retries",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/contacts/email/kontakt@example.de",
        expect: [401, 200, 200, 200, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/contacts/customer-number/100555",
        expect: [401, 200, 200, 200, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/contacts/1/lists",
        expect: [401, 200, 200, 200, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/contacts/lists/[1]",
        expect: [401, 200, 200, 200, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "POST",
        path: "/api/contacts",
        expect: [401, 201, 403, 403, 403, 403, 403, 403, 409, 409],
    },
    Row {
        method: "PUT",
        path: "/api/contacts/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    // A contact's data (issue 25): the admin alone, also beside another role.
    Row {
        method: "GET",
        path: "/api/contacts/1/export",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 403],
    },
    Row {
        method: "GET",
        path: "/api/tags",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 403],
    },
    Row {
        method: "POST",
        path: "/api/tags",
        expect: [401, 201, 403, 403, 403, 403, 403, 403, 409, 403],
    },
    Row {
        method: "PUT",
        path: "/api/tags/999",
        expect: [401, 404, 403, 403, 403, 403, 403, 403, 404, 403],
    },
    Row {
        method: "DELETE",
        path: "/api/tags/999",
        expect: [401, 404, 403, 403, 403, 403, 403, 403, 404, 403],
    },
    // Erasure: an unknown contact, so that the table's contact stays for the rows after it.
    Row {
        method: "POST",
        path: "/api/contacts/999/erase",
        expect: [401, 404, 403, 403, 403, 403, 403, 403, 404, 403],
    },
    Row {
        method: "PATCH",
        path: "/api/contacts/email-blacklist/1",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "DELETE",
        path: "/api/contacts/999",
        expect: [401, 404, 404, 403, 403, 403, 403, 403, 404, 404],
    },
    Row {
        method: "PATCH",
        path: "/api/contacts/confirm-double-opt-in/abc",
        expect: [404; 10],
    },
    Row {
        method: "POST",
        path: "/api/fn/confirm-double-opt-in",
        expect: [200; 10],
    },
    Row {
        method: "POST",
        path: "/api/unsubscribe/abc",
        expect: [404; 10],
    },
    Row {
        method: "POST",
        // The admin's mail goes out; the next ones within a minute are refused (409).
        path: "/api/smtp/email/kontakt@example.de",
        expect: [401, 200, 409, 409, 403, 403, 403, 403, 409, 409],
    },
    Row {
        method: "POST",
        path: "/api/smtp/emails",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/smtp/emails",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    // The contact editor's save (a body is needed), the planning import, and the sync
    // manager (Admin only; without Brevo there is nothing to sync: 409).
    Row {
        method: "PUT",
        path: "/api/contacts/customer-number/100555",
        expect: [401, 200, 200, 200, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/planning/status",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "POST",
        path: "/api/planning/csv/preview",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "POST",
        path: "/api/planning/csv/import",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    // Download statistics (issue 24): the admin area; a package's figures for who manages
    // its provider (package 1 is provider 1's); who took it for the admin alone.
    Row {
        method: "GET",
        path: "/api/statistics/summary",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/statistics/providers",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/announcements?ids=1",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/statistics/mails",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/statistics/downloads?ids=1",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/statistics/packages/1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/statistics/packages/1/customers",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 403],
    },
    Row {
        method: "GET",
        path: "/api/statistics/export.csv?view=providers",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/statistics/export.csv?view=package&packageId=1",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    Row {
        method: "GET",
        path: "/api/statistics/packages.csv",
        expect: [401, 200, 200, 403, 403, 403, 403, 403, 200, 200],
    },
    // The audit log (issue 24): the admin alone, also beside another role.
    Row {
        method: "GET",
        path: "/api/audit",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 403],
    },
    Row {
        method: "GET",
        path: "/api/audit?entity=package&entityId=1&from=2026-01-01&to=&actor=CLI&limit=5",
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 403],
    },
    Row {
        method: "GET",
        path: "/api/syncContactsFromBrevo",
        expect: [401, 409, 403, 403, 403, 403, 403, 403, 409, 403],
    },
];

/// A call with a body that tries to cross a right (issue 20), with the expected answer per
/// role. These run after `ROWS`: first every role expected to be refused, then those allowed,
/// so that no allowed change makes a later try legitimate.
pub struct Attack {
    pub method: &'static str,
    pub path: &'static str,
    pub body: &'static str,
    pub expect: [u16; 10],
}

pub const ATTACKS: &[Attack] = &[
    // Upload 1 is provider 1's (in package 1); provider 2 is the moderator's own. Putting the
    // other provider's file into one's own package is refused.
    Attack {
        method: "POST",
        path: "/api/download/",
        body: r#"{"name":"Fremde Datei im eigenen Paket","startAt":"2026-01-01","endAt":"2030-12-31","ProviderId":2,"listsIds":[2],"uploadsToInsert":[{"id":1}]}"#,
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
    // Contact 1 (customer 100555, on provider 1's list) moved to the test users' customer
    // number 100001, keeping its lists: only for who manages each of them.
    Attack {
        method: "PUT",
        path: "/api/contacts/1",
        body: r#"{"customerNumber":100001,"companyName":"Gekapert GmbH","email":"kontakt@example.de","salutation":2,"firstname":"Max","lastname":"Müller","listsIds":[],"uncheckedListsIds":[]}"#,
        expect: [401, 200, 403, 403, 403, 403, 403, 403, 200, 200],
    },
];

/// Last: signing out ends the sessions the rows above use.
pub const SIGN_OUT: &[Row] = &[
    Row {
        method: "GET",
        path: "/api/auth/logout",
        expect: [303; 10],
    },
    Row {
        method: "POST",
        path: "/api/auth/logout",
        expect: [303; 10],
    },
];
