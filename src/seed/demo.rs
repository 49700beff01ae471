//! Demo data: a small, realistic German data set for a fresh portal (`seed-demo`).
//!
//! Four providers with their marketing folders, criteria and logos, three customer groups with
//! contacts, tags, and seven downloads spread over past, current, upcoming and ending-soon date
//! ranges (one archived), each with real small files (PDF, PNG, SVG, text, ZIP; see
//! [`samples`]) written through the [`FileStore`]. Seeding is idempotent: when any provider
//! exists it changes nothing and says so.

use std::fmt;

use chrono::{Duration, Utc};
use serde::Serialize;

use crate::db::{
    Db, catalog::packages, catalog::tags, catalog::uploads, contacts, marketing::folders,
    marketing::lists, marketing::providers,
};
use crate::domain::audit::{Action, Actor, Changes, Entity, Entry};
use crate::domain::time::{berlin_date, berlin_end_of_day, berlin_start_of_day};
use crate::seed::samples::{self, Banner, FLYER_PDF, PRICE_LIST_PDF};
use crate::storage::FileStore;

/// What [`seed_demo`] created (all zero and `skipped` when data was already there).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SeedSummary {
    pub skipped: bool,
    pub providers: usize,
    pub folders: usize,
    pub lists: usize,
    pub companies: usize,
    pub contacts: usize,
    pub tags: usize,
    pub downloads: usize,
    pub uploads: usize,
    /// Download events of the month before today (statistics).
    pub download_events: usize,
    /// Total size of the files written.
    pub bytes: u64,
}

impl fmt::Display for SeedSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.skipped {
            return write!(
                f,
                "Demo-Daten übersprungen: Es sind bereits Anbieter vorhanden, nichts wurde geändert."
            );
        }
        write!(
            f,
            "Demo-Daten angelegt: {} Anbieter, {} Marketing-Ordner, {} Kriterien, {} Firmen, {} Kontakte, \
             {} Tags, {} Downloads, {} Dateien, {} Download-Ereignisse",
            self.providers,
            self.folders,
            self.lists,
            self.companies,
            self.contacts,
            self.tags,
            self.downloads,
            self.uploads,
            self.download_events
        )
    }
}

struct ProviderSeed {
    name: &'static str,
    roles: &'static [&'static str],
    /// Colour of the provider's SVG posters.
    color: &'static str,
    /// The logo: a shipped PNG, a type the portal takes as a logo (an uploaded SVG is refused,
    /// so a demo provider must not have one either, or its edit form could not be saved).
    logo: &'static [u8],
    /// (name, active)
    lists: &'static [(&'static str, bool)],
}

const PROVIDERS: &[ProviderSeed] = &[
    ProviderSeed {
        name: "Stadtwerke Nord",
        roles: &["GS-Aktionsportal-BU-Stadtwerke"],
        color: "#0d6efd",
        logo: include_bytes!("../../assets/seed/logo-stadtwerke-nord.png"),
        lists: &[
            ("Privatkunden Strom Nord", true),
            ("Gewerbekunden Wärme", true),
            ("Altkunden Rückgewinnung", false),
        ],
    },
    ProviderSeed {
        name: "Glasfaser Süd",
        roles: &["GS-Aktionsportal-BU-Glasfaser"],
        color: "#198754",
        logo: include_bytes!("../../assets/seed/logo-glasfaser-sued.png"),
        lists: &[
            ("Glasfaser Privatkunden", true),
            ("Glasfaser Geschäftskunden", true),
            ("Vorvermarktung Landkreis", false),
        ],
    },
    ProviderSeed {
        name: "Energie Plus",
        roles: &[
            "GS-Aktionsportal-BU-Energie",
            "Vertriebspartner Energie Plus",
        ],
        color: "#fd7e14",
        logo: include_bytes!("../../assets/seed/logo-energie-plus.png"),
        lists: &[
            ("Ökostrom Neukunden", true),
            ("Energieberatung Premium", true),
        ],
    },
    ProviderSeed {
        name: "Mobilfunk Mitte",
        roles: &["GS-Aktionsportal-BU-Mobilfunk"],
        color: "#6f42c1",
        logo: include_bytes!("../../assets/seed/logo-mobilfunk-mitte.png"),
        lists: &[
            ("Mobilfunk Tarifwechsler", true),
            ("Mobilfunk Business", true),
            ("Prepaid Bestandskunden", false),
        ],
    },
];

