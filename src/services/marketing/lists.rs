//! Lists (criteria) of a provider: create, rename, activate/deactivate (moves between the
//! provider's active and inactive folders), delete while inactive, and sync from Brevo.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::permissions::Capability;
use crate::domain::user::User;
use crate::domain::validation;
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::marketing::Marketing;
use crate::services::marketing::marketing_retries;
use crate::services::marketing::providers::{self, managed};
use serde_json::Value;

/// A list as the API and the islands see it (spec §3).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[schema(as = List)]
#[serde(rename_all = "camelCase")]
pub struct ListView {
    pub id: i64,
    /// The marketing service's id (spec names it both ways).
    pub brevo_id: Option<i64>,
    pub brevo_list_id: Option<i64>,
    pub name: String,
    pub active: bool,
    pub total_subscribers: i64,
    /// Blocked (blacklisted) contacts in the list.
    pub total_blocked: i64,
    pub deactivated_at: Option<DateTime<Utc>>,
    pub reactivated_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[serde(rename = "ProviderId")]
    pub provider_id: i64,
}

impl From<db::marketing::lists::List> for ListView {
    fn from(list: db::marketing::lists::List) -> Self {
        ListView {
            id: list.id,
            brevo_id: list.brevo_list_id,
            brevo_list_id: list.brevo_list_id,
            name: list.name,
            active: list.active,
            total_subscribers: list.total_subscribers,
            total_blocked: list.total_blocked,
            deactivated_at: list.deactivated_at,
            reactivated_at: list.reactivated_at,
            created_at: list.created_at,
            updated_at: list.updated_at,
            provider_id: list.provider_id,
        }
    }
}

/// What a status change did.
#[derive(Debug)]
pub enum StatusChange {
    Changed(ListView),
    /// The provider's active and inactive folders are not both set; nothing changed.
    FoldersMissing,
}

pub const FOLDER_WARNING: &str =
    "Aktiver und inaktiver Marketing-Ordner müssen beim Anbieter hinterlegt sein!";

