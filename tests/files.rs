//! Uploads, file delivery and the package ZIP over real HTTP: every refused upload leaves
//! nothing behind; files answer Range, If-Range, ETag and UTF-8 names as download managers
//! expect; the ZIP opens in Python's zipfile, `unzip -t` and `7z t`, and resumes.

mod common;

use std::io::Write;
use std::process::Command;

use aktionsportal::domain::roles::ADMIN;
use serde_json::{Value, json};

use common::{TestApp, spawn_app, spawn_app_with};

const GLASFASER: &str = "GS-Aktionsportal-BU-Glasfaser";
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";

async fn upload_parts(
    app: &TestApp,
    token: &str,
    parts: Vec<(&str, &str, Vec<u8>)>,
) -> (u16, Value) {
    let mut form = reqwest::multipart::Form::new();
    for (field, name, bytes) in parts {
        form = form.part(
            field.to_string(),
            reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
        );
    }
    let response = app
        .client
        .post(app.url("/api/upload/"))
        .header("cookie", format!("ap_session={token}"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A ZIP archive made with the zip crate; `entries` are (name, bytes, compress).
fn zip_of(entries: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes, compress) in entries {
        let method = if *compress {
            zip::CompressionMethod::Deflated
        } else {
            zip::CompressionMethod::Stored
        };
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(method)
            .large_file(bytes.len() > 100 * 1024 * 1024);
        writer.start_file(*name, options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

#[tokio::test]
async fn requirements_come_from_the_configuration() {
    let app = spawn_app_with(|c| {
        c.upload_limit_mb = 7;
        c.upload_allowed_extensions = "pdf, PNG,.jpg".into();
    })
    .await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let (status, answer) = app
        .call(&admin, "GET", "/api/upload-requirements/", None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        answer,
        json!({"limitSizeMB": 7, "allowedExtArray": ["pdf", "png", "jpg"]})
    );
}

#[tokio::test]
async fn every_refused_upload_leaves_no_row_and_no_file() {
    let app = spawn_app_with(|c| c.upload_limit_mb = 1).await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let big = vec![b'%'; 1024 * 1024 + 1];

    let (status, answer) = app
        .upload(&admin, "Riesig.pdf", [b"%PDF-".as_slice(), &big].concat())
        .await;
    assert_eq!(status, 413);
    assert_eq!(
        (answer["fileName"].as_str(), answer["limitSizeMB"].as_u64()),
        (Some("Riesig.pdf"), Some(1))
    );

    let (status, answer) = upload_parts(
        &app,
        &admin,
        vec![
            ("files[0]", "Flyer.pdf", PDF.to_vec()),
            ("files[1]", "Programm.exe", b"MZ".to_vec()),
            ("files[2]", "Bild.svg", b"<svg/>".to_vec()),
        ],
    )
    .await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(
        answer["filesOverExtLimit"],
        json!(["Programm.exe", "Bild.svg"])
    );
    assert_eq!(answer["fileExtensions"], json!(["exe", "svg"]));
    assert!(
        answer["allowedExtArray"]
            .as_array()
            .unwrap()
            .contains(&json!("pdf"))
    );

    let (status, answer) = app.upload(&admin, "Leer.pdf", Vec::new()).await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (400, Some("Die Datei Leer.pdf muss größer als 0 KB sein."))
    );

    let (status, answer) = app
        .upload(
            &admin,
            "Rechnung.pdf",
            b"<html><script>alert(1)</script>".to_vec(),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("passt nicht zu ihrer Endung .pdf")
    );

    let refused_archives: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "Slip.zip",
            zip_of(&[("../../etc/evil.pdf", PDF, false)]),
            "zeigt aus dem Archiv heraus",
        ),
        (
            "Absolut.zip",
            zip_of(&[("/etc/evil.pdf", PDF, false)]),
            "absoluten Pfad",
        ),
        (
            "Bombe.zip",
            zip_of(&[("nullen.txt", &vec![b'0'; 3 * 1024 * 1024], true)]),
            "größer als 1 MB",
        ),
        (
            "Verschachtelt.zip",
            zip_of(&[("innen.zip", &zip_of(&[("a.pdf", PDF, false)]), false)]),
            "weiteres Archiv",
        ),
        (
            "Leere-Datei.zip",
            zip_of(&[("leer.pdf", b"", false)]),
            "muss größer als 0 KB sein",
        ),
        (
            "Kaputt.zip",
            b"PK\x03\x04 kein Archiv".to_vec(),
            "keine lesbare ZIP-Datei",
        ),
    ];
    for (name, bytes, why) in refused_archives {
        let (status, answer) = app.upload(&admin, name, bytes).await;
        let message = answer["message"].as_str().unwrap_or("");
        assert_eq!(status, 400, "{name}: {answer}");
        assert!(message.contains(why), "{name}: {message}");
        assert!(
            message.contains(name) || why.contains("0 KB"),
            "{name}: names the archive: {message}"
        );
    }
    // Refused inside an archive: a type that is not allowed.
    let (status, answer) = app
        .upload(
            &admin,
            "Gemischt.zip",
            zip_of(&[("a.pdf", PDF, false), ("b.exe", b"MZ", false)]),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(answer["filesOverExtLimit"], json!(["Gemischt.zip/b.exe"]));

    assert_eq!(
        aktionsportal::db::catalog::uploads::count(&app.test_db.db)
            .await
            .unwrap(),
        0
    );
    assert!(app.stored_files().is_empty(), "{:?}", app.stored_files());
}

#[tokio::test]
async fn a_zip_bomb_is_refused_by_its_compression_ratio() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    // 50 MB of zeros deflate to about 50 KB: a ratio of about 1000.
    let bomb = zip_of(&[("nullen.pdf", &vec![0u8; 50 * 1024 * 1024], true)]);
    let (status, answer) = app.upload(&admin, "Bombe.zip", bomb).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("ZIP-Bombe"));
    assert!(app.stored_files().is_empty());
}

#[tokio::test]
async fn an_archive_is_unpacked_into_checked_files() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let archive = zip_of(&[
        ("Ordner/Flyer Süd.pdf", PDF, true),
        ("Ordner/", b"", false),
        ("Preise.txt", "Preis: 10 €".as_bytes(), false),
    ]);
    let (status, answer) = app.upload(&admin, "Paket.zip", archive).await;
    assert_eq!(status, 200, "{answer}");
    let names: Vec<&str> = answer["uploads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Flyer Süd.pdf", "Preise.txt"]);
    assert_eq!(answer["id"], answer["uploads"][0]["id"]);
    assert_eq!(answer["uploads"][0]["contentType"], "application/pdf");
    assert_eq!(
        app.stored_files().len(),
        2,
        "the archive itself is not kept"
    );
}

