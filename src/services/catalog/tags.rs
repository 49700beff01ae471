//! Tag management (issue 25, admin only): the tags the download form puts on files and the
//! customer page filters by. A name is unique without regard to case; deleting a tag takes it
//! off every file that carries it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::tags::{TagName, parse_icon};
use crate::domain::user::User;
use crate::services::error::{ServiceError, ServiceResult};

/// A tag as the tag screen shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagView {
    pub id: i64,
    pub name: String,
    /// `bi bi-<name>` (a Bootstrap icon) or `data:image/…;base64,…` (an uploaded image).
    pub icon: String,
    /// How many files of packages carry the tag.
    pub uses: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// `POST /api/tags` and `PUT /api/tags/{id}`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagInput {
    /// 2 to 40 characters, unique without regard to case.
    #[schema(min_length = 2, max_length = 40, example = "Flyer")]
    pub name: String,
    /// `bi bi-<name>` of the picker's icons, or an image (PNG, JPEG, GIF, WebP, at most 16 KB)
    /// as `data:image/png;base64,…`. On a change, the tag's icon so far may stay as it is.
    #[schema(example = "bi bi-file-earmark-pdf")]
    pub icon: String,
}

fn admin_only(user: &User) -> ServiceResult<()> {
    if user.is_admin() {
        Ok(())
    } else {
        Err(ServiceError::Forbidden)
    }
}

fn view(tag: db::catalog::tags::Tag, uses: i64) -> TagView {
    TagView {
        id: tag.id,
        name: tag.name,
        icon: tag.icon,
        uses,
        created_at: tag.created_at,
        updated_at: tag.updated_at,
    }
}

/// What the log keeps of a tag: an image is named, not copied.
fn recorded(name: &str, icon: &str) -> Value {
    let icon = match icon.strip_prefix("data:") {
        Some(rest) => format!("Bild ({})", rest.split(';').next().unwrap_or_default()),
        None => icon.to_owned(),
    };
    json!({ "name": name, "icon": icon })
}

fn taken(name: &str) -> ServiceError {
    ServiceError::Conflict {
        code: "tag_exists",
        message: format!("Einen Tag „{name}“ gibt es bereits."),
    }
}

/// The checked name and icon; refused when another tag has the name.
async fn checked(
    db: &Db,
    input: &TagInput,
    id: Option<i64>,
    current_icon: Option<&str>,
) -> ServiceResult<(String, String)> {
    let name = TagName::parse(&input.name).map_err(ServiceError::Invalid)?;
    let icon = parse_icon(&input.icon, current_icon).map_err(ServiceError::Invalid)?;
    let others = db::catalog::tags::list(db).await?;
    if let Some(other) = others
        .iter()
        .find(|t| Some(t.id) != id && name.same_as(&t.name))
    {
        return Err(taken(&other.name));
    }
    Ok((name.into_inner(), icon))
}

/// `GET /api/tags`: every tag by name, with its uses.
pub async fn list(db: &Db, user: &User) -> ServiceResult<Vec<TagView>> {
    admin_only(user)?;
    Ok(db::catalog::tags::list_with_uses(db)
        .await?
        .into_iter()
        .map(|t| view(t.tag, t.uses))
        .collect())
}

/// `POST /api/tags`.
pub async fn create(db: &Db, user: &User, input: &TagInput) -> ServiceResult<TagView> {
    admin_only(user)?;
    let (name, icon) = checked(db, input, None, None).await?;
    let audit = Entry::new(&Actor::of(user), Action::Create, Entity::Tag, None)
        .with_changes(Changes::created(&recorded(&name, &icon)));
    match db::catalog::tags::create(db, &name, &icon, &audit).await {
        Ok(tag) => Ok(view(tag, 0)),
        Err(err) if db::is_unique_violation(&err) => Err(taken(&name)),
        Err(err) => Err(err.into()),
    }
}

/// `PUT /api/tags/{id}`.
pub async fn update(db: &Db, user: &User, id: i64, input: &TagInput) -> ServiceResult<TagView> {
    admin_only(user)?;
    let current = db::catalog::tags::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let (name, icon) = checked(db, input, Some(id), Some(&current.icon)).await?;
    let audit = Entry::new(&Actor::of(user), Action::Update, Entity::Tag, Some(id))
        .named(name.as_str())
        .with_changes(Changes::between(
            Some(&recorded(&current.name, &current.icon)),
            Some(&recorded(&name, &icon)),
        ));
    let updated = match db::catalog::tags::update(db, id, &name, &icon, &audit).await {
        Ok(Some(tag)) => tag,
        Ok(None) => return Err(ServiceError::NotFound),
        Err(err) if db::is_unique_violation(&err) => return Err(taken(&name)),
        Err(err) => return Err(err.into()),
    };
    let uses = db::catalog::tags::uses(db, id).await?;
    Ok(view(updated, uses))
}

/// `DELETE /api/tags/{id}`: the tag goes, and with it its place on every file.
pub async fn delete(db: &Db, user: &User, id: i64) -> ServiceResult<i64> {
    admin_only(user)?;
    let current = db::catalog::tags::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let mut was = recorded(&current.name, &current.icon);
    was["uses"] = json!(db::catalog::tags::uses(db, id).await?);
    let audit = Entry::new(&Actor::of(user), Action::Delete, Entity::Tag, Some(id))
        .with_changes(Changes::deleted(&was));
    if db::catalog::tags::delete(db, id, &audit).await? {
        Ok(id)
    } else {
        Err(ServiceError::NotFound)
    }
}
