//! The sheet and its shadow read and written in memory, as Lua 5.4 lays
//! out a table's array part.
//!
//! A take-back runs after every call into the rules, and most slots have
//! not changed: through Lua's API, comparing a slot costs two `lua_rawgeti`,
//! a `lua_rawequal` and a pop (some 80 instructions; a solitaire journey
//! has 38 slots and 14 calls), and reading or storing a value some 150,
//! where the work itself is a load or a store. So the two arrays are read
//! as `lobject.h` lays them out (`Table`, `TValue`, `TString`), and plain
//! values (nil, booleans, integers) are read and stored there too; text is
//! read there and compared with the kernel's (storing a string needs the
//! collector's books: see [`Arrays::text`]); floats go through the API. The layout is
//! the vendored Lua's, pinned by Cargo.lock; the host checks it on a table
//! it builds through the API before trusting it ([`Layout::probe`]) and
//! uses the API for everything if the check fails, so another Lua costs
//! speed, never correctness (and a test that expects the check to pass
//! says so).

use crate::kernel::value::Value;
use crate::script::lua54::{
    FALSE, FLOAT, INTEGER, LIGHT_USERDATA, LONG_STRING, NIL, SHORT_STRING, TABLE, TRUE, TValue,
    TYPE_BITS,
};
use mlua::ffi;
use std::ffi::{c_int, c_uint, c_void};

/// The head of Lua 5.4's `Table`, up to its array part.
#[repr(C)]
struct TableHead {
    next: *mut c_void,
    tt: u8,
    marked: u8,
    flags: u8,
    lsizenode: u8,
    /// At most the array part's size (its exact size, or a bound below it
    /// that `#` left): slots up to it are in the array.
    alimit: c_uint,
    array: *mut TValue,
}

/// The head of Lua 5.4's `TString`, up to its bytes (`contents`).
#[repr(C)]
struct TStringHead {
    next: *mut c_void,
    tt: u8,
    marked: u8,
    extra: u8,
    /// The length of a short string; `LONG` for a long one, whose length
    /// is `long_len`.
    short_len: u8,
    hash: c_uint,
    long_len: usize,
}

/// `shrlen` of a long string.
const LONG: u8 = 0xff;

/// A table's tag in its header (the collectable bit is only in a value's
/// tag).
const TABLE_HEAD: u8 = TABLE & TYPE_BITS;

/// A value that needs no help from the collector to be stored.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum Plain {
    Nil,
    Bool(bool),
    Int(i64),
}

impl Plain {
    pub(super) fn value(self) -> Option<Value> {
        match self {
            Plain::Nil => None,
            Plain::Bool(b) => Some(Value::Bool(b)),
            Plain::Int(i) => Some(Value::Int(i)),
        }
    }

    fn tagged(self) -> (u8, u64) {
        match self {
            Plain::Nil => (NIL, 0),
            Plain::Bool(b) => (if b { TRUE } else { FALSE }, 0),
            Plain::Int(i) => (INTEGER, i as u64),
        }
    }
}

/// Whether the memory layout above is the running Lua's (`trusted`), and
/// its strings' too (`text`).
#[derive(Clone, Copy)]
pub(super) struct Layout {
    trusted: bool,
    text: bool,
}

/// The array parts of the sheet and the shadow, when both can be read in
/// memory for slots 1 to `n`, and whether strings can be read there too.
pub struct Arrays {
    sheet: *mut TValue,
    shadow: *mut TValue,
    text: bool,
}

impl Layout {
    /// Builds a table through the API and reads it back from memory: the
    /// layout is trusted only if every slot reads as it was written.
    ///
    /// # Safety
    /// `l` is a running state with room for three values; it may raise
    /// (out of memory) with nothing to drop.
    pub(super) unsafe fn probe(l: *mut ffi::lua_State) -> Layout {
        // SAFETY: guaranteed by the caller; the table stays on the stack
        // while its memory is read.
        unsafe {
            ffi::lua_createtable(l, 5, 0);
            ffi::lua_pushinteger(l, -7);
            ffi::lua_rawseti(l, -2, 1);
            ffi::lua_pushboolean(l, 1);
            ffi::lua_rawseti(l, -2, 2);
            ffi::lua_pushboolean(l, 0);
            ffi::lua_rawseti(l, -2, 3);
            ffi::lua_pushnumber(l, 2.5);
            ffi::lua_rawseti(l, -2, 5);
            let head = &*ffi::lua_topointer(l, -1).cast::<TableHead>();
            // The array is only read if the head reads as a table's.
            let trusted = head.tt == TABLE_HEAD && head.alimit == 5 && {
                let slot = |i: usize| &*head.array.add(i);
                let tags = [0, 1, 2, 3, 4].map(|i| slot(i).tag);
                tags == [INTEGER, TRUE, FALSE, tags[3], FLOAT]
                    && tags[3] & TYPE_BITS == NIL
                    && slot(0).value == -7i64 as u64
                    && slot(4).value == 2.5f64.to_bits()
            };
            ffi::lua_settop(l, -2);
            let text = trusted && probe_text(l);
            Layout { trusted, text }
        }
    }

