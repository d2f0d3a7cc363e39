//! Setting the game up: optional rules, scenarios, new games, seats and the
//! point of view.

use crate::data::overlay::{self, Overlay};
use crate::kernel::view::Viewer;
use crate::load::{Request, load};
use crate::repl::confirm;
use crate::repl::escape::quote;
use crate::repl::line::Line;
use crate::repl::session::{Seat, Session};
use crate::sim::report::list_or_none;
use crate::untrusted::echo;

pub fn options(s: &Session) -> String {
    let g = &s.loaded.engine.game;
    if g.options.is_empty() {
        return "this game has no optional rules\n".into();
    }
    let mut out: String = g
        .options
        .iter()
        .map(|o| {
            format!(
                "  [{}] {:>2}. {:<18} {}: {}\n",
                if o.enabled { "on " } else { "off" },
                o.number,
                o.id,
                o.title,
                o.description
            )
        })
        .collect();
    out += "'new +ID' or 'new -ID' starts a game with an optional rule on or off\n";
    out
}

pub fn scenarios(s: &Session) -> String {
    let game = &s.loaded.engine.game.id;
    let ids = s.catalog.scenario_ids(game);
    if ids.is_empty() {
        return format!("{game} has no scenarios\n");
    }
    let current = s.loaded.scenario.as_ref().map(|sc| sc.id.clone());
    let mut out = String::new();
    for id in ids {
        let full = format!("{game}/{id}");
        let mark = if current.as_deref() == Some(&full) {
            "*"
        } else {
            " "
        };
        match s.catalog.scenario(game, &id) {
            Ok(sc) => {
                let opts = if sc.options.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", sc.options.join(", "))
                };
                out += &format!("{mark} {id:<14} {}{opts}: {}\n", sc.title, sc.description);
            }
            Err(e) => out += &format!("{mark} {id:<14} (broken: {e})\n"),
        }
    }
    out += "'new SCENARIO' starts one\n";
    out
}

pub fn overlays(s: &Session) -> String {
    let package = &s.loaded.package;
    let game = &s.loaded.engine.game.id;
    let on = &s.loaded.overlays;
    let shipped = overlay::names(package);
    let line = |mark: &str, name: &str, o: &Overlay| {
        format!(
            "{mark} {:<14} {}: {}\n",
            echo(name),
            echo(&o.file.title),
            echo(&o.file.description)
        )
    };
    let mut out = String::new();
    for name in &shipped {
        let mark = if on.iter().any(|o| &o.label == name) {
            "*"
        } else {
            " "
        };
        match overlay::shipped(package, game, name) {
            Ok(o) => out += &line(mark, name, &o),
            Err(e) => {
                out += &format!(
                    "{mark} {:<14} (broken: {})\n",
                    echo(name),
                    echo(&e.to_string())
                )
            }
        }
    }
    for o in on.iter().filter(|o| !shipped.contains(&o.label)) {
        out += &line("*", &o.label, o);
    }
    if out.is_empty() {
        return format!("{game} has no overlays\n");
    }
    out += "'new @NAME' lays one on a new game, 'new -@NAME' takes it off\n";
    out
}

