//! Contacts mirrored to the marketing service (issue 11, spec §3 "Contact").
//!
//! Every change goes to Brevo first and to our database second. When Brevo refuses or is
//! down, the caller gets its error and nothing changed. When our database fails after Brevo
//! took the change, Brevo is put back to the state read just before the change; when even
//! that fails, the undo is stored in `marketing_retries`, retried in the background and shown
//! to admins until it went through. A contact with open retries takes no new change until
//! they are done, so a late undo can never overwrite a newer change.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// A change still waiting for the marketing service, as the admins see it.
pub use crate::db::marketing::marketing_retries::MarketingRetry;

use crate::db::{self, Db};
use crate::domain::contacts::Salutation;
use crate::integrations::brevo::{
    BrevoClient, BrevoContact, BrevoError, ContactRef, CreateContact, UpdateContact,
};
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::marketing::Marketing;
use crate::services::marketing::marketing_retries;

/// The attributes the portal writes (external-apis §1.8). `KUNDENNUMMER` is text, so that
/// leading zeros would survive; `DOUBLE_OPT-IN` is Brevo's category attribute (1 yes, 2 no).
pub mod attribute {
    pub const FIRSTNAME: &str = "FIRSTNAME";
    pub const LASTNAME: &str = "LASTNAME";
    pub const CUSTOMER_NUMBER: &str = "KUNDENNUMMER";
    pub const SALUTATION: &str = "ANREDE";
    pub const COMPANY: &str = "FIRMA";
    pub const DOUBLE_OPT_IN: &str = "DOUBLE_OPT-IN";
    pub const EMAIL: &str = "EMAIL";

    pub const OURS: [&str; 6] = [
        FIRSTNAME,
        LASTNAME,
        CUSTOMER_NUMBER,
        SALUTATION,
        COMPANY,
        DOUBLE_OPT_IN,
    ];
}

/// The Brevo value of `DOUBLE_OPT-IN`.
pub fn double_opt_in_value(confirmed: bool) -> Value {
    json!(if confirmed { 1 } else { 2 })
}

/// What the portal knows of a contact, as Brevo attributes.
pub struct ContactFields<'a> {
    pub customer_number: i64,
    pub company_name: &'a str,
    pub salutation: Salutation,
    pub firstname: &'a str,
    pub lastname: &'a str,
    pub double_opt_in: bool,
}

impl ContactFields<'_> {
    pub fn attributes(&self) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert(attribute::FIRSTNAME.into(), json!(self.firstname));
        map.insert(attribute::LASTNAME.into(), json!(self.lastname));
        map.insert(
            attribute::CUSTOMER_NUMBER.into(),
            json!(self.customer_number.to_string()),
        );
        map.insert(attribute::SALUTATION.into(), json!(self.salutation.label()));
        map.insert(attribute::COMPANY.into(), json!(self.company_name));
        map.insert(
            attribute::DOUBLE_OPT_IN.into(),
            double_opt_in_value(self.double_opt_in),
        );
        map
    }
}

/// How Brevo knows a contact: by its id once we have it, else by email.
pub fn identifier(brevo_contact_id: Option<i64>, email: &str) -> ContactRef {
    match brevo_contact_id {
        Some(id) => ContactRef::Id(id),
        None => ContactRef::email(email),
    }
}

/// A stored undo or change, as `marketing_retries.body` holds it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RetryBody {
    /// Brevo's contact id, when known (else the row's email identifies the contact).
    contact_id: Option<i64>,
    /// The JSON body of the Brevo call (`POST /contacts` or `PUT /contacts/{id}`).
    #[serde(default)]
    request: Value,
}

/// Brevo's state of a contact before a change, to put it back if our side fails.
pub struct ContactSnapshot {
    /// How Brevo knows the contact after the change.
    after: ContactRef,
    email: String,
    before: Option<BrevoContact>,
    /// Brevo lists the change touched (added or removed).
    touched_lists: Vec<i64>,
}

impl ContactSnapshot {
    /// The change created the contact in Brevo under this id.
    pub fn created_as(&mut self, id: i64) {
        if self.before.is_none() {
            self.after = ContactRef::Id(id);
        }
    }

    /// The change deleted the contact: an undo brings back all its lists.
    pub fn deleted(mut self) -> ContactSnapshot {
        if let Some(before) = &self.before {
            self.touched_lists = before.list_ids.clone();
        }
        self
    }

