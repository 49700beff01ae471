//! The email-marketing service as the portal uses it: Brevo when an API key is configured,
//! otherwise local mode, in which folders and lists exist only in our database.
//!
//! With Brevo, every change is made there first and recorded here afterwards; when Brevo
//! refuses or is down, the caller gets the error and our database stays unchanged.

pub mod brevo_sync;
pub mod contact_mirror;
pub mod lists;
pub mod marketing_retries;
pub mod providers;

use crate::db::{self, Db};
use crate::integrations::brevo::{BrevoClient, BrevoError, BrevoList, BrevoSortOrder};
use crate::services::error::ServiceResult;

#[derive(Clone, Debug)]
pub enum Marketing {
    Local,
    Brevo(BrevoClient),
}

#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
#[schema(as = Folder)]
pub struct FolderItem {
    pub id: i64,
    pub name: String,
}

/// Brevo answers "not found" for something already gone; for deletions that is success.
fn ignore_missing(result: Result<(), BrevoError>) -> Result<(), BrevoError> {
    match result {
        Err(err) if err.is_not_found() => Ok(()),
        other => other,
    }
}

impl Marketing {
    /// One page of folders and their total.
    pub async fn folders(
        &self,
        db: &Db,
        limit: i64,
        offset: i64,
    ) -> ServiceResult<(Vec<FolderItem>, i64)> {
        match self {
            Marketing::Local => {
                let (folders, count) = db::marketing::folders::list(db, limit, offset).await?;
                Ok((
                    folders
                        .into_iter()
                        .map(|f| FolderItem {
                            id: f.id,
                            name: f.name,
                        })
                        .collect(),
                    count,
                ))
            }
            Marketing::Brevo(brevo) => {
                let limit = u32::try_from(limit.clamp(1, 50)).unwrap_or(50);
                let offset = u32::try_from(offset.max(0)).unwrap_or(0);
                let page = brevo.list_folders(limit, offset).await?;
                Ok((
                    page.folders
                        .into_iter()
                        .map(|f| FolderItem {
                            id: f.id,
                            name: f.name,
                        })
                        .collect(),
                    page.count,
                ))
            }
        }
    }

    /// Whether a folder with this id exists in the marketing service.
    pub async fn folder_exists(&self, db: &Db, id: i64) -> ServiceResult<bool> {
        match self {
            Marketing::Local => Ok(db::marketing::folders::get(db, id).await?.is_some()),
            Marketing::Brevo(brevo) => Ok(brevo.all_folders().await?.iter().any(|f| f.id == id)),
        }
    }

    /// Creates a folder and records it; returns its id.
    pub async fn create_folder(&self, db: &Db, name: &str) -> ServiceResult<i64> {
        match self {
            Marketing::Local => Ok(db::marketing::folders::create(db, name).await?.id),
            Marketing::Brevo(brevo) => {
                let id = brevo.create_folder(name).await?;
                if let Err(err) = db::marketing::folders::upsert(db, id, name).await {
                    // Keep both sides in agreement: undo the folder we just made, or leave
                    // its removal to the minute job.
                    if let Err(undo) = brevo.delete_folder(id).await {
                        crate::services::marketing::marketing_retries::remember_unused_folder(
                            db,
                            id,
                            &undo.to_string(),
                        )
                        .await;
                    }
                    return Err(err.into());
                }
                Ok(id)
            }
        }
    }

    /// Deletes a folder (with Brevo, the lists inside it too).
    pub async fn delete_folder(&self, db: &Db, id: i64) -> ServiceResult<()> {
        if let Marketing::Brevo(brevo) = self {
            ignore_missing(brevo.delete_folder(id).await)?;
        }
        db::marketing::folders::delete(db, id).await?;
        Ok(())
    }

    /// Creates a list in a folder; returns the marketing service's list id (none locally).
    pub async fn create_list(&self, name: &str, folder_id: i64) -> ServiceResult<Option<i64>> {
        match self {
            Marketing::Local => Ok(None),
            Marketing::Brevo(brevo) => Ok(Some(brevo.create_list(name, folder_id).await?)),
        }
    }

    pub async fn rename_list(&self, brevo_list_id: Option<i64>, name: &str) -> ServiceResult<()> {
        if let (Marketing::Brevo(brevo), Some(id)) = (self, brevo_list_id) {
            brevo.rename_list(id, name).await?;
        }
        Ok(())
    }

    pub async fn move_list(&self, brevo_list_id: Option<i64>, folder_id: i64) -> ServiceResult<()> {
        if let (Marketing::Brevo(brevo), Some(id)) = (self, brevo_list_id) {
            brevo.move_list(id, folder_id).await?;
        }
        Ok(())
    }

    pub async fn delete_list(&self, brevo_list_id: Option<i64>) -> ServiceResult<()> {
        if let (Marketing::Brevo(brevo), Some(id)) = (self, brevo_list_id) {
            ignore_missing(brevo.delete_list(id).await)?;
        }
        Ok(())
    }

    /// The folder a marketing-service list is in (`None` in local mode or when it is gone).
    pub async fn folder_of_list(&self, brevo_list_id: i64) -> ServiceResult<Option<i64>> {
        match self {
            Marketing::Local => Ok(None),
            Marketing::Brevo(brevo) => match brevo.get_list(brevo_list_id).await {
                Ok(list) => Ok(list.folder_id),
                Err(err) if err.is_not_found() => Ok(None),
                Err(err) => Err(err.into()),
            },
        }
    }

    /// A list as the marketing service has it (its name and folder); `None` when it is gone
    /// there, or in local mode.
    pub async fn list(&self, brevo_list_id: i64) -> ServiceResult<Option<BrevoList>> {
        match self {
            Marketing::Local => Ok(None),
            Marketing::Brevo(brevo) => match brevo.get_list(brevo_list_id).await {
                Ok(list) => Ok(Some(list)),
                Err(err) if err.is_not_found() => Ok(None),
                Err(err) => Err(err.into()),
            },
        }
    }

    /// The lists in a folder of the marketing service (none in local mode).
    pub async fn folder_lists(&self, folder_id: i64) -> ServiceResult<Vec<BrevoList>> {
        match self {
            Marketing::Local => Ok(Vec::new()),
            Marketing::Brevo(brevo) => match brevo.all_folder_lists(folder_id).await {
                Err(err) if err.is_not_found() => Ok(Vec::new()),
                other => Ok(other?),
            },
        }
    }

    /// One page of a folder's lists as the marketing service has them.
    pub async fn folder_lists_page(
        &self,
        folder_id: i64,
        ascending: bool,
        limit: i64,
        offset: i64,
    ) -> ServiceResult<(Vec<BrevoList>, i64)> {
        match self {
            Marketing::Local => Ok((Vec::new(), 0)),
            Marketing::Brevo(brevo) => {
                let limit = u32::try_from(limit.clamp(1, 50)).unwrap_or(50);
                let offset = u32::try_from(offset.max(0)).unwrap_or(0);
                let sort = if ascending {
                    BrevoSortOrder::Asc
                } else {
                    BrevoSortOrder::Desc
                };
                let page = brevo.folder_lists(folder_id, limit, offset, sort).await?;
                Ok((page.lists, page.count))
            }
        }
    }
}