struct Shared {
    app: TestApp,
    admin: String,
    package: i64,
    file: i64,
    list: i64,
    path: String,
    bytes: Vec<u8>,
}

/// A package with one 300 KB PDF named with umlauts and spaces and a text file, offered to
/// `list`.
async fn shared_package() -> Shared {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let provider = app
        .create_provider(&admin, "Glasfaser Süd", GLASFASER)
        .await;
    let list = app.create_list(&admin, provider, "Glasfaser Privat").await;
    let mut bytes = b"%PDF-1.4\n".to_vec();
    bytes.extend((0..300_000u32).map(|i| (i % 251) as u8));
    let (_, uploaded) = app.upload(&admin, "Flyer Süd Größe A4.pdf", &bytes).await;
    let file = uploaded["id"].as_i64().unwrap();
    let (_, small) = app.upload(&admin, "Preise.txt", "Preise für Händler").await;
    let (status, package) = app
        .call(
            &admin,
            "POST",
            "/api/download/",
            Some(json!({
                "name": "Herbst/Winter: Aktion",
                "startAt": "2026-11-01", "endAt": "2026-12-31",
                "ProviderId": provider, "listsIds": [list],
                "uploadsToInsert": [file, small["id"]],
            })),
        )
        .await;
    assert_eq!(status, 200, "{package}");
    Shared {
        path: package["Uploads"][0]["path"].as_str().unwrap().to_string(),
        package: package["id"].as_i64().unwrap(),
        file,
        list,
        bytes,
        app,
        admin,
    }
}

fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

