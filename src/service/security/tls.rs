//! HTTPS at a venue: the pages and the API over TLS (rustls), so that the
//! players' and arbiters' tokens do not cross the venue's Wi-Fi in clear
//! and the pages are a secure context. `[server] tls_cert` and `tls_key`
//! name PEM files; without them the server speaks plain HTTP (loopback, or
//! a venue that chooses it). A venue with no certificate makes a
//! self-signed pair with `tactus tls self-signed`, and its organiser
//! compares the SHA-256 fingerprint the browser shows with the one printed.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::service::startup::config::ServerConfig;

/// Why the certificate or key cannot be used, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// One of `tls_cert`, `tls_key` without the other.
    #[error("[server] {set} is set but {missing} is not: HTTPS needs both files")]
    Half {
        set: &'static str,
        missing: &'static str,
    },
    /// A file that cannot be read.
    #[error("cannot read {}: {error}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    /// A certificate file with no certificate, or one that does not read.
    #[error("{}: not a PEM certificate ({why})", path.display())]
    Cert { path: PathBuf, why: String },
    /// A key file with no private key, or one that does not read.
    #[error("{}: not a PEM private key ({why})", path.display())]
    Key { path: PathBuf, why: String },
    /// A key and certificate that rustls will not pair (the key is not the
    /// certificate's, or of a kind it does not use).
    #[error("{} and {} do not go together: {why}", cert.display(), key.display())]
    Pair {
        cert: PathBuf,
        key: PathBuf,
        why: String,
    },
    /// A self-signed certificate that cannot be made (a name that is not a
    /// host name or address).
    #[error("cannot make a certificate: {0}")]
    Generate(String),
    /// A file that cannot be written.
    #[error("cannot write {}: {error}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
}

/// A certificate and key ready to serve.
#[derive(Clone)]
pub struct Tls {
    /// Accepts TLS connections with the venue's certificate.
    pub acceptor: TlsAcceptor,
    /// The certificate's SHA-256 fingerprint, as [`fingerprint`] writes it.
    pub fingerprint: String,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tls")
            .field("fingerprint", &self.fingerprint)
            .finish_non_exhaustive()
    }
}

/// The TLS the configuration asks for: `None` without `tls_cert` and
/// `tls_key` (plain HTTP).
pub fn from_config(server: &ServerConfig) -> Result<Option<Tls>, TlsError> {
    match (&server.tls_cert, &server.tls_key) {
        (None, None) => Ok(None),
        (Some(cert), Some(key)) => load(cert, key).map(Some),
        (Some(_), None) => Err(TlsError::Half {
            set: "tls_cert",
            missing: "tls_key",
        }),
        (None, Some(_)) => Err(TlsError::Half {
            set: "tls_key",
            missing: "tls_cert",
        }),
    }
}

/// Reads a PEM certificate chain (the server's first) and its PEM private
/// key (PKCS#8, PKCS#1 or SEC1), and checks that they pair.
pub fn load(cert_path: &Path, key_path: &Path) -> Result<Tls, TlsError> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|error| TlsError::Read {
            path: path.to_owned(),
            error,
        })
    };
    let cert_pem = read(cert_path)?;
    let key_pem = read(key_path)?;
    let chain = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TlsError::Cert {
            path: cert_path.to_owned(),
            why: e.to_string(),
        })?;
    let Some(first) = chain.first() else {
        return Err(TlsError::Cert {
            path: cert_path.to_owned(),
            why: "no -----BEGIN CERTIFICATE----- block".into(),
        });
    };
    let fingerprint = fingerprint(first);
    let key = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| TlsError::Key {
        path: key_path.to_owned(),
        why: match e {
            rustls::pki_types::pem::Error::NoItemsFound => {
                "no -----BEGIN PRIVATE KEY----- block (PKCS#8, RSA or EC)".into()
            }
            e => e.to_string(),
        },
    })?;
    let pair = |why: String| TlsError::Pair {
        cert: cert_path.to_owned(),
        key: key_path.to_owned(),
        why,
    };
    // One provider named (ring), so that no other crate's choice of
    // provider changes what the server accepts.
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| pair(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| pair(e.to_string()))?;
    // The server speaks HTTP/1.1 only (hyper's http1 connection).
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Tls {
        acceptor: TlsAcceptor::from(Arc::new(config)),
        fingerprint,
    })
}

/// A certificate's SHA-256 fingerprint as browsers show it: 32 bytes in
/// upper-case hexadecimal, separated by colons.
pub fn fingerprint(der: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, der);
    digest
        .as_ref()
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// A self-signed certificate and its key, in PEM.
pub struct SelfSigned {
    pub cert_pem: String,
    pub key_pem: String,
    pub fingerprint: String,
}

/// Shows the fingerprint, never the key.
impl std::fmt::Debug for SelfSigned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SelfSigned")
            .field("fingerprint", &self.fingerprint)
            .finish_non_exhaustive()
    }
}

