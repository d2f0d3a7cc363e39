//! The server: doors (an unguessable token each, one per seat or board),
//! the prepared views behind them, and the connections that read them.
//!
//! The game never runs here. The thread that owns the game publishes, after
//! every change, one prepared view per door ([`Shared::publish`]); a
//! connection only copies out its own door's text. So a request cannot
//! reach another seat's view, the game, or the disk, and a slow or hostile
//! client can hold up nothing but its own connection. Actions go the other
//! way as text, through a channel, to the game's thread.

use crate::kernel::piece::PlayerId;
use crate::web::http::{self, Refusal, Request};
use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

/// Connections served at once; more are answered 503 at the door.
const MAX_CONNECTIONS: usize = 64;
/// Event streams a door may hold open at once (tabs of one player).
const MAX_STREAMS_PER_DOOR: usize = 4;
/// A quiet event stream sends a comment this often, so a client that went
/// away is noticed and its slot freed.
const HEARTBEAT: Duration = Duration::from_secs(15);
/// How long a submitted action may wait for the game's thread (bots
/// answering in between).
const ACTION_WAIT: Duration = Duration::from_secs(600);

/// One way in: a seat that may act, or a board that only watches.
#[derive(Clone, Debug)]
pub struct Door {
    pub token: String,
    /// The player whose actions this door may submit; `None` watches.
    pub acts_as: Option<PlayerId>,
}

/// Hands a submitted action to the game's thread; `false` when that
/// thread is gone.
pub type Submit = Box<dyn Fn(Submitted) -> bool + Send + Sync>;

/// An action typed in a browser, for the game's thread to try.
pub struct Submitted {
    pub player: PlayerId,
    pub text: String,
    /// The REPL's answer: applied, or why not (with the HTTP status).
    pub answer: Sender<Result<(), (u16, String)>>,
}

/// The prepared views, one per door, and their version.
struct Published {
    version: u64,
    views: Vec<Arc<str>>,
}

/// What the game's thread and the connections share.
pub struct Shared {
    published: Mutex<Published>,
    changed: Condvar,
    closing: AtomicBool,
}

impl Shared {
    /// Replaces every door's view (in door order) and wakes the streams.
    pub fn publish(&self, views: Vec<String>) {
        let mut p = lock(&self.published);
        p.version += 1;
        p.views = views.into_iter().map(Arc::from).collect();
        self.changed.notify_all();
    }

    /// The view of door `door` and its version, once it is newer than
    /// `seen` or after `wait` (then the same version comes back).
    fn view_after(&self, door: usize, seen: u64, wait: Duration) -> (u64, Arc<str>) {
        let p = lock(&self.published);
        let (p, _) = self
            .changed
            .wait_timeout_while(p, wait, |p| {
                p.version == seen && !self.closing.load(Ordering::Relaxed)
            })
            .unwrap_or_else(|e| e.into_inner());
        (
            p.version,
            p.views.get(door).cloned().unwrap_or_else(|| "{}".into()),
        )
    }
}

/// A poisoned lock still holds whole views: a view is replaced at once.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A running server: its address, and the handle to publish views.
pub struct Server {
    pub addr: SocketAddr,
    pub shared: Arc<Shared>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.closing.store(true, Ordering::Relaxed);
        self.shared.changed.notify_all();
    }
}

/// What a connection needs to answer: the doors, the page, the way to the
/// game's thread, and the counters that bound it.
struct Context {
    doors: Vec<Door>,
    page: &'static str,
    actions: Option<Submit>,
    shared: Arc<Shared>,
    connections: Arc<AtomicUsize>,
    streams: Vec<Arc<AtomicUsize>>,
}

/// Binds `listen` and serves `doors` on threads of their own. `views` are
/// the first views, one per door; `actions` receives what seats submit.
pub fn start(
    listen: SocketAddr,
    doors: Vec<Door>,
    views: Vec<String>,
    page: &'static str,
    actions: Option<Submit>,
) -> Result<Server, String> {
    let listener =
        TcpListener::bind(listen).map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let shared = Arc::new(Shared {
        published: Mutex::new(Published {
            version: 1,
            views: views.into_iter().map(Arc::from).collect(),
        }),
        changed: Condvar::new(),
        closing: AtomicBool::new(false),
    });
    let context = Arc::new(Context {
        streams: doors.iter().map(|_| Arc::default()).collect(),
        doors,
        page,
        actions,
        shared: Arc::clone(&shared),
        connections: Arc::default(),
    });
    thread::Builder::new()
        .name("portolan-web".into())
        .spawn(move || accept(&listener, &context))
        .map_err(|e| format!("cannot start the server: {e}"))?;
    Ok(Server { addr, shared })
}

