//! API functions as plain C functions on Lua's stack: the hot path of the
//! scripted rules (DESIGN principle 7).
//!
//! A call through mlua's callback machinery costs two to three times a Lua
//! function call (argument conversion, a registry slot per string, an
//! app-data borrow); a rule that rolls on a table or counts ships makes
//! hundreds of such calls a game. A native here reads its arguments straight
//! off the stack without copying them, writes its results into [`Out`], and
//! costs about as much as calling a Lua function.
//!
//! # Why this is sound
//!
//! Lua reports errors (including running out of memory) by `longjmp`, which
//! must never skip a Rust destructor. So a native never touches Lua itself:
//! it only reads arguments (which cannot fail) and records results. The one
//! trampoline, [`call`], runs it under `catch_unwind`, and only after every
//! Rust value of the call is gone does it push the results or raise the
//! error, from buffers the [`Link`] owns. A native never calls back into Lua,
//! so it can neither be re-entered nor see the state change under it.

use super::link::Link;
use crate::kernel::value::Value;
use mlua::{Function, Lua, ffi};
use std::ffi::{c_int, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A native API function: its name as scripts write it (for messages) and
/// its body.
pub struct Native {
    pub name: &'static str,
    pub call: fn(&Link, &Args, &mut Out) -> Result<(), ApiError>,
}

/// An API error, as a script will read it after its `file:line:`.
#[derive(Debug)]
pub struct ApiError(pub String);

impl ApiError {
    pub fn new(message: impl Into<String>) -> ApiError {
        ApiError(message.into())
    }
}

impl From<ApiError> for mlua::Error {
    fn from(e: ApiError) -> mlua::Error {
        mlua::Error::runtime(e.0)
    }
}

/// Makes a Lua function of a native. `native` must be a `static`, and the
/// link must outlive the Lua state (the sandbox keeps it in the state's app
/// data).
pub fn function(lua: &Lua, link: &Link, native: &'static Native) -> mlua::Result<Function> {
    with_quick_path(lua, link, native, call)
}

/// Makes a Lua function of a native whose commonest calls `quick` answers
/// itself: a C function with the same upvalues as [`call`]'s (read by
/// [`upvalues`]) that hands every other call to [`call`], which checks the
/// arguments and reports what is wrong. `quick` must never raise, so that
/// only one place turns a native's failure into a Lua error.
pub fn with_quick_path(
    lua: &Lua,
    link: &Link,
    native: &'static Native,
    quick: ffi::lua_CFunction,
) -> mlua::Result<Function> {
    let link = std::ptr::from_ref(link).cast_mut().cast::<c_void>();
    let native = std::ptr::from_ref(native).cast_mut().cast::<c_void>();
    // SAFETY: pushes two light userdata and makes a closure of them; the
    // closure is the one value left on the stack, returned as a Function.
    unsafe {
        lua.exec_raw((), |l| {
            ffi::lua_pushlightuserdata(l, link);
            ffi::lua_pushlightuserdata(l, native);
            ffi::lua_pushcclosure(l, quick, 2);
        })
    }
}

/// Makes a Lua function of a native that reads fields of a table argument
/// ([`Args::field`]): the closure holds the field names as Lua strings, so
/// reading a field allocates nothing and so cannot fail.
pub fn with_fields(
    lua: &Lua,
    link: &Link,
    native: &'static Native,
    fields: &[&str],
) -> mlua::Result<Function> {
    let names = fields
        .iter()
        .map(|f| lua.create_string(f))
        .collect::<mlua::Result<Vec<_>>>()?;
    let count = names.len() as c_int;
    let link = std::ptr::from_ref(link).cast_mut().cast::<c_void>();
    let native = std::ptr::from_ref(native).cast_mut().cast::<c_void>();
    // SAFETY: the names are the arguments (1 to count); pushes the link, the
    // native and the names as upvalues, makes the closure and leaves it as
    // the one value on the stack.
    unsafe {
        lua.exec_raw(
            mlua::MultiValue::from_iter(names.into_iter().map(mlua::Value::String)),
            |l| {
                ffi::lua_pushlightuserdata(l, link);
                ffi::lua_pushlightuserdata(l, native);
                for i in 1..=count {
                    ffi::lua_pushvalue(l, i);
                }
                ffi::lua_pushcclosure(l, call, 2 + count);
                ffi::lua_replace(l, 1);
                ffi::lua_settop(l, 1);
            },
        )
    }
}

/// The trampoline every native goes through; see the module docs.
pub(super) unsafe extern "C-unwind" fn call(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: the upvalues are the ones `function` set: a Link that outlives
    // the state and a static Native.
    let (link, native) = unsafe { upvalues(l) };
    // SAFETY: the running state; nothing with a destructor is alive when
    // `raise` or `push_out` runs.
    unsafe {
        if run(l, link, native) {
            raise(l, link)
        }
        push_out(l, link)
    }
}

/// The link and the native a closure made by [`function`] (or by one of the
/// cached `vars` functions, which share the layout) holds.
///
/// # Safety
/// `l` must be running such a closure.
pub(super) unsafe fn upvalues<'a>(l: *mut ffi::lua_State) -> (&'a Link, &'static Native) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        (
            &*ffi::lua_touserdata(l, ffi::lua_upvalueindex(1)).cast::<Link>(),
            &*ffi::lua_touserdata(l, ffi::lua_upvalueindex(2)).cast::<Native>(),
        )
    }
}

