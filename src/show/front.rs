//! The Explorer's front door. stateright serves its page with tiny_http,
//! which trusts its clients: a request declaring a body of a terabyte is
//! allocated (and the process aborts), a client that resets before its
//! answer panics a thread, and one that pipelines requests without
//! reading stalls the others. So the page is served behind this front:
//! it listens on the address the user gave, reads one request of bounded
//! size from each connection within a time limit, refuses in one line
//! what the page never sends (a path over 4 KiB, a body over 64 KiB,
//! another method, a chunked body), and passes the rest to the page's
//! server on a loopback port of its own, one connection each, reading the
//! whole answer even when the client has gone. A request must arrive
//! whole within [`PATIENCE`]; and where every place is taken, the client
//! that has waited longest without sending its whole request is closed
//! for the new one, so that idle or trickling connections (a slowloris)
//! cannot keep the page from others.

use super::super::check::CheckError;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest request head (request line and headers) read.
const MOST_HEAD: usize = 16 << 10;
/// Longest path (the page's deepest `#/steps/...` are fragments, which
/// browsers do not send; its API paths are short).
const MOST_PATH: usize = 4 << 10;
/// Largest request body (the page posts none).
const MOST_BODY: usize = 64 << 10;
/// Most clients served at once; the others are told the page is busy.
const MOST_CLIENTS: usize = 64;
/// How long a client may take to send its whole request, or each part of
/// the answer.
const PATIENCE: Duration = Duration::from_secs(10);

/// The clients still sending their request: when each connected, and a
/// handle to close it by.
#[derive(Default)]
struct Waiting(Mutex<Vec<(u64, Instant, TcpStream)>>);

impl Waiting {
    fn add(&self, id: u64, client: &TcpStream) {
        if let Ok(handle) = client.try_clone() {
            self.0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((id, Instant::now(), handle));
        }
    }

    fn remove(&self, id: u64) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|(i, ..)| *i != id);
    }

    /// Closes the client that has waited longest; false if none waits.
    fn close_oldest(&self) -> bool {
        let mut waiting = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Some(oldest) = (0..waiting.len()).min_by_key(|&i| waiting[i].1) else {
            return false;
        };
        let (_, _, handle) = waiting.swap_remove(oldest);
        let _ = handle.shutdown(std::net::Shutdown::Both);
        true
    }
}

/// The address the user gave, bound (so that a taken address is refused
/// before the check runs).
pub struct Front {
    listener: TcpListener,
}

impl Front {
    /// Binds `addr`, or says why it cannot be listened on.
    pub fn bind(addr: &str) -> Result<Front, CheckError> {
        let listener = TcpListener::bind(addr).map_err(|e| CheckError::Explorer {
            addr: addr.to_string(),
            why: e.to_string(),
        })?;
        Ok(Front { listener })
    }

    /// Starts answering on the front address, each request passed to the
    /// page's server at the loopback address returned, which the caller
    /// serves the page on.
    pub fn open(self) -> Result<String, CheckError> {
        let inner = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| CheckError::Explorer {
                addr: "127.0.0.1:0".into(),
                why: e.to_string(),
            })?;
        let clients = Arc::new(AtomicUsize::new(0));
        let waiting = Arc::new(Waiting::default());
        std::thread::spawn(move || {
            for (id, stream) in (0u64..).zip(self.listener.incoming()) {
                let Ok(mut client) = stream else { continue };
                if clients.load(Ordering::Relaxed) >= MOST_CLIENTS && !waiting.close_oldest() {
                    let _ = refuse(&mut client, "503 Service Unavailable", "busy: try again");
                    continue;
                }
                clients.fetch_add(1, Ordering::Relaxed);
                let count = Arc::clone(&clients);
                let waiting = Arc::clone(&waiting);
                std::thread::spawn(move || {
                    waiting.add(id, &client);
                    let _ = pass(client, inner, || waiting.remove(id));
                    waiting.remove(id);
                    count.fetch_sub(1, Ordering::Relaxed);
                });
            }
        });
        Ok(inner.to_string())
    }
}

