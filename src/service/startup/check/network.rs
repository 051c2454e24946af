//! Where the pages are reached: the listen address free, the addresses
//! the pages will have, and HTTPS beyond this computer.

use std::net::{SocketAddr, TcpListener};

use crate::service::startup::config::Config;

use super::faults::{Fault, ListenFault};
use super::lines::{Line, Part};

/// Beyond this computer, whether the pages are served over HTTPS: plain
/// HTTP carries every token across the hall's network in clear (and the
/// venue arbiter's token is then refused from other devices). `None` on
/// loopback, where nothing crosses a network.
pub fn https(config: &Config) -> Option<Line> {
    let addr = config.server.listen;
    if addr.ip().is_loopback() {
        return None;
    }
    let result = match &config.server.tls_cert {
        Some(cert) => Ok(format!("HTTPS with {}", cert.display())),
        None => Err(Fault::PlainHttp(addr)),
    };
    Some(Line::new(None, Part::Https, result))
}

/// The listen address is free, and where the pages will be reached.
pub fn listen(addr: SocketAddr) -> Vec<Line> {
    let free = match TcpListener::bind(addr) {
        Ok(_) => Ok(format!("{addr} is free")),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => Err(ListenFault::InUse(addr)),
        Err(source) => Err(ListenFault::Cannot { addr, source }),
    };
    let mut lines = vec![Line::new(None, Part::Listen, free.map_err(Fault::from))];
    for a in crate::service::startup::addresses::page_addresses(addr) {
        let note = if a.ip().is_loopback() {
            " (this computer only: listen on 0.0.0.0 for the phones in the hall)"
        } else {
            ""
        };
        lines.push(Line::new(
            None,
            Part::Pages,
            Ok(format!("http://{a}/{note}")),
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 36, item 6: plain HTTP beyond loopback is a part not ready,
    /// naming the risk and the cure; HTTPS or loopback is not a risk.
    #[test]
    fn plain_http_beyond_this_computer_is_named_with_its_cure() {
        let mut c = Config::default();
        assert_eq!(https(&c), None, "loopback: nothing crosses a network");
        c.server.listen = "0.0.0.0:8080".parse().unwrap();
        let line = https(&c).unwrap();
        assert!(!line.ok);
        assert!(
            line.text.contains("tactus tls self-signed"),
            "{}",
            line.text
        );
        c.server.tls_cert = Some("/etc/tactus/cert.pem".into());
        assert!(https(&c).unwrap().ok);
    }
}