/// The link alone (upvalue 1 of every closure made here or by the cached
/// `vars` functions): what a quick path needs, one read instead of two.
///
/// # Safety
/// `l` must be running such a closure.
pub(super) unsafe fn link<'a>(l: *mut ffi::lua_State) -> &'a Link {
    // SAFETY: guaranteed by the caller; the link outlives the Lua state.
    unsafe { &*ffi::lua_touserdata(l, ffi::lua_upvalueindex(1)).cast::<Link>() }
}

/// Runs a native's body on the arguments on the stack, with its results
/// left in the link's buffer or its error stored in the link; returns
/// whether it failed. Every Rust value it makes is gone when it returns.
///
/// # Safety
/// `l` must be the running state, and no other native may be running.
pub(super) unsafe fn run(l: *mut ffi::lua_State, link: &Link, native: &'static Native) -> bool {
    // SAFETY: `l` is the running state.
    let args = Args {
        l,
        top: unsafe { ffi::lua_gettop(l) },
        native,
    };
    // SAFETY: natives never call Lua, so no other native runs meanwhile.
    let out = unsafe { link.out() };
    out.clear_results();
    guarded(link, native.name, || (native.call)(link, &args, out))
}

/// Runs `body`, turning an error or a panic into an error stored in the
/// link; returns whether it failed. Every Rust value `body` made is gone
/// when this returns, so the caller may raise at once.
pub(super) fn guarded(
    link: &Link,
    name: &str,
    body: impl FnOnce() -> Result<(), ApiError>,
) -> bool {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => false,
        Ok(Err(e)) => {
            link.set_error(&e.0);
            true
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            link.set_error(&format!(
                "{name}: internal error in the host ({what}); please report it"
            ));
            true
        }
    }
}

/// Raises the stored error with the calling script's `file:line:`.
pub(super) unsafe fn raise(l: *mut ffi::lua_State, link: &Link) -> ! {
    let mut at = [0u8; 128];
    // SAFETY: see `call`; the message lives in the link and the location in
    // a plain array, so nothing on this frame needs dropping.
    unsafe {
        let len = script_location(l, &mut at);
        ffi::lua_pushlstring(l, at.as_ptr().cast(), len);
        let message = link.error();
        ffi::lua_pushlstring(l, message.as_ptr().cast(), message.len());
        ffi::lua_concat(l, 2);
        ffi::lua_error(l)
    }
}

/// Writes `file:line: ` of the innermost package code on the call stack
/// into `buf` (skipping the host's own Lua, like the narration helpers, so
/// an error points at the script that made the call); returns its length.
///
/// # Safety
/// `l` must be the running state.
pub(crate) unsafe fn script_location(l: *mut ffi::lua_State, buf: &mut [u8]) -> usize {
    use std::io::Write;
    // SAFETY: a zeroed lua_Debug is what lua_getstack expects to fill.
    let mut ar: ffi::lua_Debug = unsafe { std::mem::zeroed() };
    let mut level = 1;
    // SAFETY: `l` is running; lua_getinfo fills `ar` for a level that exists.
    while unsafe { ffi::lua_getstack(l, level, &mut ar) } != 0 {
        level += 1;
        if unsafe { ffi::lua_getinfo(l, c"Sl".as_ptr(), &mut ar) } == 0 || ar.currentline <= 0 {
            continue;
        }
        // SAFETY: lua_getinfo set `source` and filled `short_src`.
        let source = unsafe { std::ffi::CStr::from_ptr(ar.source) }.to_bytes();
        if source.starts_with(b"=[") {
            continue;
        }
        let file = unsafe { std::ffi::CStr::from_ptr(ar.short_src.as_ptr()) }.to_bytes();
        let mut cursor = std::io::Cursor::new(&mut *buf);
        let _ = cursor.write_all(file);
        let _ = write!(cursor, ":{}: ", ar.currentline);
        return cursor.position() as usize;
    }
    0
}

