//! Lists, shown as criteria (`lists`): the audiences of a provider. Contacts and downloads are
//! assigned to lists; an inactive list lives in the provider's inactive folder.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::{Db, insight::audit, now};
use crate::db_run;
use crate::domain::audit::Entry;
use crate::domain::lists::ListFilter;

macro_rules! list_columns {
    () => {
        "id, provider_id, brevo_list_id, name, active, total_subscribers, total_blocked, \
         deactivated_at, reactivated_at, created_at, updated_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct List {
    pub id: i64,
    pub provider_id: i64,
    pub brevo_list_id: Option<i64>,
    pub name: String,
    pub active: bool,
    pub total_subscribers: i64,
    pub total_blocked: i64,
    pub deactivated_at: Option<DateTime<Utc>>,
    pub reactivated_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub struct NewListRecord {
    pub provider_id: i64,
    pub name: String,
    pub brevo_list_id: Option<i64>,
    /// False creates the list deactivated (`deactivated_at` = now).
    pub active: bool,
}

/// Creates a list and writes `audit` for its new id.
pub async fn create(db: &Db, new: &NewListRecord, audit: &Entry) -> Result<List, sqlx::Error> {
    let now = now();
    let deactivated_at = (!new.active).then_some(now);
    db_run!(db, pool => {
        let mut tx = pool.begin_write().await?;
        let list = sqlx::query_as::<_, List>(concat!(
            "insert into lists \
             (provider_id, brevo_list_id, name, active, deactivated_at, created_at, updated_at) \
             values ($1, $2, $3, $4, $5, $6, $6) returning ",
            list_columns!()
        ))
        .bind(new.provider_id)
        .bind(new.brevo_list_id)
        .bind(&new.name)
        .bind(new.active)
        .bind(deactivated_at)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        audit::record!(tx, &audit.for_id(list.id))?;
        tx.commit().await?;
        Ok(list)
    })
}

pub async fn get(db: &Db, id: i64) -> Result<Option<List>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, List>(concat!(
            "select ",
            list_columns!(),
            " from lists where id = $1"
        ))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// The lists of one provider ordered by name (then id).
pub async fn list_by_provider(db: &Db, provider_id: i64) -> Result<Vec<List>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, List>(concat!(
            "select ",
            list_columns!(),
            " from lists where provider_id = $1 order by name, id"
        ))
        .bind(provider_id)
        .fetch_all(pool)
        .await
    })
}

/// How many of `ids` are lists of the provider.
pub async fn count_of_provider(db: &Db, provider_id: i64, ids: &[i64]) -> Result<i64, sqlx::Error> {
    if ids.is_empty() {
        return Ok(0);
    }
    let mut query =
        crate::db::sql::DynQuery::new("select count(*) from lists where provider_id = ");
    let provider = query.param(provider_id);
    query.push(&provider).push(" and id in ");
    let list = query.id_list(ids);
    query.push(&list);
    query.fetch_count(db).await
}

