//! The addresses the pages are reached on: the listen address itself, or,
//! when tactus listens on every address (`0.0.0.0`, `::`), each
//! non-loopback address of this machine. Links printed at start-up, on the
//! cards and by `tactus check` use these, never 127.0.0.1 (which names the
//! phone the link is opened on, not this machine).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The addresses of this machine's network interfaces that other devices
/// can reach: no loopback, no IPv6 link-local (those need a zone the link
/// cannot carry). IPv4 first, each once, in the order the system lists them.
pub fn lan_addresses() -> Vec<IpAddr> {
    let mut v4 = Vec::new();
    let mut v6 = Vec::new();
    let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills `list` with a list we free below with
    // freeifaddrs; every node's `ifa_addr` may be null and is checked.
    if unsafe { libc::getifaddrs(&mut list) } != 0 {
        return Vec::new();
    }
    let mut node = list;
    while !node.is_null() {
        // SAFETY: a node of the list getifaddrs returned, not yet freed.
        let ifa = unsafe { &*node };
        node = ifa.ifa_next;
        if ifa.ifa_addr.is_null() {
            continue;
        }
        // SAFETY: ifa_addr is non-null and points to a sockaddr whose family
        // says which struct it is.
        let family = i32::from(unsafe { (*ifa.ifa_addr).sa_family });
        let ip = match family {
            libc::AF_INET => {
                // SAFETY: an AF_INET address is a sockaddr_in.
                let sin = unsafe { &*(ifa.ifa_addr as *const libc::sockaddr_in) };
                IpAddr::V4(Ipv4Addr::from(u32::from_be(sin.sin_addr.s_addr)))
            }
            libc::AF_INET6 => {
                // SAFETY: an AF_INET6 address is a sockaddr_in6.
                let sin6 = unsafe { &*(ifa.ifa_addr as *const libc::sockaddr_in6) };
                IpAddr::V6(Ipv6Addr::from(sin6.sin6_addr.s6_addr))
            }
            _ => continue,
        };
        if ip.is_loopback() || ip.is_unspecified() {
            continue;
        }
        match ip {
            IpAddr::V4(_) if !v4.contains(&ip) => v4.push(ip),
            IpAddr::V6(a) if !a.is_unicast_link_local() && !v6.contains(&ip) => v6.push(ip),
            _ => {}
        }
    }
    // SAFETY: the list getifaddrs returned, freed once.
    unsafe { libc::freeifaddrs(list) };
    v4.extend(v6);
    v4
}

/// Where the pages of a server listening on `listen` are reached: `listen`
/// itself, or every LAN address with its port when it listens on all
/// addresses (loopback only if the machine has no other).
pub fn page_addresses(listen: SocketAddr) -> Vec<SocketAddr> {
    if !listen.ip().is_unspecified() {
        return vec![listen];
    }
    let all = lan_addresses();
    let wanted: Vec<SocketAddr> = all
        .into_iter()
        // `::` also accepts IPv4; `0.0.0.0` accepts IPv4 only.
        .filter(|ip| listen.is_ipv6() || ip.is_ipv4())
        .map(|ip| SocketAddr::new(ip, listen.port()))
        .collect();
    if wanted.is_empty() {
        let loopback = if listen.is_ipv6() {
            IpAddr::V6(Ipv6Addr::LOCALHOST)
        } else {
            IpAddr::V4(Ipv4Addr::LOCALHOST)
        };
        return vec![SocketAddr::new(loopback, listen.port())];
    }
    wanted
}

/// The base of every link (`http://192.168.1.20:8080`): the first of
/// [`page_addresses`].
pub fn link_base(listen: SocketAddr, tls: bool) -> String {
    let addr = page_addresses(listen).into_iter().next().unwrap_or(listen);
    let scheme = if tls { "https" } else { "http" };
    format!("{scheme}://{addr}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_specific_address_is_its_own_page_address() {
        let a: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        assert_eq!(page_addresses(a), vec![a]);
        assert_eq!(link_base(a, false), "http://127.0.0.1:8080");
    }

    #[test]
    fn all_addresses_means_the_machines_and_never_loopback_when_it_has_one() {
        let any: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let lan = lan_addresses();
        let pages = page_addresses(any);
        assert!(pages.iter().all(|a| a.port() == 8080 && a.is_ipv4()));
        if lan.iter().any(IpAddr::is_ipv4) {
            assert!(pages.iter().all(|a| !a.ip().is_loopback()), "{pages:?}");
            assert!(!link_base(any, false).contains("127.0.0.1"));
        } else {
            assert_eq!(pages, vec!["127.0.0.1:8080".parse().unwrap()]);
        }
        assert!(
            lan.iter()
                .all(|ip| !ip.is_loopback() && !ip.is_unspecified())
        );
    }
}
