//! What users read while a backing service is away: every layer that notices it (the session
//! lookup, the services, the API's errors) answers with these words.

/// The answer while the database cannot be reached (503).
pub const DATABASE_UNAVAILABLE: &str =
    "Die Datenbank ist gerade nicht erreichbar. Bitte versuchen Sie es in einer Minute erneut.";

/// The answer when a list took longer than its bound (503, `AP_LIST_TIME_LIMIT_MS`).
pub const LIST_TOO_SLOW: &str = "Die Liste braucht gerade zu lange. Bitte grenzen Sie die Suche ein oder versuchen Sie es in Kürze erneut.";

/// The answer while the bucket of the files cannot be reached (503).
pub const FILE_STORE_UNAVAILABLE: &str =
    "Der Dateispeicher ist gerade nicht erreichbar. Bitte versuchen Sie es in einer Minute erneut.";