    /// A layout whose tables are trusted but not its strings (for the tests
    /// of that path).
    #[cfg(test)]
    pub(super) fn without_text() -> Layout {
        Layout {
            trusted: true,
            text: false,
        }
    }

    /// A layout that is not trusted: everything through the API (for the
    /// tests of that path).
    #[cfg(test)]
    pub(super) fn through_the_api() -> Layout {
        Layout {
            trusted: false,
            text: false,
        }
    }

    /// Whether the layout is trusted (for the test that expects it).
    #[cfg(test)]
    pub(super) fn trusted(self) -> bool {
        self.trusted
    }

    /// Whether strings are read in memory too (for the test that expects
    /// it).
    #[cfg(test)]
    pub(super) fn reads_text(self) -> bool {
        self.text
    }

    /// The array parts of the tables at `sheet` and `shadow`, if the layout
    /// is trusted and both hold slots 1 to `n` in their arrays.
    ///
    /// # Safety
    /// `sheet` and `shadow` are indices of tables of the running state `l`;
    /// the pointers are good until Lua resizes either table.
    pub(super) unsafe fn arrays(
        self,
        l: *mut ffi::lua_State,
        sheet: c_int,
        shadow: c_int,
        n: usize,
    ) -> Option<Arrays> {
        // SAFETY: guaranteed by the caller.
        unsafe {
            self.arrays_of(
                ffi::lua_topointer(l, sheet),
                ffi::lua_topointer(l, shadow),
                n,
            )
        }
    }

    /// As [`Layout::arrays`], for the tables at `sheet` and `shadow` (as
    /// `lua_topointer` gives them: a table never moves).
    ///
    /// # Safety
    /// Both are live tables of a state that runs no Lua while the arrays
    /// are used.
    pub(super) unsafe fn arrays_of(
        self,
        sheet: *const c_void,
        shadow: *const c_void,
        n: usize,
    ) -> Option<Arrays> {
        if !self.trusted {
            return None;
        }
        // SAFETY: guaranteed by the caller.
        let (a, b) = unsafe { (&*sheet.cast::<TableHead>(), &*shadow.cast::<TableHead>()) };
        (a.alimit as usize >= n && b.alimit as usize >= n).then_some(Arrays {
            sheet: a.array,
            shadow: b.array,
            text: self.text,
        })
    }
}

/// Builds a table of a short and a long string through the API and reads
/// them back from memory: strings are read there only if both read as
/// they were written.
///
/// # Safety
/// As [`Layout::probe`], whose table layout is trusted.
unsafe fn probe_text(l: *mut ffi::lua_State) -> bool {
    let short = "probe";
    let long = "a long string, longer than the forty bytes Lua interns";
    // SAFETY: guaranteed by the caller; the table stays on the stack while
    // its memory is read.
    unsafe {
        ffi::lua_createtable(l, 2, 0);
        for (slot, text) in [(1, short), (2, long)] {
            ffi::lua_pushlstring(l, text.as_ptr().cast(), text.len());
            ffi::lua_rawseti(l, -2, slot);
        }
        let head = &*ffi::lua_topointer(l, -1).cast::<TableHead>();
        let slot = |i: usize| &*head.array.add(i);
        // The lengths first: the bytes are only read where they are right.
        let length = |i: usize| string_of(slot(i)).map(|(_, len)| len);
        let read = head.alimit == 2
            && slot(0).tag == SHORT_STRING
            && slot(1).tag == LONG_STRING
            && length(0) == Some(short.len())
            && length(1) == Some(long.len())
            && text_of(slot(0)) == Some(short.as_bytes())
            && text_of(slot(1)) == Some(long.as_bytes());
        ffi::lua_settop(l, -2);
        read
    }
}

/// The head and length of a string value's `TString`, as `lobject.h`
/// lays it out.
///
/// # Safety
/// `value` is a live value of a state that runs no Lua meanwhile.
unsafe fn string_of(value: &TValue) -> Option<(&TStringHead, usize)> {
    if value.tag != SHORT_STRING && value.tag != LONG_STRING {
        return None;
    }
    // SAFETY: guaranteed by the caller: a string's value is its `TString`.
    let head = unsafe { &*(value.value as *const TStringHead) };
    let len = match head.short_len {
        LONG => head.long_len,
        short => usize::from(short),
    };
    Some((head, len))
}

/// The bytes of a string value, which follow its `TString`'s head.
///
/// # Safety
/// As [`string_of`], in a trusted layout (whose lengths are real); the
/// bytes live while `value` holds the string and no Lua runs.
unsafe fn text_of(value: &TValue) -> Option<&[u8]> {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let (head, len) = string_of(value)?;
        let bytes = (head as *const TStringHead).add(1).cast::<u8>();
        Some(std::slice::from_raw_parts(bytes, len))
    }
}

