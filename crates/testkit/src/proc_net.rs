//! The host's IPv4 TCP sockets as Linux lists them in `/proc/net/tcp`: how
//! the benches and tests see a listener or a connection's state without
//! touching it (a probe connection would make ser2net open its device, and
//! reading a stalled connection would unstall it).

/// One socket of `/proc/net/tcp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TcpSocket {
    /// Local address and port, as Linux writes them (`0100007F:1F90` is
    /// 127.0.0.1:8080, the address in the host's byte order).
    pub local: String,
    pub local_port: u16,
    pub remote_port: u16,
    /// The TCP state in hex: `01` established, `04` FIN_WAIT1, `0A` listen.
    pub state: String,
    /// The socket's inode (`socket:[inode]` in a process's `fd` folder).
    pub inode: u64,
}

/// `TcpSocket::state` of a listening socket.
pub const LISTEN: &str = "0A";

/// Every IPv4 TCP socket of the host (none if the file cannot be read).
pub fn tcp_sockets() -> Vec<TcpSocket> {
    parse(&std::fs::read_to_string("/proc/net/tcp").unwrap_or_default())
}

/// The rows of a `/proc/net/tcp` text; unreadable rows are left out.
pub fn parse(text: &str) -> Vec<TcpSocket> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let port = |a: &str| u16::from_str_radix(a.rsplit(':').next()?, 16).ok();
            Some(TcpSocket {
                local: f.get(1)?.to_string(),
                local_port: port(f.get(1)?)?,
                remote_port: port(f.get(2)?)?,
                state: f.get(3)?.to_string(),
                inode: f.get(9)?.parse().ok()?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_kernels_rows_and_skips_what_it_cannot() {
        let text = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 43127 1 0000000000000000 100 0 0 10 0\n   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 43999 1 0000000000000000 20 4 30 10 -1\n   2: garbage\n";
        let rows = parse(text);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].local, "0100007F:1F90");
        assert_eq!(
            (rows[0].local_port, rows[0].state.as_str(), rows[0].inode),
            (8080, LISTEN, 43127)
        );
        assert_eq!((rows[1].remote_port, rows[1].state.as_str()), (50000, "01"));
    }
}