    /// The call that restores the state before the change: `None` → delete what the change
    /// created; otherwise our attributes, the touched lists and the block as they were.
    fn undo(&self) -> (String, RetryBody) {
        let Some(before) = &self.before else {
            return (
                "delete".into(),
                RetryBody {
                    contact_id: match self.after {
                        ContactRef::Id(id) => Some(id),
                        ContactRef::Email(_) => None,
                    },
                    request: Value::Null,
                },
            );
        };
        let mut attributes: Map<String, Value> = before
            .attributes
            .iter()
            .filter(|(k, _)| attribute::OURS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if let Some(email) = &before.email {
            attributes.insert(attribute::EMAIL.into(), json!(email));
        }
        let relink: Vec<i64> = self
            .touched_lists
            .iter()
            .copied()
            .filter(|l| before.list_ids.contains(l))
            .collect();
        let unlink: Vec<i64> = self
            .touched_lists
            .iter()
            .copied()
            .filter(|l| !before.list_ids.contains(l))
            .collect();
        let request = json!({
            "attributes": attributes,
            "listIds": relink,
            "unlinkListIds": unlink,
            "emailBlacklisted": before.email_blacklisted,
        });
        (
            "upsert".into(),
            RetryBody {
                contact_id: Some(before.id),
                request,
            },
        )
    }
}

fn brevo(marketing: &Marketing) -> Option<&BrevoClient> {
    match marketing {
        Marketing::Brevo(client) => Some(client),
        Marketing::Local => None,
    }
}

/// Creates the contact in Brevo, or takes over the one Brevo knows under this email already
/// (e.g. from a campaign); returns its Brevo id.
pub async fn create_remote(
    client: &BrevoClient,
    email: &str,
    attributes: Map<String, Value>,
    list_ids: Vec<i64>,
    blacklisted: bool,
) -> Result<i64, BrevoError> {
    let created = client
        .create_contact(&CreateContact {
            email: email.to_string(),
            attributes,
            list_ids,
            email_blacklisted: blacklisted.then_some(true),
            update_enabled: true,
            ext_id: None,
        })
        .await?;
    match created {
        Some(id) => Ok(id),
        None => Ok(client.get_contact(identifier(None, email)).await?.id),
    }
}

/// The change of a contact Brevo should know under `target`. When Brevo does not (or no
/// longer) know it, the contact is created there under `email` as the change describes, so
/// Brevo ends as our database will. Returns the Brevo id when the contact was created.
pub async fn update_or_create(
    client: &BrevoClient,
    target: ContactRef,
    email: &str,
    update: &UpdateContact,
    blacklisted: bool,
) -> Result<Option<i64>, BrevoError> {
    match client.update_contact(target, update).await {
        Ok(()) => Ok(None),
        Err(err) if err.is_not_found() => {
            let mut attributes = update.attributes.clone();
            attributes.remove(attribute::EMAIL);
            let list_ids = update.list_ids.clone();
            create_remote(client, email, attributes, list_ids, blacklisted)
                .await
                .map(Some)
        }
        Err(err) => Err(err),
    }
}

/// The attributes of a change that may give the contact a new address: Brevo changes an
/// email through the `EMAIL` attribute.
pub fn with_email_change(
    mut attributes: Map<String, Value>,
    old_email: &str,
    new_email: &str,
) -> Map<String, Value> {
    if new_email != old_email {
        attributes.insert(attribute::EMAIL.into(), Value::String(new_email.into()));
    }
    attributes
}

/// Deletes the contact in Brevo: by its id, and when Brevo no longer knows that id (an undo
/// may have brought the contact back under a new one), by its email. Gone already is fine.
pub async fn delete_remote(
    client: &BrevoClient,
    brevo_contact_id: Option<i64>,
    email: &str,
) -> Result<(), crate::integrations::brevo::BrevoError> {
    let by_email = || ContactRef::Email(email.to_string());
    if let Some(id) = brevo_contact_id {
        match client.delete_contact(ContactRef::Id(id)).await {
            Ok(()) => return Ok(()),
            Err(err) if err.is_not_found() => {}
            Err(err) => return Err(err),
        }
    }
    match client.delete_contact(by_email()).await {
        Err(err) if !err.is_not_found() => Err(err),
        _ => Ok(()),
    }
}

/// Reads Brevo's state before a change (`None` in local mode). Open retries of the contact
/// are run first; when they still fail, the change is refused.
pub async fn before_change(
    db: &Db,
    marketing: &Marketing,
    current: ContactRef,
    email: &str,
    after: ContactRef,
    touched_lists: Vec<i64>,
) -> ServiceResult<Option<ContactSnapshot>> {
    let Some(client) = brevo(marketing) else {
        return Ok(None);
    };
    flush_contact(db, client, email).await?;
    let before = match client.get_contact(current).await {
        Ok(contact) => Some(contact),
        Err(err) if err.is_not_found() => None,
        Err(err) => return Err(err.into()),
    };
    Ok(Some(ContactSnapshot {
        after,
        email: email.to_string(),
        before,
        touched_lists,
    }))
}

/// After our database failed: puts Brevo back, or stores the undo for later. False when
/// Brevo did not take it (it is stored then).
pub async fn undo(db: &Db, marketing: &Marketing, snapshot: Option<ContactSnapshot>) -> bool {
    let (Some(client), Some(snapshot)) = (brevo(marketing), snapshot) else {
        return true;
    };
    let (operation, body) = snapshot.undo();
    match run(client, &snapshot.email, &operation, &body).await {
        Ok(()) => true,
        Err(err) => {
            remember(db, &snapshot.email, &operation, &body, &err).await;
            false
        }
    }
}

/// Stores the undo for the background retry without calling Brevo (which just failed: a
/// user should not wait for it once more per step).
pub async fn defer_undo(db: &Db, snapshot: Option<ContactSnapshot>, why: &BrevoError) {
    if let Some(snapshot) = snapshot {
        let (operation, body) = snapshot.undo();
        remember(db, &snapshot.email, &operation, &body, why).await;
    }
}

/// Stores a change Brevo did not take (the contact's confirmation: the user clicked, so our
/// side records it regardless, and Brevo follows when it can).
pub async fn remember_update(
    db: &Db,
    email: &str,
    brevo_contact_id: Option<i64>,
    update: &UpdateContact,
    err: &BrevoError,
) {
    let body = RetryBody {
        contact_id: brevo_contact_id,
        request: serde_json::to_value(update).unwrap_or(Value::Null),
    };
    remember(db, email, "update", &body, err).await;
}

async fn remember(db: &Db, email: &str, operation: &str, body: &RetryBody, err: &BrevoError) {
    let text = serde_json::to_string(body).unwrap_or_default();
    marketing_retries::store(db, email, operation, &text, &err.to_string()).await;
}

/// Runs one stored call.
async fn run(
    client: &BrevoClient,
    email: &str,
    operation: &str,
    body: &RetryBody,
) -> Result<(), BrevoError> {
    let target = identifier(body.contact_id, email);
    match operation {
        "delete" => match client.delete_contact(target).await {
            Err(err) if err.is_not_found() => Ok(()),
            other => other,
        },
        "update" => {
            let update = update_from(&body.request);
            client.update_contact(target, &update).await
        }
        // Put back a contact as it was: update it, or create it again when it is gone.
        _ => {
            let update = update_from(&body.request);
            let email = update
                .attributes
                .get(attribute::EMAIL)
                .and_then(Value::as_str)
                .unwrap_or(email)
                .to_string();
            let blacklisted = update.email_blacklisted == Some(true);
            update_or_create(client, target, &email, &update, blacklisted)
                .await
                .map(drop)
        }
    }
}

fn update_from(request: &Value) -> UpdateContact {
    let ids = |field: &str| -> Vec<i64> {
        request
            .get(field)
            .and_then(Value::as_array)
            .map(|items| items.iter().filter_map(Value::as_i64).collect())
            .unwrap_or_default()
    };
    UpdateContact {
        attributes: request
            .get("attributes")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
        list_ids: ids("listIds"),
        unlink_list_ids: ids("unlinkListIds"),
        email_blacklisted: request.get("emailBlacklisted").and_then(Value::as_bool),
        ext_id: None,
    }
}

/// Runs the open retries of one contact; an error when any is still open afterwards.
async fn flush_contact(db: &Db, client: &BrevoClient, email: &str) -> ServiceResult<()> {
    for retry in db::marketing::marketing_retries::of_email(db, email).await? {
        run_retry(db, client, &retry).await?;
    }
    Ok(())
}

async fn run_retry(
    db: &Db,
    client: &BrevoClient,
    retry: &db::marketing::marketing_retries::MarketingRetry,
) -> ServiceResult<()> {
    if marketing_retries::is_folder_retry(&retry.operation) {
        let marketing = Marketing::Brevo(client.clone());
        return match crate::services::marketing::providers::run_retry(
            db,
            &marketing,
            &retry.operation,
            &retry.body,
        )
        .await
        {
            Ok(()) => Ok(db::marketing::marketing_retries::done(db, retry.id).await?),
            Err(err) => {
                db::marketing::marketing_retries::failed_again(db, retry.id, &err.to_string())
                    .await?;
                Err(err)
            }
        };
    }
    let body: RetryBody = serde_json::from_str(&retry.body).unwrap_or(RetryBody {
        contact_id: None,
        request: Value::Null,
    });
    match run(client, &retry.email, &retry.operation, &body).await {
        Ok(()) => {
            db::marketing::marketing_retries::done(db, retry.id).await?;
            Ok(())
        }
        Err(err) => {
            db::marketing::marketing_retries::failed_again(db, retry.id, &err.to_string()).await?;
            Err(ServiceError::Conflict {
                code: "marketing_retry_pending",
                message: format!(
                    "Eine frühere Änderung dieses Kontakts wartet noch auf Brevo. {}",
                    err.user_message()
                ),
            })
        }
    }
}

/// Runs every open retry once (the background task); returns how many are left.
pub async fn retry_all(db: &Db, marketing: &Marketing) -> ServiceResult<i64> {
    let Some(client) = brevo(marketing) else {
        return Ok(0);
    };
    // One round at a time across instances: retries of one contact must run in order.
    let round = async {
        for retry in db::marketing::marketing_retries::oldest(db, 100).await? {
            // A failure stays stored; the next round tries again.
            let _ = run_retry(db, client, &retry).await;
        }
        ServiceResult::Ok(())
    };
    let lease = chrono::Duration::minutes(10);
    if let Some(outcome) = crate::services::operations::jobs::exclusively(
        db,
        crate::services::operations::jobs::MARKETING_RETRIES,
        lease,
        round,
    )
    .await?
    {
        outcome?;
    }
    open_retry_count(db).await
}

/// How many changes still have to reach the marketing service (the contacts page's note).
pub async fn open_retry_count(db: &Db) -> ServiceResult<i64> {
    Ok(db::marketing::marketing_retries::count(db).await?)
}

/// The open retries, for the admin.
pub async fn open_retries(
    db: &Db,
) -> ServiceResult<(Vec<db::marketing::marketing_retries::MarketingRetry>, i64)> {
    Ok((
        db::marketing::marketing_retries::oldest(db, 100).await?,
        db::marketing::marketing_retries::count(db).await?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn brevo_contact(lists: Vec<i64>) -> BrevoContact {
        let mut attributes = Map::new();
        attributes.insert("FIRSTNAME".into(), json!("Anna"));
        attributes.insert("SMS".into(), json!("+491701234567"));
        BrevoContact {
            id: 12,
            email: Some("anna@example.de".into()),
            email_blacklisted: false,
            list_ids: lists,
            attributes,
            created_at: Utc::now(),
            modified_at: Utc::now(),
        }
    }

    #[test]
    fn undo_of_a_created_contact_deletes_it() {
        let snapshot = ContactSnapshot {
            after: ContactRef::Id(77),
            email: "neu@example.de".into(),
            before: None,
            touched_lists: vec![3],
        };
        let (operation, body) = snapshot.undo();
        assert_eq!(operation, "delete");
        assert_eq!(body.contact_id, Some(77));
    }

    #[test]
    fn undo_restores_our_attributes_and_only_the_touched_lists() {
        let snapshot = ContactSnapshot {
            after: ContactRef::Id(12),
            email: "anna@example.de".into(),
            before: Some(brevo_contact(vec![1, 2])),
            touched_lists: vec![2, 5],
        };
        let (operation, body) = snapshot.undo();
        assert_eq!(operation, "upsert");
        assert_eq!(body.contact_id, Some(12));
        assert_eq!(body.request["listIds"], json!([2]));
        assert_eq!(body.request["unlinkListIds"], json!([5]));
        assert_eq!(body.request["attributes"]["FIRSTNAME"], json!("Anna"));
        assert_eq!(
            body.request["attributes"]["EMAIL"],
            json!("anna@example.de")
        );
        assert!(
            body.request["attributes"].get("SMS").is_none(),
            "not ours to write"
        );
        let update = update_from(&body.request);
        assert_eq!(update.list_ids, vec![2]);
        assert_eq!(update.email_blacklisted, Some(false));
    }

    #[test]
    fn attributes_carry_every_field() {
        let fields = ContactFields {
            customer_number: 100_001,
            company_name: "Müller GmbH",
            salutation: Salutation::from_code(Some(3)).unwrap(),
            firstname: "Anna",
            lastname: "Müller",
            double_opt_in: false,
        };
        let attributes = fields.attributes();
        assert_eq!(attributes["KUNDENNUMMER"], json!("100001"));
        assert_eq!(attributes["ANREDE"], json!("Frau"));
        assert_eq!(attributes["FIRMA"], json!("Müller GmbH"));
        assert_eq!(attributes["DOUBLE_OPT-IN"], json!(2));
    }
}