impl Arrays {
    /// Pushes onto `out` every slot in 1..=`n` whose value differs between
    /// the sheet and the shadow (nils of every variant equal), unless the
    /// sheet's is text equal to the `kernel`'s value of the slot (see
    /// [`Arrays::text`]): `kernel` holds the state's values by slot, or
    /// nothing.
    ///
    /// # Safety
    /// From [`Layout::arrays`] with this `n`, and Lua has not run since.
    pub(super) unsafe fn differing(
        &self,
        n: usize,
        kernel: &[Option<Value>],
        out: &mut Vec<usize>,
    ) {
        for i in 0..n {
            // SAFETY: guaranteed by the caller.
            let (x, y) = unsafe { (&*self.sheet.add(i), &*self.shadow.add(i)) };
            // The same bits are the same value: most slots, at two
            // compares. Other bits may still be one value (nils of two
            // variants, or false, whose value word Lua leaves as it was).
            if x.value == y.value && x.tag == y.tag {
                continue;
            }
            let same = if x.tag & TYPE_BITS == NIL {
                y.tag & TYPE_BITS == NIL
            } else {
                x.tag == y.tag && x.tag & TYPE_BITS == FALSE
            };
            let kept = || match (unsafe { self.text(i + 1) }, kernel.get(i)) {
                (Some(text), Some(Some(Value::Str(held)))) => text == held.as_bytes(),
                _ => false,
            };
            if !same && !kept() {
                out.push(i + 1);
            }
        }
    }

    /// The sheet's `slot`, if it holds text and strings are read in
    /// memory. A string taken back this way is not stored in the shadow
    /// (which needs the collector's help), but marked there as text the
    /// kernel holds ([`Arrays::mark_text`]); the slot then differs from
    /// the shadow until the next load, and is compared with the kernel's
    /// text instead ([`Arrays::differing`]).
    ///
    /// # Safety
    /// As [`Arrays::differing`], with `slot` in 1..=n; the bytes live while
    /// no Lua runs.
    pub(super) unsafe fn text(&self, slot: usize) -> Option<&[u8]> {
        if !self.text {
            return None;
        }
        // SAFETY: guaranteed by the caller.
        unsafe { text_of(&*self.sheet.add(slot - 1)) }
    }

    /// Marks `slot` of the shadow as holding text the kernel holds: a
    /// light userdata (no script makes one) at the string's address. The
    /// collector does not follow it, so the string needs no barrier, and no
    /// value the sheet can hold has its bits.
    ///
    /// # Safety
    /// As [`Arrays::read`].
    pub(super) unsafe fn mark_text(&self, slot: usize) {
        // SAFETY: guaranteed by the caller.
        unsafe {
            let (x, y) = (&*self.sheet.add(slot - 1), &mut *self.shadow.add(slot - 1));
            (y.tag, y.value) = (LIGHT_USERDATA, x.value);
        }
    }

    /// The sheet's `slot`, if it holds a plain value.
    ///
    /// # Safety
    /// As [`Arrays::differing`], with `slot` in 1..=n.
    pub(super) unsafe fn read(&self, slot: usize) -> Option<Plain> {
        // SAFETY: guaranteed by the caller.
        let x = unsafe { &*self.sheet.add(slot - 1) };
        match x.tag {
            INTEGER => Some(Plain::Int(x.value as i64)),
            TRUE => Some(Plain::Bool(true)),
            FALSE => Some(Plain::Bool(false)),
            tag if tag & TYPE_BITS == NIL => Some(Plain::Nil),
            _ => None,
        }
    }

    /// Stores a plain value in `slot` of the shadow, and of the sheet too
    /// when `both`. (A plain value holds no object, so the collector needs
    /// no word of it.)
    ///
    /// # Safety
    /// As [`Arrays::read`].
    pub(super) unsafe fn store(&self, slot: usize, value: Plain, both: bool) {
        let (tag, bits) = value.tagged();
        // SAFETY: guaranteed by the caller.
        unsafe {
            let y = &mut *self.shadow.add(slot - 1);
            (y.tag, y.value) = (tag, bits);
            if both {
                let x = &mut *self.sheet.add(slot - 1);
                (x.tag, x.value) = (tag, bits);
            }
        }
    }
}

/// Pushes onto `out` every slot in 1..=`n` whose value differs between the
/// tables at `a` and `b`, through the API (raw equality).
///
/// # Safety
/// `l` is a running state with room for two values; `a` and `b` are
/// absolute indices of tables.
pub(super) unsafe fn differing_by_api(
    l: *mut ffi::lua_State,
    a: c_int,
    b: c_int,
    n: usize,
    out: &mut Vec<usize>,
) {
    for i in 1..=n {
        let slot = i as ffi::lua_Integer;
        // SAFETY: guaranteed by the caller.
        unsafe {
            ffi::lua_rawgeti(l, a, slot);
            ffi::lua_rawgeti(l, b, slot);
            if ffi::lua_rawequal(l, -1, -2) == 0 {
                out.push(i);
            }
            ffi::lua_settop(l, -3);
        }
    }
}
