//! What a page receives: the game as one viewer may see it, as JSON. The
//! map is `render`'s SVG drawn from that viewer's view, the log is the
//! narration of the events that viewer may read, the status is the rules'
//! own `rules.status` for that viewer, and the legal actions are listed
//! only to the player who is to decide. Nothing else of the state is in
//! it, so a page has no secret to hide.

use crate::kernel::action::Action;
use crate::kernel::piece::PlayerId;
use crate::kernel::view::{View, Viewer};
use crate::render;
use crate::repl::session::Session;
use crate::repl::{narrate, play};
use serde::Serialize;

/// How many of the last events a page's log shows.
pub const LOG_EVENTS: usize = 300;

/// One legal action: as the REPL types it, and the space it names (the
/// `space-N` element of the map), if any.
#[derive(Serialize)]
struct Legal {
    text: String,
    space: Option<u16>,
}

#[derive(Serialize)]
struct PageView {
    game: String,
    /// Whose eyes the page shows: a player's name, or "every player".
    eyes: String,
    /// The player this page plays, if it plays one.
    seat: Option<String>,
    ply: u32,
    to_move: Option<String>,
    your_turn: bool,
    /// What the player to move is asked.
    asked: Option<String>,
    legal: Vec<Legal>,
    status: String,
    log: Vec<String>,
    result: Option<String>,
    /// The terminal is being handed to this player: the page shows no
    /// position until they take it.
    handover: Option<String>,
    svg: String,
}

/// The page view of `viewer`, for a page that plays `seat` (or none).
pub fn page_view(s: &Session, viewer: Viewer, seat: Option<PlayerId>) -> String {
    let engine = &s.loaded.engine;
    let game = &engine.game;
    let state = s.state();
    let name = |p: PlayerId| game.players[p.0 as usize].name.clone();
    let to_move = engine.to_move(state);
    let your_turn = seat.is_some() && to_move == seat && state.result.is_none();
    let legal = if your_turn {
        play::legal(s)
            .into_iter()
            .map(|a| Legal {
                text: engine.notation(state, a),
                space: named_space(a),
            })
            .collect()
    } else {
        Vec::new()
    };
    let viewer_id = match viewer {
        Viewer::Player(p) => game.player_id(p).to_string(),
        Viewer::All | Viewer::Public => String::new(),
    };
    let status = match engine.status_text(state, &viewer_id) {
        Some(Ok(text)) => text,
        Some(Err(e)) => format!("(rules.status failed: {e})"),
        None => String::new(),
    };
    let view = PageView {
        game: game.title.clone(),
        eyes: match viewer {
            Viewer::Player(p) => name(p),
            Viewer::All => "every hidden face (god view)".into(),
            Viewer::Public => "every player".into(),
        },
        seat: seat.map(name),
        ply: state.ply,
        to_move: to_move.filter(|_| state.result.is_none()).map(name),
        your_turn,
        asked: to_move.map(|_| s.decision_word()),
        legal,
        status,
        log: log(s, viewer),
        result: state
            .result
            .as_ref()
            .map(|o| format!("{} ({})", narrate::result(game, o), o.reason)),
        handover: None,
        svg: render::draw(&s.loaded, state, viewer).svg,
    };
    serde_json::to_string(&view).expect("a page view serializes")
}

/// The page between two players' turns at one terminal: who is to take
/// it, and no position at all.
pub fn handover_view(s: &Session, to: &str) -> String {
    let view = PageView {
        game: s.loaded.engine.game.title.clone(),
        eyes: String::new(),
        seat: None,
        ply: s.state().ply,
        to_move: None,
        your_turn: false,
        asked: None,
        legal: Vec::new(),
        status: String::new(),
        log: Vec::new(),
        result: None,
        handover: Some(to.to_string()),
        svg: String::new(),
    };
    serde_json::to_string(&view).expect("a page view serializes")
}

/// The space an action names, where a click on the map can offer it.
fn named_space(action: Action) -> Option<u16> {
    match action {
        Action::Move { to, .. } | Action::Place { to, .. } => Some(to.0),
        Action::Special { target, .. } => Some(target.0),
        Action::Choice(_) | Action::Pass => None,
    }
}

/// The last events `viewer` may read, in words.
fn log(s: &Session, viewer: Viewer) -> Vec<String> {
    let state = s.state();
    let view = View::new(&s.loaded.engine.game, state, viewer);
    let from = view.events.len().saturating_sub(LOG_EVENTS);
    narrate::narrate_all(&s.loaded.engine, &view, &view.events[from..])
}
