//! Paging of every list (spec §9): pages of 20, newest first unless asked otherwise.

/// Page size everywhere in lists (spec §9).
pub const PAGE_SIZE: i64 = 20;

/// Largest page a client may ask for (the criteria pickers load up to 1000, spec §9).
pub const MAX_PAGE_SIZE: i64 = 1000;

/// Describes a query parameter that takes one of a few words; empty means "not given".
/// (utoipa's derive drops a variant renamed to the empty string, so these are built here.)
pub fn word_choice(
    words: &[&str],
    description: &str,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    let mut values = vec![""];
    values.extend_from_slice(words);
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values))
        .description(Some(description))
        .into()
}

/// The `sort` values the lists read: `ASC` or `DESC`, any letter case (the description lists
/// the usual spellings); empty means the default.
pub struct SortOrder;

impl utoipa::PartialSchema for SortOrder {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        word_choice(
            &["ASC", "DESC", "asc", "desc"],
            "`ASC` or `DESC` in any letter case; empty: the default (descending).",
        )
    }
}

impl utoipa::ToSchema for SortOrder {}

/// A yes/no filter as a query parameter: `true`/`false` or `1`/`0`; empty means not given.
pub struct Flag;

impl utoipa::PartialSchema for Flag {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        word_choice(
            &["true", "false", "1", "0"],
            "`true`/`false` or `1`/`0`; empty: not given.",
        )
    }
}

impl utoipa::ToSchema for Flag {}

/// The yes/no filter `name` (see [`Flag`]): `None` when empty or not given; another value is
/// refused with a German message.
pub fn parse_flag(value: Option<&str>, name: &str) -> Result<Option<bool>, String> {
    match value {
        None | Some("") => Ok(None),
        Some("true") | Some("1") => Ok(Some(true)),
        Some("false") | Some("0") => Ok(Some(false)),
        Some(_) => Err(format!("{name} muss true oder false sein.")),
    }
}

/// A whole number of the query as its schema (`integer`) states it: digits, `-` before them at
/// most; serde alone would also read `+1`. Anything else answers 400 like every malformed
/// query. For `#[serde(default, deserialize_with = "integer")]` on an `Option<i64>`.
pub fn integer<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
    let digits = text.strip_prefix('-').unwrap_or(&text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(serde::de::Error::custom("not a whole number"));
    }
    text.parse().map(Some).map_err(serde::de::Error::custom)
}

/// A page as every list call reads it: `limit` 1 to the call's maximum (default
/// [`PAGE_SIZE`]), `offset` from 0, `sort` `ASC` or `DESC` in any letter case (default
/// descending). Values out of range are refused, not clamped, so that a client learns of its
/// mistake; the API description states the same bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paging {
    pub limit: i64,
    pub offset: i64,
    pub ascending: bool,
}

impl Paging {
    pub fn parse(
        limit: Option<i64>,
        offset: Option<i64>,
        sort: Option<&str>,
        max_limit: i64,
    ) -> Result<Paging, String> {
        let limit = limit.unwrap_or(PAGE_SIZE.min(max_limit));
        if !(1..=max_limit).contains(&limit) {
            return Err(format!("limit muss zwischen 1 und {max_limit} liegen."));
        }
        let offset = offset.unwrap_or(0);
        if offset < 0 {
            return Err("offset darf nicht negativ sein.".into());
        }
        let ascending = match sort {
            None | Some("") => false,
            Some(s) if s.eq_ignore_ascii_case("asc") => true,
            Some(s) if s.eq_ignore_ascii_case("desc") => false,
            Some(_) => return Err("sort muss ASC oder DESC sein.".into()),
        };
        Ok(Paging {
            limit,
            offset,
            ascending,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_refused_out_of_range() {
        let page = Paging::parse(None, None, None, MAX_PAGE_SIZE).unwrap();
        assert_eq!((page.limit, page.offset, page.ascending), (20, 0, false));
        assert!(
            Paging::parse(None, None, Some("aSc"), 50)
                .unwrap()
                .ascending
        );
        assert!(
            !Paging::parse(None, None, Some("DESC"), 50)
                .unwrap()
                .ascending
        );
        assert_eq!(
            Paging::parse(Some(1001), None, None, MAX_PAGE_SIZE).unwrap_err(),
            "limit muss zwischen 1 und 1000 liegen."
        );
        assert!(Paging::parse(Some(0), None, None, 50).is_err());
        assert!(Paging::parse(Some(51), None, None, 50).is_err());
        assert!(Paging::parse(None, Some(-1), None, 50).is_err());
        assert!(Paging::parse(None, None, Some("0"), 50).is_err());
    }
}
