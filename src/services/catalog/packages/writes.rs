//! The writes of packages (spec §5): create, edit, duplicate, archive and delete, with their
//! input, validation and audit entries.

use super::*;

/// Body of `POST /api/download/` and `PUT /api/download/{id}`; unknown keys are allowed.
/// Validation (spec §5), first failure answered: name 5–100 ("Die Bezeichnung muss mindestens
/// 5 Zeichen lang sein." / "… höchstens 100 …"), `ProviderId` ("Bitte wählen Sie einen
/// Anbieter aus."), `startAt`/`endAt` ("Bitte geben Sie ein gültiges Startdatum an.", "…
/// Enddatum …", "Das Enddatum darf nicht vor dem Startdatum liegen."), at least one list of
/// the provider ("Es muss mindestens ein Kriterium hinterlegt werden", "Die Kriterien müssen
/// zum Anbieter des Downloads gehören."), file names 5–255 ("Der Dateiname muss mindestens 5
/// Zeichen lang sein."; a missing extension is added).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
// The spec's word for a package stays the schema name of the REST contract.
#[schema(as = DownloadInput)]
#[serde(rename_all = "camelCase")]
pub struct PackageInput {
    /// The package's name (Bezeichnung), trimmed.
    #[schema(min_length = 5, max_length = 100)]
    pub name: Option<String>,
    /// An RFC 3339 instant with seconds and a zone (`2026-12-01T07:00:00Z`,
    /// `2026-12-01T08:00:00.000+01:00`), a German wall-clock time `YYYY-MM-DDTHH:MM` or
    /// `YYYY-MM-DDTHH:MM:SS` (a space may stand for the `T`), or a date `YYYY-MM-DD` (the start
    /// of that German day); years 2000–2100. Anything else: "Bitte geben Sie ein gültiges
    /// Startdatum an."
    #[schema(max_length = 40)]
    pub start_at: Option<String>,
    /// As `startAt`; a date alone means its last second. Anything else: "Bitte geben Sie ein
    /// gültiges Enddatum an."
    #[schema(max_length = 40)]
    pub end_at: Option<String>,
    /// Required on create; on update it must be the package's provider ("Der Anbieter eines
    /// Downloads kann nicht geändert werden.").
    #[serde(rename = "ProviderId")]
    pub provider_id: Option<IdInput>,
    pub lists_ids: Option<IdsInput>,
    /// Update: lists to take off.
    pub unchecked_lists_ids: Option<IdsInput>,
    /// Uploads (ids from `POST /api/upload/`) to add, optionally with a name and tags.
    #[schema(max_items = 10000)]
    pub uploads_to_insert: Option<Vec<PackageFileInput>>,
    /// Update: the package's files in the wanted order with new names and tags.
    #[serde(rename = "Uploads")]
    #[schema(max_items = 10000)]
    pub uploads: Option<Vec<PackageFileInput>>,
    /// Update: files to take out; a file no package uses any more is removed from disk.
    #[schema(max_items = 10000)]
    pub uploads_to_delete: Option<Vec<PackageFileInput>>,
}

/// Body of `POST /api/download/duplicate`: the package to copy and the fields of
/// `DownloadInput` that differ in the copy.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct DuplicateInput {
    /// The package to copy.
    pub id: Option<IdInput>,
    #[serde(flatten)]
    pub changes: PackageInput,
}

/// A file of a package in a request: its upload id, or the id with a name and tags.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum PackageFileInput {
    Id(IdInput),
    Named {
        id: IdInput,
        #[schema(min_length = 5, max_length = 255)]
        name: Option<String>,
        /// A new name while renaming (wins over `name`).
        #[serde(rename = "nameNew")]
        #[schema(max_length = 255)]
        name_new: Option<String>,
        #[serde(rename = "tagsIds")]
        tags_ids: Option<IdsInput>,
    },
}

/// The provider for a new package: it must exist and the user must hold one of its roles.
pub(super) async fn provider_for_new(
    db: &Db,
    user: &User,
    value: Option<IdInput>,
) -> ServiceResult<i64> {
    let id = value
        .and_then(IdInput::get)
        .ok_or_else(|| invalid(PROVIDER_REQUIRED))?;
    let provider = db::marketing::providers::get(db, id)
        .await?
        .ok_or_else(|| invalid("Der gewählte Anbieter existiert nicht."))?;
    if !may_manage_provider(user, &provider.allowed_roles) {
        return Err(ServiceError::Forbidden);
    }
    Ok(id)
}