#[tokio::test]
async fn files_answer_ranges_validators_and_utf8_names() {
    let s = shared_package().await;
    let customer = s.app.dealer_session(100_001, &[s.list]).await;
    assert_eq!(
        s.path,
        format!(
            "/files/{}/Flyer%20S%C3%BCd%20Gr%C3%B6%C3%9Fe%20A4.pdf",
            s.file
        )
    );

    let full = s.app.get_with(&customer, &s.path, &[]).await;
    assert_eq!(full.status(), 200);
    assert_eq!(header(&full, "content-length"), s.bytes.len().to_string());
    assert_eq!(header(&full, "content-type"), "application/pdf");
    assert_eq!(header(&full, "accept-ranges"), "bytes");
    assert_eq!(header(&full, "x-content-type-options"), "nosniff");
    assert!(header(&full, "content-security-policy").contains("sandbox"));
    assert_eq!(
        header(&full, "content-disposition"),
        "attachment; filename=\"Flyer S_d Gr__e A4.pdf\"; filename*=UTF-8''Flyer%20S%C3%BCd%20Gr%C3%B6%C3%9Fe%20A4.pdf"
    );
    let etag = header(&full, "etag");
    let last_modified = header(&full, "last-modified");
    assert_eq!(etag.len(), 64 + 2, "the SHA-256 in quotes: {etag}");
    assert_eq!(full.bytes().await.unwrap().as_ref(), s.bytes.as_slice());

    let part = s
        .app
        .get_with(&customer, &s.path, &[("range", "bytes=100-199")])
        .await;
    assert_eq!(part.status(), 206);
    assert_eq!(
        header(&part, "content-range"),
        format!("bytes 100-199/{}", s.bytes.len())
    );
    assert_eq!(header(&part, "content-length"), "100");
    assert_eq!(part.bytes().await.unwrap().as_ref(), &s.bytes[100..200]);

    let tail = s
        .app
        .get_with(&customer, &s.path, &[("range", "bytes=-10")])
        .await;
    assert_eq!(
        tail.bytes().await.unwrap().as_ref(),
        &s.bytes[s.bytes.len() - 10..]
    );

    let beyond = s
        .app
        .get_with(&customer, &s.path, &[("range", "bytes=999999999-")])
        .await;
    assert_eq!(beyond.status(), 416);
    assert_eq!(
        header(&beyond, "content-range"),
        format!("bytes */{}", s.bytes.len())
    );

    let resumed = s
        .app
        .get_with(
            &customer,
            &s.path,
            &[("range", "bytes=10-"), ("if-range", &etag)],
        )
        .await;
    assert_eq!(resumed.status(), 206);
    let changed = s
        .app
        .get_with(
            &customer,
            &s.path,
            &[("range", "bytes=10-"), ("if-range", "\"anders\"")],
        )
        .await;
    assert_eq!(changed.status(), 200, "another version: the whole file");
    let by_date = s
        .app
        .get_with(
            &customer,
            &s.path,
            &[("range", "bytes=10-"), ("if-range", &last_modified)],
        )
        .await;
    assert_eq!(by_date.status(), 206);

    let cached = s
        .app
        .get_with(&customer, &s.path, &[("if-none-match", &etag)])
        .await;
    assert_eq!(cached.status(), 304);
    assert!(cached.bytes().await.unwrap().is_empty());
    let cached = s
        .app
        .get_with(&customer, &s.path, &[("if-modified-since", &last_modified)])
        .await;
    assert_eq!(cached.status(), 304);

    let head = s
        .app
        .client
        .head(s.app.url(&s.path))
        .header("cookie", format!("ap_session={customer}"))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(header(&head, "content-length"), s.bytes.len().to_string());

    // A customer outside the package's lists, and nobody signed in, get nothing.
    let outsider = s.app.dealer_session(100_002, &[]).await;
    assert_eq!(s.app.get_with(&outsider, &s.path, &[]).await.status(), 404);
    assert_eq!(s.app.get(&s.path).await.status(), 401);
    let zip = format!("/api/download/{}/zip", s.package);
    assert_eq!(s.app.get_with(&outsider, &zip, &[]).await.status(), 404);
    let pair = format!("/api/downloads/zip?files={}:{}", s.package, s.file);
    assert_eq!(s.app.get_with(&outsider, &pair, &[]).await.status(), 404);
}

