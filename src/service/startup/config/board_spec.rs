//! The board at one side of a table, as the venue file writes it
//! (`peg:PORT@BAUD`, `dgt:…`, `millennium:…`, `sim`, `none`), read (each
//! fault naming the board as written) and written back.

use std::fmt;
use std::str::FromStr;

use tactus_board::event::Protocol;
use tactus_board::link::Port;

/// The board at one side of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardSpec {
    /// A pegged tactile board on a serial port (local or over the network).
    Peg { port: Port, baud: u32 },
    /// A DGT electronic board on a serial port (local or over the network).
    Dgt { port: Port, baud: u32 },
    /// A Millennium ChessLink board (eONE, Exclusive, Performance, Supreme)
    /// on a serial port (local or over the network): a sighted opponent's.
    Millennium { port: Port, baud: u32 },
    /// The built-in simulated peg board (a pseudo-terminal).
    Sim,
    /// No board: moves come from the pages and the API.
    None,
}

impl BoardSpec {
    /// The protocol, port and speed of a board on a port.
    pub fn wired(&self) -> Option<(Protocol, &Port, u32)> {
        match self {
            BoardSpec::Peg { port, baud } => Some((Protocol::Peg, port, *baud)),
            BoardSpec::Dgt { port, baud } => Some((Protocol::Dgt, port, *baud)),
            BoardSpec::Millennium { port, baud } => Some((Protocol::Millennium, port, *baud)),
            BoardSpec::Sim | BoardSpec::None => None,
        }
    }
}

/// The forms a board can take, for the messages that list them.
const BOARD_FORMS: &str = "expected `peg:PORT[@BAUD]`, `dgt:PORT[@BAUD]`, \
                           `millennium:PORT[@BAUD]`, `sim` or `none`, \
                           where PORT is a device path, `tcp://HOST:PORT` or `rfc2217://HOST:PORT`";

/// Why a board (`peg:/dev/ttyUSB0@9600`, …) cannot be read; each names
/// the board as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardSpecError {
    /// No protocol this service speaks.
    #[error("unknown board `{0}`: {BOARD_FORMS}")]
    Unknown(String),
    /// What follows `@` is not a positive number.
    #[error("board `{spec}`: `{baud}` is not a baud rate")]
    Baud { spec: String, baud: String },
    /// A protocol and nothing after it.
    #[error("board `{0}` names no port: {BOARD_FORMS}")]
    NoPort(String),
    /// The port does not read (the port's own reason).
    #[error("board `{spec}`: {reason}")]
    Port { spec: String, reason: String },
    /// A speed given for a raw TCP port, where ser2net sets it.
    #[error(
        "board `{0}`: over raw tcp the far end sets the speed (in ser2net's \
         configuration); drop `@BAUD`, or use rfc2217:// to set it from here"
    )]
    BaudOverTcp(String),
}

impl FromStr for BoardSpec {
    type Err = BoardSpecError;
    fn from_str(s: &str) -> Result<BoardSpec, BoardSpecError> {
        match s {
            "sim" => return Ok(BoardSpec::Sim),
            "none" => return Ok(BoardSpec::None),
            _ => {}
        }
        let (kind, rest) = s
            .split_once(':')
            .ok_or_else(|| BoardSpecError::Unknown(s.to_owned()))?;
        let protocol = match kind {
            "peg" => Protocol::Peg,
            "dgt" => Protocol::Dgt,
            "millennium" => Protocol::Millennium,
            _ => return Err(BoardSpecError::Unknown(s.to_owned())),
        };
        // `@` never occurs in a network port; in a path it is the speed.
        let (port, baud) = match rest.rsplit_once('@') {
            Some((port, baud)) => (
                port,
                Some(baud.parse::<u32>().ok().filter(|b| *b > 0).ok_or_else(|| {
                    BoardSpecError::Baud {
                        spec: s.to_owned(),
                        baud: baud.to_owned(),
                    }
                })?),
            ),
            None => (rest, None),
        };
        if port.is_empty() {
            return Err(BoardSpecError::NoPort(s.to_owned()));
        }
        let port: Port = port.parse::<Port>().map_err(|e| BoardSpecError::Port {
            spec: s.to_owned(),
            reason: e.to_string(),
        })?;
        if matches!(port, Port::Tcp { .. }) && baud.is_some() {
            return Err(BoardSpecError::BaudOverTcp(s.to_owned()));
        }
        let baud = baud.unwrap_or(protocol.default_baud());
        Ok(match protocol {
            Protocol::Peg => BoardSpec::Peg { port, baud },
            Protocol::Dgt => BoardSpec::Dgt { port, baud },
            Protocol::Millennium => BoardSpec::Millennium { port, baud },
        })
    }
}

impl fmt::Display for BoardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.wired() {
            Some((p, port @ Port::Tcp { .. }, _)) => write!(f, "{}:{port}", p.name()),
            Some((p, port, baud)) => write!(f, "{}:{port}@{baud}", p.name()),
            None if *self == BoardSpec::Sim => f.write_str("sim"),
            None => f.write_str("none"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_specs_round_trip() {
        for s in [
            "peg:/dev/ttyUSB0@9600",
            "dgt:/dev/ttyACM1@19200",
            "sim",
            "none",
        ] {
            assert_eq!(s.parse::<BoardSpec>().unwrap().to_string(), s);
        }
        assert_eq!(
            "peg:/dev/ttyUSB0".parse::<BoardSpec>().unwrap(),
            BoardSpec::Peg {
                port: Port::Serial("/dev/ttyUSB0".into()),
                baud: Protocol::Peg.default_baud()
            }
        );
        for s in [
            "peg:tcp://table3.local:3001",
            "dgt:rfc2217://10.0.0.7:3002@9600",
            "dgt:rfc2217://[::1]:3002@19200",
            "millennium:/dev/ttyACM0@38400",
            "millennium:tcp://pi:3003",
            "millennium:rfc2217://pi:3004@38400",
        ] {
            assert_eq!(s.parse::<BoardSpec>().unwrap().to_string(), s);
        }
        assert_eq!(
            "millennium:/dev/ttyUSB3".parse::<BoardSpec>().unwrap(),
            BoardSpec::Millennium {
                port: Port::Serial("/dev/ttyUSB3".into()),
                baud: 38400
            }
        );
        assert_eq!(
            "dgt:rfc2217://pi:7000".parse::<BoardSpec>().unwrap(),
            BoardSpec::Dgt {
                port: Port::Rfc2217 {
                    host: "pi".into(),
                    port: 7000
                },
                baud: Protocol::Dgt.default_baud()
            }
        );
    }
}
