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

/// An entry's `changes` after an erasure, and the fields whose values went (by the names they
/// have after it: a field named by the address is renamed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    pub changes: String,
    pub fields: Vec<String>,
}

impl Person {
    /// The entry's `changes` with this person's values erased, or `None` when it names
    /// nothing of them. `changes` is the stored JSON object `{"field": {"before", "after"}}`.
    ///
    /// An entry about the contact loses every value; an entry of its customer group loses the
    /// contact's own field (and the company name when the group goes too); any other entry
    /// loses only occurrences of the person's address, as a whole address
    /// ([`address_ranges`]): `anna.mueller@…` is not `a.mueller@…`.
    pub fn erase_from(
        &self,
        entity: &str,
        entity_id: Option<i64>,
        changes: &str,
    ) -> Option<Rewrite> {
        let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(changes) else {
            // Not an object of fields: when it names the person at all, nothing of it stays.
            return names_address(changes, &self.email).then(|| Rewrite {
                changes: Value::Object(Map::new()).to_string(),
                fields: Vec::new(),
            });
        };
        let about_contact =
            entity == Entity::Contact.as_str() && entity_id == Some(self.contact_id);
        let about_group =
            entity == Entity::CustomerGroup.as_str() && entity_id == Some(self.customer_number);
        let own_field = format!("contact {}", self.contact_id);
        let mut erased = Map::new();
        let mut touched = Vec::new();
        for (name, value) in fields {
            let named = names_address(&name, &self.email);
            let whole = about_contact
                || (about_group && name == own_field)
                || (about_group && self.company_erased && name == "company_name")
                || named;
            let name = if named {
                replace_address(&name, &self.email, ERASED)
            } else {
                name
            };
            let new_value = if whole {
                erase_all(value.clone())
            } else {
                erase_mentions(value.clone(), &self.email)
            };
            if new_value != value || named {
                touched.push(name.clone());
            }
            erased.insert(name, new_value);
        }
        (!touched.is_empty()).then(|| Rewrite {
            changes: Value::Object(erased).to_string(),
            fields: touched,
        })
    }
}

/// One rewrite of an audit entry by an erasure, as the entry keeps it (`erasures`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct ErasureMark {
    /// The id of the erasure's own audit entry (action `erase`).
    pub erasure: i64,
    /// When the erasure ran.
    pub at: chrono::DateTime<chrono::Utc>,
    /// The fields whose values it replaced with "gelöscht".
    pub fields: Vec<String>,
}

/// The entry's list of rewrites (`erasures`, JSON; `None` before the first) with one more.
pub fn record_rewrite(
    erasures: Option<&str>,
    erasure: i64,
    at: chrono::DateTime<chrono::Utc>,
    fields: &[String],
) -> String {
    let mut marks = read_marks(erasures);
    marks.push(ErasureMark {
        erasure,
        at,
        fields: fields.to_vec(),
    });
    serde_json::to_string(&marks).unwrap_or_else(|_| "[]".into())
}

/// The rewrites an entry keeps (none when it has none, or they do not read).
pub fn read_marks(erasures: Option<&str>) -> Vec<ErasureMark> {
    erasures
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or_default()
}

/// Every value that is not `null` becomes [`ERASED`]; objects keep their keys.
fn erase_all(value: Value) -> Value {
    match value {
        Value::Null => Value::Null,
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, erase_all(v))).collect())
        }
        Value::String(text) if text == ERASED => Value::String(text),
        _ => Value::String(ERASED.into()),
    }
}

/// Occurrences of `email` in strings become [`ERASED`] (the rest of the text stays); a key
/// naming it is renamed and its value erased whole.
fn erase_mentions(value: Value, email: &str) -> Value {
    match value {
        Value::String(text) if names_address(&text, email) => {
            Value::String(replace_address(&text, email, ERASED))
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|v| erase_mentions(v, email))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    if names_address(&k, email) {
                        (replace_address(&k, email, ERASED), erase_all(v))
                    } else {
                        (k, erase_mentions(v, email))
                    }
                })
                .collect(),
        ),
        other => other,
    }
}

/// Characters an address's local part may hold besides letters and digits (RFC 5322 atext
/// and the dot).
const LOCAL_EXTRA: &str = "!#$%&'*+-/=?^_`{|}~.";

fn in_local_part(c: char) -> bool {
    c.is_alphanumeric() || LOCAL_EXTRA.contains(c)
}

fn in_domain(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '.'
}