/// Runs a command; its stdout, failing the test with its output when it fails.
fn check(command: &mut Command) -> String {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{command:?} failed:\n{text}");
    text
}

/// Checks an archive with Python's zipfile (names, sizes, CRCs, contents), `unzip -t` and
/// `7z t`; `expected` are (name, bytes).
fn verify_archive(path: &std::path::Path, expected: &[(String, Vec<u8>)]) {
    let manifest = tempfile::NamedTempFile::new().unwrap();
    let listing: Vec<Value> = expected
        .iter()
        .map(|(name, bytes)| json!({"name": name, "size": bytes.len(), "crc": crc32fast::hash(bytes)}))
        .collect();
    std::fs::write(manifest.path(), serde_json::to_vec(&listing).unwrap()).unwrap();
    let script = r#"
import json, sys, warnings, zipfile, zlib
warnings.simplefilter("error")
expected = json.load(open(sys.argv[2]))
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None, "bad CRC"
    infos = z.infolist()
    assert [i.filename for i in infos] == [e["name"] for e in expected], [i.filename for i in infos]
    for info, e in zip(infos, expected):
        assert info.file_size == e["size"], (info.filename, info.file_size)
        assert info.CRC == e["crc"], info.filename
        assert info.compress_type == zipfile.ZIP_STORED
        assert zlib.crc32(z.read(info)) == e["crc"]
print("ok")
"#;
    let out = check(
        Command::new("python3")
            .arg("-c")
            .arg(script)
            .arg(path)
            .arg(manifest.path()),
    );
    assert!(out.contains("ok"));
    let out = check(Command::new("unzip").arg("-t").arg(path));
    assert!(out.contains("No errors detected"), "{out}");
    assert!(!out.to_lowercase().contains("warning"), "{out}");
    let out = check(Command::new("7z").arg("t").arg(path));
    assert!(out.contains("Everything is Ok"), "{out}");
    assert!(!out.contains("WARNING"), "{out}");
}

#[tokio::test]
async fn the_package_zip_opens_everywhere_and_resumes() {
    let s = shared_package().await;
    let customer = s.app.dealer_session(100_001, &[s.list]).await;
    let path = format!("/api/download/{}/zip", s.package);
    let response = s.app.get_with(&customer, &path, &[]).await;
    assert_eq!(response.status(), 200, "{:?}", response.headers());
    assert_eq!(header(&response, "content-type"), "application/zip");
    let today = aktionsportal::domain::time::berlin_date(chrono::Utc::now()).format("%Y-%m-%d");
    let disposition = header(&response, "content-disposition");
    assert!(
        disposition.contains(&format!(
            "filename*=UTF-8''{today}_Testmarke%20Aktionsportal.zip"
        )),
        "{disposition}"
    );
    let length: usize = header(&response, "content-length").parse().unwrap();
    let etag = header(&response, "etag");
    let archive = response.bytes().await.unwrap().to_vec();
    assert_eq!(archive.len(), length, "the announced length is exact");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("paket.zip");
    std::fs::write(&file, &archive).unwrap();
    // One folder per package, named after it (the slash made safe).
    verify_archive(
        &file,
        &[
            (
                "Herbst_Winter: Aktion/Flyer Süd Größe A4.pdf".to_string(),
                s.bytes.clone(),
            ),
            (
                "Herbst_Winter: Aktion/Preise.txt".to_string(),
                "Preise für Händler".as_bytes().to_vec(),
            ),
        ],
    );

    // An interrupted download resumes where it stopped.
    let cut = length / 3;
    let rest = s
        .app
        .get_with(
            &customer,
            &path,
            &[("range", &format!("bytes={cut}-")), ("if-range", &etag)],
        )
        .await;
    assert_eq!(rest.status(), 206);
    assert_eq!(
        header(&rest, "content-range"),
        format!("bytes {cut}-{}/{length}", length - 1)
    );
    let mut resumed = archive[..cut].to_vec();
    resumed.extend_from_slice(&rest.bytes().await.unwrap());
    assert_eq!(resumed, archive);
    // Every range is the matching slice.
    for (start, end) in [(0, 29), (30, 80), (length - 22, length - 1)] {
        let part = s
            .app
            .get_with(
                &customer,
                &path,
                &[("range", &format!("bytes={start}-{end}"))],
            )
            .await;
        assert_eq!(part.bytes().await.unwrap().as_ref(), &archive[start..=end]);
    }

    // Chosen files across packages, the same rules.
    let chosen = s
        .app
        .get_with(
            &customer,
            &format!("/api/downloads/zip?files={}:{}", s.package, s.file),
            &[],
        )
        .await;
    assert_eq!(chosen.status(), 200);
    std::fs::write(&file, chosen.bytes().await.unwrap()).unwrap();
    verify_archive(
        &file,
        &[(
            "Herbst_Winter: Aktion/Flyer Süd Größe A4.pdf".to_string(),
            s.bytes.clone(),
        )],
    );
    let (status, answer) = s
        .app
        .call(&s.admin, "GET", "/api/downloads/zip?files=", None)
        .await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (400, Some("Es wurden keine Dateien ausgewählt."))
    );
}

