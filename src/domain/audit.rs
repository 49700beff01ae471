//! The audit log's entries (issue 24): who changed what, and which fields went from what to
//! what. Pure values; `db::insight::audit` writes them in the transaction of the change.

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
        Announce => "announce", "Ankündigung versendet";
        EndNotice => "endNotice", "Erinnerung vor Ablauf versendet";
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
            changes = changes.field(key, old, new);
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
    /// Sets (arrays of ids or names) are kept sorted, and a set whose order alone changed
    /// has not changed.
    pub fn field(mut self, name: &str, before: impl Serialize, after: impl Serialize) -> Changes {
        let value = |v: Result<Value, _>| canonical(v.unwrap_or(Value::Null));
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
    /// How the record is called as the entry is written ("Privatkunden"); see [`Entry::name`].
    pub entity_name: Option<String>,
    pub changes: Changes,
}

impl Entry {
    pub fn new(actor: &Actor, action: Action, entity: Entity, entity_id: Option<i64>) -> Entry {
        Entry {
            actor: actor.clone(),
            action,
            entity,
            entity_id,
            entity_name: None,
            changes: Changes::none(),
        }
    }

    /// The entry for the record called `name` as the change is made.
    pub fn named(mut self, name: impl Into<String>) -> Entry {
        let name = name.into();
        self.entity_name = Some(name).filter(|n| !n.trim().is_empty());
        self
    }

    /// The record's name as the entry keeps it: the one given with [`Entry::named`], else the
    /// `name` the change gave it (a creation's or rename's `after`, a deletion's `before`).
    pub fn name(&self) -> Option<String> {
        if let Some(name) = &self.entity_name {
            return Some(name.clone());
        }
        let pair = self.changes.0.get("name")?;
        [&pair["after"], &pair["before"]].into_iter().find_map(|v| {
            v.as_str()
                .filter(|n| !n.trim().is_empty())
                .map(str::to_owned)
        })
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

/// How a contact is named in the log: "Anna Müller" (first and last name as edited).
pub fn person_name(firstname: &str, lastname: &str) -> String {
    format!("{} {}", firstname.trim(), lastname.trim())
        .trim()
        .to_owned()
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

/// The German label of each field key the log writes, in the words of the screen where the
/// field is edited. Keys not here (none the code writes; see the test) are shown as stored.
pub const FIELD_LABELS: &[(&str, &str)] = &[
    // Contacts and customer groups (contact editor, contacts screen).
    ("customer_number", "Kundennummer"),
    ("company_name", "Firma"),
    ("email", "E-Mail"),
    ("salutation", "Anrede"),
    ("firstname", "Vorname"),
    ("lastname", "Nachname"),
    ("lists", "Kriterien"),
    ("listsAdded", "Kriterien hinzugefügt"),
    ("listsRemoved", "Kriterien entfernt"),
    ("email_blacklisted", "Gesperrt"),
    ("double_opt_in", "Double-Opt-In"),
    ("double_opt_in_sent_to", "Double-Opt-In gesendet an"),
    ("recipients", "Empfänger"),
    // Providers (provider settings).
    ("name", "Name"),
    ("allowed_roles", "Eingetragene Gruppen"),
    ("brevo_active_folder_id", "Aktiver Marketing-Ordner"),
    ("brevo_inactive_folder_id", "Inaktiver Marketing-Ordner"),
    ("upload_id", "Logo"),
    // Lists (criteria screen).
    ("provider_id", "Anbieter"),
    ("brevo_list_id", "Liste im Marketing-Dienst (ID)"),
    ("active", "Status"),
    ("total_subscribers", "Abonnenten"),
    ("total_blocked", "Gesperrte Abonnenten"),
    ("deactivated_at", "Deaktiviert am"),
    ("reactivated_at", "Reaktiviert am"),
    // Download packages (download form).
    ("start_at", "Startdatum"),
    ("end_at", "Enddatum"),
    ("files", "Dateien"),
    ("copy_of", "Kopie von"),
    ("archived", "Archiviert"),
    ("archived_at", "Archiviert am"),
    // A package's mails (db::catalog::announcements).
    ("announce", "Bei Start ankündigen"),
    ("subject", "Betreff der Ankündigung"),
    ("body", "Text der Ankündigung"),
    ("reminder_days", "Erinnerung vor Ablauf (Tage)"),
    // Files (uploads).
    ("ext", "Dateiendung"),
    ("size", "Größe"),
    ("content_type", "Dateityp"),
    // Tags (tag screen).
    ("icon", "Symbol"),
    ("uses", "Verwendet in Dateien"),
    // Accounts (CLI).
    ("id", "ID"),
    ("login", "Login"),
    ("roles", "Rollen"),
    // Imports and the marketing service's sync.
    ("planning_candidates", "Import-Kandidaten"),
    ("companies", "Firmen"),
    ("contactsCreated", "Kontakte angelegt"),
    ("contactsUpdated", "Kontakte aktualisiert"),
    // An erasure's mark: the record's kept name went (db::contacts::erasure).
    ("entity_name", "Name des Datensatzes"),
];

/// The label of `key` in an entry about `entity` (a package's name is its "Bezeichnung" on
/// the download form); per-contact keys of a customer group's save name the contact.
pub fn field_label(entity: &str, key: &str) -> String {
    if key == "name" && entity == Entity::Package.as_str() {
        return "Bezeichnung".into();
    }
    if let Some((_, label)) = FIELD_LABELS.iter().find(|(k, _)| *k == key) {
        return (*label).into();
    }
    if let Some(id) = key.strip_prefix("contact ") {
        return format!("Kontakt {id}");
    }
    if let Some(email) = key.strip_prefix("new contact ") {
        return format!("Neuer Kontakt {email}");
    }
    key.into()
}

/// A kind of record an entry names by id, whose name the Protokoll reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Named {
    Provider,
    List,
    Package,
    Upload,
    Tag,
    Contact,
    CustomerGroup,
    User,
}

impl Named {
    /// The kind of record an entry is about, when it has a name.
    pub fn of_entity(entity: &str) -> Option<Named> {
        Some(match Entity::parse(entity)? {
            Entity::Provider => Named::Provider,
            Entity::List => Named::List,
            Entity::Package => Named::Package,
            Entity::Upload => Named::Upload,
            Entity::Tag => Named::Tag,
            Entity::Contact => Named::Contact,
            Entity::CustomerGroup => Named::CustomerGroup,
            Entity::User => Named::User,
            Entity::Import | Entity::Sync => return None,
        })
    }

    /// The kind of record a field's ids name.
    fn of_field(key: &str) -> Option<Named> {
        Some(match key {
            "lists" | "listsAdded" | "listsRemoved" => Named::List,
            "provider_id" => Named::Provider,
            "copy_of" => Named::Package,
            "upload_id" => Named::Upload,
            "tags" => Named::Tag,
            _ => return None,
        })
    }

    /// How a record of this kind is called when its name is unknown: "Kriterium 9".
    pub fn word(self) -> &'static str {
        match self {
            Named::Provider => "Anbieter",
            Named::List => "Kriterium",
            Named::Package => "Download-Paket",
            Named::Upload => "Datei",
            Named::Tag => "Tag",
            Named::Contact => "Kontakt",
            Named::CustomerGroup => "Kundengruppe",
            Named::User => "Benutzer",
        }
    }
}

/// One value as the Protokoll shows it; `title` holds what a careful reader may want to see
/// on hovering (the id, the stored code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub text: String,
    pub title: Option<String>,
}

