//! Who sees which packages and providers (the rule in the module comment of `services::catalog::packages`),
//! and which package or provider a user may change.

use super::*;

/// What a user may see: `None` = everything (Admin).
pub async fn visibility(db: &Db, user: &User) -> ServiceResult<Option<Visible>> {
    if user.is_admin() {
        return Ok(None);
    }
    let provider_ids = db::marketing::providers::ids_for_roles(db, &user.roles).await?;
    let list_ids = match user.customer_number {
        Some(number) => db::contacts::list_ids_of_customer(db, number).await?,
        None => Vec::new(),
    };
    Ok(Some(Visible {
        provider_ids,
        list_ids,
    }))
}

/// [`visibility`], kept under the stamp (it depends on the roles and the customer number).
pub(super) async fn visibility_at(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    user: &User,
) -> ServiceResult<Option<Visible>> {
    let key = format!(
        "visible|{stamp}|{}|{:?}",
        roles_key(user),
        user.customer_number
    );
    let visible = answers.value(key, visibility(db, user)).await?;
    Ok((*visible).clone())
}

/// Whether a customer who sees `visible` sees a package.
pub(super) async fn sees(
    db: &Db,
    visible: &Visible,
    package: &db::catalog::packages::PackageRecord,
) -> ServiceResult<bool> {
    sees_all(db, visible, std::slice::from_ref(package)).await
}

/// Whether a customer who sees `visible` sees every one of `packages`: through its
/// provider's roles or through one of its lists (one query for the lists of all of them).
pub(crate) async fn sees_all(
    db: &Db,
    visible: &Visible,
    packages: &[db::catalog::packages::PackageRecord],
) -> ServiceResult<bool> {
    let by_list: Vec<i64> = packages
        .iter()
        .filter(|p| !visible.provider_ids.contains(&p.provider_id))
        .map(|p| p.id)
        .collect();
    if by_list.is_empty() {
        return Ok(true);
    }
    let lists = db::catalog::packages::lists_of(db, &by_list).await?;
    Ok(by_list.iter().all(|id| {
        lists
            .iter()
            .any(|l| l.download_id == *id && visible.list_ids.contains(&l.list_id))
    }))
}

/// The package `id` when the user may change it: `NotFound` when missing, `Forbidden`
/// without Admin or one of its provider's roles.
pub(crate) async fn managed(
    db: &Db,
    user: &User,
    id: i64,
) -> ServiceResult<db::catalog::packages::PackageRecord> {
    let package = db::catalog::packages::get(db, id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let roles = db::marketing::providers::roles_of(db, package.provider_id).await?;
    if !may_manage_provider(user, &roles) {
        return Err(ServiceError::Forbidden);
    }
    Ok(package)
}

/// Providers as the pages' filters and forms show them (id, name, roles, logo), by name.
pub(super) async fn provider_refs(db: &Db, ids: &[i64]) -> ServiceResult<Vec<ProviderRef>> {
    let providers = db::marketing::providers::get_many(db, ids).await?;
    let logo_ids: Vec<i64> = providers.iter().filter_map(|p| p.upload_id).collect();
    let logos: HashMap<i64, UploadRef> = db::catalog::uploads::get_many(db, &logo_ids)
        .await?
        .iter()
        .map(|u| (u.id, crate::services::catalog::uploads::upload_ref(u)))
        .collect();
    let mut refs: Vec<ProviderRef> = providers
        .into_iter()
        .map(|p| ProviderRef {
            upload: p.upload_id.and_then(|id| logos.get(&id).cloned()),
            id: p.id,
            name: p.name,
            allowed_roles: p.allowed_roles,
        })
        .collect();
    refs.sort_by_key(|p| p.name.to_lowercase());
    Ok(refs)
}

/// The providers whose packages the user sees (the customer's provider filter); the role
/// names only of those the user manages.
pub async fn providers_in_view(
    db: &Db,
    answers: &Answers,
    view: &CustomerView,
    user: &User,
) -> ServiceResult<Arc<Vec<ProviderRef>>> {
    answers
        .value(view.key("providers-in-view", ()), async {
            let ids = match visibility_at(db, answers, view.stamp, user).await? {
                None => db::marketing::providers::list_all(db)
                    .await?
                    .into_iter()
                    .map(|p| p.id)
                    .collect(),
                Some(visible) => db::catalog::packages::provider_ids_visible(db, &visible).await?,
            };
            let mut providers = provider_refs(db, &ids).await?;
            for provider in &mut providers {
                if !may_manage_provider(user, &provider.allowed_roles) {
                    provider.allowed_roles.clear();
                }
            }
            Ok(providers)
        })
        .await
}

/// The providers the user may manage: Admin all, others those with one of their roles (the
/// admin list's filter and the download form's provider choice, spec §6).
pub async fn providers_to_manage(db: &Db, user: &User) -> ServiceResult<Vec<ProviderRef>> {
    let ids: Vec<i64> = if user.is_admin() {
        db::marketing::providers::list_all(db)
            .await?
            .into_iter()
            .map(|p| p.id)
            .collect()
    } else {
        db::marketing::providers::ids_for_roles(db, &user.roles).await?
    };
    provider_refs(db, &ids).await
}

/// [`providers_to_manage`], kept under the stamp.
pub async fn providers_to_manage_at(
    db: &Db,
    answers: &Answers,
    stamp: Stamp,
    user: &User,
) -> ServiceResult<Arc<Vec<ProviderRef>>> {
    let key = format!("providers-to-manage|{stamp}|{}", roles_key(user));
    answers.value(key, providers_to_manage(db, user)).await
}