#[tokio::test]
async fn zip64_records_are_read_by_every_tool() {
    use aktionsportal::storage::serve::{self, Source};
    use aktionsportal::storage::zip::{ZipEntry, ZipLayout};
    use futures_util::TryStreamExt;
    let dir = tempfile::tempdir().unwrap();
    let mut entries = Vec::new();
    let mut expected = Vec::new();
    for (i, name) in ["Ordner/Flyer Süd.pdf", "Ordner/Plakat.png", "Liesmich.txt"]
        .iter()
        .enumerate()
    {
        let bytes: Vec<u8> = (0..(1000 * (i + 1))).map(|b| (b % 256) as u8).collect();
        let path = dir.path().join(format!("{i}.bin"));
        std::fs::write(&path, &bytes).unwrap();
        entries.push(ZipEntry {
            name: name.to_string(),
            source: Source::Disk(path),
            size: bytes.len() as u64,
            crc32: crc32fast::hash(&bytes),
            modified: chrono::Utc::now(),
        });
        expected.push((name.to_string(), bytes));
    }
    let layout = ZipLayout::new(&entries, true);
    let bytes: Vec<u8> = serve::stream(layout.pieces.clone())
        .try_fold(Vec::new(), |mut all, chunk| async move {
            all.extend_from_slice(&chunk);
            Ok(all)
        })
        .await
        .unwrap();
    assert_eq!(bytes.len() as u64, layout.len);
    let file = dir.path().join("zip64.zip");
    std::fs::write(&file, bytes).unwrap();
    verify_archive(&file, &expected);
}

/// A real archive above 4 GiB, checked without writing 4 GiB: the file is sparse (zeros) and
/// the archive is written sparsely too, headers at their offsets. Runs in the SQLite pass
/// of the test command only: it needs no database and takes a few seconds.
#[tokio::test]
async fn an_archive_above_4_gib_is_valid() {
    if std::env::var("AP_TEST_BACKEND").as_deref() == Ok("postgres") {
        return;
    }
    use aktionsportal::storage::serve::{Piece, Source};
    use aktionsportal::storage::zip::{ZipEntry, ZipLayout};
    use std::os::unix::fs::FileExt;
    let dir = tempfile::tempdir().unwrap();
    let size: u64 = 4 * 1024 * 1024 * 1024 + 4096;
    let big = dir.path().join("gross.bin");
    std::fs::File::create(&big).unwrap().set_len(size).unwrap();
    let mut crc = crc32fast::Hasher::new();
    let zeros = vec![0u8; 8 * 1024 * 1024];
    let mut left = size;
    while left > 0 {
        let n = left.min(zeros.len() as u64) as usize;
        crc.update(&zeros[..n]);
        left -= n as u64;
    }
    let small = dir.path().join("klein.txt");
    std::fs::write(&small, b"danach").unwrap();
    let layout = ZipLayout::new(
        &[
            ZipEntry {
                name: "Video/gross.mp4".into(),
                source: Source::Disk(big),
                size,
                crc32: crc.finalize(),
                modified: chrono::Utc::now(),
            },
            ZipEntry {
                name: "klein.txt".into(),
                source: Source::Disk(small),
                size: 6,
                crc32: crc32fast::hash(b"danach"),
                modified: chrono::Utc::now(),
            },
        ],
        false,
    );
    let archive = dir.path().join("gross.zip");
    let out = std::fs::File::create(&archive).unwrap();
    out.set_len(layout.len).unwrap();
    let mut offset = 0u64;
    for piece in &layout.pieces {
        match piece {
            Piece::Bytes(bytes) => out.write_all_at(bytes, offset).unwrap(),
            Piece::File {
                source: Source::Disk(path),
                ..
            } if path.ends_with("klein.txt") => out.write_all_at(b"danach", offset).unwrap(),
            Piece::File { .. } => {} // zeros: the hole reads as zeros
        }
        offset += piece.len();
    }
    let script = r#"
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    infos = z.infolist()
    assert [i.filename for i in infos] == ["Video/gross.mp4", "klein.txt"]
    assert infos[0].file_size == int(sys.argv[2])
    assert z.read("klein.txt") == b"danach"
    assert z.testzip() is None
print("ok")
"#;
    check(
        Command::new("python3")
            .arg("-c")
            .arg(script)
            .arg(&archive)
            .arg(size.to_string()),
    );
    let out = check(Command::new("unzip").arg("-t").arg(&archive));
    assert!(out.contains("No errors detected"), "{out}");
}

