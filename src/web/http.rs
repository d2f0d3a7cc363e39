//! Just enough HTTP/1.1 for the board and the seats: one request a
//! connection, read under hard limits, and plain responses. A client is
//! never trusted: every size is bounded before it is read, a slow client
//! runs into a timeout, and anything malformed is a 400 that ends the
//! connection, never a panic or an unbounded buffer.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The longest request line or header line.
const LINE_LIMIT: usize = 4096;
/// The most header lines a request may send.
const HEADER_LIMIT: usize = 40;
/// The largest body: an action as typed at the REPL is a few words.
pub const BODY_LIMIT: usize = 4096;
/// How long a client may take to send its request (or to take a write).
pub const CLIENT_TIMEOUT: Duration = Duration::from_secs(10);

/// A request as the server needs it.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: String,
}

/// Why a request was not read: the status to answer with, and a reason.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub reason: String,
}

fn refuse(status: u16, reason: &str) -> Refusal {
    Refusal {
        status,
        reason: reason.to_string(),
    }
}

/// Reads one request under the limits above.
pub fn read_request(stream: &TcpStream) -> Result<Request, Refusal> {
    stream
        .set_read_timeout(Some(CLIENT_TIMEOUT))
        .and_then(|()| stream.set_write_timeout(Some(CLIENT_TIMEOUT)))
        .map_err(|_| refuse(400, "the connection failed"))?;
    parse(&mut BufReader::new(stream))
}

/// Parses a request from any reader (the tests feed it bytes).
pub fn parse(reader: &mut impl BufRead) -> Result<Request, Refusal> {
    let first = line(reader)?;
    let mut words = first.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(refuse(400, "a request line is METHOD PATH HTTP/1.1"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(refuse(505, "only HTTP/1.x is spoken here"));
    }
    let mut length = 0usize;
    for count in 0.. {
        let header = line(reader)?;
        if header.is_empty() {
            break;
        }
        if count == HEADER_LIMIT {
            return Err(refuse(431, "too many header lines"));
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(refuse(400, "a header line is NAME: VALUE"));
        };
        if name.eq_ignore_ascii_case("content-length") {
            length = value
                .trim()
                .parse()
                .map_err(|_| refuse(400, "Content-Length is not a number"))?;
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(refuse(411, "send the body with a Content-Length"));
        }
    }
    if length > BODY_LIMIT {
        return Err(refuse(
            413,
            "the body is too large (an action is a few words)",
        ));
    }
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|_| refuse(400, "the body ended before its Content-Length"))?;
    let body = String::from_utf8(body).map_err(|_| refuse(400, "the body is not UTF-8 text"))?;
    // The query string is not used: a path alone names a resource.
    let path = target.split('?').next().unwrap_or_default().to_string();
    Ok(Request {
        method: method.to_string(),
        path,
        body,
    })
}

/// One CRLF- or LF-ended line of at most [`LINE_LIMIT`] bytes.
fn line(reader: &mut impl BufRead) -> Result<String, Refusal> {
    let mut bytes = Vec::new();
    let read = reader
        .take(LINE_LIMIT as u64 + 1)
        .read_until(b'\n', &mut bytes)
        .map_err(|_| refuse(408, "the request came too slowly or broke off"))?;
    if read == 0 {
        return Err(refuse(400, "the request ended early"));
    }
    if !bytes.ends_with(b"\n") {
        return Err(refuse(431, "a request line or header is too long"));
    }
    let text = String::from_utf8(bytes).map_err(|_| refuse(400, "a header is not UTF-8"))?;
    Ok(text.trim_end_matches(['\r', '\n']).to_string())
}

/// Writes a whole response and ends it (`Connection: close`).
pub fn respond(out: &mut impl Write, status: u16, kind: &str, body: &[u8]) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Connection: close\r\n\r\n",
        reason_phrase(status),
        body.len()
    );
    out.write_all(head.as_bytes())?;
    out.write_all(body)?;
    out.flush()
}

/// A plain-text answer, as the REPL would give it.
pub fn respond_text(out: &mut impl Write, status: u16, text: &str) -> io::Result<()> {
    respond(out, status, "text/plain; charset=utf-8", text.as_bytes())
}

/// The head of a server-sent event stream; events follow as they come.
pub fn start_events(out: &mut impl Write) -> io::Result<()> {
    out.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
          Cache-Control: no-store\r\nConnection: close\r\n\r\n",
    )?;
    out.flush()
}

/// One server-sent event of the given name, whose data is one line.
pub fn send_event(out: &mut impl Write, name: &str, data: &str) -> io::Result<()> {
    debug_assert!(!data.contains('\n'), "an event's data is one line");
    write!(out, "event: {name}\ndata: {data}\n\n")?;
    out.flush()
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Payload Too Large",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_bytes(bytes: &[u8]) -> Result<Request, Refusal> {
        parse(&mut io::Cursor::new(bytes))
    }

    #[test]
    fn a_post_with_its_body_is_read() {
        let r = parse_bytes(b"POST /seat/abc/action HTTP/1.1\r\nContent-Length: 5\r\n\r\npass!")
            .unwrap();
        assert_eq!(
            r,
            Request {
                method: "POST".into(),
                path: "/seat/abc/action".into(),
                body: "pass!".into()
            }
        );
    }

    #[test]
    fn the_query_string_is_not_part_of_the_path() {
        let r = parse_bytes(b"GET /seat/x/state?since=3 HTTP/1.1\r\n\r\n").unwrap();
        assert_eq!(r.path, "/seat/x/state");
    }

    #[test]
    fn oversized_and_malformed_requests_are_refused_with_their_status() {
        let status = |b: &[u8]| parse_bytes(b).unwrap_err().status;
        assert_eq!(status(b"GET /\r\n\r\n"), 400);
        assert_eq!(status(b"GET / SPDY/3\r\n\r\n"), 505);
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(LINE_LIMIT));
        assert_eq!(status(long.as_bytes()), 431);
        let many = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            "X: y\r\n".repeat(HEADER_LIMIT + 1)
        );
        assert_eq!(status(many.as_bytes()), 431);
        let big = format!(
            "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            BODY_LIMIT + 1
        );
        assert_eq!(status(big.as_bytes()), 413);
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n"),
            400
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nshort"),
            400
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            411
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n\xff\xfe"),
            400
        );
        assert_eq!(status(b""), 400);
    }
}
