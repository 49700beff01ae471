//! The contact editor's save (spec §5), in its phases: everything checked first, then Brevo,
//! each step undoable, then our database in one transaction.

use super::*;

/// The fields of one contact in the payload.
pub(super) struct PayloadContact {
    email: Email,
    salutation: Salutation,
    firstname: String,
    lastname: String,
}

pub(super) fn fields_of(item: &GroupContactInput) -> ServiceResult<PayloadContact> {
    let email = item.email.as_deref().filter(|e| !e.trim().is_empty());
    let label = email
        .map(|e| format!("Kontakt {}: ", e.trim()))
        .unwrap_or_else(|| "Kontakt ohne E-Mail: ".into());
    let with_label = |message: String| invalid(format!("{label}{message}"));
    let email = item
        .email
        .as_deref()
        .ok_or_else(|| with_label(Email::MESSAGE.into()))
        .and_then(|e| Email::parse(e).map_err(with_label))?;
    Ok(PayloadContact {
        email,
        salutation: Salutation::from_code(item.salutation.and_then(SalutationInput::get))
            .map_err(with_label)?,
        firstname: first_name(item.firstname.as_deref()).map_err(with_label)?,
        lastname: last_name(item.lastname.as_deref()).map_err(with_label)?,
    })
}

/// One step in Brevo, planned before anything is written.
pub(super) enum Step {
    Delete(Contact),
    /// An existing contact: new fields (or the old ones) and the group's list changes.
    Update(Contact, Option<PayloadContact>),
    Create(PayloadContact),
}

/// What the audit log keeps of one save: the company's name, each contact removed, changed or
/// added (before → after), and the lists put on or taken off the group.
pub(super) fn recorded_changes(
    old_company: Option<&str>,
    edit: &GroupEdit,
    steps: &[Step],
) -> Changes {
    let person = |email: &str, salutation: i16, firstname: &str, lastname: &str| {
        serde_json::json!({
            "email": email, "salutation": salutation, "firstname": firstname, "lastname": lastname
        })
    };
    let of_contact = |c: &Contact| person(&c.email, c.salutation, &c.firstname, &c.lastname);
    let mut changes = Changes::none();
    if old_company != Some(edit.company_name.as_str()) {
        changes = changes.field("company_name", old_company, &edit.company_name);
    }
    for step in steps {
        match step {
            Step::Delete(c) => {
                changes = changes.field(&format!("contact {}", c.id), of_contact(c), Value::Null);
            }
            Step::Update(c, Some(_)) => {
                if let Some((_, to)) = edit.change.iter().find(|(id, _)| *id == c.id) {
                    let after = person(&to.email, to.salutation, &to.firstname, &to.lastname);
                    changes = changes.field(&format!("contact {}", c.id), of_contact(c), after);
                }
            }
            Step::Update(_, None) | Step::Create(_) => {}
        }
    }
    for new in &edit.create {
        let after = person(&new.email, new.salutation, &new.firstname, &new.lastname);
        changes = changes.field(&format!("new contact {}", new.email), Value::Null, after);
    }
    if !edit.add_lists.is_empty() {
        changes = changes.field("listsAdded", Value::Null, &edit.add_lists);
    }
    if !edit.remove_lists.is_empty() {
        changes = changes.field("listsRemoved", Value::Null, &edit.remove_lists);
    }
    changes
}

