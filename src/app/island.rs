//! Places a React island in a server-rendered page:
//! `<div data-island="Name" data-props='{json}'>fallback</div>`. The islands loader mounts
//! the component and replaces the fallback, which is what a browser without JavaScript shows.

use leptos::prelude::*;
use serde::Serialize;

/// The props of the `Countdown` island: "in {s} seconds to `target`", counting down.
#[derive(Serialize)]
pub struct CountdownProps {
    pub seconds: u32,
    pub target: &'static str,
    /// The text, with `{s}` where the seconds stand.
    pub text: &'static str,
}

/// Serialises island props. The JSON goes into an attribute value, which Leptos escapes
/// (`&`, `"`), so no string in the data can end the attribute or open a tag.
pub fn props_json<T: Serialize>(props: &T) -> String {
    serde_json::to_string(props).unwrap_or_else(|err| {
        tracing::error!(%err, "island props not serialisable");
        "{}".to_string()
    })
}

#[component]
pub fn Island(
    /// The island's name: a key of `islands/src/islandRegistry.ts`.
    name: &'static str,
    /// Props as JSON (see `props_json`).
    props: String,
    #[prop(optional, into)] class: Option<String>,
    /// What shows before the island mounts, and without JavaScript.
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    view! {
        <div data-island=name data-props=props class=class>
            {children.map(|c| c())}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn render(props: serde_json::Value) -> String {
        let owner = Owner::new();
        owner.with(|| view! { <Island name="Probe" props=props_json(&props)/> }.to_html())
    }

    /// Reads the `data-props` attribute back the way a browser's HTML parser does.
    fn attribute_value(html: &str) -> String {
        let start =
            html.find("data-props=\"").expect("data-props attribute") + "data-props=\"".len();
        let end = start + html[start..].find('"').expect("closing quote");
        html[start..end]
            .replace("&quot;", "\"")
            .replace("&#x27;", "'")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    }

    #[test]
    fn hostile_strings_stay_inside_the_attribute() {
        let hostile = r#""'><script>alert(1)</script><div a="&amp;"#;
        let html = render(json!({ "name": hostile, "n": 1 }));
        assert!(!html.contains("<script>"), "{html}");
        let parsed: serde_json::Value = serde_json::from_str(&attribute_value(&html)).unwrap();
        assert_eq!(parsed["name"], hostile);
        assert_eq!(parsed["n"], 1);
    }

    #[test]
    fn island_names_itself() {
        let html = render(json!({}));
        assert!(html.contains(r#"data-island="Probe""#), "{html}");
    }
}
