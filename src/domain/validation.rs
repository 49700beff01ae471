//! Input rules of spec §5 with their German messages. Parsed values are valid everywhere.

use serde_json::Value;

use super::input::{IdInput, id_of_text};
use super::permissions::parse_allowed_roles;
use super::text::{self, TextError};

/// A provider's name: 2 to 25 characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderName(String);

impl std::fmt::Display for ProviderName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl ProviderName {
    pub fn into_inner(self) -> String {
        self.0
    }

    pub fn parse(value: &str) -> Result<ProviderName, String> {
        text::bounded(value, "Der Name", 2, 25).map(ProviderName)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A criteria list's name: 5 to 50 characters when the list is created, up to 100 when an
/// existing list is renamed (spec §5; lists taken over from Brevo may have longer names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListName(String);

impl std::fmt::Display for ListName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl ListName {
    pub fn into_inner(self) -> String {
        self.0
    }

    pub fn parse_new(value: &str) -> Result<ListName, String> {
        text::bounded(value, "Der Name", 5, 50).map(ListName)
    }

    pub fn parse_rename(value: &str) -> Result<ListName, String> {
        text::bounded(value, "Der Name", 5, 100).map(ListName)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

pub const ROLES_REQUIRED: &str = "Es muss mindestens eine Gruppe eingetragen werden!";
/// Most roles a provider may have; every user's visibility check reads them all.
pub const MAX_ROLES: usize = 50;
/// Longest role name (directory group names are far shorter).
pub const MAX_ROLE_LENGTH: usize = 100;
pub const FOLDERS_REQUIRED: &str = "Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!";

/// The provider's roles (`allowedRoles`, array or JSON string): at least one, no empty
/// entry, no duplicate ("… existiert bereits in der Liste!").
pub fn provider_roles(value: Option<&AllowedRoles>) -> Result<Vec<String>, String> {
    let roles = match value {
        None => None,
        Some(AllowedRoles::Roles(roles)) => Some(roles.clone()),
        Some(AllowedRoles::Encoded(text)) => serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|v| parse_allowed_roles(&v)),
    };
    let roles = roles.ok_or_else(|| ROLES_REQUIRED.to_string())?;
    if roles.len() > MAX_ROLES {
        return Err(format!(
            "Es dürfen höchstens {MAX_ROLES} Gruppen eingetragen werden!"
        ));
    }
    let mut clean: Vec<String> = Vec::new();
    for role in roles {
        let role = match text::clean(&role) {
            Ok(role) => role,
            Err(TextError::Empty) => return Err("Eine Gruppe darf nicht leer sein!".into()),
            Err(err) => return Err(err.message("Eine Gruppe")),
        };
        if role.chars().count() > MAX_ROLE_LENGTH {
            return Err(format!(
                "Eine Gruppe darf höchstens {MAX_ROLE_LENGTH} Zeichen lang sein!"
            ));
        }
        // As the form does it: "GS-Foo" and "gs-foo" are the same group.
        if clean
            .iter()
            .any(|r| r.to_lowercase() == role.to_lowercase())
        {
            return Err(format!("{role} existiert bereits in der Liste!"));
        }
        clean.push(role);
    }
    if clean.is_empty() {
        return Err(ROLES_REQUIRED.into());
    }
    Ok(clean)
}

/// A marketing-folder selector's value: create one ('auto'), none, or an existing folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FolderChoice {
    Auto,
    None,
    Existing(i64),
}

/// `allowedRoles` as clients send it (spec §3): a JSON array of strings, or that array
/// encoded into a JSON string (e.g. `"[\"GS-Aktionsportal-BU-Glasfaser\"]"`).
#[derive(Clone, Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum AllowedRoles {
    Roles(Vec<String>),
    Encoded(String),
}

/// A marketing-folder selector's value: `"auto"` creates a folder named "‹Anbietername›
/// (aktiv)" / "(inaktiv)"; a positive integer (also as a string of digits) names an existing
/// folder; `null`, a missing field, `""` or `"none"` mean none, which fails validation, since
/// both folders are required (spec §5). Active and inactive folder must differ.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum FolderChoiceInput {
    Text(String),
    Folder(IdInput),
}

