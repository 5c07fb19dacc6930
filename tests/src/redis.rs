//! A real `redis-server` for the tests, on a free loopback port, with
//! nothing saved to disk; stopped when dropped.

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the server may take to answer its first PING.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// A running `redis-server`.
#[derive(Debug)]
pub struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    /// Starts one; `None` when `redis-server` is not installed (`cargo
    /// xtask setup` installs it) and `FILETOOLS_REQUIRE_REDIS` is unset.
    ///
    /// # Panics
    /// When it is installed (or required) but does not start.
    pub fn start() -> Option<Self> {
        let installed = Command::new("redis-server")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !installed {
            assert!(
                std::env::var_os("FILETOOLS_REQUIRE_REDIS").is_none(),
                "redis-server is missing: run `cargo xtask setup`"
            );
            return None;
        }
        let port = free_port();
        Some(Self {
            child: spawn(port),
            port,
        })
    }

    /// Stops it and starts a new one on the same port, with nothing in it
    /// (as a server without persistence comes back).
    ///
    /// # Panics
    /// When it does not start again.
    pub fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.child = spawn(self.port);
    }

    /// Its URL, for `--store`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `redis-server` on `port` and waits for its first PING.
fn spawn(port: u16) -> Child {
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting redis-server");
    let started = Instant::now();
    while !pings(port) {
        assert!(
            started.elapsed() < START_TIMEOUT,
            "redis-server did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

fn pings(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let mut line = String::new();
    stream.write_all(b"PING\r\n").is_ok()
        && BufReader::new(stream).read_line(&mut line).is_ok()
        && line.starts_with("+PONG")
}

/// A loopback port nothing listens on now.
///
/// # Panics
/// When no port is free.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}
