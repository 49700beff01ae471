//! Paging of every list (spec §9): pages of 20, newest first unless asked otherwise.

/// Page size everywhere in lists (spec §9).
pub const PAGE_SIZE: i64 = 20;

/// Largest page a client may ask for (the criteria pickers load up to 1000, spec §9).
pub const MAX_PAGE_SIZE: i64 = 1000;

/// The `sort` values the lists read (any letter case; the contacts list refuses others).
#[derive(serde::Serialize, utoipa::ToSchema)]
#[allow(clippy::upper_case_acronyms, dead_code)]
pub enum SortOrder {
    ASC,
    DESC,
    #[serde(rename = "asc")]
    Asc,
    #[serde(rename = "desc")]
    Desc,
}

/// A yes/no filter as a query parameter: `true`/`false` or `1`/`0`.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub enum Flag {
    #[serde(rename = "true")]
    True,
    #[serde(rename = "false")]
    False,
    #[serde(rename = "1")]
    One,
    #[serde(rename = "0")]
    Zero,
}
