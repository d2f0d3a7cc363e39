//! `portolan host`: the HTTP contract of remote seats, tried as a client
//! would (and as a hostile one would). Every response and event is checked
//! against the kernel's view of its seat: the page of one seat never holds
//! what that seat may not see.

#[allow(dead_code)]
mod common;
mod web;

use portolan::kernel::state::GameState;
use portolan::kernel::view::{View, Viewer};
use portolan::load::{Loaded, Request, load};
use portolan::repl::narrate;
use portolan::web::views::LOG_EVENTS;
use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;
use web::{Hosted, first_event, request};

fn loaded(target: &str) -> Loaded {
    let request = Request {
        target: target.into(),
        options: vec![],
        overlays: vec![],
    };
    load(&common::catalog(), &request).unwrap()
}

#[test]
fn each_address_serves_its_own_seat_and_refuses_everything_else() {
    let host = Hosted::start(&["med-convoy", "--seed", "3"]);
    assert_eq!(host.seats.len(), 2, "two remote seats: {:?}", host.seats);
    let blue = host.seat("blue").to_string();
    let (status, page) = host.get(&blue);
    assert_eq!(status, 200);
    assert!(page.contains("<html") && page.contains("/events"));
    let view = host.state("blue");
    assert_eq!(view["seat"], "Blue");
    assert_eq!(view["eyes"], "Blue");
    // Unknown tokens, other paths and a token's prefix are refused alike.
    let token = blue.trim_start_matches("/seat/");
    for path in [
        "/",
        "/seat/",
        "/seat/0123456789abcdef0123456789abcdef/state",
        &format!("/seat/{}/state", &token[..token.len() - 1]),
        &format!("{blue}/../../etc/passwd"),
        &format!("{blue}/state/extra"),
        "/favicon.ico",
    ] {
        assert_eq!(host.get(path).0, 404, "{path}");
    }
    assert_eq!(host.get(&format!("{blue}/action")).0, 405);
    assert_eq!(host.post(&format!("{blue}/state"), "").0, 405);
}

#[test]
fn an_action_from_the_seat_not_to_move_or_not_legal_is_refused_with_the_repls_reason() {
    let host = Hosted::start(&["med-convoy", "--seed", "3"]);
    let (mover, waiter) = if host.state("blue")["your_turn"] == true {
        ("blue", "red")
    } else {
        ("red", "blue")
    };
    assert!(host.state(waiter)["legal"].as_array().unwrap().is_empty());
    let legal = host.state(mover)["legal"].as_array().unwrap().clone();
    assert!(!legal.is_empty());
    let first = legal[0]["text"].as_str().unwrap();
    let (status, why) = host.post(&format!("{}/action", host.seat(waiter)), first);
    assert_eq!(status, 409, "{why}");
    assert!(why.contains("turn"), "{why}");
    let (status, why) = host.post(&format!("{}/action", host.seat(mover)), "sail to atlantis");
    assert_eq!(status, 422, "{why}");
    let (status, why) = host.post(&format!("{}/action", host.seat(mover)), "");
    assert_eq!(status, 400, "{why}");
    // Nothing changed, then the legal action plays.
    let ply = host.state(mover)["ply"].clone();
    let (status, why) = host.post(&format!("{}/action", host.seat(mover)), first);
    assert_eq!(status, 200, "{why}");
    assert_ne!(host.state(mover)["ply"], ply);
}

/// What the kernel lets `player` see of `state`, as a seat's view holds
/// it: the map (`render` for that player), the rules' status for that
/// player, and the last events narrated for that player's eyes.
fn kernel_view(loaded: &Loaded, state: &GameState, player: &str) -> (String, String, Vec<String>) {
    let engine = &loaded.engine;
    let p = engine.game.player_index(player).unwrap();
    let view = View::new(&engine.game, state, Viewer::Player(p));
    let from = view.events.len().saturating_sub(LOG_EVENTS);
    let log = narrate::narrate_all(engine, &view, &view.events[from..]);
    let status = engine
        .status_text(state, player)
        .map(|r| r.unwrap())
        .unwrap_or_default();
    (
        portolan::render::draw(loaded, state, Viewer::Player(p)).svg,
        status,
        log,
    )
}

