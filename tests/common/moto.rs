//! An S3-compatible server for tests: moto's server mode (PyPI `moto[server]`), started on a
//! free port of 127.0.0.1. `scripts/moto.sh` installs it and prints the path of its
//! `moto_server`, which the tests find in `AP_TEST_MOTO_SERVER`.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running moto server; killed when dropped.
pub struct Moto {
    pub endpoint: String,
    child: Child,
}

impl Moto {
    /// Starts moto (fails the test with a clear message when it is not installed).
    pub async fn start() -> Moto {
        let program = std::env::var("AP_TEST_MOTO_SERVER").expect(
            "AP_TEST_MOTO_SERVER is not set: run scripts/test.sh, or \
             AP_TEST_MOTO_SERVER=\"$(scripts/moto.sh)\" cargo test … -- --ignored",
        );
        let port = {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("free port");
            listener.local_addr().expect("address").port()
        };
        let child = Command::new(&program)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{program} did not start: {e}"));
        let moto = Moto {
            endpoint: format!("http://127.0.0.1:{port}"),
            child,
        };
        let started = Instant::now();
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "moto did not answer within 30 s"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        moto
    }

    /// Creates a bucket (moto takes unsigned requests).
    pub async fn create_bucket(&self, name: &str) {
        let response = reqwest::Client::new()
            .put(format!("{}/{name}", self.endpoint))
            .send()
            .await
            .expect("moto answers");
        assert!(
            response.status().is_success(),
            "bucket {name}: {response:?}"
        );
    }

    /// The keys in a bucket, sorted.
    pub async fn keys(&self, bucket: &str) -> Vec<String> {
        let body = reqwest::Client::new()
            .get(format!("{}/{bucket}?list-type=2", self.endpoint))
            .send()
            .await
            .expect("moto answers")
            .text()
            .await
            .expect("listing");
        let mut keys: Vec<String> = body
            .split("<Key>")
            .skip(1)
            .filter_map(|rest| rest.split_once("</Key>").map(|(key, _)| key.to_string()))
            .collect();
        keys.sort();
        keys
    }

    /// The configuration settings that put the portal's files into `bucket`.
    pub fn configure(&self, config: &mut aktionsportal::config::Config, bucket: &str) {
        config.s3_bucket = Some(bucket.to_string());
        config.s3_endpoint = Some(self.endpoint.clone());
        config.s3_region = "us-east-1".into();
        config.s3_access_key_id = Some("test".into());
        config.s3_secret_access_key = Some("test".into());
        config.s3_path_style = true;
    }
}

impl Moto {
    /// The same settings as environment variables, for a portal started as its own process.
    pub fn env(&self, bucket: &str, prefix: &str) -> Vec<(&'static str, String)> {
        vec![
            ("AP_S3_BUCKET", bucket.to_string()),
            ("AP_S3_ENDPOINT", self.endpoint.clone()),
            ("AP_S3_REGION", "us-east-1".into()),
            ("AP_S3_ACCESS_KEY_ID", "test".into()),
            ("AP_S3_SECRET_ACCESS_KEY", "test".into()),
            ("AP_S3_PATH_STYLE", "true".into()),
            ("AP_S3_PREFIX", prefix.to_string()),
        ]
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