/// Answers `client` with `status` and a one-line `why`, and closes, after
/// reading (for a moment, up to 2 MiB) what the client still sends, so
/// that the close does not reset the connection before the answer is
/// read.
fn refuse(client: &mut TcpStream, status: &str, why: &str) -> io::Result<()> {
    let _ = client.set_write_timeout(Some(PATIENCE));
    write!(
        client,
        "HTTP/1.0 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: \
         close\r\n\r\n{why}\n",
        why.len() + 1
    )?;
    client.shutdown(std::net::Shutdown::Write)?;
    client.set_read_timeout(Some(Duration::from_millis(200)))?;
    let mut rest = [0u8; 16 << 10];
    let mut drained = 0;
    while drained < 2 << 20 {
        match client.read(&mut rest) {
            Ok(0) | Err(_) => break,
            Ok(k) => drained += k,
        }
    }
    Ok(())
}

/// Reads one request from `client` within [`PATIENCE`] and passes it to
/// the page's server at `inner` (telling `received` once it is whole), its
/// answer back; the connection then closes.
fn pass(mut client: TcpStream, inner: SocketAddr, received: impl FnOnce()) -> io::Result<()> {
    let deadline = Instant::now() + PATIENCE;
    // Each read waits at most until the deadline: a client that trickles a
    // byte at a time is cut there too.
    let read = |client: &mut TcpStream, chunk: &mut [u8]| -> io::Result<usize> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        client.set_read_timeout(Some(left))?;
        client.read(chunk)
    };
    client.set_write_timeout(Some(PATIENCE))?;
    let mut got = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    let head = loop {
        if let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        if got.len() > MOST_HEAD {
            return match got.windows(2).any(|w| w == b"\r\n") {
                true => refuse(
                    &mut client,
                    "431 Request Header Fields Too Large",
                    "headers too long",
                ),
                false => refuse(&mut client, "414 URI Too Long", "a path of at most 4 KiB"),
            };
        }
        let k = read(&mut client, &mut chunk)?;
        if k == 0 {
            return Ok(());
        }
        got.extend_from_slice(&chunk[..k]);
    };
    let Ok(text) = std::str::from_utf8(&got[..head]) else {
        return refuse(&mut client, "400 Bad Request", "a request head is text");
    };
    let mut lines = text.split("\r\n");
    let mut words = lines.next().unwrap_or_default().split(' ');
    let (method, path) = (
        words.next().unwrap_or_default(),
        words.next().unwrap_or_default(),
    );
    if !["GET", "HEAD", "POST"].contains(&method) {
        return refuse(&mut client, "405 Method Not Allowed", "GET, HEAD or POST");
    }
    if path.len() > MOST_PATH || !path.starts_with('/') {
        return refuse(&mut client, "414 URI Too Long", "a path of at most 4 KiB");
    }
    let mut length = 0usize;
    for line in lines {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        match key.trim().to_ascii_lowercase().as_str() {
            "content-length" => match value.trim().parse::<usize>() {
                Ok(n) if n <= MOST_BODY => length = n,
                Ok(_) => {
                    return refuse(
                        &mut client,
                        "413 Payload Too Large",
                        "a body of at most 64 KiB",
                    )
                }
                Err(_) => return refuse(&mut client, "400 Bad Request", "a length is a number"),
            },
            "transfer-encoding" => {
                return refuse(&mut client, "501 Not Implemented", "a body with a length")
            }
            _ => {}
        }
    }
    // The body; whatever follows it (a pipelined request) is not read.
    let mut body = got[head..].to_vec();
    while body.len() < length {
        let k = read(&mut client, &mut chunk)?;
        if k == 0 {
            return Ok(());
        }
        body.extend_from_slice(&chunk[..k]);
    }
    body.truncate(length);
    received();

    let mut server = connect(inner)?;
    server.set_read_timeout(Some(Duration::from_secs(120)))?;
    write!(
        server,
        "{method} {path} HTTP/1.0\r\nHost: {inner}\r\nConnection: close\r\nContent-Length: \
         {length}\r\n\r\n"
    )?;
    server.write_all(&body)?;
    // The whole answer is read even if the client has gone, so that the
    // page's server never meets a reset.
    let mut answer = [0u8; 16 << 10];
    let mut listening = true;
    loop {
        let k = server.read(&mut answer)?;
        if k == 0 {
            return Ok(());
        }
        if listening && client.write_all(&answer[..k]).is_err() {
            listening = false;
        }
    }
}

/// A connection to the page's server, which may still be starting.
fn connect(inner: SocketAddr) -> io::Result<TcpStream> {
    let mut tries = 0;
    loop {
        match TcpStream::connect(inner) {
            Ok(s) => return Ok(s),
            Err(_) if tries < 100 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(e),
        }
    }
}