/// The names a self-signed certificate gets when none are given.
pub const DEFAULT_NAMES: [&str; 2] = ["localhost", "127.0.0.1"];

/// Makes a self-signed certificate (ECDSA P-256) for `names`: host names
/// and IP addresses the venue's devices use to reach the server.
pub fn self_signed(names: &[String]) -> Result<SelfSigned, TlsError> {
    let names: Vec<String> = if names.is_empty() {
        DEFAULT_NAMES.iter().map(|s| s.to_string()).collect()
    } else {
        names.to_vec()
    };
    if let Some(bad) = names.iter().find(|n| !is_host(n)) {
        return Err(TlsError::Generate(format!(
            "`{bad}` is not a host name or an IP address"
        )));
    }
    let generate = |e: rcgen::Error| TlsError::Generate(e.to_string());
    let mut params = rcgen::CertificateParams::new(names.clone()).map_err(generate)?;
    params.distinguished_name = rcgen::DistinguishedName::new();
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, format!("tactus at {}", names[0]));
    let key = rcgen::KeyPair::generate().map_err(generate)?;
    let cert = params.self_signed(&key).map_err(generate)?;
    Ok(SelfSigned {
        fingerprint: fingerprint(cert.der()),
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
    })
}

/// A DNS name (letters, digits and hyphens in dot-separated labels of at
/// most 63, 253 in all) or an IP address.
fn is_host(name: &str) -> bool {
    name.parse::<std::net::IpAddr>().is_ok()
        || (name.len() <= 253
            && name.split('.').all(|label| {
                (1..=63).contains(&label.len())
                    && label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                    && !label.starts_with('-')
                    && !label.ends_with('-')
            }))
}

/// Writes a self-signed pair into `dir` as `cert.pem` and `key.pem` (the
/// key readable by its owner only); refuses to replace either file.
pub fn write_self_signed(
    dir: &Path,
    names: &[String],
) -> Result<(SelfSigned, PathBuf, PathBuf), TlsError> {
    let made = self_signed(names)?;
    std::fs::create_dir_all(dir).map_err(|error| TlsError::Write {
        path: dir.to_owned(),
        error,
    })?;
    let cert = dir.join("cert.pem");
    let key = dir.join("key.pem");
    for (path, text, mode) in [(&key, &made.key_pem, 0o600), (&cert, &made.cert_pem, 0o644)] {
        write_new(path, text.as_bytes(), mode).map_err(|error| TlsError::Write {
            path: path.clone(),
            error,
        })?;
    }
    Ok((made, cert, key))
}

/// Creates `path` (never replacing a file) with `mode`, and writes `bytes`.
fn write_new(path: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_signed_pair_loads_and_its_fingerprint_is_the_certificates() {
        let dir = tempfile::tempdir().unwrap();
        let (made, cert, key) =
            write_self_signed(dir.path(), &["tactus.local".into(), "192.168.1.20".into()]).unwrap();
        let tls = load(&cert, &key).unwrap();
        assert_eq!(tls.fingerprint, made.fingerprint);
        assert_eq!(tls.fingerprint.len(), 32 * 3 - 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&key).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // A second run does not replace the venue's files.
        let again = write_self_signed(dir.path(), &[]).unwrap_err();
        assert!(again.to_string().contains("key.pem"), "{again}");
    }

    #[test]
    fn bad_files_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let (_, cert, key) = write_self_signed(dir.path(), &[]).unwrap();
        let other = tempfile::tempdir().unwrap();
        let (_, _, other_key) = write_self_signed(other.path(), &[]).unwrap();
        let garbage = dir.path().join("garbage.pem");
        std::fs::write(&garbage, "not a certificate\n").unwrap();
        let missing = dir.path().join("missing.pem");

        let e = load(&missing, &key).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("cannot read {}", missing.display())),
            "{e}"
        );
        let e = load(&garbage, &key).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{}: not a PEM certificate", garbage.display())),
            "{e}"
        );
        let e = load(&cert, &garbage).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{}: not a PEM private key", garbage.display())),
            "{e}"
        );
        // A certificate given as the key: no key in it.
        let e = load(&cert, &cert).unwrap_err().to_string();
        assert!(e.contains("not a PEM private key"), "{e}");
        let e = load(&cert, &other_key).unwrap_err().to_string();
        assert!(e.contains("do not go together"), "{e}");
        assert!(e.contains(&other_key.display().to_string()), "{e}");
    }

    #[test]
    fn half_a_pair_in_the_configuration_is_refused() {
        let mut server = ServerConfig::default();
        assert!(from_config(&server).unwrap().is_none());
        server.tls_cert = Some("cert.pem".into());
        let e = from_config(&server).unwrap_err().to_string();
        assert_eq!(
            e,
            "[server] tls_cert is set but tls_key is not: HTTPS needs both files"
        );
    }

    #[test]
    fn a_name_that_is_not_a_host_is_refused() {
        assert!(self_signed(&["not a host name".into()]).is_err());
    }
}
