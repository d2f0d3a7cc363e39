//! The seats' page in a real headless Chromium (Debian's `chromium` and
//! `chromium-driver`, driven over WebDriver): it draws every space, a
//! click plays an action, two players in two browsers each see their own
//! pieces and not the other's, and a page follows the game without being
//! reloaded.

#[allow(dead_code)]
mod common;
mod web;

use web::Hosted;
use web::webdriver::{Driver, wait_for};

fn url(host: &Hosted, player: &str) -> String {
    format!("http://{}{}", host.addr, host.seat(player))
}

fn spaces(target: &str) -> usize {
    common::stock(target).game.board.len()
}

#[test]
fn the_page_draws_every_space_of_convoy_and_mediterranea() {
    let driver = Driver::start();
    let browser = driver.session();
    for (target, player) in [("med-convoy", "blue"), ("mediterranea", "white")] {
        let host = Hosted::start(&[target, "--seed", "2"]);
        browser.open(&url(&host, player));
        let drawn = browser.wait(
            "the map",
            "const n = document.querySelectorAll('#map [data-space]').length; return n > 0 ? n : null;",
        );
        assert_eq!(drawn.as_u64().unwrap() as usize, spaces(target), "{target}");
    }
}

#[test]
fn a_click_on_a_legal_action_plays_it() {
    let driver = Driver::start();
    let browser = driver.session();
    let host = Hosted::start(&["med-convoy", "--seed", "4", "--seat", "red=random"]);
    browser.open(&url(&host, "blue"));
    browser.wait(
        "the actions",
        "return document.querySelectorAll('button.action').length > 0;",
    );
    let before = host.state("blue")["ply"].as_u64().unwrap();
    browser.click("button.action");
    wait_for("the action to be played", || {
        (host.state("blue")["ply"].as_u64().unwrap() > before).then_some(())
    });
}

#[test]
fn two_browsers_see_their_own_pieces_only_and_follow_the_game_without_reloading() {
    let driver = Driver::start();
    let (blue, red) = (driver.session(), driver.session());
    let host = Hosted::start(&["med-convoy", "--seed", "6"]);
    blue.open(&url(&host, "blue"));
    red.open(&url(&host, "red"));
    let count = |owner: &str, hidden: bool| {
        format!(
            "return document.querySelectorAll('#map g.pieces[data-owner=\"{owner}\"]{}').length;",
            if hidden { ".hidden" } else { ":not(.hidden)" }
        )
    };
    for (browser, me, other) in [(&blue, "blue", "red"), (&red, "red", "blue")] {
        browser.wait(
            "the map",
            "return document.querySelectorAll('#map g.pieces').length > 0;",
        );
        assert!(
            browser.run(&count(me, false)).as_u64().unwrap() > 0,
            "{me} sees its own pieces"
        );
        assert_eq!(
            browser.run(&count(me, true)).as_u64().unwrap(),
            0,
            "{me}'s own faces"
        );
        assert_eq!(
            browser.run(&count(other, false)).as_u64().unwrap(),
            0,
            "{me} sees {other}'s faces"
        );
        assert!(browser.run(&count(other, true)).as_u64().unwrap() > 0);
    }
    // The seat to move clicks; the other page changes with no reload.
    let (mover, watcher) = if host.state("blue")["your_turn"] == true {
        (&blue, &red)
    } else {
        (&red, &blue)
    };
    watcher.run("window.stayed = true; window.seenPly = document.getElementById('turn').textContent; return true;");
    let log_before = watcher.run("return document.getElementById('log').textContent;");
    mover.wait(
        "the actions",
        "return document.querySelectorAll('button.action').length > 0;",
    );
    mover.click("button.action");
    watcher.wait(
        "the other page to follow",
        &format!(
            "return window.stayed === true && document.getElementById('log').textContent !== {};",
            log_before
        ),
    );
}
