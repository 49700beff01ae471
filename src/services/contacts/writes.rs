//! The writes of a contact: create, edit (also its move to another customer), delete and
//! block, each mirrored to the marketing service first and undone there when ours fails.

use super::*;

/// The company as [`ContactBody`] may name it instead of `companyName`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum CompanyInput {
    Name(String),
    #[serde(rename_all = "camelCase")]
    Object {
        #[schema(min_length = 1, max_length = 100)]
        company_name: Option<String>,
    },
}

impl CompanyInput {
    fn name(&self) -> Option<&str> {
        match self {
            CompanyInput::Name(name) => Some(name),
            CompanyInput::Object { company_name } => company_name.as_deref(),
        }
    }
}

/// The company a body names: `companyName`, else `company` (the spec names it both ways).
pub(crate) fn company_of<'a>(
    company_name: Option<&'a str>,
    company: Option<&'a CompanyInput>,
) -> Option<&'a str> {
    company_name.or_else(|| company.and_then(CompanyInput::name))
}

/// The validated fields of a create or edit (spec §5 "Contact create"); the first error in
/// the form's order is reported.
pub(super) struct ContactInput {
    customer_number: i64,
    company_name: String,
    email: Email,
    salutation: Salutation,
    firstname: String,
    lastname: String,
}

pub(super) fn contact_input(body: &ContactBody) -> ServiceResult<ContactInput> {
    let customer_number =
        CustomerNumber::new(body.customer_number.and_then(IdInput::get)).map_err(invalid)?;
    let company_name = company_name(company_of(
        body.company_name.as_deref(),
        body.company.as_ref(),
    ))
    .map_err(invalid)?;
    let email = body
        .email
        .as_deref()
        .ok_or_else(|| invalid(Email::MESSAGE))
        .and_then(|e| Email::parse(e).map_err(invalid))?;
    let salutation =
        Salutation::from_code(body.salutation.and_then(SalutationInput::get)).map_err(invalid)?;
    let firstname = first_name(body.firstname.as_deref()).map_err(invalid)?;
    let lastname = last_name(body.lastname.as_deref()).map_err(invalid)?;
    Ok(ContactInput {
        customer_number: customer_number.get(),
        company_name,
        email,
        salutation,
        firstname,
        lastname,
    })
}

/// Lists the user assigns or removes: they must exist and belong to providers the user may
/// manage. Returns their Brevo ids (those that have one).
pub(crate) async fn checked_lists(db: &Db, user: &User, ids: &[i64]) -> ServiceResult<Vec<i64>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let owners = db::marketing::lists::owners(db, ids).await?;
    if owners.len() != ids.len() {
        return Err(invalid("Ein gewähltes Kriterium existiert nicht."));
    }
    let provider_ids: Vec<i64> = owners.iter().map(|o| o.provider_id).collect();
    let providers = db::marketing::providers::get_many(db, &provider_ids).await?;
    for owner in &owners {
        let allowed = providers
            .iter()
            .find(|p| p.id == owner.provider_id)
            .is_some_and(|p| may_manage_provider(user, &p.allowed_roles));
        if !allowed {
            return Err(ServiceError::Forbidden);
        }
    }
    Ok(owners.iter().filter_map(|o| o.brevo_list_id).collect())
}

/// Refuses an email that another contact uses (409, naming its customer number).
pub(super) async fn check_email_free(
    db: &Db,
    email: &Email,
    except: Option<i64>,
) -> ServiceResult<()> {
    if let Some(other) = db::contacts::find_contact_by_email(db, email.as_str()).await?
        && Some(other.id) != except
    {
        return Err(ServiceError::Conflict {
            code: "email_exists",
            message: email_taken_message(email.as_str(), other.customer_number),
        });
    }
    Ok(())
}

/// A unique violation that slipped past the checks (two saves at once).
pub(super) fn taken_or(err: sqlx::Error, email: &Email) -> ServiceError {
    if db::is_unique_violation(&err) {
        ServiceError::Conflict {
            code: "email_exists",
            message: format!("Die E-Mail {} ist bereits registriert.", email.as_str()),
        }
    } else {
        err.into()
    }
}

pub(super) fn fields(input: &ContactInput, double_opt_in: bool) -> ContactFields<'_> {
    ContactFields {
        customer_number: input.customer_number,
        company_name: &input.company_name,
        salutation: input.salutation,
        firstname: &input.firstname,
        lastname: &input.lastname,
        double_opt_in,
    }
}

