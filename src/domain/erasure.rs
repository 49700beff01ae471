//! Erasure of a contact (issue 25, DSGVO Art. 17): which personal values leave the audit log.
//! An entry keeps who changed what and when; the values that name the person become
//! [`ERASED`]. Pure rules; `db::contacts::erase` applies them in the erasure's transaction.

use serde_json::{Map, Value};

use super::audit::Entity;

/// What an erased value reads as.
pub const ERASED: &str = "gelöscht";

/// The person an erasure removes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    pub contact_id: i64,
    pub email: String,
    pub customer_number: i64,
    /// Whether the customer group goes too (the contact was its last one): then its name is
    /// erased from the group's entries as well.
    pub company_erased: bool,
}

impl Person {
    /// The entry's `changes` with this person's values erased, or `None` when it names
    /// nothing of them. `changes` is the stored JSON object `{"field": {"before", "after"}}`.
    pub fn erase_from(
        &self,
        entity: &str,
        entity_id: Option<i64>,
        changes: &str,
    ) -> Option<String> {
        let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(changes) else {
            // Not an object of fields: when it names the person at all, nothing of it stays.
            return contains(changes, &self.email).then(|| Value::Object(Map::new()).to_string());
        };
        let about_contact =
            entity == Entity::Contact.as_str() && entity_id == Some(self.contact_id);
        let about_group =
            entity == Entity::CustomerGroup.as_str() && entity_id == Some(self.customer_number);
        let own_field = format!("contact {}", self.contact_id);
        let mut erased = Map::new();
        for (name, value) in fields {
            let whole = about_contact
                || (about_group && name == own_field)
                || (about_group && self.company_erased && name == "company_name")
                || contains(&name, &self.email);
            let name = if contains(&name, &self.email) {
                replace_ignoring_case(&name, &self.email, ERASED)
            } else {
                name
            };
            let value = if whole {
                erase_all(value)
            } else {
                erase_mentions(value, &self.email)
            };
            erased.insert(name, value);
        }
        let erased = Value::Object(erased).to_string();
        (erased != changes_normalised(changes)).then_some(erased)
    }
}

/// The same JSON as stored, written the way `serde_json` writes it (for comparing).
fn changes_normalised(changes: &str) -> String {
    serde_json::from_str::<Value>(changes)
        .map(|value| value.to_string())
        .unwrap_or_default()
}

/// Every value that is not `null` becomes [`ERASED`]; objects keep their keys.
fn erase_all(value: Value) -> Value {
    match value {
        Value::Null => Value::Null,
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, erase_all(v))).collect())
        }
        _ => Value::String(ERASED.into()),
    }
}

/// Strings that contain `email` become [`ERASED`]; the rest stays.
fn erase_mentions(value: Value, email: &str) -> Value {
    match value {
        Value::String(text) if contains(&text, email) => Value::String(ERASED.into()),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|v| erase_mentions(v, email))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    if contains(&k, email) {
                        (replace_ignoring_case(&k, email, ERASED), erase_all(v))
                    } else {
                        (k, erase_mentions(v, email))
                    }
                })
                .collect(),
        ),
        other => other,
    }
}

/// Whether `text` contains `email`, without regard to case (addresses are compared so
/// everywhere in the portal).
fn contains(text: &str, email: &str) -> bool {
    !email.is_empty() && text.to_lowercase().contains(&email.to_lowercase())
}

fn replace_ignoring_case(text: &str, email: &str, with: &str) -> String {
    let lower = text.to_lowercase();
    let needle = email.to_lowercase();
    // Lower-casing an address keeps its length (addresses are ASCII, or compared as such).
    if lower.len() != text.len() {
        return with.to_owned();
    }
    let mut out = String::new();
    let mut rest = 0;
    for (at, _) in lower.match_indices(&needle) {
        out.push_str(&text[rest..at]);
        out.push_str(with);
        rest = at + needle.len();
    }
    out.push_str(&text[rest..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn anna(company_erased: bool) -> Person {
        Person {
            contact_id: 7,
            email: "anna.mueller@example.de".into(),
            customer_number: 100001,
            company_erased,
        }
    }

    fn erase(person: &Person, entity: &str, id: Option<i64>, changes: Value) -> Option<Value> {
        person
            .erase_from(entity, id, &changes.to_string())
            .map(|text| serde_json::from_str(&text).unwrap())
    }

    #[test]
    fn an_entry_about_the_contact_keeps_its_fields_but_no_value() {
        let changes = json!({
            "email": {"before": null, "after": "anna.mueller@example.de"},
            "firstname": {"before": "Anna", "after": "Anne"},
            "lists": {"before": [1, 2], "after": [2]},
            "double_opt_in": {"before": false, "after": true},
        });
        let erased = erase(&anna(false), "contact", Some(7), changes).unwrap();
        assert_eq!(
            erased,
            json!({
                "email": {"before": null, "after": "gelöscht"},
                "firstname": {"before": "gelöscht", "after": "gelöscht"},
                "lists": {"before": "gelöscht", "after": "gelöscht"},
                "double_opt_in": {"before": "gelöscht", "after": "gelöscht"},
            })
        );
    }

    #[test]
    fn a_customer_group_entry_loses_the_contact_and_its_new_contact_key() {
        let changes = json!({
            "company_name": {"before": "Müller GmbH", "after": "Müller AG"},
            "contact 7": {"before": {"email": "anna.mueller@example.de", "firstname": "Anna"}, "after": null},
            "contact 8": {"before": {"email": "bernd@example.de"}, "after": null},
            "new contact Anna.Mueller@example.de": {"before": null, "after": {"firstname": "Anna"}},
        });
        let erased = erase(&anna(false), "customerGroup", Some(100001), changes.clone()).unwrap();
        assert_eq!(erased["company_name"], changes["company_name"]);
        assert_eq!(erased["contact 8"], changes["contact 8"]);
        assert_eq!(erased["contact 7"]["before"]["email"], "gelöscht");
        assert_eq!(erased["contact 7"]["before"]["firstname"], "gelöscht");
        assert_eq!(
            erased["new contact gelöscht"]["after"]["firstname"],
            "gelöscht"
        );
        assert!(!erased.to_string().to_lowercase().contains("anna"));

        let with_company = erase(&anna(true), "customerGroup", Some(100001), changes).unwrap();
        assert_eq!(with_company["company_name"]["before"], "gelöscht");
    }

    #[test]
    fn other_entries_lose_only_mentions_of_the_address() {
        let changes = json!({"note": {"before": null, "after": "an ANNA.MUELLER@example.de geschickt"},
                             "count": {"before": 1, "after": 2}});
        let erased = erase(&anna(false), "list", Some(3), changes).unwrap();
        assert_eq!(erased["note"]["after"], "gelöscht");
        assert_eq!(erased["count"]["after"], 2);
        let untouched = json!({"name": {"before": "A", "after": "B"}});
        assert_eq!(erase(&anna(false), "list", Some(3), untouched), None);
        assert_eq!(erase(&anna(false), "contact", Some(8), json!({})), None);
    }

    #[test]
    fn text_that_is_no_object_goes_when_it_names_the_person() {
        let person = anna(false);
        assert_eq!(
            person.erase_from("contact", Some(9), "kaputt anna.mueller@example.de"),
            Some("{}".into())
        );
        assert_eq!(person.erase_from("contact", Some(9), "kaputt"), None);
    }
}
