//! A WebDriver client of the few commands the browser tests need, over
//! plain HTTP to Debian's `chromedriver` driving a headless `chromium`.

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::panic::AssertUnwindSafe;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A running chromedriver, killed when dropped.
pub struct Driver {
    child: Child,
    addr: SocketAddr,
}

/// Where a program is on PATH, if it is.
fn on_path(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|dir| std::path::Path::new(dir).join(name))
        .find(|p| p.is_file())
}

impl Driver {
    /// Starts chromedriver on a free port of this machine.
    pub fn start() -> Driver {
        let missing = "the browser tests need Debian's chromium and chromium-driver: \
                       apt-get install chromium chromium-driver (.ci/run installs them)";
        let driver = on_path("chromedriver").expect(missing);
        on_path("chromium").expect(missing);
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let d = Driver {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
        };
        // Listening is not ready: chromedriver has been seen to close a
        // connection without an answer just after it starts, on a busy
        // machine. Its status says when it takes sessions.
        wait_for("chromedriver to be ready", || {
            let status = d.try_call("GET", "/status", None)?;
            (status["ready"] == true).then_some(())
        });
        d
    }

    /// [`Driver::call`], or `None` when the connection closed without an
    /// answer (or could not be made).
    fn try_call(&self, method: &str, path: &str, body: Option<&Value>) -> Option<Value> {
        std::panic::catch_unwind(AssertUnwindSafe(|| self.call(method, path, body))).ok()
    }

    /// A new headless browser window.
    pub fn session(&self) -> Session<'_> {
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": on_path("chromium").unwrap(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1400,1000"]
            }
        }}});
        // A session is asked for again if the connection closed without an
        // answer (chromedriver starting the browser on a busy machine).
        let answer = wait_for("chromedriver to answer a new session", || {
            self.try_call("POST", "/session", Some(&caps))
        });
        let id = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        Session { driver: self, id }
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let (_, json) = super::read_response(&mut stream);
        let value: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
        value["value"].clone()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser window.
pub struct Session<'a> {
    driver: &'a Driver,
    id: String,
}

impl Session<'_> {
    pub fn open(&self, url: &str) {
        self.call("POST", "url", json!({ "url": url }));
    }

    /// Runs `script` (a function body) in the page and returns its value.
    pub fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            "execute/sync",
            json!({ "script": script, "args": [] }),
        )
    }

    /// Waits until `script` returns something other than null or false.
    pub fn wait(&self, what: &str, script: &str) -> Value {
        wait_for(what, || match self.run(script) {
            Value::Null | Value::Bool(false) => None,
            v => Some(v),
        })
    }

    /// Clicks the first element `css` finds, as a user would.
    pub fn click(&self, css: &str) {
        let found = self.call(
            "POST",
            "element",
            json!({"using": "css selector", "value": css}),
        );
        let element = found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string();
        self.call("POST", &format!("element/{element}/click"), json!({}));
    }

    fn call(&self, method: &str, command: &str, body: Value) -> Value {
        let path = format!("/session/{}/{command}", self.id);
        self.driver.call(method, &path, Some(&body))
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        self.driver
            .call("DELETE", &format!("/session/{}", self.id), None);
    }
}

/// Polls `probe` until it gives a value, for at most a minute.
pub fn wait_for<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waited a minute for {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