impl Shown {
    fn text(text: impl Into<String>) -> Shown {
        Shown {
            text: text.into(),
            title: None,
        }
    }

    fn titled(text: impl Into<String>, title: impl Into<String>) -> Shown {
        Shown {
            text: text.into(),
            title: Some(title.into()),
        }
    }
}

/// Every id a field's value names, with its kind: what the Protokoll reads names for.
pub fn ids_in(key: &str, value: &Value, out: &mut impl FnMut(Named, i64)) {
    if let Some(kind) = Named::of_field(key) {
        match value {
            Value::Array(items) => items
                .iter()
                .filter_map(Value::as_i64)
                .for_each(|id| out(kind, id)),
            other => other.as_i64().into_iter().for_each(|id| out(kind, id)),
        }
    } else if key == "files"
        && let Value::Array(files) = value
    {
        for file in files {
            ids_in("upload_id", &file["upload_id"], out);
            ids_in("tags", &file["tags"], out);
        }
    }
}

/// A role as the screens call it; per-provider roles and free text stay as they are.
pub fn role_word(role: &str) -> String {
    use super::roles;
    match role {
        roles::ADMIN => "Admin".into(),
        roles::BU_MODERATOR => "BU-Moderator".into(),
        roles::BU_DOI => "BU-DOI".into(),
        roles::PORTAL => "Händler".into(),
        roles::DEVELOPER => "Entwickler".into(),
        "GS-Provision" => "Provision".into(),
        other => match other.strip_prefix("GS-Aktionsportal-BU-") {
            Some(brand) if !brand.is_empty() => format!("BU {brand}"),
            _ => other.into(),
        },
    }
}