/// Deletes a list with `audit`; false when it does not exist.
pub async fn delete(db: &Db, id: i64, audit: &Entry) -> Result<bool, sqlx::Error> {
    audit::execute_audited(db, "delete from lists where id = $1", &[id.into()], audit).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{is_foreign_key_violation, is_unique_violation, marketing::providers};
    use crate::test_support::TestDb;

    #[tokio::test]
    async fn create_get_and_list_by_provider() {
        let t = TestDb::new().await;
        let p = providers::create(
            &t.db,
            &providers::NewProvider {
                name: "Energie Plus".to_string(),
                allowed_roles: vec!["GS-Aktionsportal-BU-Energie".to_string()],
                brevo_active_folder_id: None,
                brevo_inactive_folder_id: None,
                upload_id: None,
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        let b = create(
            &t.db,
            &NewListRecord {
                provider_id: p.id,
                name: "Ökostrom Neukunden".to_string(),
                brevo_list_id: Some(501),
                active: true,
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        assert!(b.active);
        assert!(b.deactivated_at.is_none());
        assert_eq!(b.total_subscribers, 0);
        let a = create(
            &t.db,
            &NewListRecord {
                provider_id: p.id,
                name: "Bestandskunden Alt".to_string(),
                brevo_list_id: None,
                active: false,
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        assert!(!a.active);
        assert_eq!(a.deactivated_at, Some(a.created_at));

        let got = get(&t.db, b.id).await.unwrap().unwrap();
        assert_eq!(got.name, "Ökostrom Neukunden");
        assert_eq!(got.brevo_list_id, Some(501));
        assert_eq!(got.provider_id, p.id);
        let names: Vec<_> = list_by_provider(&t.db, p.id)
            .await
            .unwrap()
            .into_iter()
            .map(|l| l.name)
            .collect();
        assert_eq!(names, vec!["Bestandskunden Alt", "Ökostrom Neukunden"]);

        let err = create(
            &t.db,
            &NewListRecord {
                provider_id: p.id,
                name: "Doppelte Brevo-ID".to_string(),
                brevo_list_id: Some(501),
                active: true,
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap_err();
        assert!(is_unique_violation(&err));
        let err = create(
            &t.db,
            &NewListRecord {
                provider_id: 999,
                name: "Ohne Anbieter".to_string(),
                brevo_list_id: None,
                active: true,
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap_err();
        assert!(is_foreign_key_violation(&err));
        assert!(
            delete(&t.db, a.id, &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        assert!(get(&t.db, a.id).await.unwrap().is_none());
    }
}

/// The list columns (`l` is the list), the subscriber and blocked counts as 0: they are
/// filled in by [`with_live_counts`].
macro_rules! uncounted_list_columns {
    () => {
        "l.id, l.provider_id, l.brevo_list_id, l.name, l.active, \
         cast(0 as bigint) as total_subscribers, cast(0 as bigint) as total_blocked, \
         l.deactivated_at, l.reactivated_at, l.created_at, l.updated_at"
    };
}

/// Fills in the subscriber and blocked counts of `lists` from the contacts assigned to them,
/// so they are always current: one statement for the page. Two counting subqueries per list
/// made PostgreSQL join each list's rows with every blocked contact (11 ms for a page of ten,
/// issue 41).
async fn with_live_counts(db: &Db, mut lists: Vec<List>) -> Result<Vec<List>, sqlx::Error> {
    if lists.is_empty() {
        return Ok(lists);
    }
    let ids: Vec<i64> = lists.iter().map(|l| l.id).collect();
    let mut query = crate::db::sql::DynQuery::list("");
    let list = query.id_list(&ids);
    match db {
        // A grouped join: SQLite walks each list's rows and looks up their contacts.
        Db::Sqlite(..) => query.push(&format!(
            "select cl.list_id, \
             cast(sum(case when c.email_blacklisted then 0 else 1 end) as bigint), \
             cast(sum(case when c.email_blacklisted then 1 else 0 end) as bigint) \
             from contact_lists cl join contacts c on c.id = cl.contact_id \
             where cl.list_id in {list} group by cl.list_id"
        )),
        // PostgreSQL plans the grouped join as a parallel hash join over every contact (22 ms
        // a page); per list, it looks up the list's few hundred contacts (3 ms).
        Db::Postgres(..) => query.push(&format!(
            "select l.id, k.subscribers, k.blocked \
             from unnest(array[{ids}]::bigint[]) as l(id) cross join lateral \
             (select count(*) filter (where not c.email_blacklisted) as subscribers, \
             count(*) filter (where c.email_blacklisted) as blocked \
             from contact_lists cl join contacts c on c.id = cl.contact_id \
             where cl.list_id = l.id) k",
            ids = list.trim_start_matches('(').trim_end_matches(')')
        )),
    };
    let counts: Vec<(i64, i64, i64)> = query.fetch_all(db).await?;
    for (id, subscribers, blocked) in counts {
        if let Some(list) = lists.iter_mut().find(|l| l.id == id) {
            list.total_subscribers = subscribers;
            list.total_blocked = blocked;
        }
    }
    Ok(lists)
}

/// One page of a provider's lists with live counts, and how many match in all.
/// Neither status selected means both (spec §4).
pub async fn page_of_provider(
    db: &Db,
    provider_id: i64,
    filter: &ListFilter,
    limit: i64,
    offset: i64,
) -> Result<(Vec<List>, i64), sqlx::Error> {
    let (active, inactive) = if filter.active || filter.inactive {
        (filter.active, filter.inactive)
    } else {
        (true, true)
    };
    let search = filter.search.as_deref().map(str::trim).unwrap_or("");
    let pattern = crate::db::sql::like_pattern(search);
    const WHERE: &str = "where l.provider_id = $1 and (($2 and l.active) or ($3 and not l.active)) \
                         and ($4 = '' or lower(l.name) like $5 escape '\\')";
    let order = if filter.ascending { "asc" } else { "desc" };
    let tag = crate::db::sql::LIST_TAG;
    let select = format!(
        "{tag}select {} from lists l {WHERE} order by l.id {order} limit $6 offset $7",
        uncounted_list_columns!()
    );
    let count = format!("{tag}select count(*) from lists l {WHERE}");
    let (rows, total) = db_run!(db, pool => {
        let rows = sqlx::query_as::<_, List>(&select)
            .bind(provider_id)
            .bind(active)
            .bind(inactive)
            .bind(search)
            .bind(&pattern)
            .bind(limit)
            .bind(offset)
            .fetch_all(pool)
            .await?;
        let total: i64 = sqlx::query_scalar(&count)
            .bind(provider_id)
            .bind(active)
            .bind(inactive)
            .bind(search)
            .bind(&pattern)
            .fetch_one(pool)
            .await?;
        Ok::<_, sqlx::Error>((rows, total))
    })?;
    Ok((with_live_counts(db, rows).await?, total))
}

/// Which provider a list belongs to, and its Brevo id.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ListOwner {
    pub id: i64,
    pub provider_id: i64,
    pub brevo_list_id: Option<i64>,
}

/// The owners of these lists (unknown ids are left out), in one query.
pub async fn owners(db: &Db, ids: &[i64]) -> Result<Vec<ListOwner>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = crate::db::sql::DynQuery::new(
        "select id, provider_id, brevo_list_id from lists where id in ",
    );
    let list = query.id_list(ids);
    query.push(&list).push(" order by id");
    query.fetch_all(db).await
}

/// One list with live counts.
pub async fn get_live(db: &Db, id: i64) -> Result<Option<List>, sqlx::Error> {
    let found = db_run!(db, pool => {
        sqlx::query_as::<_, List>(concat!("select ", uncounted_list_columns!(), " from lists l where l.id = $1"))
            .bind(id)
            .fetch_optional(pool)
            .await
    })?;
    Ok(with_live_counts(db, found.into_iter().collect())
        .await?
        .pop())
}

/// The list mirrored from a marketing-service list, if any.
pub async fn find_by_brevo_id(db: &Db, brevo_list_id: i64) -> Result<Option<List>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, List>(concat!("select ", list_columns!(), " from lists where brevo_list_id = $1"))
            .bind(brevo_list_id)
            .fetch_optional(pool)
            .await
    })
}

/// Renames a list with `audit`; false when it does not exist.
pub async fn rename(db: &Db, id: i64, name: &str, audit: &Entry) -> Result<bool, sqlx::Error> {
    audit::execute_audited(
        db,
        "update lists set name = $2, updated_at = $3 where id = $1",
        &[id.into(), name.into(), now().into()],
        audit,
    )
    .await
}

/// Activates or deactivates a list, stamping `reactivated_at` or `deactivated_at`.
/// With `audit`; false when the list does not exist.
pub async fn set_active(
    db: &Db,
    id: i64,
    active: bool,
    audit: &Entry,
) -> Result<bool, sqlx::Error> {
    audit::execute_audited(
        db,
        "update lists set active = $2, updated_at = $3, \
         deactivated_at = case when $2 then deactivated_at else $3 end, \
         reactivated_at = case when $2 then $3 else reactivated_at end \
         where id = $1",
        &[id.into(), active.into(), now().into()],
        audit,
    )
    .await
}

/// Brings a mirrored list's name and status in line with the marketing service (no stamps
/// change when nothing did), writing `audit` when something did.
pub async fn update_from_marketing(
    db: &Db,
    id: i64,
    name: &str,
    active: bool,
    audit: &Entry,
) -> Result<(), sqlx::Error> {
    audit::execute_audited(
        db,
        "update lists set name = $2, active = $3, updated_at = $4, \
         deactivated_at = case when active and not $3 then $4 else deactivated_at end, \
         reactivated_at = case when not active and $3 then $4 else reactivated_at end \
         where id = $1 and (name <> $2 or active <> $3)",
        &[id.into(), name.into(), active.into(), now().into()],
        audit,
    )
    .await
    .map(|_| ())
}

#[cfg(test)]
mod paging_tests {
    use super::*;
    use crate::db::marketing::providers::{self, NewProvider};
    use crate::test_support::TestDb;

    async fn provider_with_lists(db: &Db) -> i64 {
        let provider = providers::create(
            db,
            &NewProvider {
                name: "Glasfaser Süd".into(),
                allowed_roles: vec!["GS-Aktionsportal-BU-Glasfaser".into()],
                brevo_active_folder_id: None,
                brevo_inactive_folder_id: None,
                upload_id: None,
            },
            &crate::test_support::cli_change(),
        )
        .await
        .unwrap();
        for (name, active) in [
            ("Flyer Herbst", true),
            ("Plakat_100%", true),
            ("Altaktion Sommer", false),
        ] {
            create(
                db,
                &NewListRecord {
                    provider_id: provider.id,
                    name: name.into(),
                    brevo_list_id: None,
                    active,
                },
                &crate::test_support::cli_change(),
            )
            .await
            .unwrap();
        }
        provider.id
    }

    #[tokio::test]
    async fn pages_filter_by_status_and_search() {
        let t = TestDb::new().await;
        let provider = provider_with_lists(&t.db).await;
        let all = ListFilter::default();
        let (rows, count) = page_of_provider(&t.db, provider, &all, 20, 0)
            .await
            .unwrap();
        assert_eq!(count, 3);
        assert!(rows.windows(2).all(|w| w[0].id > w[1].id), "newest first");
        let active = ListFilter {
            active: true,
            ..ListFilter::default()
        };
        assert_eq!(
            page_of_provider(&t.db, provider, &active, 20, 0)
                .await
                .unwrap()
                .1,
            2
        );
        let inactive = ListFilter {
            inactive: true,
            ..ListFilter::default()
        };
        let (rows, count) = page_of_provider(&t.db, provider, &inactive, 20, 0)
            .await
            .unwrap();
        assert_eq!((count, rows[0].name.as_str()), (1, "Altaktion Sommer"));
        let search = ListFilter {
            search: Some("FLYER".into()),
            ..ListFilter::default()
        };
        assert_eq!(
            page_of_provider(&t.db, provider, &search, 20, 0)
                .await
                .unwrap()
                .1,
            1
        );
        let wildcard = ListFilter {
            search: Some("%".into()),
            ..ListFilter::default()
        };
        assert_eq!(
            page_of_provider(&t.db, provider, &wildcard, 20, 0)
                .await
                .unwrap()
                .1,
            1,
            "% is literal"
        );
        let (page, count) = page_of_provider(&t.db, provider, &all, 2, 2).await.unwrap();
        assert_eq!((page.len(), count), (1, 3));
    }

    #[tokio::test]
    async fn status_changes_are_stamped() {
        let t = TestDb::new().await;
        let provider = provider_with_lists(&t.db).await;
        let list = list_by_provider(&t.db, provider).await.unwrap().remove(0);
        assert!(
            set_active(&t.db, list.id, false, &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        let off = get(&t.db, list.id).await.unwrap().unwrap();
        assert!(!off.active && off.deactivated_at.is_some());
        assert!(
            set_active(&t.db, list.id, true, &crate::test_support::cli_change())
                .await
                .unwrap()
        );
        let on = get(&t.db, list.id).await.unwrap().unwrap();
        assert!(on.active && on.reactivated_at.is_some());
        assert!(
            rename(
                &t.db,
                list.id,
                "Neuer Name",
                &crate::test_support::cli_change()
            )
            .await
            .unwrap()
        );
        assert_eq!(
            get_live(&t.db, list.id).await.unwrap().unwrap().name,
            "Neuer Name"
        );
        assert!(
            !rename(&t.db, 999_999, "x", &crate::test_support::cli_change())
                .await
                .unwrap()
        );
    }
}

/// (Brevo list id, our list id) of every list that is in Brevo: what the contact sync maps
/// Brevo's memberships through.
pub async fn brevo_ids(db: &Db) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    db_run!(db, pool => {
        sqlx::query_as::<_, (i64, i64)>(
            "select brevo_list_id, id from lists where brevo_list_id is not null",
        )
        .fetch_all(pool)
        .await
    })
}
