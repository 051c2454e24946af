//! HTTPS at a venue: `tactus tls self-signed` makes a certificate whose
//! fingerprint openssl agrees with; `tactus serve` with `[server] tls_cert`
//! and `tls_key` answers real TLS clients (rustls, and curl) that trust
//! that certificate, refuses a client that does not, sends nothing in clear
//! to a plain-HTTP request, and names a bad certificate or key file.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use common::Server;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};

/// Runs `tactus tls self-signed` into `dir`; the fingerprint it printed.
fn self_signed(dir: &Path, names: &[&str]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tactus"));
    cmd.args(["tls", "self-signed", "--out"]).arg(dir);
    for n in names {
        cmd.args(["--name", n]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("SHA-256:"))
        .unwrap_or_else(|| panic!("no fingerprint in {text}"))
        .trim()
        .to_owned()
}

/// A venue file that serves HTTPS with `cert` and `key`.
fn venue(dir: &Path, cert: &Path, key: &Path) -> PathBuf {
    let path = dir.join("venue.toml");
    std::fs::write(
        &path,
        format!(
            "[server]\ntls_cert = {:?}\ntls_key = {:?}\n",
            cert.display().to_string(),
            key.display().to_string()
        ),
    )
    .unwrap();
    path
}

/// One GET over TLS with rustls trusting only `cert`; the whole answer, or
/// the TLS error.
async fn rustls_get(addr: &str, cert: &Path, path: &str) -> Result<String, String> {
    let mut roots = rustls::RootCertStore::empty();
    for c in CertificateDer::pem_file_iter(cert).unwrap() {
        roots.add(c.unwrap()).unwrap();
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let name = ServerName::try_from("localhost").unwrap();
    let mut tls = connector
        .connect(name, tcp)
        .await
        .map_err(|e| e.to_string())?;
    let request = format!("GET {path} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n");
    tls.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    // A server that closes without TLS's close_notify is an error after the
    // answer; what was read is kept.
    let _ = tokio::time::timeout(Duration::from_secs(30), tls.read_to_end(&mut answer)).await;
    Ok(String::from_utf8_lossy(&answer).into_owned())
}

fn openssl_fingerprint(cert: &Path) -> String {
    let out = Command::new("openssl")
        .args(["x509", "-noout", "-fingerprint", "-sha256", "-in"])
        .arg(cert)
        .output()
        .expect("openssl (Debian package openssl)");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    text.trim().rsplit('=').next().unwrap().to_uppercase()
}

#[test]
fn a_venue_serves_https_with_a_self_signed_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("tls");
    let printed = self_signed(&certs, &["localhost", "127.0.0.1"]);
    let (cert, key) = (certs.join("cert.pem"), certs.join("key.pem"));
    assert_eq!(printed, openssl_fingerprint(&cert));
    let config = venue(dir.path(), &cert, &key);
    let data = dir.path().join("data");
    let config_arg = config.display().to_string();
    let server = Server::start(&data, &["--config", &config_arg]);
    // What the organiser sees at start: the fingerprint, and (the output
    // being a pipe, not a terminal) where the links are, with no token.
    let said = server.stdout.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(said, format!("certificate SHA-256: {printed}"));
    let pointer = server.stdout.recv_timeout(Duration::from_secs(10)).unwrap();
    assert!(pointer.starts_with("links: "), "{pointer}");
    assert!(!pointer.contains("token="), "{pointer}");
    // The https links, in the owner-only file `tactus links` prints.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["links", "--data", data.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let links = String::from_utf8(out.stdout).unwrap();
    assert!(
        links.contains(&format!("https://{}/arbiter#token=", server.addr)),
        "{links}"
    );
    assert!(
        links.contains(&format!("https://{}/table/1/player#token=", server.addr)),
        "{links}"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(data.join("links.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // rustls, trusting the venue's certificate.
    let answer = rt
        .block_on(rustls_get(&server.addr, &cert, "/api/tables/1"))
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"id\":\"1\""), "{answer}");
    // rustls trusting another certificate refuses the server.
    let other = dir.path().join("other");
    self_signed(&other, &["localhost"]);
    let refused = rt
        .block_on(rustls_get(
            &server.addr,
            &other.join("cert.pem"),
            "/api/tables/1",
        ))
        .unwrap_err();
    assert!(refused.contains("certificate"), "{refused}");

    // curl, trusting the venue's certificate (by name and by address), and
    // not trusting it without.
    let port = server.addr.rsplit(':').next().unwrap();
    for url in [
        format!("https://localhost:{port}/api/tables/1"),
        format!("https://127.0.0.1:{port}/api/tables/1"),
    ] {
        let out = Command::new("curl")
            .args(["-sS", "--fail", "--resolve"])
            .arg(format!("localhost:{port}:127.0.0.1"))
            .arg("--cacert")
            .arg(&cert)
            .arg(&url)
            .output()
            .expect("curl (Debian package curl)");
        assert!(
            out.status.success(),
            "{url}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let body: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(body["id"], "1");
    }
    let untrusted = Command::new("curl")
        .args(["-sS", "--fail"])
        .arg(format!("https://127.0.0.1:{port}/api/tables/1"))
        .output()
        .unwrap();
    assert_eq!(
        untrusted.status.code(),
        Some(60),
        "curl: peer certificate not trusted"
    );

    // Plain HTTP on the HTTPS port: no answer in clear.
    assert_eq!(
        common::raw_request(
            &server.addr,
            b"GET /api/tables/1 HTTP/1.1\r\nhost: x\r\n\r\n",
            true
        ),
        None
    );
    // The server still serves after the bad clients.
    let answer = rt
        .block_on(rustls_get(&server.addr, &cert, "/api/tables/1"))
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn a_bad_certificate_or_key_is_named_and_nothing_starts() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("tls");
    self_signed(&certs, &[]);
    let (cert, key) = (certs.join("cert.pem"), certs.join("key.pem"));
    let garbage = dir.path().join("garbage.pem");
    std::fs::write(
        &garbage,
        "-----BEGIN CERTIFICATE-----\nnot base64 at all!\n",
    )
    .unwrap();
    let missing = dir.path().join("missing.pem");
    for (c, k, named) in [
        (&garbage, &key, &garbage),
        (&cert, &garbage, &garbage),
        (&missing, &key, &missing),
        (&cert, &cert, &cert),
    ] {
        let config = venue(dir.path(), c, k);
        let data = dir.path().join("data");
        let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
            .args([
                "serve",
                "--audio",
                "none",
                "--listen",
                "127.0.0.1:0",
                "--config",
            ])
            .arg(&config)
            .arg("--data")
            .arg(&data)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        assert!(
            stderr.contains(&named.display().to_string()),
            "{c:?} {k:?}: {stderr}"
        );
        // Refused before the data folder was made.
        assert!(!data.exists(), "{stderr}");
    }
}