/// What a hot-seat game played through the seats' addresses showed.
struct Walk {
    ended: bool,
    /// Views whose map hid something the all-seeing map shows.
    hidden: usize,
    /// Steps at which the seats' status texts differed.
    private_status: usize,
}

/// Plays up to `steps` actions (each seat's first listed one) through the
/// seats' addresses, mirroring them on the kernel, and checks at every
/// step that each seat's map, status and log are the kernel's for that
/// seat; every 25 steps, that its event stream carries the same view.
fn walk(target: &str, seed: u64, players: [&str; 2], steps: usize) -> Walk {
    let seed_text = seed.to_string();
    let host = Hosted::start(&[target, "--seed", &seed_text]);
    let loaded = loaded(target);
    let engine = &loaded.engine;
    let mut mirror = engine.new_game(seed).unwrap();
    let mut walk = Walk {
        ended: false,
        hidden: 0,
        private_status: 0,
    };
    for step in 0..=steps {
        let mut statuses = Vec::new();
        for player in players {
            let view = host.state(player);
            let (svg, status, log) = kernel_view(&loaded, &mirror, player);
            assert_eq!(view["svg"], svg.as_str(), "{player}'s map at step {step}");
            assert_eq!(
                view["status"],
                status.as_str(),
                "{player}'s status at step {step}"
            );
            assert_eq!(
                view["log"],
                serde_json::json!(log),
                "{player}'s log at step {step}"
            );
            if svg != portolan::render::draw(&loaded, &mirror, Viewer::All).svg {
                walk.hidden += 1;
            }
            statuses.push(status);
            if step % 25 == 0 {
                let event = first_event(host.addr, &format!("{}/events", host.seat(player)));
                let event: serde_json::Value = serde_json::from_str(&event).unwrap();
                assert_eq!(event, view, "{player}'s event stream at step {step}");
            }
        }
        if statuses[0] != statuses[1] {
            walk.private_status += 1;
        }
        if mirror.result.is_some() {
            walk.ended = true;
            break;
        }
        if step == steps {
            break;
        }
        let id = engine
            .game
            .player_id(engine.to_move(&mirror).unwrap())
            .to_string();
        let action = host.state(&id)["legal"][0]["text"]
            .as_str()
            .unwrap()
            .to_string();
        let (status, why) = host.post(&format!("{}/action", host.seat(&id)), &action);
        assert_eq!(status, 200, "{why}");
        let parsed = engine.parse_action(&mirror, &action).unwrap();
        engine.apply(&mut mirror, parsed).unwrap();
    }
    if walk.ended {
        for player in players {
            assert!(host.state(player)["result"].is_string());
        }
        host.expect_line("game over");
    }
    walk
}

#[test]
fn two_remote_convoy_seats_play_to_the_end_and_neither_receives_the_others_secrets() {
    let walk = walk("med-convoy", 11, ["blue", "red"], 2000);
    assert!(walk.ended, "the game ended");
    assert!(walk.hidden > 0, "some views hid something");
}

#[test]
fn treasure_fleet_seats_each_receive_their_own_status_and_never_the_others() {
    // Hands, cargo and unseen ships' strength are private: each seat's
    // status is the rules' text for that seat, and the two differ.
    let walk = walk("treasure-fleet", 3, ["a", "b"], 60);
    assert!(walk.hidden > 0, "some views hid something");
    assert!(walk.private_status > 0, "the seats' status texts differ");
}