/// `PUT /api/contacts/customer-number/{n}`: the editor's save (see the module comment), in
/// three phases: everything checked first ([`planned_steps`], [`planned_lists`]), then Brevo,
/// each step undoable ([`mirror_steps`]), then our database in one transaction
/// ([`write_group`]).
#[tracing::instrument(skip_all, fields(customer_number = number_text))]
pub async fn save(
    db: &Db,
    marketing: &Marketing,
    planning: Option<&PlanningClient>,
    user: &User,
    number_text: &str,
    body: &CustomerGroupInput,
) -> ServiceResult<CustomerGroup> {
    let number = number_of(number_text)?;
    if let Some(given) = body.customer_number
        && given.get() != Some(number)
    {
        return Err(invalid(
            "Die Kundennummer im Formular passt nicht zur Kundennummer der Seite.",
        ));
    }
    let company = company_of(body.company_name.as_deref(), body.company.as_ref());
    let company = company_name(company).map_err(invalid)?;
    let (steps, old_company) = planned_steps(db, user, number, body).await?;
    let lists = planned_lists(db, user, number, body, &steps).await?;
    let mut edit = GroupEdit {
        customer_number: number,
        company_name: company.clone(),
        add_lists: lists.add.clone(),
        remove_lists: lists.remove.clone(),
        ..GroupEdit::default()
    };
    let done = mirror_steps(db, marketing, &steps, &lists, &mut edit).await?;
    write_group(
        db,
        marketing,
        user,
        &edit,
        old_company.as_deref(),
        &steps,
        done,
    )
    .await?;
    load(db, planning, number_text).await
}

/// The contact steps of a save, checked: who may change what, no email twice in the group,
/// none another customer uses. With the company's name before the save.
pub(super) async fn planned_steps(
    db: &Db,
    user: &User,
    number: i64,
    body: &CustomerGroupInput,
) -> ServiceResult<(Vec<Step>, Option<String>)> {
    let may_edit_details = Capability::ContactDetails.allows(user);
    let current = db::contacts::list_by_customer_number(db, number).await?;
    let old_company = current.first().map(|c| c.company_name.clone());
    let mut by_id: HashMap<i64, Contact> = current.into_iter().map(|c| (c.id, c)).collect();
    let items = body.contacts.as_deref().unwrap_or_default();
    let imported = body.alpha_plan_contacts.as_deref().unwrap_or_default();
    if items.len() + imported.len() > MAX_CONTACTS_PER_SAVE {
        return Err(invalid(format!(
            "Es können höchstens {MAX_CONTACTS_PER_SAVE} Kontakte auf einmal gespeichert werden."
        )));
    }

    let mut steps = Vec::new();
    let mut named = HashSet::new();
    for item in items {
        match item.id {
            Some(id) => {
                if !named.insert(id) {
                    return Err(invalid(format!("Der Kontakt {id} ist doppelt angegeben.")));
                }
                let contact = by_id.remove(&id).ok_or_else(|| {
                    invalid(format!(
                        "Der Kontakt {id} gehört nicht zur Kundennummer {number}."
                    ))
                })?;
                if item.remove == Some(true) {
                    if !may_edit_details {
                        return Err(ServiceError::Forbidden);
                    }
                    steps.push(Step::Delete(contact));
                } else {
                    let fields = fields_of(item)?;
                    let names_changed = fields.salutation.code() != contact.salutation
                        || fields.firstname != contact.firstname
                        || fields.lastname != contact.lastname;
                    if names_changed && !may_edit_details {
                        return Err(ServiceError::Forbidden);
                    }
                    let changed = names_changed || fields.email.as_str() != contact.email;
                    steps.push(Step::Update(contact, changed.then_some(fields)));
                }
            }
            None => steps.push(Step::Create(fields_of(item)?)),
        }
    }
    for item in imported {
        steps.push(Step::Create(fields_of(item)?));
    }
    // The contacts not named stay, and get the group's list changes too.
    let mut untouched: Vec<Contact> = by_id.into_values().collect();
    untouched.sort_by_key(|c| c.id);
    steps.extend(untouched.into_iter().map(|c| Step::Update(c, None)));

    // No email twice in the group after the save; none that another customer uses.
    let mut emails = HashSet::new();
    for step in &steps {
        let email = match step {
            Step::Delete(_) => continue,
            Step::Update(_, Some(f)) | Step::Create(f) => f.email.as_str().to_string(),
            Step::Update(c, None) => c.email.clone(),
        };
        if !emails.insert(email) {
            return Err(ServiceError::Conflict {
                code: "email_exists",
                message: DUPLICATE_EMAIL.into(),
            });
        }
    }
    // One query for all new and changed emails (up to 500), in the payload's order.
    let asked: Vec<String> = steps
        .iter()
        .filter_map(|step| match step {
            Step::Update(_, Some(f)) | Step::Create(f) => Some(f.email.as_str().to_string()),
            _ => None,
        })
        .collect();
    let owners: HashMap<String, i64> = db::contacts::customer_numbers_of_emails(db, &asked)
        .await?
        .into_iter()
        .collect();
    if let Some((email, other)) = asked
        .iter()
        .find_map(|e| owners.get(e).filter(|n| **n != number).map(|n| (e, *n)))
    {
        return Err(ServiceError::Conflict {
            code: "email_exists",
            message: email_taken_message(email, other),
        });
    }

    Ok((steps, old_company))
}

