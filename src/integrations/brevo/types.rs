//! Request and answer bodies of the Brevo endpoints the portal uses, with Brevo's field names
//! (camelCase, except `ext_id`). See `shared/reference/brevo-openapi.yaml`.

use std::fmt::Write as _;

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// Largest `limit` of `GET /contacts/folders` and `GET /contacts/folders/{id}/lists`.
pub const MAX_FOLDER_PAGE: u32 = 50;
/// Largest `limit` of `GET /contacts`.
pub const MAX_CONTACT_PAGE: u32 = 1000;

/// Order of a paged listing, by creation date. Brevo's default is `desc`; for paging loops
/// `asc` keeps offsets stable while records are created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BrevoSortOrder {
    #[default]
    Asc,
    Desc,
}

impl BrevoSortOrder {
    pub fn as_str(self) -> &'static str {
        match self {
            BrevoSortOrder::Asc => "asc",
            BrevoSortOrder::Desc => "desc",
        }
    }
}

/// A contact folder (Brevo's deprecated counters are not read).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrevoFolder {
    pub id: i64,
    #[serde(default)]
    pub name: String,
}

/// One page of `GET /contacts/folders`; `count` is the total number of folders.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrevoFolderPage {
    #[serde(default)]
    pub count: i64,
    #[serde(default)]
    pub folders: Vec<BrevoFolder>,
}

/// A contact list. The counters are deprecated by Brevo (may read 0); `folder_id` is filled
/// by `GET /contacts/lists/{id}`, and by the client for the lists of a folder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrevoList {
    pub id: i64,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub total_subscribers: i64,
    #[serde(default)]
    pub total_blacklisted: i64,
    /// Left out when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder_id: Option<i64>,
}

/// One page of `GET /contacts/folders/{id}/lists`; `count` is the folder's total.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrevoFolderLists {
    #[serde(default)]
    pub count: i64,
    #[serde(default)]
    pub lists: Vec<BrevoList>,
}

/// How a contact is addressed in `/contacts/{identifier}`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum ContactRef {
    Email(String),
    Id(i64),
}

impl ContactRef {
    pub fn email(email: impl Into<String>) -> Self {
        ContactRef::Email(email.into())
    }

    /// Path below the base URL and the query: the email URL-encoded (`+` → `%2B`,
    /// `@` → `%40`); a numeric id with `identifierType=contact_id`, which the current API
    /// accepts and which makes the id unambiguous (a bare number could be read as an SMS
    /// number on GET).
    pub(crate) fn path_and_query(&self) -> (String, Vec<(&'static str, String)>) {
        match self {
            ContactRef::Email(email) => (
                format!("/contacts/{}", encode_path_segment(email.trim())),
                Vec::new(),
            ),
            ContactRef::Id(id) => (
                format!("/contacts/{id}"),
                vec![("identifierType", "contact_id".to_owned())],
            ),
        }
    }
}

/// Never prints an email address (Debug output ends up in logs).
impl std::fmt::Debug for ContactRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ContactRef::Email(_) => f.write_str("Email(<redacted>)"),
            ContactRef::Id(id) => f.debug_tuple("Id").field(id).finish(),
        }
    }
}

/// Percent-encodes everything except RFC 3986 unreserved characters.
pub(crate) fn encode_path_segment(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() * 3);
    for byte in raw.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// Body of `POST /contacts`.
///
/// `email_blacklisted` is only sent when set: sending `false` re-subscribes a contact who
/// unsubscribed (external-apis §1.9), so leave it `None` unless that is really meant.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateContact {
    pub email: String,
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub attributes: Map<String, Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub list_ids: Vec<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_blacklisted: Option<bool>,
    /// `true`: update the contact if the email exists (Brevo answers 204 then).
    pub update_enabled: bool,
    #[serde(rename = "ext_id", skip_serializing_if = "Option::is_none")]
    pub ext_id: Option<String>,
}