/// The words of a yes/no field's two states, as the screens show them.
fn state_words(key: &str) -> Option<(&'static str, &'static str)> {
    Some(match key {
        "active" => ("aktiv", "inaktiv"),
        "archived" => ("archiviert", "nicht archiviert"),
        "email_blacklisted" => ("gesperrt", "nicht gesperrt"),
        "double_opt_in" => ("bestätigt", "nicht bestätigt"),
        _ => return None,
    })
}

/// A field's value in words: times in German time, codes as their words, ids as names (from
/// `names`; an unknown one as "Kriterium 9"), each with the stored value in `title` where it
/// differs from the text. Empty for no value ("—").
pub fn describe(
    key: &str,
    value: &Value,
    names: &dyn Fn(Named, i64) -> Option<String>,
) -> Vec<Shown> {
    let named = |kind: Named, id: i64| match names(kind, id) {
        Some(name) => Shown::titled(name, format!("ID {id}")),
        None => Shown::titled(
            format!("{} {id}", kind.word()),
            format!("ID {id} (nicht mehr vorhanden)"),
        ),
    };
    if value.is_null() {
        return Vec::new();
    }
    if let Some(kind) = Named::of_field(key) {
        let ids: Vec<i64> = match value {
            Value::Array(items) => items.iter().filter_map(Value::as_i64).collect(),
            other => other.as_i64().into_iter().collect(),
        };
        if ids.is_empty() && value.is_array() {
            return vec![Shown::text("keine")];
        }
        if !ids.is_empty() {
            return ids.into_iter().map(|id| named(kind, id)).collect();
        }
    }
    if key == "files"
        && let Value::Array(files) = value
    {
        if files.is_empty() {
            return vec![Shown::text("keine")];
        }
        return files
            .iter()
            .map(|file| {
                let name = file["name"].as_str().unwrap_or("").to_owned();
                let tags: Vec<String> = describe("tags", &file["tags"], names)
                    .into_iter()
                    .filter(|t| t.text != "keine")
                    .map(|t| t.text)
                    .collect();
                let text = if tags.is_empty() {
                    name
                } else {
                    format!("{name} (Tags: {})", tags.join(", "))
                };
                match file["upload_id"].as_i64() {
                    Some(id) => Shown::titled(text, format!("Datei-ID {id}")),
                    None => Shown::text(text),
                }
            })
            .collect();
    }
    if key == "salutation"
        && let Some(code) = value.as_i64()
    {
        let word = i16::try_from(code)
            .ok()
            .and_then(|c| super::contacts::Salutation::from_code(Some(c)).ok())
            .map(|s| match s.label() {
                "" => "keine",
                word => word,
            });
        return vec![match word {
            Some(word) => Shown::titled(word, format!("Code {code}")),
            None => Shown::text(code.to_string()),
        }];
    }
    if matches!(key, "roles" | "allowed_roles")
        && let Value::Array(roles) = value
    {
        if roles.is_empty() {
            return vec![Shown::text("keine")];
        }
        return roles
            .iter()
            .map(|role| {
                let raw = role
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| role.to_string());
                let word = role_word(&raw);
                if word == raw {
                    Shown::text(raw)
                } else {
                    Shown::titled(word, raw)
                }
            })
            .collect();
    }
    if let (Some((yes, no)), Some(flag)) = (state_words(key), value.as_bool()) {
        return vec![Shown::text(if flag { yes } else { no })];
    }
    if key == "size"
        && let Some(bytes) = value.as_i64()
    {
        return vec![Shown::titled(
            super::format::file_size(bytes),
            format!("{bytes} Bytes"),
        )];
    }
    match value {
        Value::String(text) => match german_time(key, text) {
            Some(when) => vec![Shown::titled(when, text.clone())],
            None if text.is_empty() => vec![Shown::text("„“")],
            None => vec![Shown::text(text.clone())],
        },
        Value::Bool(true) => vec![Shown::text("ja")],
        Value::Bool(false) => vec![Shown::text("nein")],
        Value::Array(items) if items.is_empty() => vec![Shown::text("keine")],
        other => vec![Shown::text(other.to_string())],
    }
}

/// A stored instant (RFC 3339) of a time field in German time: `31.12.2026, 23:59`.
fn german_time(key: &str, text: &str) -> Option<String> {
    if !(key.ends_with("_at") || key.ends_with("At")) {
        return None;
    }
    let at = DateTime::parse_from_rfc3339(text).ok()?.with_timezone(&Utc);
    Some(super::format::date_time(at))
}

/// Whether two values of a field say the same: sets of ids (arrays of numbers or of texts)
/// are the same whatever their order.
pub fn same_value(before: &Value, after: &Value) -> bool {
    before == after || canonical(before.clone()) == canonical(after.clone())
}

