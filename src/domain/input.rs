//! Values of request bodies as clients send them. Spec §7 is lenient about ids: a number or a
//! string of digits, and a list of ids also as that array encoded into a JSON string. Each type
//! here deserializes exactly the shapes its OpenAPI schema describes, so the description and
//! what the calls accept cannot differ. A value of the right shape that is not usable (a string
//! that is no id, a negative number) is kept as "not given", so that the service answers with
//! the spec's German message for that field.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde_json::Value;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    ArrayBuilder, KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, Type,
};

/// The largest id a number may carry: 10^18 is exact in a JSON number (an `f64`) and far above
/// any id either database hands out.
pub const MAX_ID: i64 = 1_000_000_000_000_000_000;
/// An id as a string: digits (leading zeros allowed), at most 18 significant ones.
pub const ID_PATTERN: &str = "^0*[1-9][0-9]{0,17}$";
/// Most ids one list may hold.
pub const MAX_IDS: usize = 1000;

/// A JSON number as an id: whole, positive and at most [`MAX_ID`].
fn id_of_number(number: f64) -> Option<i64> {
    (number.fract() == 0.0 && number >= 1.0 && number <= MAX_ID as f64).then_some(number as i64)
}

/// A string as an id: digits up to [`MAX_ID`], nothing else (no sign, no spaces); what
/// [`ID_PATTERN`] allows and, for path parameters described as integers, 10^18 itself.
pub fn id_of_text(text: &str) -> Option<i64> {
    let digits = text.trim_start_matches('0');
    if digits.is_empty() || digits.len() > 19 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|id| *id <= MAX_ID)
}

/// An id as a query parameter described by [`ID_PATTERN`]: exactly that pattern (no sign, no
/// spaces, at most 18 significant digits), so below [`MAX_ID`].
pub fn id_of_query(text: &str) -> Option<i64> {
    id_of_text(text).filter(|id| *id < MAX_ID)
}

fn integer_schema(minimum: i64, maximum: i64) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(minimum as f64))
        .maximum(Some(maximum as f64))
}

/// A string schema that must match `pattern`.
pub fn pattern_schema(pattern: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(pattern))
}

/// The schema of one id: a number from 1 to [`MAX_ID`], or a string of digits.
fn id_schema() -> OneOfBuilder {
    OneOfBuilder::new()
        .item(integer_schema(1, MAX_ID))
        .item(pattern_schema(ID_PATTERN))
}

/// An id as clients send it: a positive whole number, or a string of digits. `get` is `None`
/// for a number or string of the right shape that is no id (`0`, `-3`, `"abc"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdInput(Option<i64>);

impl IdInput {
    pub fn new(id: i64) -> IdInput {
        IdInput((id > 0).then_some(id))
    }

    pub fn get(self) -> Option<i64> {
        self.0
    }
}

struct IdVisitor;