/// Pushes what the native recorded; returns how many values.
pub(super) unsafe fn push_out(l: *mut ffi::lua_State, link: &Link) -> c_int {
    // SAFETY: the native has returned; `out` is only read here.
    let out = unsafe { link.out() };
    for item in &out.items {
        // SAFETY: at most `Out::MAX` values, within LUA_MINSTACK.
        unsafe {
            match *item {
                Item::Nil => ffi::lua_pushnil(l),
                Item::Bool(b) => ffi::lua_pushboolean(l, c_int::from(b)),
                Item::Int(i) => ffi::lua_pushinteger(l, i),
                Item::Num(n) => ffi::lua_pushnumber(l, n),
                Item::Str(start, end) => {
                    let bytes = &out.text[start..end];
                    ffi::lua_pushlstring(l, bytes.as_ptr().cast(), bytes.len());
                }
                Item::Ref(r) => {
                    ffi::lua_rawgeti(l, ffi::LUA_REGISTRYINDEX, ffi::lua_Integer::from(r));
                }
                Item::Ints(start, end) => {
                    let ints = &out.ints[start..end];
                    ffi::lua_createtable(l, ints.len() as c_int, 0);
                    for (i, &v) in ints.iter().enumerate() {
                        ffi::lua_pushinteger(l, v);
                        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
                    }
                }
                Item::Refs(start, end) => {
                    let refs = &out.ints[start..end];
                    ffi::lua_createtable(l, refs.len() as c_int, 0);
                    for (i, &r) in refs.iter().enumerate() {
                        ffi::lua_rawgeti(l, ffi::LUA_REGISTRYINDEX, r);
                        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
                    }
                }
            }
        }
    }
    out.items.len() as c_int
}

/// A native's arguments, read off the stack without copying.
pub struct Args {
    l: *mut ffi::lua_State,
    top: c_int,
    native: &'static Native,
}

impl Args {
    /// How many arguments were passed.
    pub fn count(&self) -> usize {
        self.top as usize
    }

    fn kind(&self, i: usize) -> c_int {
        if i > self.count() {
            return ffi::LUA_TNONE;
        }
        // SAFETY: `i` is a valid stack index of the running call.
        unsafe { ffi::lua_type(self.l, i as c_int) }
    }