/// `value` with every array of plain values (ids, role names) sorted, at any depth.
fn canonical(value: Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut items: Vec<Value> = items.into_iter().map(canonical).collect();
            if items.iter().all(|v| v.is_number()) {
                items.sort_by(|a, b| {
                    a.as_f64()
                        .partial_cmp(&b.as_f64())
                        .unwrap_or(std::cmp::Ordering::Equal)
                });
            } else if items.iter().all(Value::is_string) {
                items.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
            }
            Value::Array(items)
        }
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, canonical(v))).collect())
        }
        other => other,
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

    /// Every field key the code writes into the log has a German label: the keys of the
    /// `.field("…")` calls of `Changes` in src/, and the fields of the records written whole
    /// (created, changed or deleted).
    #[test]
    fn every_field_the_code_writes_has_a_label() {
        fn sources(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    sources(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        let mut files = Vec::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        let mut keys = std::collections::BTreeSet::new();
        for (path, text) in &files {
            // `Debug` builders have `.field(` too; only files that build `Changes` count.
            if !text.contains("Changes::") {
                continue;
            }
            for (at, _) in text.match_indices(".field(") {
                let rest = text[at + ".field(".len()..].trim_start();
                if let Some(quoted) = rest.strip_prefix('"') {
                    let key = &quoted[..quoted.find('"').unwrap_or(0)];
                    // Field names only (this test's own text has other quotes).
                    if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    {
                        keys.insert((key.to_owned(), path.display().to_string()));
                    }
                }
            }
        }
        assert!(keys.len() > 20, "the search found the calls: {keys:?}");
        // The fields of the records serialised whole (services' `Recorded…`, db rows).
        let whole = [
            // contacts::RecordedContact, packages::RecordedPackage and its files
            "customer_number",
            "company_name",
            "email",
            "salutation",
            "firstname",
            "lastname",
            "lists",
            "provider_id",
            "name",
            "start_at",
            "end_at",
            "files",
            // providers::RecordedProvider, db::marketing::providers::Provider
            "allowed_roles",
            "brevo_active_folder_id",
            "brevo_inactive_folder_id",
            "upload_id",
            // db::marketing::lists::List
            "id",
            "brevo_list_id",
            "active",
            "total_subscribers",
            "total_blocked",
            "deactivated_at",
            "reactivated_at",
            // db::catalog::packages::PackageRecord, db::catalog::uploads::Described, tags, db::accounts::users::Account
            "archived",
            "archived_at",
            "ext",
            "size",
            "content_type",
            "icon",
            "uses",
            "login",
            "roles",
        ];
        let whole = whole
            .iter()
            .map(|key| (key.to_string(), "recorded whole".to_string()));
        let missing: Vec<_> = keys
            .into_iter()
            .chain(whole)
            .filter(|(key, _)| !SECRET_FIELDS.contains(&key.as_str()))
            .filter(|(key, _)| FIELD_LABELS.iter().all(|(k, _)| k != key))
            .collect();
        assert!(
            missing.is_empty(),
            "fields without a German label: {missing:?}"
        );
        assert_eq!(field_label("contact", "company_name"), "Firma");
        assert_eq!(field_label("package", "name"), "Bezeichnung");
        assert_eq!(field_label("customerGroup", "contact 7"), "Kontakt 7");
    }

    #[test]
    fn a_set_whose_order_alone_changed_is_no_change() {
        let changes =
            Changes::none()
                .field("lists", [9, 10], [10, 9])
                .field("roles", ["B", "A"], ["A", "B"]);
        assert!(changes.is_empty(), "{}", changes.to_json());
        let changes = Changes::none().field("lists", [10, 9], [11, 9]);
        assert_eq!(
            changes.into_value(),
            json!({"lists": {"before": [9, 10], "after": [9, 11]}}),
            "sets are kept sorted"
        );
        let before = json!({"files": [{"name": "a", "tags": [2, 1]}]});
        let after = json!({"files": [{"name": "a", "tags": [1, 2]}]});
        assert!(Changes::between(Some(&before), Some(&after)).is_empty());
        // Old entries: the same comparison when shown.
        assert!(same_value(&json!([9, 10]), &json!([10, 9])));
        assert!(!same_value(&json!([9, 10]), &json!([9])));
        assert!(!same_value(&json!(["a", "b"]), &json!("a")));
    }

    #[test]
    fn an_entry_keeps_its_records_name() {
        let entry = Entry::new(&Actor::Cli, Action::Update, Entity::List, Some(9));
        assert_eq!(entry.name(), None);
        let renamed = entry
            .clone()
            .with_changes(Changes::none().field("name", "Privat", "Gewerbe"));
        assert_eq!(renamed.name().as_deref(), Some("Gewerbe"));
        let deleted =
            entry
                .clone()
                .with_changes(Changes::none().field("name", "Privat", Value::Null));
        assert_eq!(deleted.name().as_deref(), Some("Privat"));
        assert_eq!(
            entry
                .named("Bestand")
                .with_changes(Changes::none().field("active", true, false))
                .name()
                .as_deref(),
            Some("Bestand")
        );
        assert_eq!(person_name(" Anna ", "Müller"), "Anna Müller");
    }

    fn words(key: &str, value: Value) -> Vec<(String, Option<String>)> {
        let names = |kind: Named, id: i64| match (kind, id) {
            (Named::List, 9) => Some("Privatkunden".to_owned()),
            (Named::List, 10) => Some("Gewerbe".to_owned()),
            (Named::Tag, 1) => Some("Flyer".to_owned()),
            (Named::Provider, 3) => Some("Glasfaser".to_owned()),
            _ => None,
        };
        describe(key, &value, &names)
            .into_iter()
            .map(|s| (s.text, s.title))
            .collect()
    }

    fn text(key: &str, value: Value) -> Vec<String> {
        words(key, value).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn values_are_shown_in_words_with_the_stored_value_as_tooltip() {
        // Times in German time (winter and summer), the stored text in the tooltip.
        assert_eq!(
            words("end_at", json!("2026-12-31T22:59:59Z")),
            [(
                "31.12.2026, 23:59".to_owned(),
                Some("2026-12-31T22:59:59Z".to_owned())
            )]
        );
        assert_eq!(
            text("start_at", json!("2026-06-30T22:00:00Z")),
            ["01.07.2026, 00:00"]
        );
        // A name that looks like a time stays as it is.
        assert_eq!(
            text("name", json!("2026-12-31T22:59:59Z")),
            ["2026-12-31T22:59:59Z"]
        );
        // Codes as words.
        assert_eq!(
            words("salutation", json!(2)),
            [("Herr".to_owned(), Some("Code 2".to_owned()))]
        );
        assert_eq!(text("salutation", json!(0)), ["keine"]);
        assert_eq!(text("salutation", json!(4)), ["Diverses"]);
        assert_eq!(
            words(
                "roles",
                json!(["GS-Aktionsportal", "GS-Aktionsportal-BU-Strom", "Gruppe X"])
            ),
            [
                ("Händler".to_owned(), Some("GS-Aktionsportal".to_owned())),
                (
                    "BU Strom".to_owned(),
                    Some("GS-Aktionsportal-BU-Strom".to_owned())
                ),
                ("Gruppe X".to_owned(), None),
            ]
        );
        assert_eq!(text("active", json!(false)), ["inaktiv"]);
        assert_eq!(text("email_blacklisted", json!(true)), ["gesperrt"]);
        assert_eq!(text("double_opt_in", json!(true)), ["bestätigt"]);
        assert_eq!(text("archived", json!(true)), ["archiviert"]);
        assert_eq!(text("size", json!(1536)), ["1,5 KiB"]);
        // Ids as names, the id in the tooltip; an unknown id by its kind.
        assert_eq!(
            words("lists", json!([9, 10, 11])),
            [
                ("Privatkunden".to_owned(), Some("ID 9".to_owned())),
                ("Gewerbe".to_owned(), Some("ID 10".to_owned())),
                (
                    "Kriterium 11".to_owned(),
                    Some("ID 11 (nicht mehr vorhanden)".to_owned())
                ),
            ]
        );
        assert_eq!(text("lists", json!([])), ["keine"]);
        assert_eq!(text("provider_id", json!(3)), ["Glasfaser"]);
        assert_eq!(text("copy_of", json!(8)), ["Download-Paket 8"]);
        assert_eq!(
            words(
                "files",
                json!([{"upload_id": 5, "name": "Flyer.pdf", "tags": [1]}])
            ),
            [(
                "Flyer.pdf (Tags: Flyer)".to_owned(),
                Some("Datei-ID 5".to_owned())
            )]
        );
        assert!(text("name", Value::Null).is_empty());
        assert_eq!(text("name", json!("")), ["„“"]);
        let mut ids = Vec::new();
        ids_in(
            "files",
            &json!([{"upload_id": 5, "tags": [1, 2]}]),
            &mut |k, id| ids.push((k, id)),
        );
        assert_eq!(ids, [(Named::Upload, 5), (Named::Tag, 1), (Named::Tag, 2)]);
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