/// The lists of a package: at least one, all of its provider.
pub(super) async fn checked_lists(
    db: &Db,
    provider_id: i64,
    list_ids: Vec<i64>,
) -> ServiceResult<Vec<i64>> {
    if list_ids.is_empty() {
        return Err(invalid(LISTS_REQUIRED));
    }
    let found = db::marketing::lists::count_of_provider(db, provider_id, &list_ids).await?;
    if found != list_ids.len() as i64 {
        return Err(invalid(
            "Die Kriterien müssen zum Anbieter des Downloads gehören.",
        ));
    }
    Ok(list_ids)
}

/// Tags that exist (an unknown tag id is a clear error, not a database failure).
pub(super) async fn checked_tags(db: &Db, tag_ids: &[i64]) -> ServiceResult<()> {
    let mut unique = tag_ids.to_vec();
    unique.sort_unstable();
    unique.dedup();
    if unique.is_empty() {
        return Ok(());
    }
    if db::catalog::tags::count_existing(db, &unique).await? != unique.len() as i64 {
        return Err(invalid("Ein gewählter Tag existiert nicht."));
    }
    Ok(())
}

/// A file entry as clients send it: an id, or an object with `id` and optionally `name`
/// (or `nameNew` while renaming) and `tagsIds`.
pub(super) struct FileInput {
    id: i64,
    name: Option<String>,
    tag_ids: Option<Vec<i64>>,
}

pub(super) fn file_inputs(
    value: Option<&[PackageFileInput]>,
    field: &str,
) -> ServiceResult<Vec<FileInput>> {
    let bad = || invalid(format!("{field} muss eine Liste von Dateien sein."));
    value
        .unwrap_or_default()
        .iter()
        .map(|item| match item {
            PackageFileInput::Id(id) => Ok(FileInput {
                id: id.get().ok_or_else(bad)?,
                name: None,
                tag_ids: None,
            }),
            PackageFileInput::Named {
                id,
                name,
                name_new,
                tags_ids,
            } => Ok(FileInput {
                id: id.get().ok_or_else(bad)?,
                name: name_new
                    .as_deref()
                    .filter(|n| !n.trim().is_empty())
                    .or(name.as_deref())
                    .map(str::to_string),
                tag_ids: match tags_ids {
                    None => None,
                    Some(tags) => Some(tags.get().ok_or_else(bad)?.to_vec()),
                },
            }),
        })
        .collect()
}

/// New files of a package: the uploads must exist and be the user's to use (their own fresh
/// uploads, or files already in a package of a provider they manage); names default to the
/// upload's name.
pub(super) async fn new_files(
    db: &Db,
    user: &User,
    inputs: Vec<FileInput>,
) -> ServiceResult<Vec<NewFile>> {
    if inputs.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = inputs.iter().map(|f| f.id).collect();
    let uploads: HashMap<i64, db::catalog::uploads::Upload> =
        db::catalog::uploads::get_many(db, &ids)
            .await?
            .into_iter()
            .map(|u| (u.id, u))
            .collect();
    if ids.iter().any(|id| !uploads.contains_key(id)) {
        return Err(invalid(
            "Eine hochgeladene Datei existiert nicht mehr. Bitte laden Sie sie erneut hoch.",
        ));
    }
    crate::services::catalog::uploads::check_usable(
        db,
        user,
        &uploads.values().collect::<Vec<_>>(),
    )
    .await?;
    let mut files = Vec::with_capacity(inputs.len());
    for input in inputs {
        let upload = &uploads[&input.id];
        let name = FileName::parse(input.name.as_deref().unwrap_or(&upload.name), &upload.ext)
            .map_err(invalid)?;
        let tag_ids = input.tag_ids.unwrap_or_default();
        files.push(NewFile {
            upload_id: upload.id,
            name: name.into_inner(),
            tag_ids,
        });
    }
    // One query for the tags of all files.
    let all_tags: Vec<i64> = files
        .iter()
        .flat_map(|f| f.tag_ids.iter().copied())
        .collect();
    checked_tags(db, &all_tags).await?;
    Ok(files)
}

