//! The audit log's entries (issue 24): who changed what, and which fields went from what to
//! what. Pure values; `db::audit` writes them in the transaction of the change.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};

use super::user::User;

/// Who made a change: a person (by login), the command line or the portal itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    Person(String),
    Cli,
    System,
}

impl Actor {
    /// The signed-in user: their e-mail address, which is the login of OIDC and local
    /// accounts alike; the name when an identity provider sends no address.
    pub fn of(user: &User) -> Actor {
        let login = if user.email.trim().is_empty() {
            &user.name
        } else {
            &user.email
        };
        Actor::Person(login.trim().to_owned())
    }

    pub fn name(&self) -> &str {
        match self {
            Actor::Person(login) => login,
            Actor::Cli => "CLI",
            Actor::System => "System",
        }
    }
}

/// Declares a word enum with its stored spelling and its German label.
macro_rules! words {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $word:literal, $label:literal;)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($variant,)* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The word stored and sent (`entity`, `action`).
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $word,)* }
            }

            /// How the Protokoll screen names it.
            pub fn label(self) -> &'static str {
                match self { $($name::$variant => $label,)* }
            }

            pub fn parse(word: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|w| w.as_str() == word)
            }
        }
    };
}

words! {
    /// What a change happened to.
    Entity {
        Provider => "provider", "Anbieter";
        List => "list", "Liste";
        Package => "package", "Download-Paket";
        Upload => "upload", "Datei";
        Contact => "contact", "Kontakt";
        CustomerGroup => "customerGroup", "Kundengruppe";
        Tag => "tag", "Tag";
        User => "user", "Benutzer";
        Import => "import", "Import";
        Sync => "sync", "Abgleich";
    }
}

words! {
    /// What happened.
    Action {
        Create => "create", "angelegt";
        Update => "update", "geändert";
        Delete => "delete", "gelöscht";
        Duplicate => "duplicate", "dupliziert";
        Archive => "archive", "archiviert";
        Unarchive => "unarchive", "aus dem Archiv geholt";
        Activate => "activate", "aktiviert";
        Deactivate => "deactivate", "deaktiviert";
        Block => "block", "gesperrt";
        Unblock => "unblock", "entsperrt";
        DoubleOptInSent => "doubleOptInSent", "Double-Opt-In versendet";
        DoubleOptInConfirmed => "doubleOptInConfirmed", "Double-Opt-In bestätigt";
        Import => "import", "importiert";
        Sync => "sync", "abgeglichen";
        SetRoles => "setRoles", "Rollen geändert";
        SetPassword => "setPassword", "Passwort gesetzt";
        Export => "export", "Daten exportiert";
        Erase => "erase", "endgültig gelöscht (DSGVO)";
    }
}

/// Field names whose values are secrets: never written into the log, whatever the entity.
const SECRET_FIELDS: &[&str] = &[
    "password",
    "password_hash",
    "passwordHash",
    "token",
    "token_hash",
    "tokenHash",
    "secret",
    "api_key",
    "apiKey",
];

/// Fields every row has that say nothing about the change itself.
const BOOKKEEPING_FIELDS: &[&str] = &["created_at", "updated_at", "createdAt", "updatedAt"];

/// The changed fields of one entry: `{"field": {"after": …, "before": …}}`, by field name.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Changes(Map<String, Value>);

impl Changes {
    pub fn none() -> Changes {
        Changes::default()
    }

    /// The fields that differ between two snapshots of the same record (serialised as JSON
    /// objects). `None` stands for "did not exist": a creation lists every field with
    /// `before: null`, a deletion every field with `after: null`.
    pub fn between<B: Serialize + ?Sized, A: Serialize + ?Sized>(
        before: Option<&B>,
        after: Option<&A>,
    ) -> Changes {
        let object = |value: Option<Value>| match value {
            Some(Value::Object(map)) => map,
            _ => Map::new(),
        };
        let before = object(before.and_then(|b| serde_json::to_value(b).ok()));
        let after = object(after.and_then(|a| serde_json::to_value(a).ok()));
        let mut changes = Changes::none();
        let keys = before
            .keys()
            .chain(after.keys().filter(|k| !before.contains_key(*k)));
        for key in keys {
            if BOOKKEEPING_FIELDS.contains(&key.as_str()) {
                continue;
            }
            let old = before.get(key).cloned().unwrap_or(Value::Null);
            let new = after.get(key).cloned().unwrap_or(Value::Null);
            if old != new {
                changes = changes.field(key, old, new);
            }
        }
        changes
    }

    /// Every field of a new record, with `before: null`.
    pub fn created<A: Serialize + ?Sized>(after: &A) -> Changes {
        Changes::between(None::<&A>, Some(after))
    }

