//! What the web tests share: a `portolan host` (or `play --board`) run as
//! a child process, and a plain HTTP client that speaks to it as any
//! client could (no browser, no trust).

#![allow(dead_code)] // each test file uses its own part

pub mod webdriver;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running `portolan host`: its seats' addresses, killed when dropped.
pub struct Hosted {
    child: Child,
    /// Kept open: the host reads its terminal commands from it.
    pub stdin: ChildStdin,
    /// What the host prints after its opening lines.
    pub lines: mpsc::Receiver<String>,
    pub addr: SocketAddr,
    /// (player id, path of the seat's page), in the order printed.
    pub seats: Vec<(String, String)>,
}

impl Hosted {
    /// Runs `portolan host ARGS` and reads the seats' addresses.
    pub fn start(args: &[&str]) -> Hosted {
        let mut child = Command::new(env!("CARGO_BIN_EXE_portolan"))
            .arg("host")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("portolan host starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut seats = Vec::new();
        let mut addr = None;
        loop {
            let line = lines
                .recv_timeout(Duration::from_secs(60))
                .expect("the host prints its seats");
            if line.starts_with("give each player") {
                break;
            }
            if let Some((player, url)) = line.split_once("  ") {
                let url = url.trim();
                if let Some(rest) = url.strip_prefix("http://") {
                    let (a, path) = rest.split_once('/').unwrap();
                    addr = Some(a.parse().unwrap());
                    seats.push((player.trim().to_string(), format!("/{path}")));
                }
            }
        }
        Hosted {
            child,
            stdin,
            lines,
            addr: addr.expect("the host printed at least one seat"),
            seats,
        }
    }

    /// The page path of `player`'s seat.
    pub fn seat(&self, player: &str) -> &str {
        &self.seats.iter().find(|(p, _)| p == player).unwrap().1
    }

    /// A GET; one closed without an answer is asked again (once seen
    /// under CI's load in the browser tests; a GET may be repeated).
    pub fn get(&self, path: &str) -> (u16, String) {
        for _ in 0..3 {
            if let Some(answer) = try_request(self.addr, "GET", path, "") {
                return answer;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        request(self.addr, "GET", path, "")
    }

    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        request(self.addr, "POST", path, body)
    }

    /// A seat's view as JSON.
    pub fn state(&self, player: &str) -> serde_json::Value {
        let (status, body) = self.get(&format!("{}/state", self.seat(player)));
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    }

    /// Types a line at the host's terminal.
    pub fn type_line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Waits for a line the host prints that contains `needle`.
    pub fn expect_line(&self, needle: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("the host never printed '{needle}'"));
            if line.contains(needle) {
                return line;
            }
        }
    }
}

impl Drop for Hosted {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP request, or `None` when the connection closed without an
/// answer.
fn try_request(addr: SocketAddr, method: &str, path: &str, body: &str) -> Option<(u16, String)> {
    std::panic::catch_unwind(|| request(addr, method, path, body)).ok()
}

/// One HTTP request on its own connection: the status and the body.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    // A server may refuse before the whole body is sent: the answer is
    // read all the same.
    let _ = write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    read_response(&mut stream)
}

/// Reads one response: its head, then as many bytes of body as its
/// `Content-Length` says (a server may keep the connection open), or to
/// the end without one.
pub fn read_response(stream: &mut TcpStream) -> (u16, String) {
    let mut reader = BufReader::new(stream);
    let mut head = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        head.push(line);
    }
    let status = head
        .first()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP response: {head:?}"));
    let length = head.iter().find_map(|h| {
        let (name, value) = h.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())?
    });
    let mut body = Vec::new();
    match length {
        Some(n) => {
            body.resize(n, 0);
            reader.read_exact(&mut body).unwrap();
        }
        None => {
            let _ = reader.read_to_end(&mut body);
        }
    }
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// Opens a seat's event stream and returns the first event's data.
pub fn first_event(addr: SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    loop {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        if let Some(data) = line.strip_prefix("data: ") {
            return data.trim_end().to_string();
        }
    }
}
