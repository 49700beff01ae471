//! Demo data: a small, realistic German data set for a fresh portal (`seed-demo`).
//!
//! Four providers with their marketing folders, criteria and logos, three customer groups with
//! contacts, tags, and seven downloads spread over past, current, upcoming and ending-soon date
//! ranges (one archived), each with real small files (PDF, PNG, SVG, text) written through the
//! [`FileStore`]. Seeding is idempotent: when any provider exists it changes nothing and says so.

use std::fmt;

use chrono::{Duration, Utc};
use serde::Serialize;

use crate::db::{Db, contacts, downloads, folders, lists, providers, tags, uploads};
use crate::domain::time::{berlin_date, berlin_end_of_day, berlin_start_of_day};
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
             {} Tags, {} Downloads, {} Dateien",
            self.providers,
            self.folders,
            self.lists,
            self.companies,
            self.contacts,
            self.tags,
            self.downloads,
            self.uploads
        )
    }
}

struct ProviderSeed {
    name: &'static str,
    roles: &'static [&'static str],
    /// Logo colour.
    color: &'static str,
    /// (name, active)
    lists: &'static [(&'static str, bool)],
}

const PROVIDERS: &[ProviderSeed] = &[
    ProviderSeed {
        name: "Stadtwerke Nord",
        roles: &["GS-Aktionsportal-BU-Stadtwerke"],
        color: "#0d6efd",
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
        lists: &[
            ("Ökostrom Neukunden", true),
            ("Energieberatung Premium", true),
        ],
    },
    ProviderSeed {
        name: "Mobilfunk Mitte",
        roles: &["GS-Aktionsportal-BU-Mobilfunk"],
        color: "#6f42c1",
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
    /// A one-page PDF: title and lines.
    Pdf(&'static str, &'static [&'static str]),
    /// A PNG banner in a colour.
    Png([u8; 3]),
    /// An SVG poster: headline and subline.
    Svg(&'static str, &'static str),
    /// A wide SVG logo with the brand's name (fits a 40 px high toolbar or table cell).
    Logo(&'static str),
    Text(&'static str),
    /// A ZIP archive of PNG banners: (file name, colour).
    Zip(&'static [(&'static str, [u8; 3])]),
}

struct FileSeed {
    name: &'static str,
    kind: FileKind,
    tags: &'static [usize],
}

struct DownloadSeed {
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

const DOWNLOADS: &[DownloadSeed] = &[
    DownloadSeed {
        provider: 1,
        name: "Glasfaser-Sommeraktion Privatkunden",
        start_day: -2,
        end_day: 45,
        archived: false,
        lists: &[3],
        files: &[
            FileSeed {
                name: "Flyer Glasfaser Sommeraktion.pdf",
                kind: FileKind::Pdf(
                    "Glasfaser Süd – Sommeraktion",
                    &[
                        "Jetzt auf Glasfaser umsteigen und 3 Monate grundgebührfrei surfen.",
                        "Bis zu 1.000 Mbit/s für Ihr Zuhause – stabil, schnell, zukunftssicher.",
                        "Aktionszeitraum: solange der Vorrat reicht. Alle Preise inkl. MwSt.",
                        "Mehr Informationen erhalten Sie bei Ihrem persönlichen Ansprechpartner.",
                    ],
                ),
                tags: &[TAG_FLYER],
            },
            FileSeed {
                name: "Banner Glasfaser Sommeraktion.png",
                kind: FileKind::Png([25, 135, 84]),
                tags: &[TAG_SOCIAL],
            },
        ],
    },
    DownloadSeed {
        provider: 1,
        name: "Glasfaser Gewerbe Infopaket",
        start_day: 10,
        end_day: 70,
        archived: false,
        lists: &[4],
        files: &[
            FileSeed {
                name: "Preisübersicht Glasfaser Gewerbe.pdf",
                kind: FileKind::Pdf(
                    "Glasfaser Süd – Gewerbetarife",
                    &[
                        "Business 300: 300 Mbit/s, feste IP-Adresse, 59,90 € netto im Monat.",
                        "Business 1000: 1.000 Mbit/s, Service-Level 24/7, 99,90 € netto im Monat.",
                        "Einrichtung und Hausanschluss im Aktionszeitraum kostenfrei.",
                    ],
                ),
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
    DownloadSeed {
        provider: 0,
        name: "Stadtwerke Nord Strom-Wechselbonus",
        start_day: -40,
        end_day: 3,
        archived: false,
        lists: &[0, 1],
        files: &[
            FileSeed {
                name: "Flyer Wechselbonus Strom.pdf",
                kind: FileKind::Pdf(
                    "Stadtwerke Nord – Wechselbonus",
                    &[
                        "Jetzt wechseln und 100 € Bonus sichern!",
                        "Regionaler Strom aus dem Norden – fair, transparent, zuverlässig.",
                        "Gültig für Neukunden bis zum Ende des Aktionszeitraums.",
                    ],
                ),
                tags: &[TAG_FLYER],
            },
            FileSeed {
                name: "Plakat Wechselbonus A1.svg",
                kind: FileKind::Svg("100 € Wechselbonus", "Stadtwerke Nord – Ihr Strom vor Ort"),
                tags: &[TAG_PLAKAT],
            },
        ],
    },
    DownloadSeed {
        provider: 0,
        name: "Stadtwerke Nord Wärmepumpen-Kampagne",
        start_day: -30,
        end_day: 90,
        archived: false,
        lists: &[1],
        files: &[
            FileSeed {
                name: "Broschüre Wärmepumpe.pdf",
                kind: FileKind::Pdf(
                    "Wärme für morgen",
                    &[
                        "Die Wärmepumpe der Stadtwerke Nord: Beratung, Einbau und Wartung aus einer Hand.",
                        "Förderung bis zu 70 % – wir helfen beim Antrag.",
                    ],
                ),
                tags: &[TAG_FLYER],
            },
            FileSeed {
                name: "Social-Media-Grafik Wärmepumpe.png",
                kind: FileKind::Png([13, 110, 253]),
                tags: &[TAG_SOCIAL, TAG_PLAKAT],
            },
        ],
    },
    DownloadSeed {
        provider: 2,
        name: "Energie Plus Ökostrom Frühjahr",
        start_day: -90,
        end_day: -10,
        archived: false,
        lists: &[6],
        files: &[FileSeed {
            name: "Flyer Ökostrom Frühjahr.pdf",
            kind: FileKind::Pdf(
                "Energie Plus – 100 % Ökostrom",
                &[
                    "Sauberer Strom aus Wind und Sonne zum fairen Preis.",
                    "12 Monate Preisgarantie für alle Neukunden im Frühjahr.",
                ],
            ),
            tags: &[TAG_FLYER],
        }],
    },
    DownloadSeed {
        provider: 2,
        name: "Energie Plus Winterkampagne Vorjahr",
        start_day: -400,
        end_day: -300,
        archived: true,
        lists: &[6, 7],
        files: &[
            FileSeed {
                name: "Flyer Winterkampagne.pdf",
                kind: FileKind::Pdf(
                    "Energie Plus – Winteraktion",
                    &["Gemütlich durch den Winter: 50 € Heizkostenzuschuss für Neukunden."],
                ),
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
    DownloadSeed {
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
                kind: FileKind::Pdf(
                    "Mobilfunk Mitte – Tarife",
                    &[
                        "Mitte S: 10 GB, Allnet-Flat, 14,99 € im Monat.",
                        "Mitte L: 40 GB, Allnet-Flat, EU-Roaming, 24,99 € im Monat.",
                        "Beim Wechsel bis Aktionsende: doppeltes Datenvolumen für 24 Monate.",
                    ],
                ),
                tags: &[TAG_FLYER],
            },
            FileSeed {
                name: "Social-Media-Paket Tarifwechsel.zip",
                kind: FileKind::Zip(&[
                    ("Story Tarifwechsel.png", [111, 66, 193]),
                    ("Beitrag Tarifwechsel.png", [214, 51, 132]),
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

    let mut tag_ids = Vec::new();
    for (name, icon) in TAGS {
        tag_ids.push(tags::create(db, name, icon).await?.id);
        summary.tags += 1;
    }

    let mut provider_ids = Vec::new();
    let mut list_ids = Vec::new();
    for seed in PROVIDERS {
        let active = folders::create(db, &format!("{} (aktiv)", seed.name)).await?;
        let inactive = folders::create(db, &format!("{} (inaktiv)", seed.name)).await?;
        summary.folders += 2;
        let logo = store_file(
            db,
            files,
            &format!("Logo {}.svg", seed.name),
            &FileKind::Logo(seed.name),
            seed.color,
            &mut summary,
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
        )
        .await?;
        summary.providers += 1;
        provider_ids.push(provider.id);
        for (name, active) in seed.lists {
            let list = lists::create(
                db,
                &lists::NewList {
                    provider_id: provider.id,
                    name: name.to_string(),
                    brevo_list_id: None,
                    active: *active,
                },
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
    )
    .await?;
    summary.providers += 1;
    lists::create(
        db,
        &lists::NewList {
            provider_id: legacy.id,
            name: "Bestandskunden Altvertrag".into(),
            brevo_list_id: None,
            active: true,
        },
    )
    .await?;
    summary.lists += 1;

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

    // Periods in German days: from the first second of the first day to the last second of
    // the last day.
    let today = berlin_date(Utc::now());
    let day = |offset: i64| today + Duration::days(offset);
    for seed in DOWNLOADS {
        let mut package_files = Vec::new();
        for file in seed.files {
            let color = PROVIDERS[seed.provider].color;
            let id = store_file(db, files, file.name, &file.kind, color, &mut summary).await?;
            package_files.push(downloads::NewFile {
                upload_id: id,
                name: file.name.to_string(),
                tag_ids: file.tags.iter().map(|&t| tag_ids[t]).collect(),
            });
        }
        let download = downloads::create(
            db,
            &downloads::NewDownload {
                provider_id: provider_ids[seed.provider],
                name: seed.name.to_string(),
                start_at: berlin_start_of_day(day(seed.start_day)),
                end_at: berlin_end_of_day(day(seed.end_day)),
                files: package_files,
                list_ids: seed.lists.iter().map(|&i| list_ids[i]).collect(),
            },
        )
        .await?;
        if seed.archived {
            downloads::set_archived(db, download.id, true).await?;
        }
        summary.downloads += 1;
    }

    tracing::info!(
        providers = summary.providers,
        downloads = summary.downloads,
        uploads = summary.uploads,
        "demo data seeded"
    );
    Ok(summary)
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
        FileKind::Pdf(title, lines) => (demo_files::pdf(title, lines), "pdf", "application/pdf"),
        FileKind::Png(rgb) => (demo_files::png_banner(240, 120, *rgb), "png", "image/png"),
        FileKind::Svg(head, sub) => (
            demo_files::svg_poster(head, sub, color).into_bytes(),
            "svg",
            "image/svg+xml",
        ),
        FileKind::Logo(brand) => (
            demo_files::svg_logo(brand, color).into_bytes(),
            "svg",
            "image/svg+xml",
        ),
        FileKind::Text(text) => (text.as_bytes().to_vec(), "txt", "text/plain; charset=utf-8"),
        FileKind::Zip(entries) => (
            demo_files::zip(
                &entries
                    .iter()
                    .map(|(name, rgb)| (*name, demo_files::png_banner(240, 120, *rgb)))
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
        },
    )
    .await?;
    if let Err(e) = staged.persist().await {
        let _ = uploads::delete(db, upload.id).await;
        return Err(e.into());
    }
    summary.uploads += 1;
    summary.bytes += bytes.len() as u64;
    Ok(upload.id)
}

/// Small, valid demo files rendered in code (no assets to ship).
pub mod demo_files {
    /// A one-page A4 PDF 1.4 with a coloured header bar, a bold title and body lines, in
    /// Helvetica with WinAnsi encoding (so German umlauts, ß, € and dashes render). Object
    /// offsets in the cross-reference table are computed from the bytes written.
    pub fn pdf(title: &str, lines: &[&str]) -> Vec<u8> {
        let mut content = String::new();
        content.push_str("0.05 0.43 0.99 rg\n0 782 595 60 re f\n");
        content.push_str("BT\n1 1 1 rg\n/F1 22 Tf\n56 800 Td\n");
        content.push_str(&format!("({}) Tj\nET\n", pdf_text(title)));
        content.push_str("BT\n0.1 0.1 0.1 rg\n/F2 12 Tf\n16 TL\n56 740 Td\n");
        for line in lines {
            content.push_str(&format!("({}) Tj\nT*\n", pdf_text(line)));
        }
        content.push_str(
            "T*\n0.4 0.4 0.4 rg\n/F2 9 Tf\n(Demo-Material aus dem Aktionsportal) Tj\nET\n",
        );

        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] \
             /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>"
                .to_string(),
            font("Helvetica-Bold"),
            font("Helvetica"),
            format!(
                "<< /Length {} >>\nstream\n{}endstream",
                content.len(),
                content
            ),
            format!(
                "<< /Title {} /Producer (Aktionsportal) >>",
                pdf_utf16(title)
            ),
        ];

        let mut out: Vec<u8> = Vec::new();
        out.extend_from_slice(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
        let mut offsets = Vec::with_capacity(objects.len());
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n{}\nendobj\n", i + 1, body).as_bytes());
        }
        let xref_at = out.len();
        out.extend_from_slice(
            format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
        );
        for offset in offsets {
            out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
        }
        out.extend_from_slice(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R /Info 7 0 R >>\nstartxref\n{xref_at}\n%%EOF\n",
                objects.len() + 1
            )
            .as_bytes(),
        );
        out
    }

    fn font(base: &str) -> String {
        format!("<< /Type /Font /Subtype /Type1 /BaseFont /{base} /Encoding /WinAnsiEncoding >>")
    }

    /// A PDF string literal body in WinAnsi encoding: ASCII as is (with `(`, `)` and `\` escaped),
    /// Latin-1 letters, `€`, dashes and typographic quotes as octal escapes, anything else as `?`.
    fn pdf_text(text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            match c {
                '(' | ')' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                ' '..='~' => out.push(c),
                _ => {
                    let code = match c {
                        '€' => Some(0x80),
                        '„' => Some(0x84),
                        '…' => Some(0x85),
                        '“' => Some(0x93),
                        '”' => Some(0x94),
                        '–' => Some(0x96),
                        '—' => Some(0x97),
                        '\u{a0}'..='\u{ff}' => Some(c as u32),
                        _ => None,
                    };
                    match code {
                        Some(code) => out.push_str(&format!("\\{code:03o}")),
                        None => out.push('?'),
                    }
                }
            }
        }
        out
    }

    /// A PDF text string as UTF-16BE hex with a byte-order mark (for the document information,
    /// which uses PDFDocEncoding rather than the font's WinAnsi encoding).
    fn pdf_utf16(text: &str) -> String {
        let mut out = String::from("<FEFF");
        for unit in text.encode_utf16() {
            out.push_str(&format!("{unit:04X}"));
        }
        out.push('>');
        out
    }

    /// An RGB PNG banner: a horizontal gradient of `rgb` towards white with a darker stripe.
    /// A ZIP archive with the files stored as they are (PNGs do not shrink).
    pub fn zip(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
        use std::io::Write;
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        for (name, bytes) in entries {
            writer.start_file(*name, options).expect("in memory");
            writer.write_all(bytes).expect("in memory");
        }
        writer.finish().expect("in memory").into_inner()
    }

    pub fn png_banner(width: u32, height: u32, rgb: [u8; 3]) -> Vec<u8> {
        let mut raw = Vec::with_capacity(((width * 3 + 1) * height) as usize);
        for y in 0..height {
            raw.push(0); // filter: none
            for x in 0..width {
                let stripe = y >= height * 2 / 3 && y < height * 2 / 3 + height / 8;
                for channel in rgb {
                    let c = u32::from(channel);
                    let value = if stripe {
                        c * 3 / 5
                    } else {
                        c + (255 - c) * x / width / 2
                    };
                    raw.push(value as u8);
                }
            }
        }
        let mut ihdr = Vec::with_capacity(13);
        ihdr.extend_from_slice(&width.to_be_bytes());
        ihdr.extend_from_slice(&height.to_be_bytes());
        // 8 bit, truecolour, deflate, no filter, no interlace.
        ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);

        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        png_chunk(&mut out, b"IHDR", &ihdr);
        png_chunk(&mut out, b"IDAT", &zlib_stored(&raw));
        png_chunk(&mut out, b"IEND", &[]);
        out
    }

    fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }

    /// A zlib stream of uncompressed (stored) deflate blocks.
    fn zlib_stored(data: &[u8]) -> Vec<u8> {
        let mut out = vec![0x78, 0x01];
        let mut blocks = data.chunks(65_535).peekable();
        if blocks.peek().is_none() {
            out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
        }
        while let Some(block) = blocks.next() {
            out.push(u8::from(blocks.peek().is_none()));
            let len = block.len() as u16;
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&(!len).to_le_bytes());
            out.extend_from_slice(block);
        }
        out.extend_from_slice(&adler32(data).to_be_bytes());
        out
    }

    pub(crate) fn crc32(data: &[u8]) -> u32 {
        let mut crc = 0xffff_ffffu32;
        for &byte in data {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    pub(crate) fn adler32(data: &[u8]) -> u32 {
        let (mut a, mut b) = (1u32, 0u32);
        for &byte in data {
            a = (a + u32::from(byte)) % 65_521;
            b = (b + a) % 65_521;
        }
        (b << 16) | a
    }

    /// An SVG poster with a headline and a subline on a coloured background.
    pub fn svg_poster(headline: &str, subline: &str, color: &str) -> String {
        let (headline, subline) = (xml_escape(headline), xml_escape(subline));
        let font =
            r##"font-family="Helvetica, Arial, sans-serif" fill="#ffffff" text-anchor="middle""##;
        [
            r#"<?xml version="1.0" encoding="UTF-8"?>"#.to_string(),
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="420" height="594" viewBox="0 0 420 594">"#
                .to_string(),
            format!(r#"<rect width="420" height="594" fill="{color}"/>"#),
            r##"<rect x="24" y="24" width="372" height="546" fill="none" stroke="#ffffff" stroke-width="4"/>"##
                .to_string(),
            format!(r#"<text x="210" y="270" font-size="30" font-weight="bold" {font}>{headline}</text>"#),
            format!(r#"<text x="210" y="320" font-size="16" {font}>{subline}</text>"#),
            "</svg>\n".to_string(),
        ]
        .join("\n")
    }

    pub fn svg_logo(brand: &str, color: &str) -> String {
        let brand = xml_escape(brand);
        [
            r#"<?xml version="1.0" encoding="UTF-8"?>"#.to_string(),
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 240 80">"#.to_string(),
            format!(r#"<rect width="240" height="80" rx="12" fill="{color}"/>"#),
            format!(
                r##"<text x="120" y="50" font-family="Helvetica, Arial, sans-serif" font-size="24" font-weight="bold" fill="#ffffff" text-anchor="middle">{brand}</text>"##
            ),
            "</svg>\n".to_string(),
        ]
        .join("\n")
    }

    fn xml_escape(text: &str) -> String {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    }
}

#[cfg(test)]
mod tests {
    use super::demo_files::{adler32, crc32};
    use super::*;
    use crate::test_support::TestDb;

    /// Checks the structure a PDF reader relies on: header, `startxref` pointing at the xref
    /// table, every xref offset pointing at its `N 0 obj`, and the stream length.
    fn assert_valid_pdf(bytes: &[u8]) {
        assert!(bytes.starts_with(b"%PDF-1.4\n"));
        assert!(bytes.ends_with(b"%%EOF\n"));
        // Byte offsets matter, so search the bytes (line 2 holds non-UTF-8 marker bytes).
        let find = |needle: &[u8]| {
            bytes
                .windows(needle.len())
                .position(|w| w == needle)
                .expect("marker")
        };
        let rfind = |needle: &[u8]| {
            bytes
                .windows(needle.len())
                .rposition(|w| w == needle)
                .expect("marker")
        };
        let text = |from: usize| String::from_utf8_lossy(&bytes[from..]).into_owned();
        let tail = text(rfind(b"startxref\n") + 10);
        let xref_at: usize = tail.lines().next().unwrap().parse().unwrap();
        assert!(bytes[xref_at..].starts_with(b"xref\n0 8\n"));
        let table = &bytes[xref_at + 9..];
        for i in 0..8 {
            let entry = &table[i * 20..(i + 1) * 20];
            assert_eq!(entry.len(), 20);
            if i == 0 {
                assert_eq!(entry, b"0000000000 65535 f \n");
                continue;
            }
            let offset: usize = std::str::from_utf8(&entry[..10]).unwrap().parse().unwrap();
            assert!(entry.ends_with(b" 00000 n \n"));
            assert!(
                bytes[offset..].starts_with(format!("{i} 0 obj\n").as_bytes()),
                "object {i}"
            );
        }
        let length: usize = text(find(b"/Length ") + 8)
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let stream_at = find(b"stream\n") + 7;
        assert!(bytes[stream_at + length..].starts_with(b"endstream"));
    }

    fn assert_valid_png(bytes: &[u8]) {
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        let mut at = 8;
        let mut kinds = Vec::new();
        while at < bytes.len() {
            let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            let kind = &bytes[at + 4..at + 8];
            let data = &bytes[at + 8..at + 8 + len];
            let crc = u32::from_be_bytes(bytes[at + 8 + len..at + 12 + len].try_into().unwrap());
            assert_eq!(
                crc,
                crc32(&bytes[at + 4..at + 8 + len]),
                "CRC of {:?}",
                String::from_utf8_lossy(kind)
            );
            if kind == b"IDAT" {
                // Walk the stored blocks and check the Adler-32 of the raw image.
                let (mut pos, mut raw) = (2, Vec::new());
                loop {
                    let last = data[pos] & 1 == 1;
                    let n = u16::from_le_bytes([data[pos + 1], data[pos + 2]]) as usize;
                    raw.extend_from_slice(&data[pos + 5..pos + 5 + n]);
                    pos += 5 + n;
                    if last {
                        break;
                    }
                }
                assert_eq!(&data[pos..], adler32(&raw).to_be_bytes());
                assert_eq!(raw.len(), (240 * 3 + 1) * 120);
            }
            kinds.push(kind.to_vec());
            at += 12 + len;
        }
        assert_eq!(
            kinds,
            vec![b"IHDR".to_vec(), b"IDAT".to_vec(), b"IEND".to_vec()]
        );
    }

    #[test]
    fn checksums_match_known_values() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
    }

    #[test]
    fn pdf_is_well_formed_and_encodes_umlauts() {
        let pdf = demo_files::pdf("Glasfaser Süd – Aktion (neu)", &["Größe: 100 € für Bäcker"]);
        assert_valid_pdf(&pdf);
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("(Glasfaser S\\374d \\226 Aktion \\(neu\\)) Tj"));
        assert!(text.contains("(Gr\\366\\337e: 100 \\200 f\\374r B\\344cker) Tj"));
        // Apart from the binary marker in line 2 the file is plain ASCII.
        assert!(pdf[15..].is_ascii());
    }

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
        assert!(
            summary
                .to_string()
                .starts_with("Demo-Daten angelegt: 5 Anbieter, 8 Marketing-Ordner, 12 Kriterien")
        );

        // What the summary says is what the database holds.
        assert_eq!(providers::count(&t.db).await.unwrap(), 5);
        assert_eq!(downloads::count(&t.db).await.unwrap(), 7);
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
        for d in downloads::list_all(&t.db).await.unwrap() {
            let files = downloads::upload_ids(&t.db, d.id).await.unwrap();
            assert!((1..=4).contains(&files.len()));
            assert!(!downloads::list_ids(&t.db, d.id).await.unwrap().is_empty());
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
                "pdf" => assert_valid_pdf(&bytes),
                "png" => assert_valid_png(&bytes),
                "svg" => assert!(String::from_utf8(bytes).unwrap().contains("<svg")),
                "txt" => assert!(String::from_utf8(bytes).is_ok()),
                "zip" => {
                    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
                    assert_eq!(archive.len(), 2);
                    let mut png = Vec::new();
                    std::io::Read::read_to_end(&mut archive.by_index(0).unwrap(), &mut png)
                        .unwrap();
                    assert_valid_png(&png);
                }
                other => panic!("unexpected extension {other}"),
            }
        }
        assert_eq!(total, summary.bytes);
        let packages: Vec<i64> = downloads::list_all(&t.db)
            .await
            .unwrap()
            .iter()
            .map(|d| d.id)
            .collect();
        let tagged = downloads::tags_of(&t.db, &packages).await.unwrap();
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
        assert_eq!(downloads::count(&t.db).await.unwrap(), 7);
    }
}