struct ContactSeed {
    salutation: i16,
    firstname: &'static str,
    lastname: &'static str,
    email: &'static str,
    double_opt_in: bool,
    blacklisted: bool,
    /// Indexes into the flat list of seeded criteria.
    lists: &'static [usize],
}

struct CompanySeed {
    customer_number: i64,
    name: &'static str,
    contacts: &'static [ContactSeed],
}

// Criteria indexes: 0–2 Stadtwerke Nord, 3–5 Glasfaser Süd, 6–7 Energie Plus, 8–10 Mobilfunk Mitte.
const COMPANIES: &[CompanySeed] = &[
    CompanySeed {
        customer_number: 100_001,
        name: "Müller & Söhne Vertriebs GmbH",
        contacts: &[
            ContactSeed {
                salutation: contacts::salutation::HERR,
                firstname: "Thomas",
                lastname: "Müller",
                email: "thomas.mueller@example.de",
                double_opt_in: true,
                blacklisted: false,
                lists: &[0, 3, 8],
            },
            ContactSeed {
                salutation: contacts::salutation::FRAU,
                firstname: "Sabine",
                lastname: "Müller",
                email: "sabine.mueller@example.de",
                double_opt_in: false,
                blacklisted: false,
                lists: &[3],
            },
            ContactSeed {
                salutation: contacts::salutation::FIRMA,
                firstname: "Vertrieb",
                lastname: "Müller & Söhne",
                email: "vertrieb@mueller-soehne.example.de",
                double_opt_in: true,
                blacklisted: false,
                lists: &[1, 4],
            },
        ],
    },
    CompanySeed {
        customer_number: 100_002,
        name: "Bäckerei Schneider KG",
        contacts: &[
            ContactSeed {
                salutation: contacts::salutation::FRAU,
                firstname: "Anna",
                lastname: "Schneider",
                email: "anna.schneider@example.de",
                double_opt_in: true,
                blacklisted: false,
                lists: &[6, 7],
            },
            ContactSeed {
                salutation: contacts::salutation::HERR,
                firstname: "Jürgen",
                lastname: "Schneider",
                email: "juergen.schneider@example.de",
                double_opt_in: true,
                blacklisted: true,
                lists: &[6],
            },
        ],
    },
    CompanySeed {
        customer_number: 100_003,
        name: "Weber Energieberatung e.K.",
        contacts: &[
            ContactSeed {
                salutation: contacts::salutation::DIVERSES,
                firstname: "Alex",
                lastname: "Weber",
                email: "alex.weber@example.de",
                double_opt_in: true,
                blacklisted: false,
                lists: &[0, 6, 9],
            },
            ContactSeed {
                salutation: contacts::salutation::FRAU,
                firstname: "Petra",
                lastname: "Weber-Klein",
                email: "petra.weber-klein@example.de",
                double_opt_in: false,
                blacklisted: false,
                lists: &[7],
            },
            ContactSeed {
                salutation: contacts::salutation::HERR,
                firstname: "Lukas",
                lastname: "Becker",
                email: "lukas.becker@example.de",
                double_opt_in: true,
                blacklisted: false,
                lists: &[4, 9],
            },
        ],
    },
];

/// (name, icon)
const TAGS: &[(&str, &str)] = &[
    ("Flyer", "bi bi-file-earmark-pdf"),
    ("Plakat", "bi bi-image"),
    ("Social Media", "bi bi-share"),
];
const TAG_FLYER: usize = 0;
const TAG_PLAKAT: usize = 1;
const TAG_SOCIAL: usize = 2;