pub(super) fn name_of(input: &PackageInput) -> ServiceResult<String> {
    PackageName::parse(input.name.as_deref().unwrap_or(""))
        .map(PackageName::into_inner)
        .map_err(invalid)
}

pub(super) fn period_of(input: &PackageInput) -> ServiceResult<(DateTime<Utc>, DateTime<Utc>)> {
    period(input.start_at.as_deref(), input.end_at.as_deref()).map_err(invalid)
}

/// What the audit log keeps of a package: its fields, its files (upload, name, tags, in order)
/// and its lists.
#[derive(Serialize)]
pub(super) struct RecordedPackage<'a> {
    provider_id: i64,
    name: &'a str,
    start_at: DateTime<Utc>,
    end_at: DateTime<Utc>,
    files: Vec<RecordedFile<'a>>,
    lists: Vec<i64>,
}

#[derive(Serialize)]
pub(super) struct RecordedFile<'a> {
    upload_id: i64,
    name: &'a str,
    tags: &'a [i64],
}

impl<'a> RecordedPackage<'a> {
    /// A package as it is about to be created.
    fn created(new: &'a db::catalog::packages::NewPackage) -> RecordedPackage<'a> {
        RecordedPackage {
            provider_id: new.provider_id,
            name: &new.name,
            start_at: new.start_at,
            end_at: new.end_at,
            files: new
                .files
                .iter()
                .map(|f| RecordedFile {
                    upload_id: f.upload_id,
                    name: &f.name,
                    tags: &f.tag_ids,
                })
                .collect(),
            lists: new.list_ids.clone(),
        }
    }

    /// A package of `provider_id` as an edit leaves it.
    fn changed(provider_id: i64, change: &'a PackageChange) -> RecordedPackage<'a> {
        RecordedPackage {
            provider_id,
            name: &change.name,
            start_at: change.start_at,
            end_at: change.end_at,
            files: change
                .files
                .iter()
                .map(|f| RecordedFile {
                    upload_id: f.upload_id,
                    name: &f.name,
                    tags: &f.tag_ids,
                })
                .collect(),
            lists: change.list_ids.clone(),
        }
    }
}

/// `POST /api/download/`: name, startAt, endAt, ProviderId, listsIds, uploadsToInsert.
pub async fn create(db: &Db, user: &User, input: &PackageInput) -> ServiceResult<PackageView> {
    let name = name_of(input)?;
    let provider_id = provider_for_new(db, user, input.provider_id).await?;
    let (start_at, end_at) = period_of(input)?;
    let list_ids = checked_lists(
        db,
        provider_id,
        ids_of(input.lists_ids.as_ref(), "listsIds").map_err(invalid)?,
    )
    .await?;
    let mut inputs = file_inputs(input.uploads_to_insert.as_deref(), "uploadsToInsert")?;
    inputs.extend(file_inputs(input.uploads.as_deref(), "Uploads")?);
    let files = new_files(db, user, inputs).await?;
    let new = db::catalog::packages::NewPackage {
        provider_id,
        name,
        start_at,
        end_at,
        files,
        list_ids,
    };
    let audit = Entry::new(&Actor::of(user), Action::Create, Entity::Package, None)
        .with_changes(Changes::created(&RecordedPackage::created(&new)));
    let download = db::catalog::packages::create(db, &new, &audit).await?;
    tracing::info!(download = download.id, "download created");
    get(db, user, download.id).await
}

/// `PUT /api/download/{id}`: name, dates, renames and tags of `Uploads`, `uploadsToDelete`,
/// `uploadsToInsert`, `listsIds` and `uncheckedListsIds`. The provider cannot change.
/// Files no package uses any more are removed.
pub async fn update(
    db: &Db,
    store: &FileStore,
    user: &User,
    id: i64,
    input: &PackageInput,
) -> ServiceResult<PackageView> {
    let download = managed(db, user, id).await?;
    if let Some(provider) = input.provider_id
        && provider.get() != Some(download.provider_id)
    {
        return Err(invalid(
            "Der Anbieter eines Downloads kann nicht geändert werden.",
        ));
    }
    let name = name_of(input)?;
    let (start_at, end_at) = period_of(input)?;

    // Lists: `listsIds` is the new set; without it, the current lists. Minus the unchecked.
    let unchecked =
        ids_of(input.unchecked_lists_ids.as_ref(), "uncheckedListsIds").map_err(invalid)?;
    let lists_before = db::catalog::packages::list_ids(db, id).await?;
    let mut list_ids = match &input.lists_ids {
        Some(lists) => ids_of(Some(lists), "listsIds").map_err(invalid)?,
        None => lists_before.clone(),
    };
    list_ids.retain(|l| !unchecked.contains(l));
    let list_ids = checked_lists(db, download.provider_id, list_ids).await?;

    // Files: those it has, in the order of `Uploads`, renamed and tagged as given; minus
    // `uploadsToDelete`; plus `uploadsToInsert`.
    let current = db::catalog::packages::files_of(db, &[id]).await?;
    let mut current_tags: HashMap<i64, Vec<i64>> = HashMap::new();
    for (_, upload, tag) in db::catalog::packages::tags_of(db, &[id]).await? {
        current_tags.entry(upload).or_default().push(tag);
    }
    for tags in current_tags.values_mut() {
        tags.sort_unstable();
    }
    let no_tags = Vec::new();
    let before = serde_json::to_value(RecordedPackage {
        provider_id: download.provider_id,
        name: &download.name,
        start_at: download.start_at,
        end_at: download.end_at,
        files: current
            .iter()
            .map(|f| RecordedFile {
                upload_id: f.upload_id,
                name: &f.name,
                tags: current_tags.get(&f.upload_id).unwrap_or(&no_tags),
            })
            .collect(),
        lists: lists_before.clone(),
    })
    .unwrap_or_default();
    let to_delete: HashSet<i64> =
        file_inputs(input.uploads_to_delete.as_deref(), "uploadsToDelete")?
            .into_iter()
            .map(|f| f.id)
            .collect();
    let to_insert = file_inputs(input.uploads_to_insert.as_deref(), "uploadsToInsert")?;
    let inserting: HashSet<i64> = to_insert.iter().map(|f| f.id).collect();
    let mut edits: HashMap<i64, FileInput> = HashMap::new();
    let mut order: Vec<i64> = Vec::new();
    for file in file_inputs(input.uploads.as_deref(), "Uploads")? {
        if !current.iter().any(|f| f.upload_id == file.id) {
            if inserting.contains(&file.id) {
                continue;
            }
            return Err(invalid("Eine Datei gehört nicht zu diesem Download."));
        }
        order.push(file.id);
        edits.insert(file.id, file);
    }
    for file in &current {
        if !order.contains(&file.upload_id) {
            order.push(file.upload_id);
        }
    }
    let mut files: Vec<FileState> = Vec::new();
    // Tags given anew, checked together after the loop (one query, not one per file).
    let mut new_tags: Vec<i64> = Vec::new();
    for upload_id in order {
        if to_delete.contains(&upload_id) {
            continue;
        }
        let file = current
            .iter()
            .find(|f| f.upload_id == upload_id)
            .expect("current file");
        let tags_before = current_tags.remove(&upload_id).unwrap_or_default();
        let (name, tag_ids) = match edits.remove(&upload_id) {
            Some(edit) => (edit.name, edit.tag_ids),
            None => (None, None),
        };
        let name = match name {
            Some(name) if name != file.name => FileName::parse(&name, &file.ext)
                .map_err(invalid)?
                .into_inner(),
            _ => file.name.clone(),
        };
        let tag_ids = tag_ids.unwrap_or_else(|| tags_before.clone());
        let mut sorted_new = tag_ids.clone();
        sorted_new.sort_unstable();
        sorted_new.dedup();
        if sorted_new != tags_before {
            new_tags.extend(&sorted_new);
        }
        files.push(FileState {
            upload_id,
            changed: name != file.name || sorted_new != tags_before,
            name,
            tag_ids: sorted_new,
        });
    }
    checked_tags(db, &new_tags).await?;
    let inserted: Vec<FileInput> = to_insert
        .into_iter()
        .filter(|f| !current.iter().any(|c| c.upload_id == f.id))
        .collect();
    for file in new_files(db, user, inserted).await? {
        files.push(FileState {
            upload_id: file.upload_id,
            name: file.name,
            tag_ids: file.tag_ids,
            changed: true,
        });
    }
    let change = PackageChange {
        name,
        start_at,
        end_at,
        files,
        list_ids,
    };
    let after = RecordedPackage::changed(download.provider_id, &change);
    let audit = Entry::new(&Actor::of(user), Action::Update, Entity::Package, Some(id))
        .named(&change.name)
        .with_changes(Changes::between(Some(&before), Some(&after)));
    let (_, removed) = db::catalog::packages::update(db, id, &change, &audit)
        .await?
        .ok_or(ServiceError::NotFound)?;
    crate::services::catalog::uploads::remove_unreferenced(db, store, &removed, &Actor::of(user))
        .await?;
    tracing::info!(download = id, removed = removed.len(), "download updated");
    get(db, user, id).await
}

/// `POST /api/download/duplicate`: a copy of the package `id` that holds the same stored
/// files (no bytes are copied) and lists, named "… (Kopie)" and valid in the next month
/// (first to last day), unless the body names a valid name and dates itself. A body without
/// `id` but with the package's fields (as spec §7 lists them) creates the copy from those.
pub async fn duplicate(db: &Db, user: &User, input: &DuplicateInput) -> ServiceResult<PackageView> {
    let Some(source_id) = input.id.and_then(IdInput::get) else {
        return create(db, user, &input.changes).await;
    };
    let source = managed(db, user, source_id).await?;
    let changes = &input.changes;
    let name = match changes.name.as_deref().map(PackageName::parse) {
        Some(Ok(name)) if name.as_str() != source.name => name,
        _ => PackageName::copy_of(&source.name),
    };
    let (start_at, end_at) = match period_of(changes) {
        Ok(period) if changes.start_at.is_some() => period,
        _ => {
            let (first, last) = next_month_period(berlin_date(Utc::now()));
            (berlin_start_of_day(first), berlin_end_of_day(last))
        }
    };
    let audit = Entry::new(&Actor::of(user), Action::Duplicate, Entity::Package, None)
        .with_changes(
            Changes::none()
                .field("copy_of", serde_json::Value::Null, source_id)
                .field("name", serde_json::Value::Null, name.as_str())
                .field("start_at", serde_json::Value::Null, start_at)
                .field("end_at", serde_json::Value::Null, end_at),
        );
    let copy =
        db::catalog::packages::duplicate(db, source_id, name.as_str(), start_at, end_at, &audit)
            .await?
            .ok_or(ServiceError::NotFound)?;
    tracing::info!(source = source_id, copy = copy.id, "download duplicated");
    get(db, user, copy.id).await
}

/// `PATCH /api/download/changeArchiveStatus/{id}`: archives or restores the package (to
/// `archived` when given, else the other state). Answers the new state.
pub async fn change_archive_status(
    db: &Db,
    user: &User,
    id: i64,
    archived: Option<bool>,
) -> ServiceResult<bool> {
    let download = managed(db, user, id).await?;
    let archived = archived.unwrap_or(!download.archived);
    let action = if archived {
        Action::Archive
    } else {
        Action::Unarchive
    };
    let audit = Entry::new(&Actor::of(user), action, Entity::Package, Some(id))
        .named(&download.name)
        .with_changes(Changes::none().field("archived", download.archived, archived));
    db::catalog::packages::set_archived(db, id, archived, &audit)
        .await?
        .ok_or(ServiceError::NotFound)?;
    Ok(archived)
}

/// `DELETE /api/download/{id}`: deletes the package; files no package uses any more are
/// removed from the database and the disk.
pub async fn delete(db: &Db, store: &FileStore, user: &User, id: i64) -> ServiceResult<()> {
    let download = managed(db, user, id).await?;
    let audit = Entry::new(&Actor::of(user), Action::Delete, Entity::Package, Some(id))
        .with_changes(Changes::deleted(&download));
    let uploads = db::catalog::packages::delete(db, id, &audit)
        .await?
        .ok_or(ServiceError::NotFound)?;
    let removed = crate::services::catalog::uploads::remove_unreferenced(
        db,
        store,
        &uploads,
        &Actor::of(user),
    )
    .await?;
    tracing::info!(download = id, removed, "download deleted");
    Ok(())
}

/// One package for its edit form: `NotFound` when missing, `Forbidden` when the user may
/// not change it.
pub async fn for_edit(db: &Db, user: &User, id: i64) -> ServiceResult<PackageView> {
    managed(db, user, id).await?;
    get(db, user, id).await
}
