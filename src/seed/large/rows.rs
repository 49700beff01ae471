//! The rows of the large data set, written table by table in one transaction.

use super::*;

/// Maps the returned `(id, key)` pairs to ids in the order of `keys`.
pub(super) fn ids_in_order(
    keys: &[String],
    returned: Vec<(i64, String)>,
    what: &str,
) -> anyhow::Result<Vec<i64>> {
    let by_key: HashMap<String, i64> = returned.into_iter().map(|(id, key)| (key, id)).collect();
    keys.iter()
        .map(|key| {
            by_key
                .get(key)
                .copied()
                .ok_or_else(|| anyhow::anyhow!("{what} „{key}“ wurde nicht angelegt"))
        })
        .collect()
}

/// The ids `seed-large` gave the rows it wrote, in the order of its plan.
pub(super) struct WrittenIds {
    tags: Vec<i64>,
    lists: Vec<i64>,
    uploads: Vec<i64>,
    packages: Vec<i64>,
}

/// The rows of one `seed-large` run, written table by table into one transaction, with what
/// was written counted in `summary`.
pub(super) struct Rows<'a> {
    tx: Tx,
    size: &'a LargeDataSize,
    now: DateTime<Utc>,
    summary: LargeDataSummary,
}

impl Rows<'_> {
    /// Tags: shared with whatever exists already (names are unique).
    async fn tags(&mut self) -> anyhow::Result<Vec<i64>> {
        let (now, tx, summary) = (self.now, &mut self.tx, &mut self.summary);
        let tag_columns = ["name", "icon", "created_at", "updated_at"];
        let mut sql = insert_sql("tags", &tag_columns, TAGS.len(), None);
        sql.push_str(" on conflict (name) do nothing");
        let values: Vec<Param> = TAGS
            .iter()
            .flat_map(|(name, icon)| {
                [
                    Param::from(*name),
                    Param::from(*icon),
                    now.into(),
                    now.into(),
                ]
            })
            .collect();
        tx.execute(&sql, &values).await?;
        let tag_names: Vec<String> = TAGS.iter().map(|(name, _)| name.to_string()).collect();
        let mut select = String::from("select id, name from tags where name in (");
        for i in 0..tag_names.len() {
            let _ = write!(select, "{}${}", if i > 0 { ", " } else { "" }, i + 1);
        }
        select.push(')');
        let tag_values: Vec<Param> = tag_names.iter().map(|n| Param::from(n.as_str())).collect();
        let tag_ids = ids_in_order(&tag_names, tx.pairs(&select, &tag_values).await?, "Tag")?;
        summary.tags = tag_ids.len() as u64;
        Ok(tag_ids)
    }

    /// Providers and their roles.
    async fn providers(&mut self) -> anyhow::Result<Vec<i64>> {
        let (size, now, tx, summary) = (self.size, self.now, &mut self.tx, &mut self.summary);
        let provider_names: Vec<String> = (0..size.providers).map(provider_name).collect();
        let (n, returned) = tx
            .insert(
                "providers",
                &["name", "created_at", "updated_at"],
                provider_names
                    .iter()
                    .map(|name| vec![Param::from(name.as_str()), now.into(), now.into()]),
                Some("id, name"),
            )
            .await?;
        summary.providers = n;
        let provider_ids = ids_in_order(&provider_names, returned, "Anbieter")?;
        let (n, _) = tx
            .insert(
                "provider_roles",
                &["provider_id", "role", "created_at", "updated_at"],
                provider_ids.iter().enumerate().flat_map(|(p, &id)| {
                    provider_roles(p).into_iter().map(move |role| {
                        vec![Param::from(id), Param::from(role), now.into(), now.into()]
                    })
                }),
                None,
            )
            .await?;
        summary.provider_roles = n;
        Ok(provider_ids)
    }

    /// Lists (every tenth inactive).
    async fn lists(&mut self, provider_ids: &[i64]) -> anyhow::Result<Vec<i64>> {
        let (size, now, tx, summary) = (self.size, self.now, &mut self.tx, &mut self.summary);
        let list_names: Vec<String> = (0..size.providers)
            .flat_map(|p| (0..size.lists_per_provider).map(move |k| list_name(p, k)))
            .collect();
        let (n, returned) = tx
            .insert(
                "lists",
                &[
                    "provider_id",
                    "name",
                    "active",
                    "deactivated_at",
                    "created_at",
                    "updated_at",
                ],
                list_names.iter().enumerate().map(|(i, name)| {
                    let (p, k) = (i / size.lists_per_provider, i % size.lists_per_provider);
                    let active = is_active_list(k);
                    vec![
                        Param::from(provider_ids[p]),
                        Param::from(name.as_str()),
                        Param::from(active),
                        Param::from((!active).then_some(now)),
                        now.into(),
                        now.into(),
                    ]
                }),
                Some("id, name"),
            )
            .await?;
        summary.lists = n;
        let list_ids = ids_in_order(&list_names, returned, "Kriterium")?;
        Ok(list_ids)
    }

    /// The uploads of the written files.
    async fn uploads(
        &mut self,
        packages: &[PackagePlan],
        written: &[WrittenFile],
    ) -> anyhow::Result<Vec<i64>> {
        let (size, tx, summary) = (self.size, &mut self.tx, &mut self.summary);
        let created_of = |i: usize| packages[i / size.files_per_package].created_at;
        let (n, returned) = tx
            .insert(
                "uploads",
                &[
                    "name",
                    "storage_key",
                    "ext",
                    "size",
                    "content_type",
                    "sha256",
                    "crc32",
                    "created_at",
                    "updated_at",
                ],
                written.iter().enumerate().map(|(i, file)| {
                    vec![
                        Param::from(file.name.as_str()),
                        Param::from(file.key.as_str()),
                        Param::from(file.ext),
                        Param::from(file.size),
                        Param::from(file.content_type),
                        Param::from(file.sha256.as_str()),
                        Param::from(file.crc32),
                        created_of(i).into(),
                        created_of(i).into(),
                    ]
                }),
                Some("id, storage_key"),
            )
            .await?;
        summary.uploads = n;
        summary.bytes = written.iter().map(|f| f.size as u64).sum();
        let keys: Vec<String> = written.iter().map(|f| f.key.clone()).collect();
        let upload_ids = ids_in_order(&keys, returned, "Datei")?;
        drop(keys);
        Ok(upload_ids)
    }

    /// The packages.
    async fn packages(
        &mut self,
        packages: &[PackagePlan],
        provider_ids: &[i64],
    ) -> anyhow::Result<Vec<i64>> {
        let (tx, summary) = (&mut self.tx, &mut self.summary);
        let package_names: Vec<String> = packages.iter().map(|p| p.name.clone()).collect();
        let (n, returned) = tx
            .insert(
                "downloads",
                &[
                    "provider_id",
                    "name",
                    "start_at",
                    "end_at",
                    "archived",
                    "archived_at",
                    "created_at",
                    "updated_at",
                ],
                packages.iter().map(|p| {
                    vec![
                        Param::from(provider_ids[p.provider]),
                        Param::from(p.name.as_str()),
                        p.start_at.into(),
                        p.end_at.into(),
                        Param::from(p.archived_at.is_some()),
                        Param::from(p.archived_at),
                        p.created_at.into(),
                        p.archived_at.unwrap_or(p.created_at).into(),
                    ]
                }),
                Some("id, name"),
            )
            .await?;
        summary.downloads = n;
        summary.archived = packages.iter().filter(|p| p.archived_at.is_some()).count() as u64;
        let download_ids = ids_in_order(&package_names, returned, "Download")?;
        drop(package_names);
        Ok(download_ids)
    }

    /// The files of the packages, their tags and the packages' lists.
    async fn package_contents(
        &mut self,
        packages: &[PackagePlan],
        written: &[WrittenFile],
        ids: &WrittenIds,
    ) -> anyhow::Result<()> {
        let (size, tx, summary) = (self.size, &mut self.tx, &mut self.summary);
        let created_of = |i: usize| packages[i / size.files_per_package].created_at;
        let list_id = |p: usize, k: usize| ids.lists[p * size.lists_per_provider + k];
        let (download_ids, upload_ids, tag_ids) = (&ids.packages, &ids.uploads, &ids.tags);
        let fpp = size.files_per_package;
        let (n, _) = tx
            .insert(
                "download_uploads",
                &[
                    "download_id",
                    "upload_id",
                    "position",
                    "name",
                    "created_at",
                    "updated_at",
                ],
                written.iter().enumerate().map(|(i, file)| {
                    vec![
                        Param::from(download_ids[i / fpp]),
                        Param::from(upload_ids[i]),
                        Param::Int32((i % fpp) as i32),
                        Param::from(file.name.as_str()),
                        created_of(i).into(),
                        created_of(i).into(),
                    ]
                }),
                None,
            )
            .await?;
        summary.download_uploads = n;
        let (n, _) = tx
            .insert(
                "download_upload_tags",
                &[
                    "download_id",
                    "upload_id",
                    "tag_id",
                    "created_at",
                    "updated_at",
                ],
                written.iter().enumerate().flat_map(|(i, file)| {
                    let (download, upload, created) =
                        (download_ids[i / fpp], upload_ids[i], created_of(i));
                    let tag_ids = &tag_ids;
                    file.tags.iter().map(move |&t| {
                        vec![
                            Param::from(download),
                            Param::from(upload),
                            Param::from(tag_ids[t]),
                            created.into(),
                            created.into(),
                        ]
                    })
                }),
                None,
            )
            .await?;
        summary.file_tags = n;
        let (n, _) = tx
            .insert(
                "download_lists",
                &["download_id", "list_id", "created_at", "updated_at"],
                packages
                    .iter()
                    .zip(download_ids)
                    .flat_map(|(p, &download)| {
                        p.lists.iter().map(move |&k| {
                            vec![
                                Param::from(download),
                                Param::from(list_id(p.provider, k)),
                                p.created_at.into(),
                                p.created_at.into(),
                            ]
                        })
                    }),
                None,
            )
            .await?;
        summary.download_lists = n;
        Ok(())
    }

    /// Companies and contacts.
    async fn contacts(&mut self, rng: &mut StdRng) -> anyhow::Result<Vec<i64>> {
        let (size, now, tx, summary) = (self.size, self.now, &mut self.tx, &mut self.summary);
        let (n, _) = tx
            .insert(
                "companies",
                &[
                    "customer_number",
                    "company_name",
                    "created_at",
                    "updated_at",
                ],
                (0..size.companies).map(|c| {
                    let name = company_name(c);
                    vec![
                        Param::from(FIRST_CUSTOMER_NUMBER + c as i64),
                        Param::from(name),
                        now.into(),
                        now.into(),
                    ]
                }),
                None,
            )
            .await?;
        summary.companies = n;
        let emails: Vec<String> = (0..size.contacts)
            .map(|i| {
                format!(
                    "kontakt{:06}@kunde{}.example.de",
                    i + 1,
                    FIRST_CUSTOMER_NUMBER + company_of(i, size) as i64
                )
            })
            .collect();
        let contact_rows = emails.iter().enumerate().map(|(i, email)| {
            let confirmed = rng.gen_bool(0.7);
            let created = now - Duration::minutes(rng.gen_range(60..500_000));
            let first = FIRSTNAMES[rng.gen_range(0..FIRSTNAMES.len())];
            let last = LASTNAMES[rng.gen_range(0..LASTNAMES.len())];
            let customer_number = FIRST_CUSTOMER_NUMBER + company_of(i, size) as i64;
            vec![
                Param::from(customer_number),
                Param::from(email.as_str()),
                Param::Int16(rng.gen_range(0..=4)),
                Param::from(first),
                Param::from(last),
                Param::from(format!("LD-{customer_number}-{}", i + 1)),
                Param::from(confirmed),
                Param::from(confirmed.then_some(created)),
                Param::from(rng.gen_bool(0.02)),
                created.into(),
                created.into(),
            ]
        });
        let (n, returned) = tx
            .insert(
                "contacts",
                &[
                    "customer_number",
                    "email",
                    "salutation",
                    "firstname",
                    "lastname",
                    "extern_id",
                    "double_opt_in",
                    "double_opt_in_at",
                    "email_blacklisted",
                    "created_at",
                    "updated_at",
                ],
                contact_rows,
                Some("id, email"),
            )
            .await?;
        summary.contacts = n;
        let contact_ids = ids_in_order(&emails, returned, "Kontakt")?;
        drop(emails);
        Ok(contact_ids)
    }

    /// Memberships: the dealer company's contacts share its lists; every other contact is on
    /// 1–3 random active lists.
    async fn memberships(
        &mut self,
        contact_ids: &[i64],
        list_ids: &[i64],
        rng: &mut StdRng,
    ) -> anyhow::Result<()> {
        let (size, now, tx, summary) = (self.size, self.now, &mut self.tx, &mut self.summary);
        let list_id = |p: usize, k: usize| list_ids[p * size.lists_per_provider + k];
        let active: Vec<usize> = (0..size.lists_per_provider)
            .filter(|&k| is_active_list(k))
            .collect();
        let dealer_slots = dealer_list_slots(size);
        let dealer_contacts = (0..size.contacts)
            .take_while(|&i| company_of(i, size) == 0)
            .count();
        let mut memberships: Vec<(i64, i64)> = Vec::with_capacity(size.contacts * 2);
        for (i, &contact) in contact_ids.iter().enumerate() {
            if i < dealer_contacts {
                for &(p, k) in dealer_slots.iter().skip(i).step_by(dealer_contacts) {
                    memberships.push((contact, list_id(p, k)));
                }
                continue;
            }
            let mut chosen: Vec<i64> = Vec::with_capacity(3);
            for _ in 0..rng.gen_range(1..=3) {
                let p = rng.gen_range(0..size.providers);
                let k = active[rng.gen_range(0..active.len())];
                let id = list_id(p, k);
                if !chosen.contains(&id) {
                    chosen.push(id);
                }
            }
            memberships.extend(chosen.into_iter().map(|list| (contact, list)));
        }
        let (n, _) = tx
            .insert(
                "contact_lists",
                &["contact_id", "list_id", "created_at", "updated_at"],
                memberships.iter().map(|&(contact, list)| {
                    vec![
                        Param::from(contact),
                        Param::from(list),
                        now.into(),
                        now.into(),
                    ]
                }),
                None,
            )
            .await?;
        summary.contact_lists = n;
        summary.dealer_lists = dealer_slots.len() as u64;
        Ok(())
    }
}