/// `POST /api/contacts`: creates the contact (and its company when the customer number is
/// new; an existing company keeps its name) on the given lists, in Brevo first. BU-DOI may
/// only name lists the customer's group has already.
#[tracing::instrument(skip_all)]
pub async fn create(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    body: &ContactBody,
) -> ServiceResult<ContactView> {
    let mut input = contact_input(body)?;
    let list_ids = ids_of(body.lists_ids.as_ref(), "listsIds").map_err(invalid)?;
    let brevo_lists = checked_lists(db, user, &list_ids).await?;
    // BU-DOI adds no lists: a new contact gets only lists its group has (as in the editor).
    if !Capability::ContactDetails.allows(user) && !list_ids.is_empty() {
        let group = db::contacts::list_ids_of_customer(db, input.customer_number).await?;
        if list_ids.iter().any(|l| !group.contains(l)) {
            return Err(ServiceError::Refused(DOI_KEEPS_LISTS.into()));
        }
    }
    check_email_free(db, &input.email, None).await?;
    let email = input.email.as_str().to_string();
    // A new customer number gets its company; an existing one keeps its name.
    if let Some(company) = db::contacts::get_company(db, input.customer_number).await? {
        input.company_name = company.company_name;
    }

    let mut snapshot = mirror::before_change(
        db,
        marketing,
        mirror::identifier(None, &email),
        &email,
        mirror::identifier(None, &email),
        brevo_lists.clone(),
    )
    .await?;
    let brevo_id = match marketing {
        Marketing::Local => None,
        Marketing::Brevo(client) => Some(
            mirror::create_remote(
                client,
                &email,
                fields(&input, false).attributes(),
                brevo_lists,
                false,
            )
            .await?,
        ),
    };
    if let (Some(snapshot), Some(id)) = (snapshot.as_mut(), brevo_id) {
        snapshot.created_as(id);
    }
    let new = db::contacts::NewContact {
        customer_number: input.customer_number,
        brevo_contact_id: brevo_id,
        email: email.clone(),
        salutation: input.salutation.code(),
        firstname: input.firstname.clone(),
        lastname: input.lastname.clone(),
        extern_id: brevo_id.map(|id| id.to_string()),
        double_opt_in: false,
        email_blacklisted: false,
    };
    let company = CompanyWrite::CreateMissing(input.customer_number, &input.company_name);
    let audit = Entry::new(&Actor::of(user), Action::Create, Entity::Contact, None)
        .named(person_name(&new.firstname, &new.lastname))
        .with_changes(Changes::created(&RecordedContact::of_new(
            &new,
            &input.company_name,
            &list_ids,
        )));
    match db::contacts::create_with_lists(db, Some(company), &new, &list_ids, &audit).await {
        Ok(contact) => view(db, contact).await,
        Err(err) => {
            mirror::undo(db, marketing, snapshot).await;
            Err(taken_or(err, &input.email))
        }
    }
}

/// What the audit log keeps of a contact: who it is and where it is assigned (never its
/// consent's client address).
#[derive(Serialize)]
pub(super) struct RecordedContact<'a> {
    customer_number: i64,
    company_name: &'a str,
    email: &'a str,
    salutation: i16,
    firstname: &'a str,
    lastname: &'a str,
    lists: Vec<i64>,
}

impl<'a> RecordedContact<'a> {
    fn of(contact: &'a Contact, mut lists: Vec<i64>) -> RecordedContact<'a> {
        lists.sort_unstable();
        RecordedContact {
            customer_number: contact.customer_number,
            company_name: &contact.company_name,
            email: &contact.email,
            salutation: contact.salutation,
            firstname: &contact.firstname,
            lastname: &contact.lastname,
            lists,
        }
    }

    fn of_new(
        new: &'a db::contacts::NewContact,
        company_name: &'a str,
        lists: &[i64],
    ) -> RecordedContact<'a> {
        let mut lists = lists.to_vec();
        lists.sort_unstable();
        RecordedContact {
            customer_number: new.customer_number,
            company_name,
            email: &new.email,
            salutation: new.salutation,
            firstname: &new.firstname,
            lastname: &new.lastname,
            lists,
        }
    }
}

/// BU-DOI's limit (spec §6), on every call that changes a contact.
pub const DOI_KEEPS_LISTS: &str = "Mit der Rolle BU-DOI können Sie einem Kontakt keine \
     Kriterien hinzufügen und keine entfernen.";

