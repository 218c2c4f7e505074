//! A real Redis for the tests that need one: the one `ELICIT_REDIS_URL` names, or a
//! `redis-server` from the PATH started on a free port of 127.0.0.1 and stopped when dropped:
//! one that keeps nothing through a restart, as the fleet's tests ran it before, or a durable
//! one with an append-only file synced on every write.
//! Without either a test is skipped, saying why, unless `ELICIT_REQUIRE_REDIS` is set (as CI
//! sets it): then it fails.

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A Redis server the test may use.
pub struct TestRedis {
    /// Its URL.
    pub url: String,
    port: u16,
    /// The server this test started, if it started one.
    child: Option<Child>,
    /// Where a durable server keeps its append-only file.
    dir: Option<PathBuf>,
}

impl TestRedis {
    /// The Redis `ELICIT_REDIS_URL` names, or one started for the test; `None` (said on
    /// stderr) where there is neither.
    pub fn shared(test: &str) -> Option<TestRedis> {
        match std::env::var("ELICIT_REDIS_URL") {
            Ok(url) => Some(TestRedis {
                url,
                port: 0,
                child: None,
                dir: None,
            }),
            Err(_) => TestRedis::own(test),
        }
    }

    /// A `redis-server` of the test's own, which it may stop and start again; `None` (said on
    /// stderr) where none is on the PATH.
    pub fn own(test: &str) -> Option<TestRedis> {
        TestRedis::started(test, None)
    }

    /// A durable `redis-server` of the test's own (`appendonly yes`, `appendfsync always`),
    /// which keeps every write through a restart.
    pub fn durable(test: &str) -> Option<TestRedis> {
        let dir = std::env::temp_dir().join(format!("elicit-redis-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a directory for the append-only file");
        TestRedis::started(test, Some(dir))
    }

    fn started(test: &str, dir: Option<PathBuf>) -> Option<TestRedis> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let mut redis = TestRedis {
            url: format!("redis://127.0.0.1:{port}/"),
            port,
            child: None,
            dir,
        };
        match redis.start() {
            Ok(()) => Some(redis),
            Err(why) => {
                let message = format!("{test}: skipped, no Redis: {why}");
                assert!(
                    std::env::var_os("ELICIT_REQUIRE_REDIS").is_none(),
                    "{message} (ELICIT_REQUIRE_REDIS is set)"
                );
                eprintln!("{message}");
                None
            }
        }
    }

    /// The port it listens on (0 for the one `ELICIT_REDIS_URL` names).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Runs one command through `redis-cli` (`CONFIG SET ...`, say): what it printed.
    pub fn cli(&self, args: &[&str]) -> String {
        let output = Command::new("redis-cli")
            .args(["-p", &self.port.to_string()])
            .args(args)
            .output()
            .expect("redis-cli runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Starts its server again, on the same port, after [`stop`](Self::stop).
    pub fn start(&mut self) -> Result<(), String> {
        let mut command = Command::new("redis-server");
        command.args([
            "--port",
            &self.port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
        ]);
        match &self.dir {
            Some(dir) => command
                .args(["--appendonly", "yes", "--appendfsync", "always", "--dir"])
                .arg(dir),
            None => command.args(["--appendonly", "no"]),
        };
        let child = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                format!("redis-server could not be started ({e}); install it to run this test")
            })?;
        self.child = Some(child);
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            if started.elapsed() > Duration::from_secs(10) {
                return Err("redis-server did not listen within 10 seconds".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// Stops its server (`kill -9`, as a crash) and starts it again, empty where `empty` (its
    /// append-only file removed), else with what it kept.
    pub fn restart(&mut self, empty: bool) -> Result<(), String> {
        self.stop();
        if let (true, Some(dir)) = (empty, &self.dir) {
            std::fs::remove_dir_all(dir).map_err(|e| e.to_string())?;
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        self.start()
    }

    /// Stops the server this test started.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for TestRedis {
    fn drop(&mut self) {
        self.stop();
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
