//! A TCP proxy between one process and its Redis that can cut the process off and heal it, as
//! a network partition does: while cut, its connections are closed and new ones are accepted
//! but never forwarded, so each command waits until the client's own timeout.

use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// A proxy to one Redis, on a port of 127.0.0.1 of its own.
pub struct Proxy {
    /// The URL to give the process instead of Redis's.
    pub url: String,
    cut: Arc<watch::Sender<bool>>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// A proxy to the Redis at `127.0.0.1:port`.
    pub async fn to(port: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let url = format!("redis://{}/", listener.local_addr().expect("its address"));
        let cut = Arc::new(watch::channel(false).0);
        let task = {
            let cut = Arc::clone(&cut);
            tokio::spawn(async move {
                while let Ok((mut client, _)) = listener.accept().await {
                    let mut cut = cut.subscribe();
                    tokio::spawn(async move {
                        // Held, not forwarded, while the process is cut off.
                        if cut.wait_for(|cut| !*cut).await.is_err() {
                            return;
                        }
                        let Ok(mut redis) = TcpStream::connect(("127.0.0.1", port)).await else {
                            return;
                        };
                        tokio::select! {
                            _ = tokio::io::copy_bidirectional(&mut client, &mut redis) => {}
                            _ = cut.wait_for(|cut| *cut) => {}
                        }
                    });
                }
            })
        };
        Proxy { url, cut, task }
    }

    /// Cuts the process off from Redis, or heals it.
    pub fn cut(&self, cut: bool) {
        self.cut.send_replace(cut);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}