enum FileKind {
    /// A shipped sample PDF.
    Pdf(&'static [u8]),
    /// A shipped PNG banner.
    Png(Banner),
    /// An SVG poster: headline and subline.
    Svg(&'static str, &'static str),
    /// A provider's PNG logo (240 × 80, fits a 40 px high toolbar or table cell).
    Logo(&'static [u8]),
    Text(&'static str),
    /// A ZIP archive of PNG banners: (file name, banner).
    Zip(&'static [(&'static str, Banner)]),
}

struct FileSeed {
    name: &'static str,
    kind: FileKind,
    tags: &'static [usize],
}

struct PackageSeed {
    provider: usize,
    name: &'static str,
    /// Days from today (UTC) of the first and last day.
    start_day: i64,
    end_day: i64,
    archived: bool,
    /// Indexes into the flat list of seeded criteria.
    lists: &'static [usize],
    files: &'static [FileSeed],
}

const DOWNLOADS: &[PackageSeed] = &[
    PackageSeed {
        provider: 1,
        name: "Glasfaser-Sommeraktion Privatkunden",
        start_day: -2,
        end_day: 45,
        archived: false,
        lists: &[3],
        files: &[
            FileSeed {
                name: "Flyer Glasfaser Sommeraktion.pdf",
                kind: FileKind::Pdf(FLYER_PDF),
                tags: &[TAG_FLYER],
            },
            FileSeed {
                name: "Banner Glasfaser Sommeraktion.png",
                kind: FileKind::Png(Banner::Green),
                tags: &[TAG_SOCIAL],
            },
        ],
    },
    PackageSeed {
        provider: 1,
        name: "Glasfaser Gewerbe Infopaket",
        start_day: 10,
        end_day: 70,
        archived: false,
        lists: &[4],
        files: &[
            FileSeed {
                name: "Preisübersicht Glasfaser Gewerbe.pdf",
                kind: FileKind::Pdf(PRICE_LIST_PDF),
                tags: &[TAG_FLYER],
            },
            FileSeed {
                name: "Hinweise zur Aktion.txt",
                kind: FileKind::Text(
                    "Hinweise zur Aktion „Glasfaser Gewerbe Infopaket“\n\n\
                     - Die Unterlagen dürfen nur im Rahmen der Aktion verwendet werden.\n\
                     - Bitte keine eigenen Preise ergänzen.\n\
                     - Fragen an: vertrieb@glasfaser-sued.example.de\n",
                ),
                tags: &[],
            },
        ],
    },
    PackageSeed {
        provider: 0,
        name: "Stadtwerke Nord Strom-Wechselbonus",
        start_day: -40,
        end_day: 3,
        archived: false,
        lists: &[0, 1],
        files: &[
            FileSeed {
                name: "Flyer Wechselbonus Strom.pdf",
                kind: FileKind::Pdf(FLYER_PDF),
                tags: &[TAG_FLYER],
            },
            FileSeed {
                name: "Plakat Wechselbonus A1.svg",
                kind: FileKind::Svg("100 € Wechselbonus", "Stadtwerke Nord – Ihr Strom vor Ort"),
                tags: &[TAG_PLAKAT],
            },
        ],
    },
    PackageSeed {
        provider: 0,
        name: "Stadtwerke Nord Wärmepumpen-Kampagne",
        start_day: -30,
        end_day: 90,
        archived: false,
        lists: &[1],
        files: &[
            FileSeed {
                name: "Broschüre Wärmepumpe.pdf",
                kind: FileKind::Pdf(FLYER_PDF),
                tags: &[TAG_FLYER],
            },
            FileSeed {
                name: "Social-Media-Grafik Wärmepumpe.png",
                kind: FileKind::Png(Banner::Blue),
                tags: &[TAG_SOCIAL, TAG_PLAKAT],
            },
        ],
    },
    PackageSeed {
        provider: 2,
        name: "Energie Plus Ökostrom Frühjahr",
        start_day: -90,
        end_day: -10,
        archived: false,
        lists: &[6],
        files: &[FileSeed {
            name: "Flyer Ökostrom Frühjahr.pdf",
            kind: FileKind::Pdf(FLYER_PDF),
            tags: &[TAG_FLYER],
        }],
    },
    PackageSeed {
        provider: 2,
        name: "Energie Plus Winterkampagne Vorjahr",
        start_day: -400,
        end_day: -300,
        archived: true,
        lists: &[6, 7],
        files: &[
            FileSeed {
                name: "Flyer Winterkampagne.pdf",
                kind: FileKind::Pdf(FLYER_PDF),
                tags: &[TAG_FLYER],
            },
            FileSeed {
                name: "Textbausteine Winterkampagne.txt",
                kind: FileKind::Text(
                    "Textbausteine für Newsletter und Social Media\n\n\
                     1. Warm durch den Winter – mit Energie Plus.\n\
                     2. Jetzt 50 € Heizkostenzuschuss sichern!\n",
                ),
                tags: &[TAG_SOCIAL],
            },
        ],
    },
    PackageSeed {
        provider: 3,
        name: "Mobilfunk Mitte Tarifwechsel-Aktion",
        start_day: -5,
        end_day: 25,
        archived: false,
        lists: &[8, 9],
        files: &[
            FileSeed {
                name: "Plakat Tarifwechsel.svg",
                kind: FileKind::Svg("Doppeltes Datenvolumen", "Mobilfunk Mitte – jetzt wechseln"),
                tags: &[TAG_PLAKAT],
            },
            FileSeed {
                name: "Tarifblatt Mobilfunk.pdf",
                kind: FileKind::Pdf(PRICE_LIST_PDF),
                tags: &[TAG_FLYER],
            },
            FileSeed {
                name: "Social-Media-Paket Tarifwechsel.zip",
                kind: FileKind::Zip(&[
                    ("Story Tarifwechsel.png", Banner::Purple),
                    ("Beitrag Tarifwechsel.png", Banner::Pink),
                ]),
                tags: &[TAG_SOCIAL],
            },
            FileSeed {
                name: "Anleitung Rufnummernmitnahme.txt",
                kind: FileKind::Text(
                    "So nehmen Sie Ihre Rufnummer mit:\n\n\
                     1. Beim bisherigen Anbieter die Portierung ankündigen.\n\
                     2. Neuen Vertrag bei Mobilfunk Mitte abschließen.\n\
                     3. Die Umstellung erfolgt innerhalb von 24 Stunden.\n",
                ),
                tags: &[],
            },
        ],
    },
];

/// Seeds the demo data set unless providers exist already.
/// The audit entry of a record the demo data creates: made with the CLI, named.
fn seeded(entity: Entity, name: &str) -> Entry {
    Entry::new(&Actor::Cli, Action::Create, entity, None).with_changes(Changes::none().field(
        "name",
        serde_json::Value::Null,
        name,
    ))
}

/// The demo's tags.
async fn seed_tags(db: &Db, summary: &mut SeedSummary) -> anyhow::Result<Vec<i64>> {
    let mut tag_ids = Vec::new();
    for (name, icon) in TAGS {
        tag_ids.push(
            tags::create(db, name, icon, &seeded(Entity::Tag, name))
                .await?
                .id,
        );
        summary.tags += 1;
    }

    Ok(tag_ids)
}

/// The demo's providers with their folders, logos and lists, and one from before folders were
/// required; the ids of the providers and of their lists, in the order of `PROVIDERS`.
async fn seed_providers(
    db: &Db,
    files: &FileStore,
    summary: &mut SeedSummary,
) -> anyhow::Result<(Vec<i64>, Vec<i64>)> {
    let mut provider_ids = Vec::new();
    let mut list_ids = Vec::new();
    for seed in PROVIDERS {
        let active = folders::create(db, &format!("{} (aktiv)", seed.name)).await?;
        let inactive = folders::create(db, &format!("{} (inaktiv)", seed.name)).await?;
        summary.folders += 2;
        let logo = store_file(
            db,
            files,
            &format!("Logo {}.png", seed.name),
            &FileKind::Logo(seed.logo),
            seed.color,
            summary,
        )
        .await?;
        let provider = providers::create(
            db,
            &providers::NewProvider {
                name: seed.name.to_string(),
                allowed_roles: seed.roles.iter().map(|r| r.to_string()).collect(),
                brevo_active_folder_id: Some(active.id),
                brevo_inactive_folder_id: Some(inactive.id),
                upload_id: Some(logo),
            },
            &seeded(Entity::Provider, seed.name),
        )
        .await?;
        summary.providers += 1;
        provider_ids.push(provider.id);
        for (name, active) in seed.lists {
            let list = lists::create(
                db,
                &lists::NewListRecord {
                    provider_id: provider.id,
                    name: name.to_string(),
                    brevo_list_id: None,
                    active: *active,
                },
                &seeded(Entity::List, name),
            )
            .await?;
            list_ids.push(list.id);
            summary.lists += 1;
        }
    }

    // A provider from before marketing folders were required: its lists cannot change status
    // until both folders are set (the change_folder_warning case of spec §4).
    let legacy = providers::create(
        db,
        &providers::NewProvider {
            name: "Altbestand ohne Ordner".into(),
            allowed_roles: vec!["GS-Aktionsportal-BU-Altbestand".into()],
            brevo_active_folder_id: None,
            brevo_inactive_folder_id: None,
            upload_id: None,
        },
        &seeded(Entity::Provider, "Altbestand ohne Ordner"),
    )
    .await?;
    summary.providers += 1;
    lists::create(
        db,
        &lists::NewListRecord {
            provider_id: legacy.id,
            name: "Bestandskunden Altvertrag".into(),
            brevo_list_id: None,
            active: true,
        },
        &seeded(Entity::List, "Bestandskunden Altvertrag"),
    )
    .await?;
    summary.lists += 1;

    Ok((provider_ids, list_ids))
}

/// The demo's companies and their contacts on their lists.
async fn seed_companies(
    db: &Db,
    list_ids: &[i64],
    summary: &mut SeedSummary,
) -> anyhow::Result<()> {
    for company in COMPANIES {
        contacts::upsert_company(db, company.customer_number, company.name).await?;
        summary.companies += 1;
        for (i, seed) in company.contacts.iter().enumerate() {
            let contact = contacts::create_contact(
                db,
                &contacts::NewContact {
                    customer_number: company.customer_number,
                    brevo_contact_id: None,
                    email: seed.email.to_string(),
                    salutation: seed.salutation,
                    firstname: seed.firstname.to_string(),
                    lastname: seed.lastname.to_string(),
                    extern_id: Some(format!("AP-{}-{}", company.customer_number, i + 1)),
                    double_opt_in: seed.double_opt_in,
                    email_blacklisted: seed.blacklisted,
                },
            )
            .await?;
            let ids: Vec<i64> = seed.lists.iter().map(|&i| list_ids[i]).collect();
            contacts::set_lists(db, contact.id, &ids).await?;
            summary.contacts += 1;
        }
    }

    Ok(())
}

/// The demo's packages with their files, periods around today and lists; each with its seed.
async fn seed_packages(
    db: &Db,
    files: &FileStore,
    ids: (&[i64], &[i64], &[i64]),
    summary: &mut SeedSummary,
) -> anyhow::Result<Vec<(i64, &'static PackageSeed)>> {
    let (provider_ids, list_ids, tag_ids) = ids;
    // Periods in German days: from the first second of the first day to the last second of
    // the last day.
    let today = berlin_date(Utc::now());
    let day = |offset: i64| today + Duration::days(offset);
    let mut taken = Vec::new();
    for seed in DOWNLOADS {
        let mut package_files = Vec::new();
        for file in seed.files {
            let color = PROVIDERS[seed.provider].color;
            let id = store_file(db, files, file.name, &file.kind, color, summary).await?;
            package_files.push(packages::NewFile {
                upload_id: id,
                name: file.name.to_string(),
                tag_ids: file.tags.iter().map(|&t| tag_ids[t]).collect(),
            });
        }
        let download = packages::create(
            db,
            &packages::NewPackage {
                provider_id: provider_ids[seed.provider],
                name: seed.name.to_string(),
                start_at: berlin_start_of_day(day(seed.start_day)),
                end_at: berlin_end_of_day(day(seed.end_day)),
                files: package_files,
                list_ids: seed.lists.iter().map(|&i| list_ids[i]).collect(),
            },
            &seeded(Entity::Package, seed.name),
        )
        .await?;
        if seed.archived {
            let archived = Entry::new(
                &Actor::Cli,
                Action::Archive,
                Entity::Package,
                Some(download.id),
            )
            .with_changes(Changes::none().field("archived", false, true));
            packages::set_archived(db, download.id, true, &archived).await?;
        }
        summary.downloads += 1;
        taken.push((download.id, seed));
    }
    Ok(taken)
}

#[tracing::instrument(skip_all)]
pub async fn seed_demo(db: &Db, files: &FileStore) -> anyhow::Result<SeedSummary> {
    if providers::count(db).await? > 0 {
        tracing::info!("demo data skipped: providers exist");
        return Ok(SeedSummary {
            skipped: true,
            ..SeedSummary::default()
        });
    }
    let mut summary = SeedSummary::default();
    let tag_ids = seed_tags(db, &mut summary).await?;
    let (provider_ids, list_ids) = seed_providers(db, files, &mut summary).await?;
    seed_companies(db, &list_ids, &mut summary).await?;
    let taken = seed_packages(
        db,
        files,
        (&provider_ids, &list_ids, &tag_ids),
        &mut summary,
    )
    .await?;
    summary.download_events = seed_download_events(db, &taken).await?;

    tracing::info!(
        providers = summary.providers,
        downloads = summary.downloads,
        uploads = summary.uploads,
        "demo data seeded"
    );
    Ok(summary)
}

/// An earlier visit of the customer page by the demo dealer (local account `account_id`), a
/// week back: the first visit of a fresh demo then shows "Neu seit Ihrem letzten Besuch" for
/// what the demo data added since. Only for an account without visits (a new one).
pub async fn seed_earlier_visit(db: &Db, account_id: i64) -> anyhow::Result<()> {
    let week_ago = Utc::now() - Duration::days(7);
    let subject = crate::auth::local::subject_of(account_id);
    crate::db::catalog::visits::record(db, &subject, week_ago, week_ago).await?;
    Ok(())
}

/// A month of downloads for the statistics screen: on each of the last 30 days each demo
/// customer takes, now and then, a file or the ZIP of a package valid that day and offered
/// to it (the same
/// every run: the choice is a hash of day, customer and package).
async fn seed_download_events(db: &Db, packages: &[(i64, &PackageSeed)]) -> anyhow::Result<usize> {
    use crate::db::insight::statistics::NewEvent;
    let today = berlin_date(Utc::now());
    let mut events = Vec::new();
    for (package, seed) in packages {
        let files = packages::files_of(db, &[*package]).await?;
        let provider = packages::get(db, *package)
            .await?
            .map(|d| d.provider_id)
            .unwrap_or_default();
        for offset in -29..=0i64 {
            if offset < seed.start_day || offset > seed.end_day {
                continue;
            }
            let date = today + Duration::days(offset);
            for company in COMPANIES {
                // Only a customer the package is offered to takes it (a contact on one of
                // its lists), as on the customer page.
                let offered = company
                    .contacts
                    .iter()
                    .any(|c| c.lists.iter().any(|l| seed.lists.contains(l)));
                if !offered {
                    continue;
                }
                let roll =
                    (offset * 31 + company.customer_number * 7 + package * 13).rem_euclid(10);
                if roll > 3 {
                    continue;
                }
                let (channel, chosen): (&'static str, Vec<_>) = if roll == 0 {
                    ("package_zip", files.iter().collect())
                } else {
                    let pick = (roll as usize) % files.len().max(1);
                    ("file", files.iter().skip(pick).take(1).collect())
                };
                let at = berlin_start_of_day(date) + Duration::hours(8 + roll);
                for file in chosen {
                    events.push(NewEvent {
                        at,
                        day: date.format("%Y-%m-%d").to_string(),
                        subject: Some(format!("demo:{}", company.customer_number)),
                        customer_number: Some(company.customer_number),
                        package_id: *package,
                        upload_id: file.upload_id,
                        provider_id: provider,
                        channel,
                        kind: "download",
                        bytes_sent: file.size,
                        outcome: "complete",
                    });
                }
            }
        }
    }
    let totals = crate::services::insight::statistics::totals_of(&events);
    crate::db::insight::statistics::write_batch(db, &events, &totals).await?;
    Ok(events.len())
}

/// Renders a demo file (SVGs in `color`), stores it and records its upload row; the file is
/// renamed into place only after the row exists (the row is removed again if that fails).
/// Returns the upload id.
async fn store_file(
    db: &Db,
    files: &FileStore,
    name: &str,
    kind: &FileKind,
    color: &str,
    summary: &mut SeedSummary,
) -> anyhow::Result<i64> {
    let (bytes, ext, content_type) = match kind {
        FileKind::Pdf(pdf) => (pdf.to_vec(), "pdf", "application/pdf"),
        FileKind::Png(banner) => (banner.png().to_vec(), "png", "image/png"),
        FileKind::Svg(head, sub) => (
            samples::svg_poster(head, sub, color).into_bytes(),
            "svg",
            "image/svg+xml",
        ),
        FileKind::Logo(png) => (png.to_vec(), "png", "image/png"),
        FileKind::Text(text) => (text.as_bytes().to_vec(), "txt", "text/plain; charset=utf-8"),
        FileKind::Zip(entries) => (
            samples::zip(
                &entries
                    .iter()
                    .map(|(name, banner)| (*name, banner.png()))
                    .collect::<Vec<_>>(),
            ),
            "zip",
            "application/zip",
        ),
    };
    let staged = files.stage_bytes(&bytes, ext).await?;
    let upload = uploads::create(
        db,
        &uploads::NewUpload {
            name: name.to_string(),
            storage_key: staged.key().to_string(),
            ext: ext.to_string(),
            size: bytes.len() as i64,
            content_type: content_type.to_string(),
            sha256: Some(staged.digest().sha256.clone()),
            crc32: Some(i64::from(staged.digest().crc32)),
            uploaded_by: None,
        },
        &Actor::Cli,
    )
    .await?;
    if let Err(e) = staged.persist().await {
        let _ = uploads::delete(db, upload.id, &Actor::System).await;
        return Err(e.into());
    }
    summary.uploads += 1;
    summary.bytes += bytes.len() as u64;
    Ok(upload.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::samples::tests::{assert_pdf, assert_png};
    use crate::test_support::TestDb;

    #[tokio::test]
    async fn seeds_once_with_real_files() {
        let t = TestDb::new().await;
        let store = FileStore::new(t.data_dir.join("files")).unwrap();
        let summary = seed_demo(&t.db, &store).await.unwrap();
        assert!(!summary.skipped);
        assert_eq!(summary.providers, 5, "four brands and one without folders");
        assert_eq!(summary.folders, 8);
        assert_eq!(summary.lists, 12);
        assert_eq!(summary.companies, 3);
        assert_eq!(summary.contacts, 8);
        assert_eq!(summary.tags, 3);
        assert_eq!(summary.downloads, 7);
        assert_eq!(summary.uploads, 4 + 15);
        // A month of downloads for the statistics screen, counted in its roll-ups.
        assert!(summary.download_events > 20, "{}", summary.download_events);
        let today = berlin_date(Utc::now());
        let from = (today - Duration::days(29)).format("%Y-%m-%d").to_string();
        let to = today.format("%Y-%m-%d").to_string();
        let rows = crate::db::insight::statistics::totals(&t.db, "all", &[0], &from, &to)
            .await
            .unwrap();
        let zip_downloads: i64 = rows.iter().map(|r| r.zip_downloads).sum();
        let downloads: i64 = rows.iter().map(|r| r.downloads).sum();
        assert_eq!(downloads, summary.download_events as i64);
        assert!(zip_downloads > 0 && zip_downloads < downloads);
        assert!(
            summary
                .to_string()
                .starts_with("Demo-Daten angelegt: 5 Anbieter, 8 Marketing-Ordner, 12 Kriterien")
        );

        // What the summary says is what the database holds.
        assert_eq!(providers::count(&t.db).await.unwrap(), 5);
        assert_eq!(packages::count(&t.db).await.unwrap(), 7);
        assert_eq!(folders::list(&t.db, 100, 0).await.unwrap().1, 8);
        assert_eq!(tags::list(&t.db).await.unwrap().len(), 3);
        let all_providers = providers::list_all(&t.db).await.unwrap();
        assert!(all_providers.iter().all(|p| !p.allowed_roles.is_empty()));
        let without_logo: Vec<_> = all_providers
            .iter()
            .filter(|p| p.upload_id.is_none())
            .collect();
        assert_eq!(without_logo.len(), 1);
        assert_eq!(without_logo[0].brevo_active_folder_id, None);
        assert!(all_providers.iter().any(|p| {
            p.name == "Glasfaser Süd"
                && p.allowed_roles
                    .contains(&"GS-Aktionsportal-BU-Glasfaser".to_string())
        }));
        let mut inactive = 0;
        for p in all_providers.iter().filter(|p| p.upload_id.is_some()) {
            let active = folders::get(&t.db, p.brevo_active_folder_id.unwrap())
                .await
                .unwrap()
                .unwrap();
            assert_eq!(active.name, format!("{} (aktiv)", p.name));
            for list in lists::list_by_provider(&t.db, p.id).await.unwrap() {
                assert!(
                    (5..=50).contains(&list.name.chars().count()),
                    "{}",
                    list.name
                );
                inactive += usize::from(!list.active);
            }
        }
        assert_eq!(inactive, 3);

        // An admin can save every demo provider unchanged: its logo is a type the form takes.
        let admin = crate::domain::user::User {
            name: "Admin".into(),
            customer_number: None,
            email: "admin@example.de".into(),
            roles: vec!["GS-Aktionsportal-Admin".into()],
            subject: "seed:demo".into(),
        };
        let folder = |id: i64| {
            crate::domain::validation::FolderChoiceInput::Folder(
                crate::domain::input::IdInput::new(id),
            )
        };
        for p in all_providers.iter().filter(|p| p.upload_id.is_some()) {
            let unchanged = crate::services::marketing::providers::ProviderInput {
                name: p.name.clone(),
                allowed_roles: Some(crate::domain::validation::AllowedRoles::Roles(
                    p.allowed_roles.clone(),
                )),
                brevo_active_folder_id: p.brevo_active_folder_id.map(folder),
                brevo_inactive_folder_id: p.brevo_inactive_folder_id.map(folder),
                upload_id: p.upload_id,
            };
            let marketing = crate::services::marketing::Marketing::Local;
            crate::services::marketing::providers::update(
                &t.db, &marketing, &admin, p.id, &unchanged,
            )
            .await
            .unwrap_or_else(|e| panic!("{} cannot be saved: {e}", p.name));
            let logo = uploads::get(&t.db, p.upload_id.unwrap())
                .await
                .unwrap()
                .unwrap();
            assert_eq!(logo.content_type, "image/png");
        }
        let mut contacts_total = 0;
        let mut blacklisted = 0;
        let mut confirmed = 0;
        for customer_number in [100_001, 100_002, 100_003] {
            for c in contacts::list_by_customer_number(&t.db, customer_number)
                .await
                .unwrap()
            {
                contacts_total += 1;
                blacklisted += usize::from(c.email_blacklisted);
                confirmed += usize::from(c.double_opt_in);
                assert!(c.email.ends_with("example.de"));
                assert!(
                    !contacts::list_ids_of_contact(&t.db, c.id)
                        .await
                        .unwrap()
                        .is_empty()
                );
            }
        }
        assert_eq!((contacts_total, blacklisted), (8, 1));
        assert!(confirmed > 0 && confirmed < 8);

        // Downloads cover every badge state, each with files and criteria.
        let now = Utc::now();
        let mut states = (0, 0, 0, 0, 0); // finished, ending soon, upcoming, new, archived
        for d in packages::list_all(&t.db).await.unwrap() {
            let files = packages::upload_ids(&t.db, d.id).await.unwrap();
            assert!((1..=4).contains(&files.len()));
            assert!(!packages::list_ids(&t.db, d.id).await.unwrap().is_empty());
            assert!(d.start_at < d.end_at);
            if d.archived {
                states.4 += 1;
            } else if d.end_at < now {
                states.0 += 1;
            } else if d.end_at - now <= Duration::days(7) {
                states.1 += 1;
            } else if d.start_at > now + Duration::days(1) {
                states.2 += 1;
            } else if now - d.start_at <= Duration::days(7) {
                states.3 += 1;
            }
        }
        assert!(
            states.0 >= 1 && states.1 >= 1 && states.2 >= 1 && states.3 >= 1,
            "{states:?}"
        );
        assert_eq!(states.4, 1);

        // Every file exists on disk with the recorded size and a valid format.
        let all_uploads = uploads::list_all(&t.db).await.unwrap();
        assert_eq!(all_uploads.len(), summary.uploads);
        let mut total = 0u64;
        for upload in &all_uploads {
            let path = store.path_of(&upload.storage_key).expect("valid key");
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", upload.name));
            assert_eq!(bytes.len() as i64, upload.size, "{}", upload.name);
            assert!(upload.name.ends_with(&format!(".{}", upload.ext)));
            assert!(upload.storage_key.ends_with(&format!(".{}", upload.ext)));
            total += bytes.len() as u64;
            match upload.ext.as_str() {
                "pdf" => assert_pdf(&bytes),
                "png" => assert_png(&bytes),
                "svg" => assert!(String::from_utf8(bytes).unwrap().contains("<svg")),
                "txt" => assert!(String::from_utf8(bytes).is_ok()),
                "zip" => {
                    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
                    assert_eq!(archive.len(), 2);
                    let mut png = Vec::new();
                    std::io::Read::read_to_end(&mut archive.by_index(0).unwrap(), &mut png)
                        .unwrap();
                    assert_png(&png);
                }
                other => panic!("unexpected extension {other}"),
            }
        }
        assert_eq!(total, summary.bytes);
        let packages: Vec<i64> = packages::list_all(&t.db)
            .await
            .unwrap()
            .iter()
            .map(|d| d.id)
            .collect();
        let tagged = packages::tags_of(&t.db, &packages).await.unwrap();
        assert!(tagged.len() >= summary.downloads, "files carry tags");
        for upload in &all_uploads {
            assert!(
                upload.sha256.is_some() && upload.crc32.is_some(),
                "{}",
                upload.name
            );
        }

        // A second run changes nothing.
        let again = seed_demo(&t.db, &store).await.unwrap();
        assert!(again.skipped);
        assert_eq!(again.providers, 0);
        assert!(again.to_string().contains("übersprungen"));
        assert_eq!(providers::count(&t.db).await.unwrap(), 5);
        assert_eq!(
            uploads::count(&t.db).await.unwrap(),
            all_uploads.len() as i64
        );
        assert_eq!(packages::count(&t.db).await.unwrap(), 7);
    }

    /// The demo dealer's first page load of a fresh demo counts as a return a week later,
    /// so "Neu seit Ihrem letzten Besuch" has something to show.
    #[tokio::test]
    async fn the_demo_dealer_visited_a_week_ago() {
        let t = TestDb::new().await;
        seed_earlier_visit(&t.db, 7).await.unwrap();
        let now = crate::db::now();
        let previous = crate::db::catalog::visits::record(
            &t.db,
            &crate::auth::local::subject_of(7),
            now,
            now - Duration::minutes(30),
        )
        .await
        .unwrap()
        .expect("an earlier visit");
        let days = (now - previous).num_hours() as f64 / 24.0;
        assert!((6.9..=7.1).contains(&days), "{days}");
    }
}