/// The refusal of a move to another customer number.
pub const MOVE_REFUSED: &str = "Der Kontakt kann nicht zu einer anderen Kundennummer \
     verschoben werden: Dafür müssen Sie Kontakte bearbeiten und alle Kriterien des Kontakts \
     verwalten dürfen.";

/// A move to another customer number takes the contact out of its group, with its lists, into
/// another: Admin and BU-Moderator only, and only when they manage each of its lists.
pub(super) async fn check_move(db: &Db, user: &User, list_ids: &[i64]) -> ServiceResult<()> {
    if !Capability::ContactDetails.allows(user) {
        return Err(ServiceError::Refused(MOVE_REFUSED.into()));
    }
    match checked_lists(db, user, list_ids).await {
        Err(ServiceError::Forbidden) => Err(ServiceError::Refused(MOVE_REFUSED.into())),
        other => other.map(drop),
    }
}

pub(super) async fn existing(db: &Db, id: i64) -> ServiceResult<Contact> {
    db::contacts::get_contact(db, id)
        .await?
        .ok_or(ServiceError::NotFound)
}

/// `PUT /api/contacts/{id}`: the same fields plus `uncheckedListsIds`. Lists in `listsIds`
/// are assigned, those in `uncheckedListsIds` taken off; both need the lists' providers
/// (else 403). Salutation and names change only for Admin and BU-Moderator (spec §6); BU-DOI
/// may change the email but, as in the contact editor, neither add lists nor take any off.
/// Another customer number moves the contact into that group: only for Admin and BU-Moderator
/// when they manage every list the contact is on (the lists travel with it and decide what
/// the other customer sees); that group's company keeps its name. A new email ends the
/// consent of the old one, here and in Brevo.
#[tracing::instrument(skip_all, fields(contact = id))]
pub async fn update(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    id: i64,
    body: &ContactBody,
) -> ServiceResult<ContactView> {
    let current = existing(db, id).await?;
    let mut input = contact_input(body)?;
    let may_edit_details = Capability::ContactDetails.allows(user);
    if !may_edit_details {
        let names_changed = input.salutation.code() != current.salutation
            || input.firstname != current.firstname
            || input.lastname != current.lastname;
        if names_changed {
            return Err(ServiceError::Forbidden);
        }
        input.firstname = current.firstname.clone();
        input.lastname = current.lastname.clone();
    }
    let add = ids_of(body.lists_ids.as_ref(), "listsIds").map_err(invalid)?;
    let remove: Vec<i64> = ids_of(body.unchecked_lists_ids.as_ref(), "uncheckedListsIds")
        .map_err(invalid)?
        .into_iter()
        .filter(|l| !add.contains(l))
        .collect();
    let has = db::contacts::list_ids_of_contact(db, id).await?;
    let moving = input.customer_number != current.customer_number;
    if moving {
        check_move(db, user, &has).await?;
    }
    let brevo_add = checked_lists(db, user, &add).await?;
    let brevo_remove = checked_lists(db, user, &remove).await?;
    if !may_edit_details
        && (add.iter().any(|l| !has.contains(l)) || remove.iter().any(|l| has.contains(l)))
    {
        return Err(ServiceError::Refused(DOI_KEEPS_LISTS.into()));
    }
    let company = if moving {
        if let Some(company) = db::contacts::get_company(db, input.customer_number).await? {
            input.company_name = company.company_name;
        }
        CompanyWrite::CreateMissing(input.customer_number, &input.company_name)
    } else {
        CompanyWrite::CreateOrRename(input.customer_number, &input.company_name)
    };
    check_email_free(db, &input.email, Some(id)).await?;

    let email = input.email.as_str().to_string();
    // The confirmation belongs to the address: a new one starts unconfirmed.
    let confirmed = current.double_opt_in && email == current.email;
    let mut touched = brevo_add.clone();
    touched.extend(&brevo_remove);
    let snapshot = mirror::before_change(
        db,
        marketing,
        mirror::identifier(current.brevo_contact_id, &current.email),
        &current.email,
        mirror::identifier(current.brevo_contact_id, &email),
        touched,
    )
    .await?;
    let mut brevo_id = current.brevo_contact_id;
    if let Marketing::Brevo(client) = marketing {
        let update = UpdateContact {
            attributes: mirror::with_email_change(
                fields(&input, confirmed).attributes(),
                &current.email,
                &email,
            ),
            list_ids: brevo_add,
            unlink_list_ids: brevo_remove,
            email_blacklisted: None,
            ext_id: None,
        };
        let target = mirror::identifier(current.brevo_contact_id, &current.email);
        let blacklisted = current.email_blacklisted;
        if let Some(created) =
            mirror::update_or_create(client, target, &email, &update, blacklisted).await?
        {
            brevo_id = Some(created);
        }
    }
    let change = db::contacts::ContactChange {
        customer_number: input.customer_number,
        email: email.clone(),
        salutation: input.salutation.code(),
        firstname: input.firstname.clone(),
        lastname: input.lastname.clone(),
        brevo_contact_id: brevo_id,
        extern_id: brevo_id
            .map(|id| id.to_string())
            .or(current.extern_id.clone()),
    };
    let mut lists_after: Vec<i64> = has
        .iter()
        .filter(|l| !remove.contains(l))
        .copied()
        .collect();
    lists_after.extend(add.iter().filter(|l| !has.contains(l)));
    lists_after.sort_unstable();
    let after = RecordedContact {
        customer_number: change.customer_number,
        company_name: &input.company_name,
        email: &change.email,
        salutation: change.salutation,
        firstname: &change.firstname,
        lastname: &change.lastname,
        lists: lists_after,
    };
    let before = RecordedContact::of(&current, has.clone());
    let audit = Entry::new(&Actor::of(user), Action::Update, Entity::Contact, Some(id))
        .named(person_name(&change.firstname, &change.lastname))
        .with_changes(Changes::between(Some(&before), Some(&after)));
    match db::contacts::update_with_lists(db, id, Some(company), &change, &add, &remove, &audit)
        .await
    {
        Ok(Some(contact)) => view(db, contact).await,
        Ok(None) => {
            mirror::undo(db, marketing, snapshot).await;
            Err(ServiceError::NotFound)
        }
        Err(err) => {
            mirror::undo(db, marketing, snapshot).await;
            Err(taken_or(err, &input.email))
        }
    }
}