/// Writes every row in one transaction.
pub(super) async fn insert_all(
    db: &Db,
    size: &LargeDataSize,
    now: DateTime<Utc>,
    packages: &[PackagePlan],
    written: &[WrittenFile],
    rng: &mut StdRng,
) -> anyhow::Result<LargeDataSummary> {
    let mut rows = Rows {
        tx: Tx::begin(db).await?,
        size,
        now,
        summary: LargeDataSummary {
            dealer_customer_number: FIRST_CUSTOMER_NUMBER,
            ..LargeDataSummary::default()
        },
    };
    let tags = rows.tags().await?;
    let provider_ids = rows.providers().await?;
    let lists = rows.lists(&provider_ids).await?;
    let uploads = rows.uploads(packages, written).await?;
    let package_ids = rows.packages(packages, &provider_ids).await?;
    let ids = WrittenIds {
        tags,
        lists,
        uploads,
        packages: package_ids,
    };
    rows.package_contents(packages, written, &ids).await?;
    let contact_ids = rows.contacts(rng).await?;
    rows.memberships(&contact_ids, &ids.lists, rng).await?;
    let Rows { tx, summary, .. } = rows;
    let started = Instant::now();
    tx.commit().await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        "committed"
    );
    // Fresh statistics, so the first benchmark does not run on the planner's guesses.
    db::bulk::analyze(db).await?;
    Ok(summary)
}
