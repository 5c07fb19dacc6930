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
        // Another test's server may take the port meanwhile: this one then
        // exits, and another port is tried.
        loop {
            let port = free_port();
            if let Some(child) = start_server(port, &[]) {
                return Some(Self { child, port });
            }
        }
    }

    /// Stops it and starts a new one on the same port, with nothing in it
    /// (as a server without persistence comes back).
    ///
    /// # Panics
    /// When it does not start again.
    pub fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.child = start_server(self.port, &[]).expect("the server's port is free again");
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

/// Starts `redis-server` on `port`, with nothing saved and `args` more, and
/// waits for its first PING; `None` when it exits at once or another
/// server answers there (the port was taken).
///
/// # Panics
/// When it neither answers nor exits within [`START_TIMEOUT`].
fn start_server(port: u16, args: &[&str]) -> Option<Child> {
    let mut child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting redis-server");
    let started = Instant::now();
    while !pings(port) {
        if child.try_wait().ok().flatten().is_some() {
            return None;
        }
        assert!(
            started.elapsed() < START_TIMEOUT,
            "redis-server did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The server answering is this one, not another on the port.
    if server_info(port).contains(&format!("process_id:{}\r\n", child.id())) {
        Some(child)
    } else {
        let _ = child.kill();
        let _ = child.wait();
        None
    }
}

/// The server's `INFO server` text, or "" when it does not answer.
fn server_info(port: u16) -> String {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return String::new();
    };
    let mut reader = BufReader::new(stream.try_clone().expect("a TCP stream's clone"));
    let mut head = String::new();
    if stream.write_all(b"INFO server\r\n").is_err() || reader.read_line(&mut head).is_err() {
        return String::new();
    }
    let Some(len) = head.trim().strip_prefix('$').and_then(|n| n.parse().ok()) else {
        return String::new();
    };
    let mut body = vec![0; len];
    std::io::Read::read_exact(&mut reader, &mut body).map_or_else(
        |_| String::new(),
        |()| String::from_utf8_lossy(&body).into_owned(),
    )
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

/// A Redis Cluster for the tests: three primaries with a replica each, on
/// loopback, from the distribution's `redis-server` and `redis-cli`, with
/// nothing saved but the nodes' own config (in a scratch directory); a
/// node that stops answering is failed over within about two seconds.
/// Stopped when dropped.
#[derive(Debug)]
pub struct RedisCluster {
    nodes: Vec<(u16, Option<Child>)>,
    dir: std::path::PathBuf,
}

/// Milliseconds without an answer before the cluster takes a node for
/// dead and promotes its replica.
const NODE_TIMEOUT_MS: u32 = 1000;

/// How long forming the cluster, or a failover, may take.
const CLUSTER_TIMEOUT: Duration = Duration::from_mins(1);

impl RedisCluster {
    /// Starts six nodes and joins them: three primaries, one replica each.
    /// `None` when `redis-server` or `redis-cli` is not installed and
    /// `FILETOOLS_REQUIRE_REDIS` is unset.
    ///
    /// # Panics
    /// When they are installed (or required) but the cluster does not form.
    pub fn start() -> Option<Self> {
        let installed = ["redis-server", "redis-cli"].iter().all(|tool| {
            Command::new(tool)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
        if !installed {
            assert!(
                std::env::var_os("FILETOOLS_REQUIRE_REDIS").is_none(),
                "redis-server or redis-cli is missing: run `cargo xtask setup`"
            );
            return None;
        }
        let dir = std::env::temp_dir().join(format!("filetools-cluster-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let mut cluster = Self {
            nodes: Vec::new(),
            dir,
        };
        while cluster.nodes.len() < 6 {
            let port = cluster_port();
            // Another test's server may have taken the port meanwhile:
            // this one then exits, and another port is tried.
            if let Some(child) = cluster.spawn_node(port) {
                cluster.nodes.push((port, Some(child)));
            }
        }
        let addresses: Vec<String> = cluster
            .nodes
            .iter()
            .map(|(port, _)| format!("127.0.0.1:{port}"))
            .collect();
        let mut create = Command::new("redis-cli")
            .args(["--cluster", "create"])
            .args(&addresses)
            .args(["--cluster-replicas", "1", "--cluster-yes"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("running redis-cli --cluster create");
        let started = Instant::now();
        let created = loop {
            if let Some(status) = create.try_wait().expect("waiting for redis-cli") {
                break status;
            }
            if started.elapsed() > CLUSTER_TIMEOUT {
                let _ = create.kill();
                panic!("redis-cli --cluster create did not finish");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(created.success(), "redis-cli --cluster create failed");
        cluster.wait_until_serving();
        cluster.wait_until_replicated();
        Some(cluster)
    }

    /// Starts a node on `port`; `None` when it exits at once (the port was
    /// taken).
    fn spawn_node(&self, port: u16) -> Option<Child> {
        let (config, log) = (format!("nodes-{port}.conf"), format!("node-{port}.log"));
        let timeout = NODE_TIMEOUT_MS.to_string();
        start_server(
            port,
            &[
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                &config,
                "--cluster-node-timeout",
                &timeout,
                "--dir",
                self.dir.to_str().expect("a UTF-8 scratch path"),
                "--logfile",
                &log,
                // A replica syncs at once, not after the default 5 s wait
                // for others.
                "--repl-diskless-sync-delay",
                "0",
            ],
        )
    }

    /// Waits until every live node says the cluster is ok and every slot
    /// has a primary that answers.
    ///
    /// # Panics
    /// After a minute.
    pub fn wait_until_serving(&self) {
        let started = Instant::now();
        loop {
            let ok = self
                .live_ports()
                .iter()
                .all(|port| cli(*port, &["cluster", "info"]).contains("cluster_state:ok"));
            if ok {
                return;
            }
            assert!(
                started.elapsed() < CLUSTER_TIMEOUT,
                "the Redis Cluster did not come to serve every slot: {}",
                self.live_ports()
                    .iter()
                    .map(|port| format!("{port}: {}", cli(*port, &["cluster", "nodes"])))
                    .collect::<Vec<_>>()
                    .join("\n")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until every replica is in step with its primary, so that a
    /// primary killed now can be failed over.
    ///
    /// # Panics
    /// After a minute.
    fn wait_until_replicated(&self) {
        let started = Instant::now();
        while !self.live_ports().iter().all(|port| {
            let info = cli(*port, &["info", "replication"]);
            info.contains("role:master") || info.contains("master_link_status:up")
        }) {
            assert!(
                started.elapsed() < CLUSTER_TIMEOUT,
                "the Redis Cluster's replicas did not come in step"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn live_ports(&self) -> Vec<u16> {
        self.nodes
            .iter()
            .filter(|(_, child)| child.is_some())
            .map(|(port, _)| *port)
            .collect()
    }

    /// Its URL, for `--store`: every node, so a client finds the cluster
    /// whichever is down.
    pub fn url(&self) -> String {
        let nodes: Vec<String> = self
            .nodes
            .iter()
            .map(|(port, _)| format!("127.0.0.1:{port}"))
            .collect();
        format!("redis-cluster://{}", nodes.join(","))
    }

    /// Starts the nodes killed again, on their ports and with their
    /// config, so each rejoins as a replica; waits until they are in step.
    ///
    /// # Panics
    /// When one does not start or come in step.
    pub fn restart_killed(&mut self) {
        for at in 0..self.nodes.len() {
            if self.nodes[at].1.is_none() {
                let port = self.nodes[at].0;
                self.nodes[at].1 = Some(
                    self.spawn_node(port)
                        .expect("the killed node's port is free again"),
                );
            }
        }
        self.wait_until_serving();
        self.wait_until_replicated();
    }

    /// Kills one primary with SIGKILL; its port.
    ///
    /// # Panics
    /// When no live node is a primary.
    pub fn kill_a_primary(&mut self) -> u16 {
        let at = self
            .nodes
            .iter()
            .position(|(port, child)| {
                child.is_some() && cli(*port, &["role"]).starts_with("master")
            })
            .expect("a live primary");
        let (port, child) = &mut self.nodes[at];
        if let Some(mut child) = child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        *port
    }
}

impl Drop for RedisCluster {
    fn drop(&mut self) {
        for (_, child) in &mut self.nodes {
            if let Some(mut child) = child.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        // Kept after a failure, with the nodes' logs.
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// `redis-cli -p PORT ARGS...`'s output, or "" when it fails.
fn cli(port: u16, args: &[&str]) -> String {
    Command::new("redis-cli")
        .args(["-p", &port.to_string()])
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

/// A loopback port free now whose cluster bus port (10,000 above) is free
/// too.
fn cluster_port() -> u16 {
    loop {
        let port = free_port();
        if port > 55_000 {
            // Its bus port would not fit; ask again.
            continue;
        }
        if TcpListener::bind(("127.0.0.1", port + 10_000)).is_ok() {
            return port;
        }
    }
}
