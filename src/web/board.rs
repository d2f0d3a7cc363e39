//! The live board beside the REPL: `play --board [ADDR]` or `board web
//! [ADDR]` serves a page that shows the position through the eyes the REPL
//! screen follows (see `repl::gate`), with the last events and what is
//! asked, and follows every command without a reload. While the terminal
//! passes between two players it shows the handover and no position. It
//! only watches: actions are typed at the REPL.

use crate::repl::session::Session;
use crate::web::host::PAGE;
use crate::web::server::{self, Door, Server};
use crate::web::views::{handover_view, page_view};
use std::net::SocketAddr;

/// A running live board.
pub struct LiveBoard {
    server: Server,
    url: String,
}

/// Where the live board listens when no address is given: this machine
/// only, on a free port.
pub const DEFAULT_ADDR: &str = "127.0.0.1:0";

/// `board web [ADDR]` at the REPL (and `play --board`): starts the live
/// board, or says where the running one is.
pub fn open(s: &mut Session, addr: &str) -> Result<String, String> {
    if let Some(board) = &s.board {
        return Ok(format!("the live board is at {}\n", board.url));
    }
    let text = if addr.is_empty() { DEFAULT_ADDR } else { addr };
    let listen: SocketAddr = text
        .parse()
        .map_err(|_| format!("'board web {text}': give an address such as 127.0.0.1:8080"))?;
    let door = Door {
        token: crate::web::host::token()?,
        acts_as: None,
    };
    let first = screen_view(s, None);
    let server = server::start(listen, vec![door.clone()], vec![first], PAGE, None)?;
    let url = format!("http://{}/seat/{}", server.addr, door.token);
    let line =
        format!("the live board is at {url} (open it in a browser; it follows the screen)\n");
    s.board = Some(LiveBoard { server, url });
    Ok(line)
}

/// The board's view: the screen's eyes, or the handover to `passing_to`.
fn screen_view(s: &Session, passing_to: Option<&str>) -> String {
    match passing_to {
        Some(who) => handover_view(s, who),
        None => page_view(s, s.shown_viewer(), None),
    }
}

impl Session {
    /// Shows the screen (or, with `passing_to`, the handover) on the live
    /// board, if one runs.
    pub(crate) fn publish_board(&self, passing_to: Option<&str>) {
        if let Some(board) = &self.board {
            board
                .server
                .shared
                .publish(vec![screen_view(self, passing_to)]);
        }
    }

    /// Shows the screen on the live board: after the welcome (the bots
    /// may have played), and after a handover, when the new holder has
    /// taken the terminal.
    pub fn refresh_board(&self) {
        self.publish_board(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::catalog::Catalog;
    use crate::load::Request;
    use crate::repl::session::Seat;
    use std::io::{Read, Write};
    use std::net::TcpStream;

    /// What the live board at `url` shows now, as JSON.
    fn shown(url: &str) -> serde_json::Value {
        let rest = url.strip_prefix("http://").unwrap();
        let (addr, path) = rest.split_once('/').unwrap();
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(stream, "GET /{path}/state HTTP/1.1\r\n\r\n").unwrap();
        let mut raw = String::new();
        stream.read_to_string(&mut raw).unwrap();
        serde_json::from_str(raw.split_once("\r\n\r\n").unwrap().1).unwrap()
    }

    #[test]
    fn in_hot_seat_the_live_board_shows_the_handover_and_then_the_new_holders_eyes() {
        let request = Request {
            target: "med-convoy".into(),
            options: vec![],
            overlays: vec![],
        };
        let seats = [
            ("blue".to_string(), Seat::Human),
            ("red".to_string(), Seat::Human),
        ];
        let mut s = Session::start(Catalog::embedded(), request, Some(3), &seats).unwrap();
        s.welcome();
        let refused = open(&mut s, "nowhere").unwrap_err();
        assert!(refused.contains("127.0.0.1:8080"), "{refused}");
        assert!(s.board.is_none(), "a refused address starts nothing");
        let answer = open(&mut s, "").unwrap();
        let url = answer
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap();
        s.refresh_board();
        let first = shown(url);
        let holder = first["eyes"].as_str().unwrap().to_string();
        assert!(first["handover"].is_null());
        assert!(
            first["legal"].as_array().unwrap().is_empty(),
            "the board only watches"
        );
        // The holder sets up a piece: the terminal passes to the other.
        let reply = s.execute("place random");
        let (to, _) = reply.pass.expect("the terminal passes");
        let between = shown(url);
        assert_eq!(between["handover"], to.as_str());
        assert_eq!(between["svg"], "", "no position while the terminal passes");
        assert!(between["log"].as_array().unwrap().is_empty());
        s.refresh_board();
        let next = shown(url);
        assert!(next["handover"].is_null());
        assert_ne!(next["eyes"], holder.as_str());
        assert_eq!(next["eyes"].as_str().unwrap().to_uppercase(), to);
        // A second 'board web' names the running board.
        assert!(open(&mut s, "").unwrap().contains(url));
        assert!(
            open(&mut s, "nowhere").is_ok(),
            "the running board is named"
        );
    }
}