/// The list changes of a save, checked against the user's rights and the criterion rule.
pub(super) struct ListPlan {
    add: Vec<i64>,
    remove: Vec<i64>,
    /// Brevo's ids of the lists every contact is put on, and taken off.
    brevo_add: Vec<i64>,
    brevo_remove: Vec<i64>,
}

pub(super) async fn planned_lists(
    db: &Db,
    user: &User,
    number: i64,
    body: &CustomerGroupInput,
    steps: &[Step],
) -> ServiceResult<ListPlan> {
    let may_edit_details = Capability::ContactDetails.allows(user);
    // Spec §5: holding BU-DOI (also beside another role) exempts from the criterion rule.
    let needs_criterion = !user.has_role(BU_DOI);
    // Lists: those the group has may stay (also for new contacts); adding others or taking
    // any off needs the provider's role, and BU-DOI does neither (spec §6).
    let add = ids_of(body.lists_ids.as_ref(), "listsIds").map_err(invalid)?;
    let remove: Vec<i64> = ids_of(body.unchecked_lists_ids.as_ref(), "uncheckedListsIds")
        .map_err(invalid)?
        .into_iter()
        .filter(|l| !add.contains(l))
        .collect();
    let has: HashSet<i64> = db::contacts::list_ids_of_customer(db, number)
        .await?
        .into_iter()
        .collect();
    let new_lists: Vec<i64> = add.iter().copied().filter(|l| !has.contains(l)).collect();
    if !may_edit_details && (!new_lists.is_empty() || remove.iter().any(|l| has.contains(l))) {
        return Err(ServiceError::Refused(DOI_KEEPS_LISTS.into()));
    }
    checked_lists(db, user, &new_lists).await?;
    let brevo_remove = checked_lists(db, user, &remove).await?;
    let owners = db::marketing::lists::owners(db, &add).await?;
    if owners.len() != add.len() {
        return Err(invalid("Ein gewähltes Kriterium existiert nicht."));
    }
    let brevo_add: Vec<i64> = owners.iter().filter_map(|o| o.brevo_list_id).collect();
    let keeps_contacts = steps.iter().any(|s| !matches!(s, Step::Delete(_)));
    if add.is_empty() && keeps_contacts && needs_criterion {
        return Err(invalid(CRITERION_REQUIRED));
    }

    Ok(ListPlan {
        add,
        remove,
        brevo_add,
        brevo_remove,
    })
}

/// Brevo's side of a save, step by step; on a refusal what was done is undone (or left to
/// the background retry when Brevo is gone) and the save is refused. What `edit` must write
/// is filled in on the way (Brevo's ids of new contacts).
pub(super) async fn mirror_steps(
    db: &Db,
    marketing: &Marketing,
    steps: &[Step],
    lists: &ListPlan,
    edit: &mut GroupEdit,
) -> ServiceResult<Vec<Option<ContactSnapshot>>> {
    let mut done: Vec<Option<ContactSnapshot>> = Vec::new();
    let (number, company) = (edit.customer_number, edit.company_name.clone());
    for step in steps {
        match brevo_step(
            db,
            marketing,
            step,
            number,
            &company,
            &lists.brevo_add,
            &lists.brevo_remove,
            edit,
        )
        .await
        {
            Ok(snapshot) => done.push(snapshot),
            Err(err) => {
                let undone = done.len();
                let all_undone = match &err {
                    // Brevo gone or hanging: the undos wait for the background retry.
                    ServiceError::Marketing(cause) if cause.is_unavailable() => {
                        for snapshot in done {
                            mirror::defer_undo(db, snapshot, cause).await;
                        }
                        undone == 0
                    }
                    _ => undo_all(db, marketing, done).await,
                };
                return Err(refused(err, undone, all_undone));
            }
        }
    }
    Ok(done)
}