/// Body of `PUT /contacts/{identifier}`. Empty fields are not sent.
/// `list_ids` adds to lists and `unlink_list_ids` removes from lists; other lists stay.
/// To change the email address set `attributes["EMAIL"]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateContact {
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub attributes: Map<String, Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub list_ids: Vec<i64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unlink_list_ids: Vec<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_blacklisted: Option<bool>,
    #[serde(rename = "ext_id", skip_serializing_if = "Option::is_none")]
    pub ext_id: Option<String>,
}

/// A contact as `GET /contacts` and `GET /contacts/{identifier}` return it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrevoContact {
    pub id: i64,
    /// Absent for SMS-only contacts.
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub email_blacklisted: bool,
    #[serde(default)]
    pub list_ids: Vec<i64>,
    #[serde(default)]
    pub attributes: Map<String, Value>,
    #[serde(deserialize_with = "brevo_datetime")]
    pub created_at: DateTime<Utc>,
    #[serde(deserialize_with = "brevo_datetime")]
    pub modified_at: DateTime<Utc>,
}

/// One page of `GET /contacts`; `count` is the number of contacts matching the filter.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BrevoContactPage {
    #[serde(default)]
    pub count: i64,
    #[serde(default)]
    pub contacts: Vec<BrevoContact>,
}

/// Sender or recipient of a transactional email.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmailAddress {
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl EmailAddress {
    pub fn new(email: impl Into<String>, name: Option<String>) -> Self {
        Self {
            email: email.into(),
            name,
        }
    }
}

/// Body of `POST /smtp/email`. With `template_id`, subject and contents come from the template
/// (and `params` fills `{{ params.NAME }}`); without, `subject` and `html_content` are required.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionalEmail {
    pub sender: EmailAddress,
    pub to: Vec<EmailAddress>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub html_content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<Map<String, Value>>,
    /// Header fields of the mail (`List-Unsubscribe`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headers: Option<Map<String, Value>>,
    /// Tags to find the mails by in Brevo's logs and statistics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// `{ "id": 123 }` of the create endpoints.
#[derive(Debug, Deserialize)]
pub(crate) struct Created {
    pub id: i64,
}

/// `{ "messageId": "<…>" }` (or `messageIds`) of `POST /smtp/email`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SentEmail {
    #[serde(default)]
    pub message_id: Option<String>,
    #[serde(default)]
    pub message_ids: Vec<String>,
}

/// Parses Brevo's date-times: RFC 3339 with `Z` or an offset (`2017-05-02T16:40:31Z`,
/// `2023-01-12T09:34:11.000+01:00`), an offset without colon, or a naive time taken as UTC.
pub fn parse_brevo_datetime(raw: &str) -> Option<DateTime<Utc>> {
    let raw = raw.trim();
    if let Ok(dt) = DateTime::parse_from_rfc3339(raw) {
        return Some(dt.with_timezone(&Utc));
    }
    if let Ok(dt) = DateTime::parse_from_str(raw, "%Y-%m-%dT%H:%M:%S%.f%z") {
        return Some(dt.with_timezone(&Utc));
    }
    ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f"]
        .iter()
        .find_map(|fmt| NaiveDateTime::parse_from_str(raw, fmt).ok())
        .map(|naive| naive.and_utc())
}