    /// The Lua type name of argument `i`, for messages.
    pub fn type_name(&self, i: usize) -> &'static str {
        type_name(self.kind(i))
    }

    /// The standard complaint about argument `i`.
    pub fn bad(&self, i: usize, expected: &str) -> ApiError {
        ApiError(format!(
            "bad argument #{i} to '{}' ({expected} expected, got {})",
            self.native.name,
            self.type_name(i)
        ))
    }

    pub fn is_nil(&self, i: usize) -> bool {
        matches!(self.kind(i), ffi::LUA_TNONE | ffi::LUA_TNIL)
    }

    /// Argument `i` as text: names and labels are strings, never numbers.
    pub fn str(&self, i: usize) -> Result<&str, ApiError> {
        let bytes = self.bytes(i)?;
        if bytes.is_ascii() {
            // SAFETY: ASCII is UTF-8; the test is cheaper than full validation.
            return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
        }
        std::str::from_utf8(bytes).map_err(|_| self.bad(i, "UTF-8 text"))
    }

    pub fn opt_str(&self, i: usize) -> Result<Option<&str>, ApiError> {
        if self.is_nil(i) {
            Ok(None)
        } else {
            self.str(i).map(Some)
        }
    }

    /// The address of argument `i`'s bytes if it is a string, to find a
    /// known string by (`known.rs`); its text is not read.
    pub fn address(&self, i: usize) -> Option<usize> {
        if self.kind(i) != ffi::LUA_TSTRING {
            return None;
        }
        // SAFETY: a string on the stack, so nothing is converted.
        Some(unsafe { ffi::lua_tolstring(self.l, i as c_int, std::ptr::null_mut()) } as usize)
    }

    /// Optional argument `i`, a label that only the log reads: its type is
    /// checked on every call, so a mistake shows in a simulation too, but
    /// its text is only read (and checked to be UTF-8) when `wanted`.
    /// Whether argument `i` is the boolean `false` (a roll the rules
    /// narrate themselves: `dice.roll("1D6", false)`).
    pub fn is_false(&self, i: usize) -> bool {
        // SAFETY: `i` is a valid stack index of the running call, as
        // `kind` checked.
        self.kind(i) == ffi::LUA_TBOOLEAN && unsafe { ffi::lua_toboolean(self.l, i as c_int) == 0 }
    }

    pub fn label(&self, i: usize, wanted: bool) -> Result<Option<&str>, ApiError> {
        match self.kind(i) {
            ffi::LUA_TNONE | ffi::LUA_TNIL => Ok(None),
            ffi::LUA_TSTRING if !wanted => Ok(None),
            _ => self.str(i).map(Some),
        }
    }

    fn bytes(&self, i: usize) -> Result<&[u8], ApiError> {
        if self.kind(i) != ffi::LUA_TSTRING {
            return Err(self.bad(i, "string"));
        }
        let mut len = 0;
        // SAFETY: a string on the stack (no conversion happens); it stays
        // there, so the bytes live as long as the call, which `&self` spans.
        unsafe {
            let ptr = ffi::lua_tolstring(self.l, i as c_int, &mut len);
            Ok(std::slice::from_raw_parts(ptr.cast(), len))
        }
    }

    /// Field `field` (an index into the names given to [`with_fields`]) of
    /// the table at argument `i`, read raw: no metamethod runs, so no
    /// script code does. The value stays on the stack until the native
    /// returns (there is room for a few, well within LUA_MINSTACK), so text
    /// read from it lives as long as the call. `None` when the argument is
    /// not a table or the field is nil.
    fn field(&self, i: usize, field: usize) -> Option<c_int> {
        if self.kind(i) != ffi::LUA_TTABLE {
            return None;
        }
        // SAFETY: `i` is a table argument and the upvalue is a name the
        // closure holds; pushing a present value allocates nothing, and
        // reading a table raw never raises.
        unsafe {
            ffi::lua_pushvalue(self.l, ffi::lua_upvalueindex(3 + field as c_int));
            if ffi::lua_rawget(self.l, i as c_int) == ffi::LUA_TNIL {
                ffi::lua_pop(self.l, 1);
                return None;
            }
            Some(ffi::lua_gettop(self.l))
        }
    }

    /// A text field of a table argument (see [`Args::field`]); `name` is
    /// the field's name, for the message.
    pub fn field_str(&self, i: usize, field: usize, name: &str) -> Result<Option<&str>, ApiError> {
        let Some(at) = self.field(i, field) else {
            return Ok(None);
        };
        // SAFETY: `at` holds the field's value, which stays on the stack.
        let (found, kind) = unsafe { (text(self.l, at), ffi::lua_type(self.l, at)) };
        found.map(Some).ok_or_else(|| {
            ApiError(format!(
                "bad field '{name}' in argument #{i} to '{}' (UTF-8 text expected, got {})",
                self.native.name,
                type_name(kind)
            ))
        })
    }

    /// A field of a table argument that is one text or a list of texts
    /// (`kind = "Romans"` or `kind = {"Romans", "Gauls"}`, any of them),
    /// read raw; `name` is the field's name, for the message.
    pub fn field_texts(
        &self,
        i: usize,
        field: usize,
        name: &str,
    ) -> Result<Option<Vec<&str>>, ApiError> {
        let Some(at) = self.field(i, field) else {
            return Ok(None);
        };
        let bad = |got: String| {
            ApiError(format!(
                "bad field '{name}' in argument #{i} to '{}' (UTF-8 text or a list of texts expected, got {got})",
                self.native.name
            ))
        };
        // SAFETY: `at` holds the field's value, which stays on the stack;
        // a list's strings stay alive while the list holds them, after
        // each is popped; reading a table raw never raises.
        unsafe {
            match ffi::lua_type(self.l, at) {
                ffi::LUA_TTABLE => {
                    let len = ffi::lua_rawlen(self.l, at);
                    let mut texts = Vec::with_capacity(len);
                    for n in 1..=len {
                        let kind = ffi::lua_rawgeti(self.l, at, n as ffi::lua_Integer);
                        let found = text(self.l, -1);
                        ffi::lua_pop(self.l, 1);
                        texts
                            .push(found.ok_or_else(|| bad(format!("{} at {n}", type_name(kind))))?);
                    }
                    Ok(Some(texts))
                }
                kind => match text(self.l, at) {
                    Some(text) => Ok(Some(vec![text])),
                    None => Err(bad(type_name(kind).to_string())),
                },
            }
        }
    }

    /// A table field of a table argument (see [`Args::field`]): its stack
    /// index, for [`Args::entry_int`]; `name` is the field's name, for the
    /// message.
    pub fn field_table(
        &self,
        i: usize,
        field: usize,
        name: &str,
    ) -> Result<Option<c_int>, ApiError> {
        let Some(at) = self.field(i, field) else {
            return Ok(None);
        };
        // SAFETY: `at` holds the field's value.
        let kind = unsafe { ffi::lua_type(self.l, at) };
        if kind != ffi::LUA_TTABLE {
            return Err(ApiError(format!(
                "bad field '{name}' in argument #{i} to '{}' (table expected, got {})",
                self.native.name,
                type_name(kind)
            )));
        }
        Ok(Some(at))
    }

    /// The whole number under a name the host keeps as a Lua string
    /// (`key`, a registry reference: see `Link::player_name`) in the table
    /// at stack index `at` (from [`Args::field_table`]), read raw; `None`
    /// when it is absent. `name` names the table, for the message.
    pub fn entry_int(&self, at: c_int, key: c_int, name: &str) -> Result<Option<i64>, ApiError> {
        // SAFETY: `at` holds a table and `key` a registry slot; pushing a
        // present value allocates nothing, reading a table raw never
        // raises, and the stack is left as it was.
        let (kind, n, whole) = unsafe {
            ffi::lua_rawgeti(self.l, ffi::LUA_REGISTRYINDEX, ffi::lua_Integer::from(key));
            let kind = ffi::lua_rawget(self.l, at);
            let mut whole = 0;
            let n = ffi::lua_tointegerx(self.l, -1, &mut whole);
            ffi::lua_pop(self.l, 1);
            (kind, n, whole != 0)
        };
        match kind {
            ffi::LUA_TNIL => Ok(None),
            ffi::LUA_TNUMBER if whole => Ok(Some(n)),
            _ => Err(ApiError(format!(
                "bad entry in '{name}' of '{}' (a whole number expected, got {})",
                self.native.name,
                if kind == ffi::LUA_TNUMBER {
                    "a fraction"
                } else {
                    type_name(kind)
                }
            ))),
        }
    }

    /// A field of a table argument as a boolean (nil and false are false).
    pub fn field_bool(&self, i: usize, field: usize) -> bool {
        // SAFETY: `at` holds the field's value.
        self.field(i, field)
            .is_some_and(|at| unsafe { ffi::lua_toboolean(self.l, at) != 0 })
    }

    /// Argument `i` as a whole number (an integer, or a float without a
    /// fraction).
    pub fn int(&self, i: usize) -> Result<i64, ApiError> {
        if self.kind(i) != ffi::LUA_TNUMBER {
            return Err(self.bad(i, "number"));
        }
        let mut ok = 0;
        // SAFETY: a number on the stack.
        let n = unsafe { ffi::lua_tointegerx(self.l, i as c_int, &mut ok) };
        if ok == 0 {
            return Err(ApiError(format!(
                "bad argument #{i} to '{}' (number has no integer representation)",
                self.native.name
            )));
        }
        Ok(n)
    }

    pub fn opt_int(&self, i: usize) -> Result<Option<i64>, ApiError> {
        if self.is_nil(i) {
            Ok(None)
        } else {
            self.int(i).map(Some)
        }
    }

    /// Argument `i` as a kernel value: nil, a boolean, a whole number or text.
    pub fn value(&self, i: usize) -> Result<Option<Value>, ApiError> {
        match self.kind(i) {
            ffi::LUA_TNONE | ffi::LUA_TNIL => Ok(None),
            // SAFETY: a boolean on the stack.
            ffi::LUA_TBOOLEAN => Ok(Some(Value::Bool(unsafe {
                ffi::lua_toboolean(self.l, i as c_int) != 0
            }))),
            ffi::LUA_TNUMBER => self.int(i).map(|n| Some(Value::Int(n))).map_err(|_| {
                ApiError(format!(
                    "bad argument #{i} to '{}' (game variables hold whole numbers, not fractions)",
                    self.native.name
                ))
            }),
            ffi::LUA_TSTRING => self.str(i).map(|s| Some(Value::Str(s.to_string()))),
            _ => Err(ApiError(format!(
                "bad argument #{i} to '{}' (game variables hold booleans, whole numbers and \
                 strings, not a {}: a game's state is plain data that saves, undo and bots copy)",
                self.native.name,
                self.type_name(i)
            ))),
        }
    }
}