/// `DELETE /api/contacts/{id}`.
#[tracing::instrument(skip_all, fields(contact = id))]
pub async fn delete(db: &Db, marketing: &Marketing, user: &User, id: i64) -> ServiceResult<()> {
    let current = existing(db, id).await?;
    let lists = db::contacts::list_ids_of_contact(db, id).await?;
    let audit = Entry::new(&Actor::of(user), Action::Delete, Entity::Contact, Some(id))
        .named(person_name(&current.firstname, &current.lastname))
        .with_changes(Changes::deleted(&RecordedContact::of(&current, lists)));
    let target = || mirror::identifier(current.brevo_contact_id, &current.email);
    let snapshot = mirror::before_change(
        db,
        marketing,
        target(),
        &current.email,
        target(),
        Vec::new(),
    )
    .await?;
    if let Marketing::Brevo(client) = marketing {
        mirror::delete_remote(client, current.brevo_contact_id, &current.email).await?;
    }
    match db::contacts::delete_contact(db, id, &audit).await {
        Ok(_) => Ok(()),
        Err(err) => {
            mirror::undo(
                db,
                marketing,
                snapshot.map(mirror::ContactSnapshot::deleted),
            )
            .await;
            Err(err.into())
        }
    }
}

/// `PATCH /api/contacts/email-blacklist/{id}`: blocks or unblocks the email.
#[tracing::instrument(skip_all, fields(contact = id))]
pub async fn toggle_blacklist(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    id: i64,
) -> ServiceResult<ContactView> {
    let current = existing(db, id).await?;
    let blocked = !current.email_blacklisted;
    let action = if blocked {
        Action::Block
    } else {
        Action::Unblock
    };
    let audit = Entry::new(&Actor::of(user), action, Entity::Contact, Some(id))
        .named(person_name(&current.firstname, &current.lastname))
        .with_changes(Changes::none().field(
            "email_blacklisted",
            current.email_blacklisted,
            blocked,
        ));
    let target = || mirror::identifier(current.brevo_contact_id, &current.email);
    let snapshot = mirror::before_change(
        db,
        marketing,
        target(),
        &current.email,
        target(),
        Vec::new(),
    )
    .await?;
    if let Marketing::Brevo(client) = marketing {
        let update = UpdateContact {
            email_blacklisted: Some(blocked),
            ..UpdateContact::default()
        };
        client.update_contact(target(), &update).await?;
    }
    match db::contacts::set_blacklisted(db, id, blocked, &audit).await {
        Ok(_) => view(db, existing(db, id).await?).await,
        Err(err) => {
            mirror::undo(db, marketing, snapshot).await;
            Err(err.into())
        }
    }
}