impl Visitor<'_> for IdVisitor {
    type Value = IdInput;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an id (a number or a string of digits)")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<IdInput, E> {
        Ok(IdInput((1..=MAX_ID).contains(&v).then_some(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<IdInput, E> {
        Ok(IdInput(
            i64::try_from(v).ok().filter(|v| (1..=MAX_ID).contains(v)),
        ))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<IdInput, E> {
        Ok(IdInput(id_of_number(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<IdInput, E> {
        Ok(IdInput(id_of_text(v)))
    }
}

impl<'de> serde::Deserialize<'de> for IdInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<IdInput, D::Error> {
        deserializer.deserialize_any(IdVisitor)
    }
}

impl utoipa::PartialSchema for IdInput {
    fn schema() -> RefOr<Schema> {
        id_schema()
            .description(Some(
                "An id: a whole number from 1, or a string of digits (`\"12\"`).",
            ))
            .into()
    }
}

impl utoipa::ToSchema for IdInput {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("IdInput")
    }
}

/// An optional id as a query parameter (a filter): a whole number from 1, or empty for "not
/// given". Described so, since an empty value is taken, not refused.
pub struct IdFilter;

impl utoipa::PartialSchema for IdFilter {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(integer_schema(1, MAX_ID))
            .item(pattern_schema("^$"))
            .description(Some("An id (a whole number from 1); empty: no filter."))
            .into()
    }
}

impl utoipa::ToSchema for IdFilter {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("IdFilter")
    }
}

/// A list of ids as clients send it: an array of ids (numbers, digit strings, or objects with
/// an `id`), or that array encoded into a JSON string. `get` is `None` when an entry is no id
/// or there are more than [`MAX_IDS`]; duplicates are dropped, the order is kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdsInput(Option<Vec<i64>>);

impl IdsInput {
    pub fn new(ids: Vec<i64>) -> IdsInput {
        IdsInput(Some(ids))
    }

    pub fn get(&self) -> Option<&[i64]> {
        self.0.as_deref()
    }
}

/// One entry of an id list, read from a parsed JSON value.
fn id_of_entry(entry: &Value) -> Option<i64> {
    match entry {
        Value::Number(n) => n
            .as_i64()
            .filter(|v| (1..=MAX_ID).contains(v))
            .or_else(|| n.as_f64().and_then(id_of_number)),
        Value::String(s) => id_of_text(s),
        Value::Object(o) => o.get("id").and_then(|id| match id {
            Value::Object(_) => None,
            other => id_of_entry(other),
        }),
        _ => None,
    }
}

fn ids_of_entries(entries: &[Value]) -> Option<Vec<i64>> {
    if entries.len() > MAX_IDS {
        return None;
    }
    let mut ids: Vec<i64> = Vec::with_capacity(entries.len());
    for entry in entries {
        let id = id_of_entry(entry)?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    Some(ids)
}

/// The ids of a list field of a body: none when absent; the German message naming the field
/// when an entry is no id or there are more than [`MAX_IDS`].
pub fn ids_of(value: Option<&IdsInput>, field: &str) -> Result<Vec<i64>, String> {
    match value {
        None => Ok(Vec::new()),
        Some(ids) => ids
            .get()
            .map(<[i64]>::to_vec)
            .ok_or_else(|| format!("{field} muss eine Liste von Ids sein.")),
    }
}

/// Ids in a query string or a path: a JSON array (`[1,"2"]`, the shape of
/// [`encoded_ids_pattern`]) or ids separated by commas (`1, 2`, spaces around them allowed);
/// `None` when one is no id or there are more than [`MAX_IDS`].
pub fn ids_in_text(text: &str) -> Option<Vec<i64>> {
    if text.trim_start_matches(JSON_SPACE).starts_with('[') {
        return match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(entries)) if encoded_ids_allowed(text) => ids_of_entries(&entries),
            _ => None,
        };
    }
    let mut ids: Vec<i64> = Vec::new();
    for part in text.split(',') {
        let id = id_of_text(part.trim_matches(' '))?;
        if !ids.contains(&id) {
            // Refused at once: a long text must not cost a quadratic search first.
            if ids.len() == MAX_IDS {
                return None;
            }
            ids.push(id);
        }
    }
    Some(ids)
}

/// The characters JSON allows between tokens.
const JSON_SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// The pattern of [`ids_in_text`]: a JSON array of ids or ids separated by commas; `[]` only
/// when `may_be_empty`.
fn ids_text_pattern(may_be_empty: bool) -> String {
    let id = "0*[1-9][0-9]{0,17}";
    let comma_list = format!(" *{id} *(, *{id} *){{0,{}}}", MAX_IDS - 1);
    let array = encoded_ids_pattern();
    let array = array.trim_start_matches('^').trim_end_matches('$');
    let array = if may_be_empty {
        array.to_string()
    } else {
        // The entries' group is optional in the array pattern; here one is required.
        array.replacen(")?[ \\t\\n\\r]*\\]", ")[ \\t\\n\\r]*\\]", 1)
    };
    let empty = if may_be_empty { "|" } else { "" };
    format!("^({array}|{comma_list}{empty})$")
}

/// Describes a path parameter holding ids as [`ids_in_text`] reads them (at least one).
pub struct IdsText;

impl utoipa::PartialSchema for IdsText {
    fn schema() -> RefOr<Schema> {
        pattern_schema(&ids_text_pattern(false))
            .description(Some(
                "Ids as a JSON array (`[1,2]`) or separated by commas (`1,2`); at most 1000.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for IdsText {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("IdsText")
    }
}

/// Describes a filter parameter holding ids as [`ids_in_text`] reads them; empty (or `[]`)
/// means no filter.
pub struct IdsFilter;

impl utoipa::PartialSchema for IdsFilter {
    fn schema() -> RefOr<Schema> {
        pattern_schema(&ids_text_pattern(true))
            .description(Some(
                "Ids as a JSON array (`[1,2]`) or separated by commas (`1,2`); at most 1000. \
                 Empty or `[]`: no filter.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for IdsFilter {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("IdsFilter")
    }
}

struct IdsVisitor;

impl<'de> Visitor<'de> for IdsVisitor {
    type Value = IdsInput;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of ids")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<IdsInput, A::Error> {
        let mut entries: Vec<Value> = Vec::new();
        while let Some(entry) = seq.next_element::<Value>()? {
            if entries.len() > MAX_IDS {
                continue; // counted as too many below; the rest need not be kept
            }
            entries.push(entry);
        }
        Ok(IdsInput(ids_of_entries(&entries)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<IdsInput, E> {
        let ids = match serde_json::from_str::<Value>(v) {
            Ok(Value::Array(entries)) if encoded_ids_allowed(v) => ids_of_entries(&entries),
            _ => None,
        };
        Ok(IdsInput(ids))
    }
}

impl<'de> serde::Deserialize<'de> for IdsInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<IdsInput, D::Error> {
        deserializer.deserialize_any(IdsVisitor)
    }
}

/// The pattern of an id list encoded into a string: a JSON array of numbers, digit strings or
/// `{"id": …}` objects, at most [`MAX_IDS`] of them.
pub fn encoded_ids_pattern() -> String {
    let ws = "[ \\t\\n\\r]*";
    let number = "[1-9][0-9]{0,17}";
    let digits = "\"0*[1-9][0-9]{0,17}\"";
    let object = format!("\\{{{ws}\"id\"{ws}:{ws}({number}|{digits}){ws}\\}}");
    let entry = format!("({number}|{digits}|{object})");
    format!(
        "^{ws}\\[{ws}({entry}({ws},{ws}{entry}){{0,{}}})?{ws}\\]{ws}$",
        MAX_IDS - 1
    )
}

/// Whether an encoded list has the shape [`encoded_ids_pattern`] describes: the entries are
/// checked when read, so only what a JSON parse lets through needs a look here (objects with
/// other keys).
fn encoded_ids_allowed(text: &str) -> bool {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(entries)) => entries.iter().all(|entry| match entry {
            Value::Object(o) => o.len() == 1 && o.contains_key("id"),
            Value::Number(n) => n.is_u64(),
            _ => true,
        }),
        _ => false,
    }
}

impl utoipa::PartialSchema for IdsInput {
    fn schema() -> RefOr<Schema> {
        let object = ObjectBuilder::new()
            .schema_type(Type::Object)
            .property("id", id_schema())
            .required("id");
        let entry = id_schema().item(object);
        OneOfBuilder::new()
            .item(ArrayBuilder::new().items(entry).max_items(Some(MAX_IDS)))
            .item(pattern_schema(&encoded_ids_pattern()))
            .description(Some(
                "A list of ids: an array of ids (numbers, digit strings, or objects with an \
                 `id`), at most 1000, or that array encoded into a JSON string.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for IdsInput {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("IdsInput")
    }
}

/// A salutation code as clients send it: 0 to 4 as a number or a one-digit string. `get` is
/// `None` for another number or string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SalutationInput(Option<i16>);

impl SalutationInput {
    pub fn new(code: i16) -> SalutationInput {
        SalutationInput((0..=4).contains(&code).then_some(code))
    }

    pub fn get(self) -> Option<i16> {
        self.0
    }
}

struct SalutationVisitor;

impl Visitor<'_> for SalutationVisitor {
    type Value = SalutationInput;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a salutation code (0 to 4)")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<SalutationInput, E> {
        Ok(SalutationInput((0..=4).contains(&v).then_some(v as i16)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<SalutationInput, E> {
        Ok(SalutationInput((v <= 4).then_some(v as i16)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<SalutationInput, E> {
        let whole = v.fract() == 0.0 && (0.0..=4.0).contains(&v);
        Ok(SalutationInput(whole.then_some(v as i16)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<SalutationInput, E> {
        let code = match v {
            "0" | "1" | "2" | "3" | "4" => v.parse().ok(),
            _ => None,
        };
        Ok(SalutationInput(code))
    }
}

impl<'de> serde::Deserialize<'de> for SalutationInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<SalutationInput, D::Error> {
        deserializer.deserialize_any(SalutationVisitor)
    }
}

impl utoipa::PartialSchema for SalutationInput {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(integer_schema(0, 4))
            .item(pattern_schema("^[0-4]$"))
            .description(Some(
                "Salutation: 0 none, 1 Firma, 2 Herr, 3 Frau, 4 Diverses (a number or that digit \
                 as a string).",
            ))
            .into()
    }
}

impl utoipa::ToSchema for SalutationInput {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("SalutationInput")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(json: &str) -> Option<Vec<i64>> {
        serde_json::from_str::<IdsInput>(json)
            .unwrap()
            .get()
            .map(<[i64]>::to_vec)
    }

    #[test]
    fn ids_are_numbers_or_digit_strings() {
        let id = |json: &str| serde_json::from_str::<IdInput>(json).unwrap().get();
        assert_eq!(id("12"), Some(12));
        assert_eq!(id("12.0"), Some(12));
        assert_eq!(id("\"012\""), Some(12));
        assert_eq!(id("0"), None);
        assert_eq!(id("-3"), None);
        assert_eq!(id("1.5"), None);
        assert_eq!(id("\" 12\""), None);
        assert_eq!(id("\"+12\""), None);
        assert_eq!(id("\"1234567890123456789\""), None);
        assert_eq!(id("1e19"), None);
        assert!(serde_json::from_str::<IdInput>("true").is_err());
        assert!(serde_json::from_str::<IdInput>("[1]").is_err());
    }

    #[test]
    fn id_lists_take_arrays_and_encoded_arrays() {
        assert_eq!(ids("[1, \"2\", {\"id\": 3}, 1]"), Some(vec![1, 2, 3]));
        assert_eq!(ids("\"[4,5]\""), Some(vec![4, 5]));
        assert_eq!(ids("\"keine\""), None);
        assert_eq!(ids("[0]"), None);
        assert_eq!(ids("\"[{\\\"id\\\":1,\\\"x\\\":2}]\""), None);
        let many = format!("[{}]", vec!["1"; 1001].join(","));
        assert_eq!(ids(&many), None);
        assert!(serde_json::from_str::<IdsInput>("5").is_err());
    }

    #[test]
    fn ids_in_text_are_json_arrays_or_comma_lists() {
        assert_eq!(ids_in_text("[1,2]"), Some(vec![1, 2]));
        assert_eq!(ids_in_text("3, 4"), Some(vec![3, 4]));
        assert_eq!(ids_in_text("5"), Some(vec![5]));
        assert_eq!(ids_in_text("[\"a\"]"), None);
        assert_eq!(ids_in_text("{}"), None);
        assert_eq!(
            ids_in_text("\t1"),
            None,
            "only spaces around comma-separated ids"
        );
        assert_eq!(ids_in_text("[]"), Some(vec![]));
    }

    #[test]
    fn the_encoded_pattern_matches_what_is_read() {
        let pattern = encoded_ids_pattern();
        assert!(pattern.starts_with("^[ \\t\\n\\r]*\\["));
        assert!(pattern.contains("{0,999}"));
    }

    #[test]
    fn the_text_patterns_need_an_entry_unless_empty_is_allowed() {
        let strict = ids_text_pattern(false);
        let loose = ids_text_pattern(true);
        assert_ne!(strict, loose);
        assert!(loose.ends_with("|)$"));
        assert!(!strict.contains(")?[ \\t\\n\\r]*\\]"), "{strict}");
    }

    #[test]
    fn salutations_are_codes_zero_to_four() {
        let code = |json: &str| serde_json::from_str::<SalutationInput>(json).unwrap().get();
        assert_eq!(code("2"), Some(2));
        assert_eq!(code("\"3\""), Some(3));
        assert_eq!(code("5"), None);
        assert_eq!(code("\"Herr\""), None);
    }

    proptest::proptest! {
        /// No text panics the id readers, and what they accept is in bounds.
        #[test]
        fn no_text_panics_the_id_readers(
            text in proptest::prop_oneof![
                proptest::prelude::any::<String>(),
                "[-+ 0]{0,3}[0-9]{0,25}",
                "[\\[\\] ,\"{}:id0-9.e-]{0,40}",
            ],
        ) {
            if let Some(id) = id_of_text(&text) {
                proptest::prop_assert!((1..=MAX_ID).contains(&id));
            }
            if let Some(id) = id_of_query(&text) {
                proptest::prop_assert!((1..MAX_ID).contains(&id));
                proptest::prop_assert!(text.bytes().all(|b| b.is_ascii_digit()));
            }
            if let Some(ids) = ids_in_text(&text) {
                proptest::prop_assert!(ids.len() <= MAX_IDS);
                proptest::prop_assert!(ids.iter().all(|id| (1..=MAX_ID).contains(id)));
            }
            if let Ok(input) = serde_json::from_str::<IdsInput>(&text) {
                proptest::prop_assert!(input.get().is_none_or(|ids| ids.len() <= MAX_IDS));
            }
            if let Ok(Some(id)) = serde_json::from_str::<IdInput>(&text).map(IdInput::get) {
                proptest::prop_assert!((1..=MAX_ID).contains(&id));
            }
        }
    }
}
