//! Who may download which stored file (spec §6, design "Who sees a package").

use crate::db::{self, Db};
use crate::domain::permissions::may_manage_provider;
use crate::domain::user::User;
use crate::services::error::{ServiceError, ServiceResult};

/// The upload `id` when `user` may download it. A provider logo is shown to everyone signed in;
/// any other file to Admin and to holders of a role of a provider whose package contains it.
/// Anything else is `NotFound`, exactly like a missing file, so ids reveal nothing.
pub async fn readable(db: &Db, user: &User, id: i64) -> ServiceResult<db::uploads::Upload> {
    let upload = db::uploads::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    if user.is_admin() || db::providers::is_logo(db, id).await? {
        return Ok(upload);
    }
    let roles = db::uploads::roles_of_providers(db, id).await?;
    if may_manage_provider(user, &roles) {
        Ok(upload)
    } else {
        Err(ServiceError::NotFound)
    }
}
