//! Providers (brands): who may see them, their marketing folders and logo (spec §2, §5, §6).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::db::{self, Db};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::permissions::{Capability, may_manage_provider};
use crate::domain::user::User;
use crate::domain::validation::{
    self, AllowedRoles, FolderChoice, FolderChoiceInput, ProviderName,
};
use crate::services::catalog::uploads::{UploadRef, upload_ref};
use crate::services::error::{ServiceError, ServiceResult};
use crate::services::marketing::Marketing;
use crate::services::marketing::marketing_retries;
use crate::services::operations::answers::{Answers, roles_key};

/// A provider as the API and the islands see it (spec §3).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[schema(as = Provider)]
#[serde(rename_all = "camelCase")]
pub struct ProviderView {
    pub id: i64,
    pub name: String,
    /// Roles that may see and manage the provider (always an array in answers).
    pub allowed_roles: Vec<String>,
    /// Marketing folder of the active lists.
    pub brevo_active_folder_id: Option<i64>,
    /// Marketing folder of the inactive lists.
    pub brevo_inactive_folder_id: Option<i64>,
    /// Id of the logo upload.
    pub upload_id: Option<i64>,
    /// The logo, if any.
    #[serde(rename = "Upload")]
    pub upload: Option<UploadRef>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The body of `POST /api/providers/` and `PUT /api/providers/{id}`: roles may come as a JSON
/// string, folders as "auto", a number or nothing.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({"name": "Glasfaser Süd", "allowedRoles": ["GS-Aktionsportal-BU-Glasfaser"], "brevoActiveFolderId": "auto", "brevoInactiveFolderId": 12, "uploadId": null}))]
pub struct ProviderInput {
    /// Trimmed; 2–25 characters; unique (case-insensitive).
    #[serde(default)]
    #[schema(min_length = 2, max_length = 25)]
    pub name: String,
    /// At least one role, none empty, no duplicates, each at most 100 characters.
    #[serde(default)]
    pub allowed_roles: Option<AllowedRoles>,
    #[serde(default)]
    pub brevo_active_folder_id: Option<FolderChoiceInput>,
    #[serde(default)]
    pub brevo_inactive_folder_id: Option<FolderChoiceInput>,
    /// Id of an uploaded image (`POST /api/upload/`) to use as logo.
    #[serde(default)]
    #[schema(minimum = 1)]
    pub upload_id: Option<i64>,
}

struct ValidInput {
    name: ProviderName,
    roles: Vec<String>,
    active: FolderChoice,
    inactive: FolderChoice,
    upload_id: Option<i64>,
}

fn validate(input: &ProviderInput) -> ServiceResult<ValidInput> {
    let name = ProviderName::parse(&input.name).map_err(ServiceError::Invalid)?;
    let roles =
        validation::provider_roles(input.allowed_roles.as_ref()).map_err(ServiceError::Invalid)?;
    let active = FolderChoice::from_input(input.brevo_active_folder_id.as_ref())
        .map_err(ServiceError::Invalid)?;
    let inactive = FolderChoice::from_input(input.brevo_inactive_folder_id.as_ref())
        .map_err(ServiceError::Invalid)?;
    validation::provider_folders(active, inactive).map_err(ServiceError::Invalid)?;
    Ok(ValidInput {
        name,
        roles,
        active,
        inactive,
        upload_id: input.upload_id,
    })
}

pub async fn view(
    db: &Db,
    provider: db::marketing::providers::Provider,
) -> ServiceResult<ProviderView> {
    let upload = match provider.upload_id {
        Some(id) => db::catalog::uploads::get(db, id)
            .await?
            .map(|u| upload_ref(&u)),
        None => None,
    };
    Ok(ProviderView {
        id: provider.id,
        name: provider.name,
        allowed_roles: provider.allowed_roles,
        brevo_active_folder_id: provider.brevo_active_folder_id,
        brevo_inactive_folder_id: provider.brevo_inactive_folder_id,
        upload_id: provider.upload_id,
        upload,
        created_at: provider.created_at,
        updated_at: provider.updated_at,
    })
}

/// The providers the user may see (admins: all), newest first, filtered by name.
pub async fn visible(
    db: &Db,
    user: &User,
) -> ServiceResult<Vec<db::marketing::providers::Provider>> {
    let mut providers: Vec<_> = db::marketing::providers::list_all(db)
        .await?
        .into_iter()
        .filter(|p| may_manage_provider(user, &p.allowed_roles))
        .collect();
    providers.sort_by_key(|p| std::cmp::Reverse(p.id));
    Ok(providers)
}

/// [`visible`], kept under the data version (the admin menu of every admin page).
pub async fn visible_kept(
    db: &Db,
    answers: &Answers,
    user: &User,
) -> ServiceResult<Arc<Vec<db::marketing::providers::Provider>>> {
    let stamp = answers.stamp(db).await?;
    let key = format!("providers-visible|{stamp}|{}", roles_key(user));
    answers.value(key, visible(db, user)).await
}

/// One page of the visible providers matching `search` (newest first unless `ascending`) and
/// their total. Providers are few
/// (one per brand), so the filtering happens after one query for all of them.
pub async fn page(
    db: &Db,
    user: &User,
    search: &str,
    ascending: bool,
    limit: i64,
    offset: i64,
) -> ServiceResult<(Vec<ProviderView>, i64)> {
    let search = search.trim().to_lowercase();
    let mut matching: Vec<_> = visible(db, user)
        .await?
        .into_iter()
        .filter(|p| search.is_empty() || p.name.to_lowercase().contains(&search))
        .collect();
    if ascending {
        matching.reverse();
    }
    let count = matching.len() as i64;
    let mut content = Vec::new();
    for provider in matching
        .into_iter()
        .skip(offset.max(0) as usize)
        .take(limit.clamp(1, 1000) as usize)
    {
        content.push(view(db, provider).await?);
    }
    Ok((content, count))
}

/// A provider the user may manage; `NotFound` when it does not exist, `Forbidden` otherwise.
pub async fn managed(
    db: &Db,
    user: &User,
    id: i64,
) -> ServiceResult<db::marketing::providers::Provider> {
    let provider = db::marketing::providers::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    if !may_manage_provider(user, &provider.allowed_roles) {
        return Err(ServiceError::Forbidden);
    }
    Ok(provider)
}

fn require_admin(user: &User) -> ServiceResult<()> {
    if Capability::AdminOnly.allows(user) {
        Ok(())
    } else {
        Err(ServiceError::Forbidden)
    }
}

async fn check_name_free(db: &Db, name: &str, except: Option<i64>) -> ServiceResult<()> {
    let taken = db::marketing::providers::list_all(db)
        .await?
        .iter()
        .any(|p| p.name.to_lowercase() == name.to_lowercase() && Some(p.id) != except);
    if taken {
        return Err(ServiceError::Invalid(format!(
            "Ein Anbieter mit dem Namen {name} existiert bereits!"
        )));
    }
    Ok(())
}

/// A new logo must be an uploaded picture the user may use (the rule of package files); the
/// logo the provider has already may stay.
async fn check_logo(
    db: &Db,
    user: &User,
    upload_id: Option<i64>,
    current: Option<i64>,
) -> ServiceResult<()> {
    let Some(id) = upload_id.filter(|id| Some(*id) != current) else {
        return Ok(());
    };
    let displayable =
        |t: &str| matches!(t, "image/png" | "image/jpeg" | "image/gif" | "image/webp");
    let upload = db::catalog::uploads::get(db, id)
        .await?
        .filter(|u| displayable(&u.content_type))
        .ok_or_else(|| {
            ServiceError::Invalid("Das Logo muss ein hochgeladenes Bild sein.".into())
        })?;
    crate::services::catalog::uploads::check_usable(db, user, &[&upload]).await
}

/// Resolves the folder choices: existing ids must exist; 'auto' creates a folder named after
/// the provider. Returns the ids and which of them were created here (to undo on failure).
async fn resolve_folders(
    db: &Db,
    marketing: &Marketing,
    input: &ValidInput,
    current: (Option<i64>, Option<i64>),
) -> ServiceResult<((i64, i64), Vec<i64>)> {
    for choice in [input.active, input.inactive] {
        if let FolderChoice::Existing(id) = choice
            && Some(id) != current.0
            && Some(id) != current.1
            && !marketing.folder_exists(db, id).await?
        {
            return Err(ServiceError::Invalid(format!(
                "Der Marketing-Ordner {id} existiert nicht."
            )));
        }
    }
    let mut created = Vec::new();
    let mut ids = [0i64; 2];
    for (slot, (choice, suffix)) in [(input.active, "aktiv"), (input.inactive, "inaktiv")]
        .into_iter()
        .enumerate()
    {
        ids[slot] = match choice {
            FolderChoice::Existing(id) => id,
            FolderChoice::Auto => match marketing
                .create_folder(db, &format!("{} ({suffix})", input.name))
                .await
            {
                Ok(id) => {
                    created.push(id);
                    id
                }
                Err(err) => {
                    undo_folders(db, marketing, &created).await;
                    return Err(err);
                }
            },
            FolderChoice::None => {
                undo_folders(db, marketing, &created).await;
                return Err(ServiceError::Invalid(validation::FOLDERS_REQUIRED.into()));
            }
        };
    }
    Ok(((ids[0], ids[1]), created))
}

/// Deletes the folders this request created, after the request failed; a folder Brevo
/// refuses to delete becomes a retry (the minute job deletes it unless a provider uses it by
/// then), so no unused folder stays behind unnoticed.
async fn undo_folders(db: &Db, marketing: &Marketing, created: &[i64]) {
    for id in created {
        if let Err(err) = marketing.delete_folder(db, *id).await {
            marketing_retries::remember_unused_folder(db, *id, &err.to_string()).await;
        }
    }
}

/// What the audit log keeps of a provider (its roles sorted, as they are stored).
#[derive(Serialize)]
struct RecordedProvider {
    name: String,
    allowed_roles: Vec<String>,
    brevo_active_folder_id: Option<i64>,
    brevo_inactive_folder_id: Option<i64>,
    upload_id: Option<i64>,
}

impl RecordedProvider {
    fn of_new(new: &db::marketing::providers::NewProvider) -> RecordedProvider {
        let mut allowed_roles = new.allowed_roles.clone();
        allowed_roles.sort();
        allowed_roles.dedup();
        RecordedProvider {
            name: new.name.clone(),
            allowed_roles,
            brevo_active_folder_id: new.brevo_active_folder_id,
            brevo_inactive_folder_id: new.brevo_inactive_folder_id,
            upload_id: new.upload_id,
        }
    }
}

#[tracing::instrument(skip_all)]
pub async fn create(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    input: &ProviderInput,
) -> ServiceResult<ProviderView> {
    require_admin(user)?;
    let input = validate(input)?;
    check_name_free(db, input.name.as_str(), None).await?;
    check_logo(db, user, input.upload_id, None).await?;
    let ((active, inactive), created) =
        resolve_folders(db, marketing, &input, (None, None)).await?;
    let new = db::marketing::providers::NewProvider {
        name: input.name.as_str().to_owned(),
        allowed_roles: input.roles.clone(),
        brevo_active_folder_id: Some(active),
        brevo_inactive_folder_id: Some(inactive),
        upload_id: input.upload_id,
    };
    let audit = Entry::new(&Actor::of(user), Action::Create, Entity::Provider, None)
        .with_changes(Changes::created(&RecordedProvider::of_new(&new)));
    match db::marketing::providers::create(db, &new, &audit).await {
        Ok(provider) => view(db, provider).await,
        Err(err) => {
            undo_folders(db, marketing, &created).await;
            if db::is_unique_violation(&err) {
                return Err(ServiceError::Invalid(format!(
                    "Ein Anbieter mit dem Namen {} existiert bereits!",
                    input.name
                )));
            }
            Err(err.into())
        }
    }
}

#[tracing::instrument(skip_all, fields(provider = id))]
pub async fn update(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    id: i64,
    input: &ProviderInput,
) -> ServiceResult<ProviderView> {
    require_admin(user)?;
    let current = db::marketing::providers::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let input = validate(input)?;
    check_name_free(db, input.name.as_str(), Some(id)).await?;
    check_logo(db, user, input.upload_id, current.upload_id).await?;
    let current_folders = (
        current.brevo_active_folder_id,
        current.brevo_inactive_folder_id,
    );
    let ((active, inactive), created) =
        resolve_folders(db, marketing, &input, current_folders).await?;
    // Lists follow their provider's folders when those change.
    let mut moved = Vec::new();
    if let Err(err) = move_lists(
        db,
        marketing,
        id,
        current_folders,
        (active, inactive),
        &mut moved,
    )
    .await
    {
        return Err(take_back(db, marketing, &current, &moved, &created, err).await);
    }
    let changes = db::marketing::providers::NewProvider {
        name: input.name.as_str().to_owned(),
        allowed_roles: input.roles,
        brevo_active_folder_id: Some(active),
        brevo_inactive_folder_id: Some(inactive),
        upload_id: input.upload_id,
    };
    let before = RecordedProvider::of_new(&db::marketing::providers::NewProvider {
        name: current.name.clone(),
        allowed_roles: current.allowed_roles.clone(),
        brevo_active_folder_id: current.brevo_active_folder_id,
        brevo_inactive_folder_id: current.brevo_inactive_folder_id,
        upload_id: current.upload_id,
    });
    let audit = Entry::new(&Actor::of(user), Action::Update, Entity::Provider, Some(id))
        .named(&changes.name)
        .with_changes(Changes::between(
            Some(&before),
            Some(&RecordedProvider::of_new(&changes)),
        ));
    let err = match db::marketing::providers::update(db, id, &changes, &audit).await {
        Ok(Some(provider)) => return view(db, provider).await,
        Ok(None) => ServiceError::NotFound,
        Err(err) if db::is_unique_violation(&err) => ServiceError::Invalid(format!(
            "Ein Anbieter mit dem Namen {} existiert bereits!",
            input.name
        )),
        Err(err) => err.into(),
    };
    // Our side did not take the change: Brevo goes back to how our side has it.
    Err(take_back(db, marketing, &current, &moved, &created, err).await)
}

/// A list moved into another folder: its Brevo id and the folder it came from.
struct Moved {
    list: i64,
    from: Option<i64>,
}

/// Moves the provider's lists into the folders of their status; records each move in `moved`
/// as it happens, so that a failure half-way can be taken back.
async fn move_lists(
    db: &Db,
    marketing: &Marketing,
    provider_id: i64,
    from: (Option<i64>, Option<i64>),
    to: (i64, i64),
    moved: &mut Vec<Moved>,
) -> ServiceResult<()> {
    if from == (Some(to.0), Some(to.1)) {
        return Ok(());
    }
    for list in db::marketing::lists::list_by_provider(db, provider_id).await? {
        let (old, new) = if list.active {
            (from.0, to.0)
        } else {
            (from.1, to.1)
        };
        if old != Some(new) {
            marketing.move_list(list.brevo_list_id, new).await?;
            if let Some(id) = list.brevo_list_id {
                moved.push(Moved {
                    list: id,
                    from: old,
                });
            }
        }
    }
    Ok(())
}

/// Takes back a provider update's Brevo steps, newest first: the moved lists return to their
/// folders, then the folders made for the update are deleted. When Brevo refuses to move a
/// list back, the new folders stay (deleting a folder deletes the lists in it) and the rest is
/// stored for the minute job, which puts every list of the provider into the folder our side
/// names and then deletes the new folders. Returns the error for the user.
async fn take_back(
    db: &Db,
    marketing: &Marketing,
    provider: &db::marketing::providers::Provider,
    moved: &[Moved],
    created: &[i64],
    err: ServiceError,
) -> ServiceError {
    let mut refused = None;
    for step in moved.iter().rev() {
        let Some(origin) = step.from else { continue };
        if let Err(back) = marketing.move_list(Some(step.list), origin).await {
            refused = Some(back);
            break;
        }
    }
    let Some(refused) = refused else {
        undo_folders(db, marketing, created).await;
        return err;
    };
    tracing::error!(provider = provider.id, error = %refused, "lists not moved back");
    marketing_retries::remember_change(
        db,
        &format!("Listen des Anbieters {}", provider.name),
        marketing_retries::RETRY_PROVIDER_LISTS,
        &serde_json::json!({ "providerId": provider.id, "folders": created }),
        &refused.to_string(),
    )
    .await;
    match err {
        ServiceError::Marketing(cause) => ServiceError::Upstream(format!(
            "{} Bereits verschobene Listen werden automatisch in ihre Ordner zurückgelegt, \
             sobald Brevo es zulässt.",
            cause.user_message()
        )),
        other => other,
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FolderRetry {
    #[serde(default)]
    provider_id: Option<i64>,
    #[serde(default)]
    folders: Vec<i64>,
    /// Brevo lists made for a list that our database then did not take (deleted unless a
    /// list of ours has the id by now).
    #[serde(default)]
    orphan_lists: Vec<i64>,
}

/// Runs a stored folder or list change (the minute job); idempotent, so a second run after a
/// partial one does only what is left.
pub async fn run_retry(
    db: &Db,
    marketing: &Marketing,
    operation: &str,
    body: &str,
) -> ServiceResult<()> {
    let retry: FolderRetry = serde_json::from_str(body)
        .map_err(|err| ServiceError::Internal(anyhow::anyhow!("stored retry: {err}")))?;
    let providers = db::marketing::providers::list_all(db).await?;
    if operation == marketing_retries::RETRY_PROVIDER_LISTS
        && let Some(provider) = providers.iter().find(|p| Some(p.id) == retry.provider_id)
    {
        for list in db::marketing::lists::list_by_provider(db, provider.id).await? {
            let folder = if list.active {
                provider.brevo_active_folder_id
            } else {
                provider.brevo_inactive_folder_id
            };
            let (Some(brevo_id), Some(folder)) = (list.brevo_list_id, folder) else {
                continue;
            };
            // Gone from Brevo: nothing to move or rename.
            let Some(there) = marketing.list(brevo_id).await? else {
                continue;
            };
            if there.folder_id != Some(folder) {
                marketing.move_list(Some(brevo_id), folder).await?;
            }
            if there.name != list.name {
                marketing.rename_list(Some(brevo_id), &list.name).await?;
            }
        }
    }
    for orphan in retry.orphan_lists {
        if db::marketing::lists::find_by_brevo_id(db, orphan)
            .await?
            .is_none()
        {
            marketing.delete_list(Some(orphan)).await?;
        }
    }
    for folder in retry.folders {
        let in_use = providers.iter().any(|p| {
            p.brevo_active_folder_id == Some(folder) || p.brevo_inactive_folder_id == Some(folder)
        });
        if in_use {
            tracing::info!(folder, "folder kept: a provider uses it");
            continue;
        }
        // Only the update's own new folders are emptied by the moves above; lists someone put
        // there meanwhile are not ours to delete.
        if operation == marketing_retries::RETRY_PROVIDER_LISTS
            && !marketing.folder_lists(folder).await?.is_empty()
        {
            tracing::warn!(folder, "folder kept: it holds lists");
            continue;
        }
        marketing.delete_folder(db, folder).await?;
    }
    Ok(())
}

/// Deletes a provider with its lists and downloads; optionally its marketing folders too.
/// Files (and the logo) no other package uses leave the disk.
#[tracing::instrument(skip_all, fields(provider = id))]
pub async fn delete(
    db: &Db,
    marketing: &Marketing,
    files: &crate::storage::FileStore,
    user: &User,
    id: i64,
    delete_folders: bool,
) -> ServiceResult<()> {
    require_admin(user)?;
    let provider = db::marketing::providers::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    if delete_folders {
        // A folder another provider still uses stays (with its lists, which are theirs).
        let others = db::marketing::providers::list_all(db).await?;
        let in_use = |folder: i64| {
            others.iter().any(|p| {
                p.id != id
                    && (p.brevo_active_folder_id == Some(folder)
                        || p.brevo_inactive_folder_id == Some(folder))
            })
        };
        let mut folders = [
            provider.brevo_active_folder_id,
            provider.brevo_inactive_folder_id,
        ]
        .into_iter()
        .flatten()
        .filter(|f| !in_use(*f))
        .collect::<Vec<_>>();
        folders.dedup();
        // The first deletion decides: refused, nothing happened. After it there is no way
        // back (Brevo deleted the folder's lists with it), so the provider goes and a folder
        // Brevo refuses waits for the minute job.
        for (done, folder) in folders.iter().enumerate() {
            if let Err(err) = marketing.delete_folder(db, *folder).await {
                if done == 0 {
                    return Err(err);
                }
                marketing_retries::remember_change(
                    db,
                    &format!(
                        "Marketing-Ordner {folder} des gelöschten Anbieters {}",
                        provider.name
                    ),
                    marketing_retries::RETRY_DELETE_FOLDER,
                    &serde_json::json!({ "folders": [folder] }),
                    &err.to_string(),
                )
                .await;
            }
        }
    }
    let mut uploads = db::catalog::packages::uploads_of_provider(db, id).await?;
    uploads.extend(provider.upload_id);
    let actor = Actor::of(user);
    let audit = Entry::new(&actor, Action::Delete, Entity::Provider, Some(id))
        .with_changes(Changes::deleted(&provider));
    db::marketing::providers::delete(db, id, &audit).await?;
    crate::services::catalog::uploads::remove_unreferenced(db, files, &uploads, &actor).await?;
    Ok(())
}
