//! Which of a provider's criteria lists a page shows.

/// Which lists of a provider a page shows.
#[derive(Clone, Debug, Default)]
pub struct ListFilter {
    pub active: bool,
    pub inactive: bool,
    /// Part of the name, any letter case.
    pub search: Option<String>,
    /// Newest first (the default) or oldest first.
    pub ascending: bool,
}