/// The name of a Lua type code, as Lua's messages write it.
pub(super) fn type_name(t: c_int) -> &'static str {
    match t {
        ffi::LUA_TNONE => "no value",
        ffi::LUA_TNIL => "nil",
        ffi::LUA_TBOOLEAN => "boolean",
        ffi::LUA_TNUMBER => "number",
        ffi::LUA_TSTRING => "string",
        ffi::LUA_TTABLE => "table",
        ffi::LUA_TFUNCTION => "function",
        ffi::LUA_TTHREAD => "thread",
        _ => "userdata",
    }
}

/// What a native returns, recorded to be pushed once it has returned.
#[derive(Default)]
pub struct Out {
    items: Vec<Item>,
    text: Vec<u8>,
    ints: Vec<i64>,
}

#[derive(Clone, Copy)]
enum Item {
    Nil,
    Bool(bool),
    Int(i64),
    Num(f64),
    Str(usize, usize),
    Ref(c_int),
    Ints(usize, usize),
    Refs(usize, usize),
}

impl Out {
    /// Results a native may return: well within the stack room Lua
    /// guarantees a C function.
    const MAX: usize = 8;

    pub(super) fn clear_results(&mut self) {
        self.items.clear();
        self.text.clear();
        self.ints.clear();
    }

    fn item(&mut self, item: Item) {
        assert!(
            self.items.len() < Self::MAX,
            "a native returns at most {} values",
            Self::MAX
        );
        self.items.push(item);
    }