    /// Every field of a deleted record, with `after: null`.
    pub fn deleted<B: Serialize + ?Sized>(before: &B) -> Changes {
        Changes::between(Some(before), None::<&B>)
    }

    /// Adds one field's change; a secret's, or one whose value stays the same, is left out.
    pub fn field(mut self, name: &str, before: impl Serialize, after: impl Serialize) -> Changes {
        let value = |v: Result<Value, _>| v.unwrap_or(Value::Null);
        let (before, after) = (
            value(serde_json::to_value(before)),
            value(serde_json::to_value(after)),
        );
        if SECRET_FIELDS.contains(&name) || before == after {
            return self;
        }
        let mut pair = Map::new();
        pair.insert("before".into(), before);
        pair.insert("after".into(), after);
        self.0.insert(name.to_owned(), Value::Object(pair));
        self
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn to_json(&self) -> String {
        Value::Object(self.0.clone()).to_string()
    }

    pub fn into_value(self) -> Value {
        Value::Object(self.0)
    }
}

/// One change to record.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub actor: Actor,
    pub action: Action,
    pub entity: Entity,
    /// The record's id; a creation's is filled in by the data layer once the row exists.
    pub entity_id: Option<i64>,
    pub changes: Changes,
}

impl Entry {
    pub fn new(actor: &Actor, action: Action, entity: Entity, entity_id: Option<i64>) -> Entry {
        Entry {
            actor: actor.clone(),
            action,
            entity,
            entity_id,
            changes: Changes::none(),
        }
    }

    pub fn with_changes(mut self, changes: Changes) -> Entry {
        self.changes = changes;
        self
    }

    /// The same entry for the record `id` (a creation learns its id inside the transaction).
    pub fn for_id(&self, id: i64) -> Entry {
        Entry {
            entity_id: Some(id),
            ..self.clone()
        }
    }
}

/// How long entries are kept unless `AP_AUDIT_DAYS` says otherwise (two years).
pub const DEFAULT_KEEP_DAYS: u32 = 730;

/// What the Protokoll is filtered by; every part optional.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    pub entity: Option<Entity>,
    pub entity_id: Option<i64>,
    pub actor: Option<String>,
    /// From the start of this German day …
    pub from: Option<DateTime<Utc>>,
    /// … up to the end of this one.
    pub to: Option<DateTime<Utc>>,
}

