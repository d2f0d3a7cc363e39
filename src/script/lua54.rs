//! Lua 5.4's value layout (`lobject.h`), for the paths that read and write
//! Lua's memory directly: the game sheet (`api/sheet/raw.rs`) and the dice
//! calls' stack (`api/dice/stack.rs`). Each checks the layout once, on
//! values it makes through the API, before trusting it, and goes through
//! the API if it differs; so another Lua costs speed, never correctness.

/// Lua 5.4's `TValue`: a value and its type tag (a stack slot is one too).
#[repr(C)]
pub(crate) struct TValue {
    pub(crate) value: u64,
    pub(crate) tag: u8,
}

/// Type tags: the type in the low four bits, the variant above, and bit 6
/// for a collectable value. Nil has three variants, which all read as nil;
/// a boolean's value is its variant.
pub(crate) const TYPE_BITS: u8 = 0x0f;
pub(crate) const NIL: u8 = 0x00;
pub(crate) const FALSE: u8 = 0x01;
pub(crate) const TRUE: u8 = 0x11;
pub(crate) const INTEGER: u8 = 0x03;
pub(crate) const FLOAT: u8 = 0x13;
/// A light userdata, which the collector does not follow.
pub(crate) const LIGHT_USERDATA: u8 = 0x02;
/// Short and long strings.
pub(crate) const SHORT_STRING: u8 = 0x44;
pub(crate) const LONG_STRING: u8 = 0x54;
/// A table, as a value.
pub(crate) const TABLE: u8 = 0x45;
/// A C closure.
pub(crate) const C_CLOSURE: u8 = 0x66;
