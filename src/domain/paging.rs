//! Paging of every list (spec §9): pages of 20, newest first unless asked otherwise.

/// Page size everywhere in lists (spec §9).
pub const PAGE_SIZE: i64 = 20;

/// Largest page a client may ask for (the criteria pickers load up to 1000, spec §9).
pub const MAX_PAGE_SIZE: i64 = 1000;