fn accept(listener: &TcpListener, context: &Arc<Context>) {
    for stream in listener.incoming() {
        if context.shared.closing.load(Ordering::Relaxed) {
            return;
        }
        let Ok(mut stream) = stream else { continue };
        let Some(slot) = Slot::take(&context.connections, MAX_CONNECTIONS) else {
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = http::respond_text(&mut stream, 503, "the server is busy: try again\n");
            continue;
        };
        let context = Arc::clone(context);
        let spawned = thread::Builder::new().stack_size(256 << 10).spawn(move || {
            let _slot = slot;
            serve(stream, &context);
        });
        // Out of threads: the connection is dropped, the server goes on.
        drop(spawned);
    }
}

/// A counted place among a bounded number, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(count: &Arc<AtomicUsize>, limit: usize) -> Option<Slot> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(Arc::clone(count)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

fn serve(mut stream: TcpStream, context: &Context) {
    let request = match http::read_request(&stream) {
        Ok(r) => r,
        Err(Refusal { status, reason }) => {
            let _ = http::respond_text(&mut stream, status, &format!("{reason}\n"));
            linger(&mut stream);
            return;
        }
    };
    let _ = route(&mut stream, &request, context);
}

/// After refusing a request whose body is still arriving: stop writing
/// and read a little of what is left, so closing does not reset the
/// connection before the client has read the refusal.
fn linger(stream: &mut TcpStream) {
    const DRAIN: u64 = 1 << 20;
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let _ = std::io::copy(
        &mut std::io::Read::take(&mut *stream, DRAIN),
        &mut std::io::sink(),
    );
}

/// What a door's path asks for.
enum Resource {
    Page,
    State,
    Action,
    Events,
}

fn route(stream: &mut TcpStream, request: &Request, context: &Context) -> std::io::Result<()> {
    let Some((door, resource)) = find(context, &request.path) else {
        return http::respond_text(
            stream,
            404,
            "no such page: ask the host for your seat's address\n",
        );
    };
    let method = request.method.as_str();
    match (resource, method) {
        (Resource::Page, "GET") => http::respond(
            stream,
            200,
            "text/html; charset=utf-8",
            context.page.as_bytes(),
        ),
        (Resource::State, "GET") => {
            let (_, view) = context.shared.view_after(door, 0, Duration::ZERO);
            http::respond(stream, 200, "application/json", view.as_bytes())
        }
        (Resource::Events, "GET") => events(stream, context, door),
        (Resource::Action, "POST") => {
            let (status, text) = submit(context, door, &request.body);
            http::respond_text(stream, status, &format!("{text}\n"))
        }
        (Resource::Action, _) => http::respond_text(stream, 405, "send an action with POST\n"),
        _ => http::respond_text(stream, 405, "this address is read with GET\n"),
    }
}

/// The door and resource a path names: `/seat/TOKEN[/state|/action|/events]`.
fn find(context: &Context, path: &str) -> Option<(usize, Resource)> {
    let rest = path.strip_prefix("/seat/")?;
    let (token, tail) = rest.split_once('/').unwrap_or((rest, ""));
    let door = context
        .doors
        .iter()
        .position(|d| same_token(&d.token, token))?;
    let resource = match tail {
        "" => Resource::Page,
        "state" => Resource::State,
        "action" => Resource::Action,
        "events" => Resource::Events,
        _ => return None,
    };
    Some((door, resource))
}

/// Compares tokens in time that does not depend on where they differ.
fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

fn submit(context: &Context, door: usize, body: &str) -> (u16, String) {
    let (Some(player), Some(actions)) = (context.doors[door].acts_as, &context.actions) else {
        return (403, "this board only watches: play at the REPL".into());
    };
    let text = body.trim();
    if text.is_empty() || text.contains(['\n', '\r']) {
        return (
            400,
            "send one action as typed at the REPL, e.g. '1' or 'pass'".into(),
        );
    }
    let (answer, reply) = mpsc::channel();
    let sent = actions(Submitted {
        player,
        text: text.to_string(),
        answer,
    });
    if !sent {
        return (503, "the game has ended its hosting".into());
    }
    match reply.recv_timeout(ACTION_WAIT) {
        Ok(Ok(())) => (200, "ok".into()),
        Ok(Err(refused)) => refused,
        Err(_) => (503, "the game did not answer in time: try again".into()),
    }
}

/// A server-sent event stream of the door's view: now, and after every
/// change, until the client goes or the server closes.
fn events(stream: &mut TcpStream, context: &Context, door: usize) -> std::io::Result<()> {
    let Some(_slot) = Slot::take(&context.streams[door], MAX_STREAMS_PER_DOOR) else {
        return http::respond_text(
            stream,
            429,
            "too many event streams for this seat: close a tab\n",
        );
    };
    http::start_events(stream)?;
    let mut seen = 0;
    while !context.shared.closing.load(Ordering::Relaxed) {
        let (version, view) = context.shared.view_after(door, seen, HEARTBEAT);
        if version == seen {
            stream.write_all(b": still here\n\n")?;
            stream.flush()?;
        } else {
            http::send_event(stream, "state", &view)?;
            seen = version;
        }
    }
    Ok(())
}