/// Our database's side of a save, in one transaction with its audit entry; when it fails,
/// Brevo's steps (`done`) are undone.
pub(super) async fn write_group(
    db: &Db,
    marketing: &Marketing,
    user: &User,
    edit: &GroupEdit,
    old_company: Option<&str>,
    steps: &[Step],
    done: Vec<Option<ContactSnapshot>>,
) -> ServiceResult<()> {
    let audit = Entry::new(
        &Actor::of(user),
        Action::Update,
        Entity::CustomerGroup,
        Some(edit.customer_number),
    )
    .named(edit.company_name.as_str())
    .with_changes(recorded_changes(old_company, edit, steps));
    let written = db::contacts::customer_groups::apply(db, edit, db::now(), &audit).await;
    match written {
        Ok(true) => {}
        Ok(false) => {
            undo_all(db, marketing, done).await;
            return Err(ServiceError::Conflict {
                code: "changed_meanwhile",
                message: "Die Kontakte wurden zwischenzeitlich geändert. Bitte laden Sie die \
                          Seite neu."
                    .into(),
            });
        }
        Err(err) => {
            undo_all(db, marketing, done).await;
            if db::is_unique_violation(&err) {
                return Err(ServiceError::Conflict {
                    code: "email_exists",
                    message: DUPLICATE_EMAIL.into(),
                });
            }
            return Err(err.into());
        }
    }
    Ok(())
}

/// Puts Brevo back step by step, newest first; false when an undo had to be stored for the
/// background retry.
pub(super) async fn undo_all(
    db: &Db,
    marketing: &Marketing,
    done: Vec<Option<ContactSnapshot>>,
) -> bool {
    let mut all = true;
    for snapshot in done.into_iter().rev() {
        all &= mirror::undo(db, marketing, snapshot).await;
    }
    all
}

/// Brevo's refusal, with what happened to the steps before it.
pub(super) fn refused(err: ServiceError, undone: usize, all_undone: bool) -> ServiceError {
    match err {
        ServiceError::Marketing(err) => {
            tracing::error!(error = %err, undone, "customer group refused by Brevo");
            let mut message = String::from(
                "Brevo hat eine Änderung abgelehnt oder war nicht erreichbar; es wurde nichts \
                 gespeichert.",
            );
            if undone > 0 && all_undone {
                message.push_str(&format!(
                    " {undone} bereits in Brevo ausgeführte Änderung(en) wurden zurückgenommen."
                ));
            } else if undone > 0 {
                message.push_str(&format!(
                    " {undone} bereits in Brevo ausgeführte Änderung(en) werden automatisch \
                     zurückgenommen, sobald Brevo wieder erreichbar ist."
                ));
            }
            ServiceError::Upstream(message)
        }
        other => other,
    }
}

pub(super) fn attributes(
    number: i64,
    company: &str,
    salutation: Salutation,
    firstname: &str,
    lastname: &str,
    double_opt_in: bool,
) -> Map<String, Value> {
    ContactFields {
        customer_number: number,
        company_name: company,
        salutation,
        firstname,
        lastname,
        double_opt_in,
    }
    .attributes()
}