fn brevo_datetime<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
    let raw = String::deserialize(d)?;
    parse_brevo_datetime(&raw).ok_or_else(|| serde::de::Error::custom("unrecognised date-time"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use serde_json::json;

    #[test]
    fn identifiers_are_url_encoded() {
        let (path, query) = ContactRef::email("max+test@example.de").path_and_query();
        assert_eq!(path, "/contacts/max%2Btest%40example.de");
        assert!(query.is_empty());
        assert_eq!(encode_path_segment("a b/ä?#%"), "a%20b%2F%C3%A4%3F%23%25");
        assert_eq!(encode_path_segment("A-z0_9.~"), "A-z0_9.~");
        let (path, query) = ContactRef::Id(42).path_and_query();
        assert_eq!(path, "/contacts/42");
        assert_eq!(query, vec![("identifierType", "contact_id".to_owned())]);
    }

    #[test]
    fn contact_ref_debug_hides_email() {
        let debug = format!("{:?}", ContactRef::email("max@example.de"));
        assert!(!debug.contains("max@"), "{debug}");
        assert_eq!(format!("{:?}", ContactRef::Id(7)), "Id(7)");
    }

    #[test]
    fn create_contact_body_uses_brevo_names() {
        let mut attributes = Map::new();
        attributes.insert("FIRSTNAME".into(), json!("Max"));
        let body = CreateContact {
            email: "max@example.de".into(),
            attributes,
            list_ids: vec![3, 4],
            email_blacklisted: None,
            update_enabled: true,
            ext_id: Some("k-1".into()),
        };
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            json!({"email": "max@example.de", "attributes": {"FIRSTNAME": "Max"},
                   "listIds": [3, 4], "updateEnabled": true, "ext_id": "k-1"})
        );
        let update = UpdateContact {
            unlink_list_ids: vec![9],
            email_blacklisted: Some(true),
            ..UpdateContact::default()
        };
        assert_eq!(
            serde_json::to_value(&update).unwrap(),
            json!({"unlinkListIds": [9], "emailBlacklisted": true})
        );
    }

    #[test]
    fn transactional_email_body() {
        let mail = TransactionalEmail {
            sender: EmailAddress::new("noreply@example.de", Some("Portal".into())),
            to: vec![EmailAddress::new("max@example.de", None)],
            subject: Some("Hallo".into()),
            html_content: Some("<p>Hallo</p>".into()),
            ..TransactionalEmail::default()
        };
        assert_eq!(
            serde_json::to_value(&mail).unwrap(),
            json!({"sender": {"email": "noreply@example.de", "name": "Portal"},
                   "to": [{"email": "max@example.de"}],
                   "subject": "Hallo", "htmlContent": "<p>Hallo</p>"})
        );
    }

    #[test]
    fn contact_parses_brevo_shapes() {
        let contact: BrevoContact = serde_json::from_value(json!({
            "id": 42, "email": "peggy@example.com", "emailBlacklisted": false,
            "smsBlacklisted": false, "createdAt": "2017-05-02T16:40:31Z",
            "modifiedAt": "2023-01-12T09:34:11.250+01:00", "listIds": [40],
            "attributes": {"FIRSTNAME": "Peggy", "DOUBLE_OPT-IN": "1"},
            "statistics": {}
        }))
        .unwrap();
        assert_eq!(contact.id, 42);
        assert_eq!(contact.list_ids, vec![40]);
        assert_eq!(
            contact.created_at,
            Utc.with_ymd_and_hms(2017, 5, 2, 16, 40, 31).unwrap()
        );
        assert_eq!(
            contact.modified_at,
            Utc.with_ymd_and_hms(2023, 1, 12, 8, 34, 11).unwrap()
                + chrono::Duration::milliseconds(250)
        );
        // SMS-only contact without email, list fields missing.
        let contact: BrevoContact = serde_json::from_value(json!({
            "id": 1, "createdAt": "2020-01-01 10:00:00", "modifiedAt": "2020-01-01T10:00:00+0100"
        }))
        .unwrap();
        assert_eq!(contact.email, None);
        assert_eq!(
            contact.modified_at,
            Utc.with_ymd_and_hms(2020, 1, 1, 9, 0, 0).unwrap()
        );
        assert!(parse_brevo_datetime("yesterday").is_none());
    }

    #[test]
    fn pages_tolerate_missing_fields() {
        let page: BrevoFolderLists = serde_json::from_value(json!({})).unwrap();
        assert_eq!(page, BrevoFolderLists::default());
        let page: BrevoFolderPage = serde_json::from_value(json!({
            "count": 1,
            "folders": [{"id": 2, "name": "A", "totalBlacklisted": 0, "totalSubscribers": 0, "uniqueSubscribers": 0}]
        }))
        .unwrap();
        assert_eq!(
            page.folders,
            vec![BrevoFolder {
                id: 2,
                name: "A".into()
            }]
        );
    }
}
