//! Link sets (a contact's lists, a user's roles) replaced in one transaction with their
//! audit entry, and the planner's statistics refreshed after a bulk load. The multi-row
//! statements themselves are `tx`'s.

use crate::db::Db;
use crate::db::sql::Param;
use crate::db::tx::Tx;

/// Links a contact or a package (`contact $id` / `download $id`) to each list of `$list_ids`
/// inside an open transaction of either backend (`$tx`), dated `$now`; a link that exists
/// already stays as it is. The one spelling of these inserts; replacing a whole link set in a
/// transaction of its own is [`replace_links`].
macro_rules! link_lists {
    ($tx:expr, contact $owner:expr, $list_ids:expr, $now:expr) => {
        $crate::db::bulk::link_lists!(@insert $tx,
            "insert into contact_lists (contact_id, list_id, created_at, updated_at) \
             values ($1, $2, $3, $3) on conflict (contact_id, list_id) do nothing",
            $owner, $list_ids, $now)
    };
    ($tx:expr, download $owner:expr, $list_ids:expr, $now:expr) => {
        $crate::db::bulk::link_lists!(@insert $tx,
            "insert into download_lists (download_id, list_id, created_at, updated_at) \
             values ($1, $2, $3, $3) on conflict (download_id, list_id) do nothing",
            $owner, $list_ids, $now)
    };
    (@insert $tx:expr, $sql:literal, $owner:expr, $list_ids:expr, $now:expr) => {
        for list_id in $list_ids {
            sqlx::query($sql)
                .bind($owner)
                .bind(list_id)
                .bind($now)
                .execute(&mut *$tx)
                .await?;
        }
    };
}

pub(crate) use link_lists;

/// A table that links one owner row to a set of values, each link with its own
/// `created_at` and `updated_at`.
pub(crate) struct LinkSet {
    /// The owners' table; it has `id` and `updated_at`.
    pub owners: &'static str,
    /// The link table.
    pub links: &'static str,
    /// The link table's column that names the owner.
    pub owner_column: &'static str,
    /// The link table's column that holds the value.
    pub value_column: &'static str,
}

/// Replaces the values linked to `owner_id` in one transaction and touches the owner's
/// `updated_at`. False (and nothing written) when the owner does not exist. `values` must
/// hold each value once; a value the link table refuses (e.g. an unknown id under a foreign
/// key) fails the whole replacement. `audit` is written with it.
pub(crate) async fn replace_links(
    db: &Db,
    set: &LinkSet,
    owner_id: i64,
    values: Vec<Param>,
    audit: &crate::domain::audit::Entry,
) -> Result<bool, sqlx::Error> {
    let now = crate::db::now();
    let mut tx = Tx::begin(db).await?;
    let touch = format!("update {} set updated_at = $2 where id = $1", set.owners);
    if tx.execute(&touch, &[owner_id.into(), now.into()]).await? == 0 {
        return Ok(false);
    }
    let clear = format!("delete from {} where {} = $1", set.links, set.owner_column);
    tx.execute(&clear, &[owner_id.into()]).await?;
    let columns = [
        set.owner_column,
        set.value_column,
        "created_at",
        "updated_at",
    ];
    let rows = values
        .into_iter()
        .map(|value| vec![owner_id.into(), value, now.into(), now.into()]);
    tx.insert_rows(set.links, &columns, rows, None).await?;
    crate::db::insight::audit::record_in(&mut tx, audit).await?;
    tx.commit().await?;
    Ok(true)
}

/// Refreshes the query planner's statistics after a bulk load. On PostgreSQL also `vacuum`:
/// it marks the new rows all-visible, so counts read indexes alone (without it, a count of
/// 200,000 fresh contacts read the table), which autovacuum would only do a while later.
pub(crate) async fn analyze(db: &Db) -> Result<(), sqlx::Error> {
    match db {
        Db::Sqlite(pool, _) => sqlx::query("analyze").execute(pool).await.map(|_| ()),
        Db::Postgres(pool, _) => sqlx::query("vacuum (analyze)")
            .execute(pool)
            .await
            .map(|_| ()),
    }
}
