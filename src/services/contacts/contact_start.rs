//! The contact editor's start page (issue 35): a customer number typed in opens the editor
//! when the portal knows the customer, and the groups the user changed last are listed.
//! For everyone who may open the contact editor (Admin, BU-Moderator, BU-DOI).

use chrono::{DateTime, Utc};

use crate::db::{self, Db};
use crate::domain::audit::Actor;
use crate::domain::contacts::CustomerNumber;
use crate::domain::input::id_of_text;
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::integrations::planning::PlanningClient;
use crate::services::error::{ServiceError, ServiceResult};

/// How many changed groups the start page lists.
pub const RECENT_GROUPS: i64 = 10;

/// The answer to a customer number typed in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Known: its editor's path.
    Open(String),
    /// A customer number the portal does not know: the German message, and the editor's path,
    /// where a new customer group can still be created on purpose.
    Unknown { message: String, path: String },
    /// No customer number: the German message, for the field.
    Invalid(String),
}

/// The customer number the field holds (spaces around it ignored), or the German message
/// that says why it holds none.
pub fn customer_number_of(text: &str) -> Result<i64, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("Bitte geben Sie eine Kundennummer ein.".into());
    }
    id_of_text(text)
        .filter(|&n| CustomerNumber::new(Some(n)).is_ok())
        .ok_or_else(|| {
            format!(
                "„{}“ ist keine Kundennummer. Eine Kundennummer besteht nur aus Ziffern, zum Beispiel 100003.",
                text.chars().take(40).collect::<String>()
            )
        })
}

/// Whether the portal knows the customer `text` names: it has a company (every customer with
/// contacts has one), import candidates from a CSV file, or the planning system knows it. A
/// planning system that does not answer counts as knowing: the editor then says why it shows
/// no candidates.
#[tracing::instrument(skip_all)]
pub async fn lookup(
    db: &Db,
    planning: Option<&PlanningClient>,
    user: &User,
    text: &str,
) -> ServiceResult<Lookup> {
    if !Capability::ContactEdit.allows(user) {
        return Err(ServiceError::Forbidden);
    }
    let number = match customer_number_of(text) {
        Ok(number) => number,
        Err(message) => return Ok(Lookup::Invalid(message)),
    };
    let path = format!("/admin/contact/edit/{number}");
    if db::contacts::get_company(db, number).await?.is_some()
        || !db::contacts::planning_candidates::of_customer(db, number)
            .await?
            .is_empty()
    {
        return Ok(Lookup::Open(path));
    }
    let planned = match planning {
        Some(client) => match client.customer(number).await {
            Ok(found) => found.is_some(),
            Err(err) => {
                tracing::warn!(error = %err, "planning system not asked for a customer");
                true
            }
        },
        None => false,
    };
    Ok(if planned {
        Lookup::Open(path)
    } else {
        Lookup::Unknown {
            message: format!(
                "Die Kundennummer {number} ist nicht bekannt: Es gibt keine Kontakte und keine \
                 Importkandidaten dazu. Bitte prüfen Sie die Nummer."
            ),
            path,
        }
    })
}

/// A customer group the user changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecentGroup {
    pub customer_number: i64,
    /// The company's name now; `None` when it is gone.
    pub company_name: Option<String>,
    pub changed_at: DateTime<Utc>,
}

/// The customer groups the user changed last (their own entries in the audit log), newest
/// first.
pub async fn recent_groups(db: &Db, user: &User) -> ServiceResult<Vec<RecentGroup>> {
    if !Capability::ContactEdit.allows(user) {
        return Err(ServiceError::Forbidden);
    }
    let actor = Actor::of(user);
    Ok(
        db::contacts::customer_groups::changed_last_by(db, actor.name(), RECENT_GROUPS)
            .await?
            .into_iter()
            .map(|g| RecentGroup {
                customer_number: g.customer_number,
                company_name: g.company_name,
                changed_at: g.changed_at,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_that_is_no_customer_number_is_named() {
        assert_eq!(
            customer_number_of("  "),
            Err("Bitte geben Sie eine Kundennummer ein.".into())
        );
        let message = customer_number_of("Müller GmbH").unwrap_err();
        assert!(
            message.starts_with("„Müller GmbH“ ist keine Kundennummer."),
            "{message}"
        );
        assert!(customer_number_of("-5").is_err());
        assert!(customer_number_of("0").is_err());
        assert_eq!(customer_number_of("100003"), Ok(100003));
        assert_eq!(customer_number_of(" 100003 "), Ok(100003));
    }
}