#[test]
fn a_seat_taken_by_a_bot_plays_on_the_server_and_the_save_follows_every_action() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("hosted.json");
    let host = Hosted::start(&[
        "med-convoy",
        "--seed",
        "5",
        "--seat",
        "red=greedy",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(host.seats.len(), 1);
    for _ in 0..6 {
        let view = host.state("blue");
        if view["result"].is_string() {
            break;
        }
        assert_eq!(
            view["your_turn"], true,
            "the bot answered before the page was asked"
        );
        let action = view["legal"][0]["text"].as_str().unwrap().to_string();
        assert_eq!(
            host.post(&format!("{}/action", host.seat("blue")), &action)
                .0,
            200
        );
        let saved: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
        assert_eq!(saved["seats"]["red"], "greedy");
        assert!(!saved["actions"].as_array().unwrap().is_empty());
    }
    // A client that comes back (a new event stream) finds its seat as
    // the server last showed it.
    let again = first_event(host.addr, &format!("{}/events", host.seat("blue")));
    let again: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(again, host.state("blue"));
}

#[test]
fn seats_that_name_no_player_or_leave_no_remote_seat_are_refused() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_portolan"))
            .arg("host")
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["med-convoy", "--seat", "green=remote"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no player 'green'"));
    let out = run(&[
        "med-convoy",
        "--seat",
        "blue=random",
        "--seat",
        "red=random",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("PLAYER=remote"));
    let out = run(&["med-convoy", "--seat", "blue"]);
    assert!(!out.status.success());
    let out = run(&["med-convoy", "--listen", "not-an-address"]);
    assert!(!out.status.success());
    let out = run(&["med-convoy", "--seat", "red=ismcts:zero"]);
    assert!(!out.status.success());
}

#[test]
fn hostile_clients_cannot_stall_the_other_seats() {
    let host = Hosted::start(&["med-convoy", "--seed", "3"]);
    let blue = host.seat("blue").to_string();
    // Slow clients that never finish their request, and event streams
    // nobody reads, hold only their own connections.
    let mut idle = Vec::new();
    for _ in 0..20 {
        let mut s = TcpStream::connect(host.addr).unwrap();
        s.write_all(b"GET /seat/").unwrap();
        idle.push(s);
    }
    let mut streams = Vec::new();
    for _ in 0..6 {
        let mut s = TcpStream::connect(host.addr).unwrap();
        write!(s, "GET {blue}/events HTTP/1.1\r\n\r\n").unwrap();
        streams.push(s);
    }
    // The fifth stream of one seat is refused; the seat itself still answers.
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = host.get(&format!("{blue}/events"));
    assert_eq!(status, 429);
    assert_eq!(host.state("red")["seat"], "Red");
    // Garbage, oversized bodies and floods of bad actions get 4xx answers.
    for junk in [
        &b"\x00\x01\x02\r\n\r\n"[..],
        b"GET\r\n\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n",
    ] {
        let mut s = TcpStream::connect(host.addr).unwrap();
        s.write_all(junk).unwrap();
        let (status, _) = web::read_response(&mut s);
        assert!((400..500).contains(&status) || status == 505, "{status}");
    }
    let big = "x".repeat(100_000);
    assert_eq!(
        request(host.addr, "POST", &format!("{blue}/action"), &big).0,
        413
    );
    for _ in 0..200 {
        let (status, _) = host.post(&format!("{blue}/action"), "{\"json\": [1, 2");
        assert!(status == 409 || status == 422, "{status}");
    }
    // Ten thousand short visits leave the server answering: at once, or
    // (while the flood's connections close) after a 503 that says to
    // try again.
    for _ in 0..10_000 {
        let s = TcpStream::connect(host.addr).unwrap();
        drop(s);
    }
    let state = format!("{blue}/state");
    web::webdriver::wait_for("the server to answer after the flood", || {
        let (status, _) = host.get(&state);
        assert!(status == 200 || status == 503, "{status}");
        (status == 200).then_some(())
    });
    drop(idle);
    drop(streams);
}