    pub fn nil(&mut self) {
        self.item(Item::Nil);
    }

    pub fn bool(&mut self, b: bool) {
        self.item(Item::Bool(b));
    }

    pub fn int(&mut self, i: i64) {
        self.item(Item::Int(i));
    }

    pub fn num(&mut self, n: f64) {
        self.item(Item::Num(n));
    }

    pub fn str(&mut self, s: &str) {
        let start = self.text.len();
        self.text.extend_from_slice(s.as_bytes());
        self.item(Item::Str(start, self.text.len()));
    }

    /// A value kept in the Lua registry (a dice table's row).
    pub fn registry(&mut self, reference: c_int) {
        self.item(Item::Ref(reference));
    }

    /// A new Lua sequence of whole numbers (piece ids).
    pub fn ints(&mut self, values: impl IntoIterator<Item = i64>) {
        let start = self.ints.len();
        self.ints.extend(values);
        self.item(Item::Ints(start, self.ints.len()));
    }

    /// A list of strings the registry holds (names of kinds, places,
    /// players: see [`Link::kind_name`]), as one table.
    pub fn registry_list(&mut self, references: impl IntoIterator<Item = c_int>) {
        let start = self.ints.len();
        self.ints.extend(references.into_iter().map(i64::from));
        self.item(Item::Refs(start, self.ints.len()));
    }

    pub fn value(&mut self, v: Option<&Value>) {
        match v {
            None => self.nil(),
            Some(Value::Bool(b)) => self.bool(*b),
            Some(Value::Int(i)) => self.int(*i),
            Some(Value::Str(s)) => self.str(s),
        }
    }
}

/// The text at stack index `i`, if it is a UTF-8 string.
///
/// # Safety
/// `i` is a valid index of the running state; the text lives while the
/// value stays on the stack.
pub(crate) unsafe fn text<'a>(l: *mut ffi::lua_State, i: c_int) -> Option<&'a str> {
    // SAFETY: guaranteed by the caller; only strings are read, so
    // `lua_tolstring` converts nothing.
    unsafe {
        if ffi::lua_type(l, i) != ffi::LUA_TSTRING {
            return None;
        }
        let mut len = 0;
        let bytes = std::slice::from_raw_parts(ffi::lua_tolstring(l, i, &mut len).cast(), len);
        if bytes.is_ascii() {
            Some(std::str::from_utf8_unchecked(bytes))
        } else {
            std::str::from_utf8(bytes).ok()
        }
    }
}
