//! The islands' vite build: which hashed files the page shell must reference, and the
//! embedded static images (logos, favicon) that do not depend on the build.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

/// Manifest key of the one entry that loads every island.
pub const ENTRY: &str = "src/main.tsx";
/// URL prefix under which the build's `assets/` folder is served.
pub const ASSETS_URL: &str = "/assets";

/// Script and style sheets of the islands entry, as URLs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryAssets {
    pub script: Option<String>,
    pub styles: Vec<String>,
}

#[derive(Deserialize)]
struct ManifestChunk {
    file: String,
    #[serde(default)]
    css: Vec<String>,
}

impl EntryAssets {
    /// Reads `<build>/.vite/manifest.json`. A missing build is not fatal: pages still render
    /// (without islands and styles), and the start-up log says what to run.
    pub fn load(build_dir: &Path) -> EntryAssets {
        let path = build_dir.join(".vite").join("manifest.json");
        match std::fs::read_to_string(&path) {
            Ok(text) => match Self::parse(&text) {
                Ok(assets) => assets,
                Err(err) => {
                    tracing::warn!(path = %path.display(), %err, "islands manifest unreadable");
                    EntryAssets::default()
                }
            },
            Err(_) => {
                tracing::warn!(
                    path = %path.display(),
                    "islands build missing: run `npm run build` in islands/ (pages render without scripts and styles)"
                );
                EntryAssets::default()
            }
        }
    }

    pub fn parse(manifest: &str) -> Result<EntryAssets, String> {
        let chunks: HashMap<String, ManifestChunk> =
            serde_json::from_str(manifest).map_err(|e| e.to_string())?;
        let entry = chunks
            .get(ENTRY)
            .ok_or_else(|| format!("entry {ENTRY} missing in manifest"))?;
        let url = |file: &str| format!("/{}", file.trim_start_matches('/'));
        Ok(EntryAssets {
            script: Some(url(&entry.file)),
            styles: entry.css.iter().map(|f| url(f)).collect(),
        })
    }
}

/// Images compiled into the binary, served under `/static/`.
pub fn static_file(name: &str) -> Option<(&'static str, &'static [u8])> {
    const SVG: &str = "image/svg+xml";
    match name {
        "logo.svg" => Some((SVG, include_bytes!("../static/logo.svg"))),
        "logo-jubilaeum.svg" => Some((SVG, include_bytes!("../static/logo-jubilaeum.svg"))),
        "favicon.svg" => Some((SVG, include_bytes!("../static/favicon.svg"))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_script_and_styles_come_from_the_manifest() {
        let manifest = r#"{
          "src/main.tsx": {"file": "assets/main-Bx12.js", "src": "src/main.tsx", "isEntry": true,
                           "css": ["assets/main-9f8e.css"], "dynamicImports": ["src/features/accounts/account/AccountMenu.tsx"]},
          "src/features/accounts/account/AccountMenu.tsx": {"file": "assets/AccountMenu-aa.js", "isDynamicEntry": true}
        }"#;
        let assets = EntryAssets::parse(manifest).unwrap();
        assert_eq!(assets.script.as_deref(), Some("/assets/main-Bx12.js"));
        assert_eq!(assets.styles, vec!["/assets/main-9f8e.css".to_string()]);
    }

    #[test]
    fn a_manifest_without_the_entry_is_refused() {
        assert!(EntryAssets::parse(r#"{"other.ts": {"file": "x.js"}}"#).is_err());
        assert!(EntryAssets::parse("not json").is_err());
    }

    #[test]
    fn a_missing_build_gives_no_tags() {
        let assets = EntryAssets::load(Path::new("/nicht/vorhanden"));
        assert_eq!(assets, EntryAssets::default());
    }

    #[test]
    fn static_files_are_known_by_name_only() {
        assert!(static_file("logo.svg").is_some());
        assert!(static_file("../Cargo.toml").is_none());
    }
}
