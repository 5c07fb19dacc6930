//! Just enough of the Redis protocol (RESP2) to run a command and read its
//! reply, over one blocking TCP connection.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpStream, ToSocketAddrs as _};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};

/// The longest bulk reply taken: a session log is far smaller.
const MAX_BULK_BYTES: usize = 512 * 1024 * 1024;

/// How long a command may wait on the server.
const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// An I/O failure said for a person: a timeout as one.
fn io_error(err: std::io::Error) -> anyhow::Error {
    match err.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => anyhow::anyhow!(
            "no answer from the Redis server within {} s",
            IO_TIMEOUT.as_secs()
        ),
        _ => anyhow::Error::new(err).context("talking to the Redis server"),
    }
}

/// An error reply: the server refused the command (the connection is
/// sound).
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the Redis server refused: {}", self.0)
    }
}

impl std::error::Error for Refused {}

/// A reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `+OK` and other simple strings.
    Status(String),
    /// An integer.
    Int(i64),
    /// A bulk string; `None` for the null reply.
    Bulk(Option<Vec<u8>>),
    /// An array; `None` for the null array.
    Array(Option<Vec<Reply>>),
}

/// One connection.
#[derive(Debug)]
pub struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Connection {
    /// Connects to `address` (`host:port`), trying each address it names
    /// for at most [`CONNECT_TIMEOUT`].
    pub fn open(address: &str) -> Result<Self> {
        let context = || format!("connecting to the Redis server at {address}");
        let mut last = None;
        let mut connected = None;
        for addr in address.to_socket_addrs().with_context(context)? {
            match TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT) {
                Ok(stream) => {
                    connected = Some(stream);
                    break;
                }
                Err(err) => last = Some(err),
            }
        }
        let stream = match (connected, last) {
            (Some(stream), _) => stream,
            (None, Some(err)) => return Err(err).with_context(context),
            (None, None) => bail!("{address} names no address"),
        };
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(IO_TIMEOUT))?;
        stream.set_write_timeout(Some(IO_TIMEOUT))?;
        Ok(Self {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
        })
    }

    /// Sends a command and reads its reply; an error reply is an error.
    pub fn command(&mut self, args: &[&[u8]]) -> Result<Reply> {
        let mut out = format!("*{}\r\n", args.len()).into_bytes();
        for arg in args {
            out.extend_from_slice(format!("${}\r\n", arg.len()).as_bytes());
            out.extend_from_slice(arg);
            out.extend_from_slice(b"\r\n");
        }
        self.writer.write_all(&out).map_err(io_error)?;
        self.reply()
    }

    fn line(&mut self) -> Result<String> {
        let mut line = String::new();
        self.reader.read_line(&mut line).map_err(io_error)?;
        match line.strip_suffix("\r\n") {
            Some(line) => Ok(line.to_owned()),
            None => bail!("the Redis server closed the connection"),
        }
    }

    fn reply(&mut self) -> Result<Reply> {
        let line = self.line()?;
        let (kind, rest) = line.split_at(line.len().min(1));
        let number = || -> Result<i64> {
            rest.parse()
                .with_context(|| format!("the Redis server sent {line:?}"))
        };
        Ok(match kind {
            "+" => Reply::Status(rest.to_owned()),
            "-" => return Err(Refused(rest.to_owned()).into()),
            ":" => Reply::Int(number()?),
            "$" => match usize::try_from(number()?) {
                Err(_) => Reply::Bulk(None),
                Ok(len) if len > MAX_BULK_BYTES => bail!("a Redis reply of {len} bytes"),
                Ok(len) => {
                    let mut data = vec![0; len + 2];
                    self.reader.read_exact(&mut data).map_err(io_error)?;
                    data.truncate(len);
                    Reply::Bulk(Some(data))
                }
            },
            "*" => match usize::try_from(number()?) {
                Err(_) => Reply::Array(None),
                Ok(len) => {
                    // Every element read, an error among them too, so the
                    // connection stays in step.
                    let mut items = Vec::with_capacity(len.min(64));
                    let mut refused = None;
                    for _ in 0..len {
                        match self.reply() {
                            Ok(item) => items.push(item),
                            Err(err) if err.downcast_ref::<Refused>().is_some() => {
                                refused.get_or_insert(err);
                            }
                            Err(err) => return Err(err),
                        }
                    }
                    if let Some(err) = refused {
                        return Err(err);
                    }
                    Reply::Array(Some(items))
                }
            },
            _ => bail!("the Redis server sent {line:?}"),
        })
    }
}