#[tokio::test]
async fn the_sweep_removes_what_nothing_uses_and_measures_old_rows() {
    let app = spawn_app().await;
    let admin = app.session_with_roles(&[ADMIN]).await;
    let db = &app.test_db.db;
    let store = aktionsportal::storage::FileStore::new(app.test_db.data_dir.join("files")).unwrap();
    // An upload whose form was never saved, two days ago.
    let (_, abandoned) = app.upload(&admin, "Vergessen.pdf", PDF.to_vec()).await;
    let abandoned = abandoned["id"].as_i64().unwrap();
    let (_, fresh) = app.upload(&admin, "Frisch.pdf", PDF.to_vec()).await;
    let two_days_ago = chrono::Utc::now() - chrono::Duration::days(2);
    aktionsportal::db_run!(db, pool => {
        sqlx::query("update uploads set created_at = $1 where id = $2")
            .bind(two_days_ago)
            .bind(abandoned)
            .execute(pool)
            .await
            .unwrap();
    });
    // A file no row names, two days old; and a row from before checksums were measured.
    let orphan = store.put_bytes(b"verwaist", "txt").await.unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 24 * 3600);
    std::fs::File::options()
        .write(true)
        .open(store.path_of(&orphan).unwrap())
        .unwrap()
        .set_modified(old)
        .unwrap();
    let legacy_key = store.put_bytes(b"%PDF-1.4 alt", "pdf").await.unwrap();
    let legacy = aktionsportal::db::catalog::uploads::create(
        db,
        &aktionsportal::db::catalog::uploads::NewUpload {
            name: "Alt.pdf".into(),
            storage_key: legacy_key,
            ext: "pdf".into(),
            size: 12,
            content_type: "application/pdf".into(),
            sha256: None,
            crc32: None,
            uploaded_by: None,
        },
        &aktionsportal::domain::audit::Actor::Cli,
    )
    .await
    .unwrap();

    let report = aktionsportal::services::catalog::uploads::sweep(db, &store)
        .await
        .unwrap();
    assert_eq!(
        (report.unused_uploads, report.unknown_files, report.measured),
        (1, 1, 1),
        "{report:?}"
    );
    assert!(
        aktionsportal::db::catalog::uploads::get(db, abandoned)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        aktionsportal::db::catalog::uploads::get(db, fresh["id"].as_i64().unwrap())
            .await
            .unwrap()
            .is_some()
    );
    assert!(!store.path_of(&orphan).unwrap().exists());
    let measured = aktionsportal::db::catalog::uploads::get(db, legacy.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        measured.crc32,
        Some(i64::from(crc32fast::hash(b"%PDF-1.4 alt")))
    );
    assert_eq!(
        app.stored_files().len(),
        2,
        "the fresh upload and the measured one stay"
    );
}