/// Does one step in Brevo (nothing in local mode) and records its database part in `edit`.
#[allow(clippy::too_many_arguments)]
pub(super) async fn brevo_step(
    db: &Db,
    marketing: &Marketing,
    step: &Step,
    number: i64,
    company: &str,
    brevo_add: &[i64],
    brevo_remove: &[i64],
    edit: &mut GroupEdit,
) -> ServiceResult<Option<ContactSnapshot>> {
    let client: Option<&BrevoClient> = match marketing {
        Marketing::Brevo(client) => Some(client),
        Marketing::Local => None,
    };
    match step {
        Step::Delete(contact) => {
            let target = || mirror::identifier(contact.brevo_contact_id, &contact.email);
            let snapshot = mirror::before_change(
                db,
                marketing,
                target(),
                &contact.email,
                target(),
                Vec::new(),
            )
            .await?;
            if let Some(client) = client {
                mirror::delete_remote(client, contact.brevo_contact_id, &contact.email).await?;
            }
            edit.remove.push(contact.id);
            Ok(snapshot.map(ContactSnapshot::deleted))
        }
        Step::Update(contact, fields) => {
            let email = fields
                .as_ref()
                .map_or(contact.email.clone(), |f| f.email.as_str().to_string());
            let mut touched = brevo_add.to_vec();
            touched.extend(brevo_remove);
            let snapshot = mirror::before_change(
                db,
                marketing,
                mirror::identifier(contact.brevo_contact_id, &contact.email),
                &contact.email,
                mirror::identifier(contact.brevo_contact_id, &email),
                touched,
            )
            .await?;
            let salutation = match fields {
                Some(f) => f.salutation,
                None => Salutation::from_code(Some(contact.salutation)).unwrap_or(Salutation::NONE),
            };
            let (firstname, lastname) = match fields {
                Some(f) => (f.firstname.as_str(), f.lastname.as_str()),
                None => (contact.firstname.as_str(), contact.lastname.as_str()),
            };
            let mut brevo_id = contact.brevo_contact_id;
            if let Some(client) = client {
                // The confirmation belongs to the address: a new one starts unconfirmed.
                let attrs = attributes(
                    number,
                    company,
                    salutation,
                    firstname,
                    lastname,
                    contact.double_opt_in && email == contact.email,
                );
                let update = UpdateContact {
                    attributes: mirror::with_email_change(attrs, &contact.email, &email),
                    list_ids: brevo_add.to_vec(),
                    unlink_list_ids: brevo_remove.to_vec(),
                    email_blacklisted: None,
                    ext_id: None,
                };
                let target = mirror::identifier(contact.brevo_contact_id, &contact.email);
                let blacklisted = contact.email_blacklisted;
                if let Some(created) =
                    mirror::update_or_create(client, target, &email, &update, blacklisted).await?
                {
                    brevo_id = Some(created);
                }
            }
            let changed = fields.is_some() || brevo_id != contact.brevo_contact_id;
            if changed {
                edit.change.push((
                    contact.id,
                    ContactChange {
                        customer_number: number,
                        email,
                        salutation: salutation.code(),
                        firstname: firstname.to_string(),
                        lastname: lastname.to_string(),
                        brevo_contact_id: brevo_id,
                        extern_id: brevo_id
                            .map(|id| id.to_string())
                            .or(contact.extern_id.clone()),
                    },
                ));
            }
            Ok(snapshot)
        }
        Step::Create(fields) => {
            let email = fields.email.as_str().to_string();
            let mut snapshot = mirror::before_change(
                db,
                marketing,
                mirror::identifier(None, &email),
                &email,
                mirror::identifier(None, &email),
                brevo_add.to_vec(),
            )
            .await?;
            let mut brevo_id = None;
            if let Some(client) = client {
                let attrs = attributes(
                    number,
                    company,
                    fields.salutation,
                    &fields.firstname,
                    &fields.lastname,
                    false,
                );
                let id =
                    mirror::create_remote(client, &email, attrs, brevo_add.to_vec(), false).await?;
                if let Some(snapshot) = snapshot.as_mut() {
                    snapshot.created_as(id);
                }
                brevo_id = Some(id);
            }
            edit.create.push(NewContact {
                customer_number: number,
                brevo_contact_id: brevo_id,
                email,
                salutation: fields.salutation.code(),
                firstname: fields.firstname.clone(),
                lastname: fields.lastname.clone(),
                extern_id: brevo_id.map(|id| id.to_string()),
                double_opt_in: false,
                email_blacklisted: false,
            });
            Ok(snapshot)
        }
    }
}