impl Filter {
    /// Reads the filter of `GET /api/audit` and the Protokoll screen; empty values mean "any".
    /// Unreadable values are refused in German.
    pub fn parse(
        entity: Option<&str>,
        entity_id: Option<&str>,
        actor: Option<&str>,
        from: Option<&str>,
        to: Option<&str>,
    ) -> Result<Filter, String> {
        fn given(value: Option<&str>) -> Option<&str> {
            value.map(str::trim).filter(|v| !v.is_empty())
        }
        // Exactly one of the described words; only empty means any.
        let entity = match entity.filter(|e| !e.is_empty()) {
            None => None,
            Some(word) => Some(Entity::parse(word).ok_or_else(|| {
                let words: Vec<_> = Entity::ALL.iter().map(|e| e.as_str()).collect();
                format!("entity muss eines von {} sein.", words.join(", "))
            })?),
        };
        // Exactly the described pattern (`ID_PATTERN`); only empty means any.
        let entity_id = entity_id
            .filter(|t| !t.is_empty())
            .map(|t| {
                super::input::id_of_query(t).ok_or("entityId muss eine positive ganze Zahl sein.")
            })
            .transpose()?;
        // Days exactly as described (`YYYY-MM-DD`, years 2000–2100); only empty means any.
        let day = |text: Option<&str>, field: &str| {
            text.filter(|t| !t.is_empty())
                .map(|t| super::time::parse_day(t, field))
                .transpose()
        };
        let from_day = day(from, "from")?;
        let to_day = day(to, "to")?;
        if let (Some(from), Some(to)) = (from_day, to_day)
            && from > to
        {
            return Err("from darf nicht nach to liegen.".into());
        }
        let actor = given(actor).map(str::to_owned);
        if actor.as_ref().is_some_and(|a| a.chars().count() > 255) {
            return Err("actor darf höchstens 255 Zeichen lang sein.".into());
        }
        Ok(Filter {
            entity,
            entity_id,
            actor,
            from: from_day.map(super::time::berlin_start_of_day),
            to: to_day.map(super::time::berlin_end_of_day),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Serialize)]
    struct Provider {
        id: i64,
        name: String,
        roles: Vec<String>,
        updated_at: &'static str,
    }

    #[test]
    fn changes_list_only_the_fields_that_differ() {
        let before = Provider {
            id: 1,
            name: "Strom".into(),
            roles: vec!["A".into()],
            updated_at: "gestern",
        };
        let after = Provider {
            id: 1,
            name: "Strom & Gas".into(),
            roles: vec!["A".into()],
            updated_at: "heute",
        };
        let changes = Changes::between(Some(&before), Some(&after)).into_value();
        assert_eq!(
            changes,
            json!({"name": {"before": "Strom", "after": "Strom & Gas"}})
        );
    }

    #[test]
    fn a_creation_lists_every_field_and_a_deletion_too() {
        let provider = Provider {
            id: 7,
            name: "Glasfaser".into(),
            roles: vec![],
            updated_at: "heute",
        };
        let created = Changes::between(None::<&Provider>, Some(&provider)).into_value();
        assert_eq!(
            created["name"],
            json!({"before": null, "after": "Glasfaser"})
        );
        assert_eq!(created["id"], json!({"before": null, "after": 7}));
        assert!(created.get("updated_at").is_none());
        let deleted = Changes::between(Some(&provider), None::<&Provider>).into_value();
        assert_eq!(deleted["roles"], json!({"before": [], "after": null}));
    }

    #[test]
    fn secrets_are_never_recorded() {
        let changes = Changes::none()
            .field("password_hash", "old", "new")
            .field("token", "a", "b")
            .field("name", "a", "b");
        assert_eq!(changes.to_json(), r#"{"name":{"after":"b","before":"a"}}"#);
        let before = json!({"login": "x", "password_hash": "$argon2…"});
        let after = json!({"login": "y", "password_hash": "$argon2…2"});
        let changes = Changes::between(Some(&before), Some(&after));
        assert!(!changes.to_json().contains("argon2"));
    }

    #[test]
    fn the_actor_is_the_login() {
        let user = User {
            name: "Erika".into(),
            customer_number: None,
            email: "erika@example.com".into(),
            roles: vec![],
            subject: "local:1".into(),
        };
        assert_eq!(Actor::of(&user).name(), "erika@example.com");
        assert_eq!(Actor::Cli.name(), "CLI");
        assert_eq!(Actor::System.name(), "System");
    }

    #[test]
    fn filters_are_read_and_refused_in_german() {
        let filter = Filter::parse(
            Some("package"),
            Some("12"),
            Some(" CLI "),
            Some("2026-11-01"),
            Some("2026-11-30"),
        )
        .unwrap();
        assert_eq!(filter.entity, Some(Entity::Package));
        assert_eq!(filter.entity_id, Some(12));
        assert_eq!(filter.actor.as_deref(), Some("CLI"));
        assert_eq!(
            filter.from.unwrap().to_rfc3339(),
            "2026-10-31T23:00:00+00:00"
        );
        assert_eq!(
            Filter::parse(Some(""), Some(""), Some(""), Some(""), Some("")).unwrap(),
            Filter::default()
        );
        assert!(
            Filter::parse(Some("paket"), None, None, None, None)
                .unwrap_err()
                .starts_with("entity muss eines von provider")
        );
        assert!(Filter::parse(None, Some("0"), None, None, None).is_err());
        assert!(Filter::parse(None, Some("x"), None, None, None).is_err());
        assert!(Filter::parse(None, None, None, Some("1.11.2026"), None).is_err());
        assert_eq!(
            Filter::parse(None, None, None, Some("2026-11-02"), Some("2026-11-01")).unwrap_err(),
            "from darf nicht nach to liegen."
        );
    }

    proptest::proptest! {
        /// No filter text panics the reader (issue 34: `-262143-01-01` did, further on), and
        /// what it accepts is bounded: ids below 10^18, days of 2000–2100.
        #[test]
        fn no_text_panics_the_filter(
            entity in "\\PC{0,12}",
            entity_id in proptest::prop_oneof!["\\PC{0,25}", "[-+ 0]{0,2}[0-9]{0,22}"],
            from in proptest::prop_oneof!["\\PC{0,14}", "[-+]?[0-9]{0,7}-[0-9]{0,3}-[0-9]{0,3}"],
            to in proptest::prop_oneof!["\\PC{0,14}", "[-+]?[0-9]{0,7}-[0-9]{0,3}-[0-9]{0,3}"],
        ) {
            let filter = Filter::parse(
                Some(&entity), Some(&entity_id), None, Some(&from), Some(&to),
            );
            if let Ok(filter) = filter {
                if let Some(id) = filter.entity_id {
                    proptest::prop_assert!((1..super::super::input::MAX_ID).contains(&id));
                }
                for at in [filter.from, filter.to].into_iter().flatten() {
                    proptest::prop_assert!((1999..=2100).contains(&chrono::Datelike::year(&at)));
                }
            }
        }
    }
}