/// The byte ranges of the addresses written in `text`: around each `@`, the longest run of
/// local-part characters before it and of domain characters after it, without dots or
/// hyphens at the edges (the end of a sentence). Text is read whole around an address, so
/// `anna.mueller@example.de` holds one address, not also `mueller@example.de`.
pub fn address_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    for (at, _) in text.match_indices('@') {
        let before = &text[..at];
        let start = before
            .char_indices()
            .rev()
            .take_while(|&(_, c)| in_local_part(c))
            .last()
            .map_or(at, |(i, _)| i);
        let after = &text[at + 1..];
        let end = at
            + 1
            + after
                .char_indices()
                .take_while(|&(_, c)| in_domain(c))
                .last()
                .map_or(0, |(i, c)| i + c.len_utf8());
        let local = text[start..at].trim_start_matches('.');
        let domain = text[at + 1..end].trim_end_matches(['.', '-']);
        if local.is_empty() || domain.is_empty() {
            continue;
        }
        let start = at - local.len();
        ranges.push(start..at + 1 + domain.len());
    }
    ranges
}

/// Whether two addresses are the same: the portal keeps and compares addresses lower-cased
/// (`domain::contacts::Email`), so neither part's letter case tells two people apart.
pub fn same_address(a: &str, b: &str) -> bool {
    a.to_lowercase() == b.to_lowercase()
}

/// Whether `text` names `email` as a whole address.
pub fn names_address(text: &str, email: &str) -> bool {
    !email.is_empty()
        && text.contains('@')
        && address_ranges(text)
            .into_iter()
            .any(|range| same_address(&text[range], email))
}

/// `text` with every whole occurrence of `email` replaced by `with`.
fn replace_address(text: &str, email: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = 0;
    for range in address_ranges(text) {
        if same_address(&text[range.clone()], email) {
            out.push_str(&text[rest..range.start]);
            out.push_str(with);
            rest = range.end;
        }
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
            .map(|rewrite| serde_json::from_str(&rewrite.changes).unwrap())
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
        assert_eq!(erased["note"]["after"], "an gelöscht geschickt");
        assert_eq!(erased["count"]["after"], 2);
        let untouched = json!({"name": {"before": "A", "after": "B"}});
        assert_eq!(erase(&anna(false), "list", Some(3), untouched), None);
        assert_eq!(erase(&anna(false), "contact", Some(8), json!({})), None);
    }

    #[test]
    fn text_that_is_no_object_goes_when_it_names_the_person() {
        let person = anna(false);
        assert_eq!(
            person
                .erase_from("contact", Some(9), "kaputt anna.mueller@example.de")
                .map(|r| r.changes),
            Some("{}".into())
        );
        assert_eq!(person.erase_from("contact", Some(9), "kaputt"), None);
    }

    #[test]
    fn only_whole_addresses_are_the_person() {
        let b = Person {
            contact_id: 8,
            email: "a.mueller.x@example.de".into(),
            customer_number: 100002,
            company_erased: false,
        };
        // Another person's addresses that merely contain B's, or differ by a +tag.
        for other in [
            "anna.mueller.x@example.de",
            "a.mueller.x@example.dev",
            "a.mueller.x@example.de.com",
            "xa.mueller.x@example.de",
            "a.mueller.x+news@example.de",
            "a.mueller.x@sub.example.de",
            "ANNA.MUELLER.X@EXAMPLE.DE",
        ] {
            let changes = json!({
                "email": {"before": null, "after": other},
                "note": {"before": null, "after": format!("Mail an <{other}>.")},
                format!("new contact {other}"): {"before": null, "after": {"firstname": "Anna"}},
            });
            assert_eq!(
                erase(&b, "contact", Some(7), changes.clone()),
                None,
                "{other}"
            );
            assert_eq!(
                erase(&b, "customerGroup", Some(100001), changes),
                None,
                "{other}"
            );
        }
        // B's own address, in any letter case and inside text, goes; the text around it stays.
        let changes = json!({
            "note": {"before": "an A.Mueller.X@Example.DE.", "after": "(a.mueller.x@example.de)"},
            "others": {"before": ["anna.mueller.x@example.de", "a.mueller.x@example.de"], "after": null},
        });
        let rewrite = b.erase_from("list", Some(3), &changes.to_string()).unwrap();
        let erased: Value = serde_json::from_str(&rewrite.changes).unwrap();
        assert_eq!(erased["note"]["before"], "an gelöscht.");
        assert_eq!(erased["note"]["after"], "(gelöscht)");
        assert_eq!(
            erased["others"]["before"],
            json!(["anna.mueller.x@example.de", "gelöscht"])
        );
        assert_eq!(
            rewrite.fields,
            vec!["note".to_string(), "others".to_string()]
        );
    }

    #[test]
    fn addresses_are_found_whole_in_text() {
        let text = "Von anna@example.de, an b.c+d@mail.example.org. Kein @ hier, x@ auch nicht.";
        let found: Vec<&str> = address_ranges(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["anna@example.de", "b.c+d@mail.example.org"]);
        assert!(names_address("ÄNNA@Example.de", "änna@example.de"));
        assert!(!names_address("anna@example.de", ""));
    }
}