/// `new [SCENARIO] [+opt] [-opt] [@overlay] [-@overlay]`: a new game with
/// the same seats. An unsaved game is dropped only after a yes.
pub fn new_game(s: &mut Session, line: &str, args: &str) -> Result<String, String> {
    let game = s.loaded.engine.game.id.clone();
    let mut target = s.request.target.clone();
    let mut options = s.loaded.options.clone();
    let mut overlays = s.request.overlays.clone();
    let mut seed = None;
    for a in args.split_whitespace() {
        if let Some(on) = a.strip_prefix('@') {
            overlays.retain(|o| o != on);
            overlays.push(on.to_string());
        } else if let Some(off) = a.strip_prefix("-@") {
            if !overlays.iter().any(|o| o == off) {
                return Err(format!(
                    "'new {a}': this game has no overlay '{off}' to drop (overlays: {})",
                    list_or_none(&overlays)
                ));
            }
            overlays.retain(|o| o != off);
        } else if let Some(n) = a.strip_prefix("seed=") {
            seed = Some(
                n.parse::<u64>()
                    .map_err(|_| format!("'new {a}': write seed=NUMBER"))?,
            );
        } else if let Some(off) = a.strip_prefix('-') {
            options.retain(|o| o != off);
            options.push(format!("-{off}"));
        } else if let Some(on) = a.strip_prefix('+') {
            options.retain(|o| o != on && o.strip_prefix('-') != Some(on));
            options.push(on.to_string());
        } else {
            let name = a.strip_prefix(&format!("{game}/")).unwrap_or(a);
            if !s.catalog.scenario_ids(&game).iter().any(|id| id == name) {
                let known = s.catalog.scenario_ids(&game);
                return Err(format!(
                    "'new {a}': no scenario '{name}' ({}); write +ID or -ID for optional rules",
                    crate::data::error::suggest(name, known.iter().map(String::as_str))
                ));
            }
            target = format!("{game}/{name}");
            // A scenario brings its own options; only the ones given here
            // are added to them.
            options.clear();
        }
    }
    let known: Vec<&str> = s
        .loaded
        .engine
        .game
        .options
        .iter()
        .map(|o| o.id.as_str())
        .collect();
    for o in &options {
        let id = o.trim_start_matches(['-', '+']);
        if !known.contains(&id) {
            return Err(format!(
                "no optional rule '{id}': {} ('options' lists them)",
                crate::data::error::suggest(id, known.iter().copied())
            ));
        }
    }
    let request = Request {
        target,
        options,
        overlays,
    };
    let loaded = load(&s.catalog, &request).map_err(|e| e.to_string())?;
    if let Some(question) = confirm::before_discarding(s, line) {
        return Ok(question);
    }
    // A seed the user did not give comes from the REPL's own stream, not
    // from the last game's seed, which a shared screen shows at its end.
    s.seed = seed.unwrap_or_else(|| u64::from(s.repl_rng.below(1_000_000_000)));
    let state = loaded.engine.new_game(s.seed).map_err(|e| e.to_string())?;
    s.request = request;
    s.replace(loaded, Line::new(state));
    let seats = s.seats.clone();
    s.set_seats(seats)?;
    s.dirty = false;
    Ok(s.welcome())
}

pub fn seat(s: &mut Session, args: &str) -> Result<String, String> {
    let mut parts = args.split_whitespace();
    let (Some(player), Some(who)) = (parts.next(), parts.next()) else {
        return Err(format!(
            "usage: seat PLAYER human|BOT, BOT one of {} (seats now: {})",
            crate::bots::spec::FORMS,
            s.seat_summary()
        ));
    };
    let p = s.loaded.engine.game.player_index(player).ok_or_else(|| {
        format!(
            "no player '{player}' (players: {})",
            crate::repl::session::player_ids(&s.loaded)
        )
    })?;
    let mut seats = s.seats.clone();
    seats[p.0 as usize] = Seat::parse(who);
    s.set_seats(seats)?;
    Ok(format!("seats: {}\n{}", s.seat_summary(), s.after_change()))
}

/// `view PLAYER|all|auto`. A view that shows what the holder's seat may
/// not see is a peek: it asks first (see `confirm`) and is marked.
pub fn view(s: &mut Session, line: &str, arg: &str) -> Result<String, String> {
    let g = &s.loaded.engine.game;
    let chosen = match arg {
        "all" | "god" => Some(Viewer::All),
        "auto" | "" => None,
        p => Some(Viewer::Player(g.player_index(p).ok_or_else(|| {
            format!(
                "no player '{}': use a player id ({}), all or auto",
                quote(p),
                crate::repl::session::player_ids(&s.loaded)
            )
        })?)),
    };
    let own = s.own_eyes();
    if chosen.is_some_and(|v| v != own)
        && let Some(question) = confirm::before_peeking(s, line, "This view")
    {
        return Ok(question);
    }
    s.forced_view = chosen.filter(|&v| v != own);
    let who = seen_by(s);
    let until = if s.hot_seat() && s.forced_view.is_some() {
        " until the turn passes"
    } else {
        ""
    };
    Ok(format!("now showing {who}{until}\n{}", s.status()))
}

/// Whose eyes the screen shows, in words.
pub(crate) fn seen_by(s: &Session) -> String {
    match s.shown_viewer() {
        Viewer::All => "everyone's pieces (god view)".to_string(),
        Viewer::Public => "what every player sees".to_string(),
        Viewer::Player(p) => format!("{}'s view", s.loaded.engine.game.players[p.0 as usize].name),
    }
}