/// What [`FolderChoiceInput::Text`] may hold, any letter case for the words.
const FOLDER_TEXT_PATTERN: &str = "^([Nn][Oo][Nn][Ee]|[Aa][Uu][Tt][Oo]|0*[1-9][0-9]{0,17})?$";

impl utoipa::PartialSchema for FolderChoiceInput {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::OneOfBuilder;
        OneOfBuilder::new()
            .item(<IdInput as utoipa::PartialSchema>::schema())
            .item(super::input::pattern_schema(FOLDER_TEXT_PATTERN))
            .description(Some(
                "A marketing folder: `\"auto\"` creates one, a positive id (number or digits) \
                 names an existing one; `\"\"` or `\"none\"` mean none, which is refused.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for FolderChoiceInput {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("FolderChoice")
    }
}

impl FolderChoice {
    pub fn from_input(value: Option<&FolderChoiceInput>) -> Result<FolderChoice, String> {
        let invalid = || "Ungültiger Marketing-Ordner.".to_string();
        match value {
            None => Ok(FolderChoice::None),
            Some(FolderChoiceInput::Text(s)) if s.is_empty() || s.eq_ignore_ascii_case("none") => {
                Ok(FolderChoice::None)
            }
            Some(FolderChoiceInput::Text(s)) if s.eq_ignore_ascii_case("auto") => {
                Ok(FolderChoice::Auto)
            }
            Some(FolderChoiceInput::Text(s)) => id_of_text(s)
                .map(FolderChoice::Existing)
                .ok_or_else(invalid),
            Some(FolderChoiceInput::Folder(id)) => {
                id.get().map(FolderChoice::Existing).ok_or_else(invalid)
            }
        }
    }
}

/// Both folders must be set (spec §5).
pub fn provider_folders(active: FolderChoice, inactive: FolderChoice) -> Result<(), String> {
    if active == FolderChoice::None || inactive == FolderChoice::None {
        return Err(FOLDERS_REQUIRED.into());
    }
    if let (FolderChoice::Existing(a), FolderChoice::Existing(b)) = (active, inactive)
        && a == b
    {
        return Err("Aktiver und inaktiver Marketing-Ordner müssen verschieden sein!".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The body's field as the call reads it (`None` for a shape it refuses).
    fn roles(value: Value) -> Option<AllowedRoles> {
        serde_json::from_value(value).ok()
    }

    fn folder(value: Value) -> Option<FolderChoiceInput> {
        serde_json::from_value(value).ok()
    }

    #[test]
    fn provider_names_are_2_to_25_characters() {
        assert_eq!(ProviderName::parse(" Süd ").unwrap().as_str(), "Süd");
        assert_eq!(
            ProviderName::parse("A").unwrap_err(),
            "Der Name muss mindestens 2 Zeichen lang sein."
        );
        assert_eq!(
            ProviderName::parse(&"x".repeat(26)).unwrap_err(),
            "Der Name darf höchstens 25 Zeichen lang sein."
        );
        assert!(
            ProviderName::parse(&"ä".repeat(25)).is_ok(),
            "characters, not bytes"
        );
    }

    #[test]
    fn list_names_have_their_own_bounds() {
        assert!(ListName::parse_new("Flyer").is_ok());
        assert_eq!(
            ListName::parse_new("Test").unwrap_err(),
            "Der Name muss mindestens 5 Zeichen lang sein."
        );
        assert_eq!(
            ListName::parse_new(&"x".repeat(51)).unwrap_err(),
            "Der Name darf höchstens 50 Zeichen lang sein."
        );
        assert!(ListName::parse_rename(&"x".repeat(100)).is_ok());
        assert_eq!(
            ListName::parse_rename(&"x".repeat(101)).unwrap_err(),
            "Der Name darf höchstens 100 Zeichen lang sein."
        );
    }

    #[test]
    fn roles_need_one_and_no_duplicates() {
        assert_eq!(
            provider_roles(roles(json!(["A", "B"])).as_ref()).unwrap(),
            vec!["A", "B"]
        );
        assert_eq!(
            provider_roles(roles(json!("[\"A\"]")).as_ref()).unwrap(),
            vec!["A"]
        );
        assert_eq!(
            provider_roles(roles(json!([])).as_ref()).unwrap_err(),
            ROLES_REQUIRED
        );
        assert_eq!(
            provider_roles(roles(json!(null)).as_ref()).unwrap_err(),
            ROLES_REQUIRED
        );
        assert_eq!(
            provider_roles(roles(json!(["A", " A "])).as_ref()).unwrap_err(),
            "A existiert bereits in der Liste!"
        );
        // Case does not make another group (the form compares the same way).
        assert_eq!(
            provider_roles(roles(json!(["GS-Glasfaser", "gs-glasfaser"])).as_ref()).unwrap_err(),
            "gs-glasfaser existiert bereits in der Liste!"
        );
        assert!(provider_roles(roles(json!(["A", " "])).as_ref()).is_err());
    }

    #[test]
    fn names_with_invisible_characters_are_refused() {
        assert_eq!(
            ProviderName::parse("\u{200B}\u{200B}\u{200B}").unwrap_err(),
            "Der Name darf keine Steuerzeichen oder unsichtbaren Formatierungszeichen enthalten."
        );
        assert!(ListName::parse_new("Flyer\u{0007}Sommer").is_err());
        assert!(ListName::parse_rename("\u{202E}Sommer-Flyer").is_err());
        assert_eq!(
            ProviderName::parse("   ").unwrap_err(),
            "Der Name muss mindestens 2 Zeichen lang sein."
        );
        assert_eq!(
            ProviderName::parse("Su\u{0308}d").unwrap().as_str(),
            "S\u{00FC}d"
        );
    }

    #[test]
    fn roles_are_bounded_in_number_and_length() {
        let fifty: Vec<String> = (0..50).map(|i| format!("Gruppe-{i}")).collect();
        assert_eq!(
            provider_roles(roles(json!(fifty)).as_ref()).unwrap().len(),
            50
        );
        let many: Vec<String> = (0..51).map(|i| format!("Gruppe-{i}")).collect();
        assert_eq!(
            provider_roles(roles(json!(many)).as_ref()).unwrap_err(),
            "Es dürfen höchstens 50 Gruppen eingetragen werden!"
        );
        assert!(provider_roles(roles(json!(["x".repeat(100)])).as_ref()).is_ok());
        assert_eq!(
            provider_roles(roles(json!(["x".repeat(101)])).as_ref()).unwrap_err(),
            "Eine Gruppe darf höchstens 100 Zeichen lang sein!"
        );
        assert!(provider_roles(roles(json!(["GS\u{200B}"])).as_ref()).is_err());
        assert!(provider_roles(roles(json!(["GS\u{0000}Admin"])).as_ref()).is_err());
    }

    #[test]
    fn folder_choices() {
        assert_eq!(
            FolderChoice::from_input(folder(json!("auto")).as_ref()).unwrap(),
            FolderChoice::Auto
        );
        assert_eq!(
            FolderChoice::from_input(folder(json!(12)).as_ref()).unwrap(),
            FolderChoice::Existing(12)
        );
        assert_eq!(
            FolderChoice::from_input(folder(json!("12")).as_ref()).unwrap(),
            FolderChoice::Existing(12)
        );
        assert_eq!(
            FolderChoice::from_input(folder(json!(null)).as_ref()).unwrap(),
            FolderChoice::None
        );
        assert_eq!(FolderChoice::from_input(None).unwrap(), FolderChoice::None);
        assert!(FolderChoice::from_input(folder(json!(-3)).as_ref()).is_err());
        assert!(
            folder(json!([1])).is_none(),
            "a list is refused when the body is read"
        );
        assert_eq!(
            provider_folders(FolderChoice::Auto, FolderChoice::None).unwrap_err(),
            FOLDERS_REQUIRED
        );
        assert!(provider_folders(FolderChoice::Existing(1), FolderChoice::Existing(1)).is_err());
        assert!(provider_folders(FolderChoice::Auto, FolderChoice::Existing(3)).is_ok());
    }
}