async fn live(db: &Db, id: i64) -> ServiceResult<ListView> {
    Ok(db::marketing::lists::get_live(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?
        .into())
}

/// The list and its provider, if the user may manage that provider.
async fn managed_list(
    db: &Db,
    user: &User,
    id: i64,
) -> ServiceResult<(
    db::marketing::lists::List,
    db::marketing::providers::Provider,
)> {
    let list = db::marketing::lists::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let provider = managed(db, user, list.provider_id).await?;
    Ok((list, provider))
}

pub async fn page(
    db: &Db,
    user: &User,
    provider_id: i64,
    filter: &crate::domain::lists::ListFilter,
    limit: i64,
    offset: i64,
) -> ServiceResult<(Vec<ListView>, i64)> {
    managed(db, user, provider_id).await?;
    let (rows, count) = db::marketing::lists::page_of_provider(
        db,
        provider_id,
        filter,
        limit.clamp(1, 1000),
        offset.max(0),
    )
    .await?;
    Ok((rows.into_iter().map(ListView::from).collect(), count))
}

/// One page of a marketing folder's lists (the provider screen's list import): Admin any folder,
/// others only the folders of providers they manage.
pub async fn folder_lists_page(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    folder_id: i64,
    ascending: bool,
    limit: i64,
    offset: i64,
) -> ServiceResult<(Vec<crate::integrations::brevo::BrevoList>, i64)> {
    if !Capability::AdminOnly.allows(user) {
        let ids = db::marketing::providers::ids_for_roles(db, &user.roles).await?;
        let theirs = db::marketing::providers::get_many(db, &ids)
            .await?
            .into_iter()
            .any(|p| {
                p.brevo_active_folder_id == Some(folder_id)
                    || p.brevo_inactive_folder_id == Some(folder_id)
            });
        if !theirs {
            return Err(ServiceError::Forbidden);
        }
    }
    marketing
        .folder_lists_page(folder_id, ascending, limit, offset)
        .await
}

/// Creates a list in the provider's active folder, or links an existing marketing-service
/// list when `brevo_list_id` is given.
#[tracing::instrument(skip_all, fields(provider = provider_id))]
pub async fn create(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    provider_id: i64,
    name: &str,
    brevo_list_id: Option<i64>,
) -> ServiceResult<ListView> {
    let provider = managed(db, user, provider_id).await?;
    let name = validation::ListName::parse_new(name).map_err(ServiceError::Invalid)?;
    let mut active = true;
    let (brevo_id, created_here) = match brevo_list_id {
        Some(id) => {
            if matches!(marketing, Marketing::Local) {
                return Err(ServiceError::Invalid(
                    "Ohne Marketing-Dienst können keine Listen verknüpft werden.".into(),
                ));
            }
            if db::marketing::lists::find_by_brevo_id(db, id)
                .await?
                .is_some()
            {
                return Err(ServiceError::Conflict {
                    code: "list_exists",
                    message: "Diese Liste ist bereits als Kriterium angelegt.".into(),
                });
            }
            // Only lists of the provider's own folders: a list in its inactive folder becomes
            // an inactive criterion, as the folder says.
            let folder = marketing.folder_of_list(id).await?;
            if folder.is_none()
                || (folder != provider.brevo_active_folder_id
                    && folder != provider.brevo_inactive_folder_id)
            {
                return Err(ServiceError::Invalid(
                    "Die Liste liegt in keinem Ordner dieses Anbieters.".into(),
                ));
            }
            active = folder == provider.brevo_active_folder_id;
            (Some(id), false)
        }
        None => {
            let folder = provider
                .brevo_active_folder_id
                .ok_or_else(|| ServiceError::Conflict {
                    code: "change_folder_warning",
                    message: FOLDER_WARNING.into(),
                })?;
            (marketing.create_list(name.as_str(), folder).await?, true)
        }
    };
    let new = db::marketing::lists::NewListRecord {
        provider_id,
        name: name.into_inner(),
        brevo_list_id: brevo_id,
        active,
    };
    let audit = Entry::new(&Actor::of(user), Action::Create, Entity::List, None).with_changes(
        Changes::none()
            .field("provider_id", Value::Null, provider_id)
            .field("name", Value::Null, &new.name)
            .field("brevo_list_id", Value::Null, new.brevo_list_id)
            .field("active", Value::Null, new.active),
    );
    match db::marketing::lists::create(db, &new, &audit).await {
        Ok(list) => live(db, list.id).await,
        Err(err) => {
            if created_here && let Err(undo) = marketing.delete_list(brevo_id).await {
                let orphan: Vec<i64> = brevo_id.into_iter().collect();
                marketing_retries::remember_provider_lists(db, &provider, &orphan, &undo).await;
            }
            Err(err.into())
        }
    }
}

#[tracing::instrument(skip_all, fields(list = id))]
pub async fn rename(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    id: i64,
    name: &str,
) -> ServiceResult<ListView> {
    let (list, provider) = managed_list(db, user, id).await?;
    let name = validation::ListName::parse_rename(name).map_err(ServiceError::Invalid)?;
    marketing
        .rename_list(list.brevo_list_id, name.as_str())
        .await?;
    let audit = Entry::new(&Actor::of(user), Action::Update, Entity::List, Some(id))
        .with_changes(Changes::none().field("name", &list.name, name.as_str()));
    if let Err(err) = db::marketing::lists::rename(db, id, name.as_str(), &audit).await {
        if let Err(undo) = marketing.rename_list(list.brevo_list_id, &list.name).await {
            marketing_retries::remember_provider_lists(db, &provider, &[], &undo).await;
        }
        return Err(err.into());
    }
    live(db, id).await
}

/// Activates or deactivates a list by moving it into the provider's active or inactive folder.
#[tracing::instrument(skip_all, fields(list = id))]
pub async fn set_status(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    id: i64,
    active: bool,
) -> ServiceResult<StatusChange> {
    let (list, provider) = managed_list(db, user, id).await?;
    let (Some(active_folder), Some(inactive_folder)) = (
        provider.brevo_active_folder_id,
        provider.brevo_inactive_folder_id,
    ) else {
        return Ok(StatusChange::FoldersMissing);
    };
    if list.active == active {
        return Ok(StatusChange::Changed(live(db, id).await?));
    }
    let (target, origin) = if active {
        (active_folder, inactive_folder)
    } else {
        (inactive_folder, active_folder)
    };
    marketing.move_list(list.brevo_list_id, target).await?;
    let action = if active {
        Action::Activate
    } else {
        Action::Deactivate
    };
    let audit = Entry::new(&Actor::of(user), action, Entity::List, Some(id))
        .named(&list.name)
        .with_changes(Changes::none().field("active", list.active, active));
    if let Err(err) = db::marketing::lists::set_active(db, id, active, &audit).await {
        if let Err(undo) = marketing.move_list(list.brevo_list_id, origin).await {
            marketing_retries::remember_provider_lists(db, &provider, &[], &undo).await;
        }
        return Err(err.into());
    }
    Ok(StatusChange::Changed(live(db, id).await?))
}

/// Deletes a list; only inactive lists may go (an active one may still be in use).
#[tracing::instrument(skip_all, fields(list = id))]
pub async fn delete(db: &Db, marketing: &Marketing, user: &User, id: i64) -> ServiceResult<()> {
    let (list, _) = managed_list(db, user, id).await?;
    if list.active {
        return Err(ServiceError::Conflict {
            code: "list_active",
            message: "Nur inaktive Kriterien können gelöscht werden. Bitte deaktivieren Sie das Kriterium zuerst.".into(),
        });
    }
    marketing.delete_list(list.brevo_list_id).await?;
    let audit = Entry::new(&Actor::of(user), Action::Delete, Entity::List, Some(id))
        .with_changes(Changes::deleted(&list));
    db::marketing::lists::delete(db, id, &audit).await?;
    Ok(())
}

/// Brings the provider's lists up to date with the marketing service: lists found in its
/// active and inactive folders are imported (list import) or renamed and get the status of their folder.
/// Returns all the provider's lists, newest first, with current counts.
#[tracing::instrument(skip_all, fields(provider = provider_id))]
pub async fn sync_provider(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    provider_id: i64,
) -> ServiceResult<Vec<ListView>> {
    let provider = managed(db, user, provider_id).await?;
    let folders = [
        (provider.brevo_active_folder_id, true),
        (provider.brevo_inactive_folder_id, false),
    ];
    for (folder, active) in folders {
        let Some(folder) = folder else { continue };
        for remote in marketing.folder_lists(folder).await? {
            match db::marketing::lists::find_by_brevo_id(db, remote.id).await? {
                Some(local) if local.provider_id == provider_id => {
                    let audit =
                        Entry::new(&Actor::of(user), Action::Sync, Entity::List, Some(local.id))
                            .named(&remote.name)
                            .with_changes(
                                Changes::none()
                                    .field("name", &local.name, &remote.name)
                                    .field("active", local.active, active),
                            );
                    db::marketing::lists::update_from_marketing(
                        db,
                        local.id,
                        &remote.name,
                        active,
                        &audit,
                    )
                    .await?;
                }
                // Linked to another provider: leave it there.
                Some(_) => {}
                None => {
                    let name = if remote.name.trim().is_empty() {
                        format!("Liste {}", remote.id)
                    } else {
                        remote.name.clone()
                    };
                    let audit = Entry::new(&Actor::of(user), Action::Sync, Entity::List, None)
                        .with_changes(
                            Changes::none()
                                .field("provider_id", Value::Null, provider_id)
                                .field("name", Value::Null, &name)
                                .field("brevo_list_id", Value::Null, remote.id)
                                .field("active", Value::Null, active),
                        );
                    let new = db::marketing::lists::NewListRecord {
                        provider_id,
                        name,
                        brevo_list_id: Some(remote.id),
                        active,
                    };
                    db::marketing::lists::create(db, &new, &audit).await?;
                }
            }
        }
    }
    let all = crate::domain::lists::ListFilter::default();
    let (rows, _) = db::marketing::lists::page_of_provider(db, provider_id, &all, 1000, 0).await?;
    Ok(rows.into_iter().map(ListView::from).collect())
}

/// A provider with some of its lists (the criteria side panel of a contact).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct ProviderWithLists {
    #[serde(flatten)]
    pub provider: providers::ProviderView,
    #[serde(rename = "Lists")]
    pub lists: Vec<ListView>,
}

/// The lists a contact is assigned to, grouped by provider, for the providers the user may
/// see (spec §2: "show criteria", a side panel of the contact's lists grouped by provider).
pub async fn of_contact(
    db: &Db,
    user: &User,
    contact_id: i64,
) -> ServiceResult<Vec<ProviderWithLists>> {
    db::contacts::get_contact(db, contact_id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let list_ids = db::contacts::list_ids_of_contact(db, contact_id).await?;
    let mut groups: Vec<ProviderWithLists> = Vec::new();
    for provider in providers::visible(db, user).await? {
        let mut lists = Vec::new();
        for list in db::marketing::lists::list_by_provider(db, provider.id).await? {
            if list_ids.contains(&list.id)
                && let Some(live) = db::marketing::lists::get_live(db, list.id).await?
            {
                lists.push(live.into());
            }
        }
        if !lists.is_empty() {
            groups.push(ProviderWithLists {
                provider: providers::view(db, provider).await?,
                lists,
            });
        }
    }
    Ok(groups)
}
