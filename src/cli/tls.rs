//! `tactus tls self-signed`: a certificate and key for a venue that has
//! none, so that the pages can be served over HTTPS (`[server] tls_cert`,
//! `tls_key`).

use std::path::PathBuf;

use clap::Subcommand;

use super::Outcome;

/// HTTPS certificates.
#[derive(Subcommand)]
pub enum TlsCommand {
    /// Make a self-signed certificate (cert.pem) and its key (key.pem, for
    /// the owner only) in DIR, and print the certificate's SHA-256
    /// fingerprint, which the organiser compares with the one the browser
    /// shows before accepting the certificate.
    SelfSigned {
        /// The folder to write cert.pem and key.pem into (never replaced).
        #[arg(long)]
        out: PathBuf,
        /// A host name or IP address the venue's devices use to reach the
        /// server (repeat for several; localhost and 127.0.0.1 if none).
        #[arg(long = "name", value_name = "HOST")]
        names: Vec<String>,
    },
}

/// Runs `tls`.
pub fn run(command: TlsCommand) -> Outcome {
    match command {
        TlsCommand::SelfSigned { out, names } => {
            let (made, cert, key) =
                tactus::service::security::tls::write_self_signed(&out, &names)?;
            println!("certificate: {}", cert.display());
            println!("key:         {}", key.display());
            println!("SHA-256:     {}", made.fingerprint);
            println!(
                "In the venue file:\n[server]\ntls_cert = {:?}\ntls_key = {:?}",
                cert.display().to_string(),
                key.display().to_string()
            );
        }
    }
    Ok(())
}
