//! The memory allocator of a package's Lua state: mlua's, with the small
//! blocks a game frees kept for the next ones of the same size.
//!
//! A scripted game makes and collects tables, strings and closures by the
//! hundred thousand (a random Mediterranea game: some 400,000 allocator
//! calls), nearly all of a few dozen sizes. Through mlua's allocator each
//! call goes to the system `malloc` or `free`, some 145 instructions on
//! average with their bookkeeping: some 15% of the game. Kept on a free
//! list per exact size, a block is taken back in a dozen.
//!
//! The limit is mlua's to the byte: what counts is what Lua asked for and
//! has not freed (a kept block counts for nothing), and a request that
//! would pass the limit fails the same way, so scripts see the same
//! out-of-memory errors. The kept blocks are bounded ([`KEPT_MOST`]), so a
//! script that ran up to its limit and let go leaves little behind.
//!
//! Every block, kept or not, has the layout mlua's allocator gives it
//! (its size, aligned to [`ffi::SYS_MIN_ALIGN`]), and a block is only
//! ever kept for a request of its own size, so the two allocators can
//! free each other's blocks: the blocks Lua made before this one was
//! installed, and, once [`Heap`] is dropped (it puts mlua's allocator
//! back), every block still alive.

use mlua::{Lua, ffi};
use std::alloc::{self, Layout};
use std::ffi::c_void;
use std::ptr;

/// The largest block size kept for reuse: past it (a big table's parts,
/// long strings) a block is rare and the system allocator is as quick.
const LARGEST_KEPT: usize = 256;

/// The smallest: a free block holds the next free block's address.
const SMALLEST_KEPT: usize = std::mem::size_of::<*mut u8>();

/// The most bytes kept in free blocks at once; a block freed past it goes
/// back to the system.
const KEPT_MOST: usize = 4 << 20;

/// What the allocator works with, behind Lua's `ud` pointer.
struct State {
    /// Bytes Lua asked for and has not freed.
    used: usize,
    /// The limit on `used` (zero: none).
    limit: usize,
    /// Bytes in the free lists.
    kept: usize,
    /// The first free block of each size (null: none); each free block
    /// holds the address of the next one.
    free: [*mut u8; LARGEST_KEPT + 1],
}

/// The allocator installed in one Lua state. Dropping it puts the
/// allocator it replaced back and frees the kept blocks, so the state may
/// outlive it. While it is installed, mlua's own memory calls
/// (`Lua::used_memory`, `Lua::set_memory_limit`) do not see this
/// allocator: the sandbox sets its limit before and reads no count.
pub struct Heap {
    /// Keeps the state, and so `main`, alive until the allocator is back.
    _lua: Lua,
    /// The state's main thread, on which the allocator is put back: a
    /// plain call that cannot fail, so `state` is never freed while Lua
    /// still holds it.
    main: *mut ffi::lua_State,
    state: *mut State,
    replaced: (ffi::lua_Alloc, *mut c_void),
}

impl Heap {
    /// Installs the allocator in `lua`, with the memory it uses at the swap
    /// and `limit` (zero: none). Call it after mlua's own limit is set, so
    /// that mlua knows memory may run out.
    pub fn install(lua: &Lua, limit: usize) -> mlua::Result<Heap> {
        let state = Box::into_raw(Box::new(State::new(0, limit)));
        let mut replaced = (allocate as ffi::lua_Alloc, ptr::null_mut());
        let mut main = ptr::null_mut();
        // SAFETY: swaps the allocator of a live state; `state` lives until
        // `drop` puts the old allocator back. The count is Lua's own total,
        // read at the swap, which is what the allocator it replaces counted.
        let swapped = unsafe {
            lua.exec_raw::<()>((), |l| {
                ffi::lua_rawgeti(l, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_MAINTHREAD);
                main = ffi::lua_tothread(l, -1);
                ffi::lua_pop(l, 1);
                let kilobytes = ffi::lua_gc(l, ffi::LUA_GCCOUNT, 0) as usize;
                let bytes = ffi::lua_gc(l, ffi::LUA_GCCOUNTB, 0) as usize;
                (*state).used = kilobytes * 1024 + bytes;
                replaced.0 = ffi::lua_getallocf(l, &mut replaced.1);
                ffi::lua_setallocf(l, allocate, state.cast());
            })
        };
        if let Err(err) = swapped {
            // SAFETY: the swap did not happen, so no one else holds `state`.
            drop(unsafe { Box::from_raw(state) });
            return Err(err);
        }
        Ok(Heap {
            _lua: lua.clone(),
            main,
            state,
            replaced,
        })
    }
}

impl Drop for Heap {
    fn drop(&mut self) {
        let (f, ud) = self.replaced;
        // SAFETY: puts back the allocator `install` replaced (the main
        // thread lives as long as `_lua`), then frees the kept blocks,
        // which no one else refers to.
        unsafe {
            ffi::lua_setallocf(self.main, f, ud);
            let mut state = Box::from_raw(self.state);
            for size in SMALLEST_KEPT..=LARGEST_KEPT {
                while let Some(block) = state.pop(size) {
                    alloc::dealloc(block, layout(size));
                }
            }
        }
    }
}

fn layout(size: usize) -> Layout {
    // SAFETY (of the callers): a size the allocator takes, rounded up to
    // the alignment, fits an isize (`allocate` refuses larger ones), and
    // the alignment is a power of two.
    unsafe { Layout::from_size_align_unchecked(size, ffi::SYS_MIN_ALIGN) }
}

fn kept_size(size: usize) -> bool {
    (SMALLEST_KEPT..=LARGEST_KEPT).contains(&size)
}

impl State {
    /// Nothing kept yet, with `used` bytes already in use and `limit`.
    fn new(used: usize, limit: usize) -> State {
        State {
            used,
            limit,
            kept: 0,
            free: [ptr::null_mut(); LARGEST_KEPT + 1],
        }
    }

    /// A free block of `size`, if one is kept.
    unsafe fn pop(&mut self, size: usize) -> Option<*mut u8> {
        let block = self.free[size];
        if block.is_null() {
            return None;
        }
        // SAFETY: a free block holds the next one's address.
        self.free[size] = unsafe { block.cast::<*mut u8>().read() };
        self.kept -= size;
        Some(block)
    }

    /// A block of `size` bytes: a kept one, or a new one.
    unsafe fn take(&mut self, size: usize) -> *mut u8 {
        if kept_size(size)
            && let Some(block) = unsafe { self.pop(size) }
        {
            return block;
        }
        // SAFETY: `size` is not zero.
        let block = unsafe { alloc::alloc(layout(size)) };
        if block.is_null() {
            alloc::handle_alloc_error(layout(size));
        }
        block
    }

    /// Gives back a block of `size` bytes: kept, or freed.
    unsafe fn give(&mut self, block: *mut u8, size: usize) {
        if kept_size(size) && self.kept + size <= KEPT_MOST {
            // SAFETY: the block is free and large enough for an address.
            unsafe { block.cast::<*mut u8>().write(self.free[size]) };
            self.free[size] = block;
            self.kept += size;
        } else {
            // SAFETY: every block has the layout of its size.
            unsafe { alloc::dealloc(block, layout(size)) };
        }
    }
}

/// Lua's allocator function (`lua_Alloc`): frees when `new` is zero,
/// allocates when `block` is null (`old` is then a type tag, not a size),
/// and otherwise resizes; a null result refuses the request, which Lua
/// reports as running out of memory.
unsafe extern "C" fn allocate(
    ud: *mut c_void,
    block: *mut c_void,
    old: usize,
    new: usize,
) -> *mut c_void {
    // SAFETY: `ud` is the state `Heap::install` gave Lua.
    let state = unsafe { &mut *ud.cast::<State>() };
    let block = block.cast::<u8>();
    if new == 0 {
        if !block.is_null() {
            state.used -= old;
            // SAFETY: Lua frees a block of the size it asked for.
            unsafe { state.give(block, old) };
        }
        return ptr::null_mut();
    }
    // A layout's size, rounded up to its alignment, must fit an isize.
    if new > isize::MAX as usize - (ffi::SYS_MIN_ALIGN - 1) {
        return ptr::null_mut();
    }
    let old = if block.is_null() { 0 } else { old };
    if new > old && state.limit > 0 && state.used + (new - old) > state.limit {
        return ptr::null_mut();
    }
    state.used = state.used - old + new;
    // SAFETY: `block` is null or a live block of `old` bytes.
    unsafe {
        if block.is_null() {
            return state.take(new).cast();
        }
        if !kept_size(old) && !kept_size(new) {
            let moved = alloc::realloc(block, layout(old), new);
            if moved.is_null() {
                alloc::handle_alloc_error(layout(new));
            }
            return moved.cast();
        }
        let moved = state.take(new);
        ptr::copy_nonoverlapping(block, moved, old.min(new));
        state.give(block, old);
        moved.cast()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Lua state with mlua's limit set, as the sandbox makes it.
    fn limited_lua(limit: usize) -> Lua {
        let lua = Lua::new();
        lua.set_memory_limit(limit).unwrap();
        lua
    }

    /// How many small tables a script makes before the limit stops it,
    /// and what the error says.
    fn tables_until_the_limit(lua: &Lua) -> (i64, String) {
        lua.load(
            "local t = {}
             local ok, err = pcall(function() while true do t[#t + 1] = { #t } end end)
             return #t, tostring(err)",
        )
        .eval()
        .unwrap()
    }

    #[test]
    fn the_limit_stops_a_script_where_mlua_s_allocator_does() {
        let limit = 2 << 20;
        let plain = tables_until_the_limit(&limited_lua(limit));
        let lua = limited_lua(limit);
        let heap = Heap::install(&lua, limit).unwrap();
        let kept = tables_until_the_limit(&lua);
        assert_eq!(kept, plain);
        assert!(kept.0 > 1000, "{kept:?}");
        assert!(kept.1.contains("not enough memory"), "{kept:?}");
        drop(heap);
    }

    #[test]
    fn a_freed_block_is_taken_again_for_its_size_and_only_for_it() {
        let mut state = State::new(0, 0);
        let ud = ptr::from_mut(&mut state).cast::<c_void>();
        unsafe {
            let a = allocate(ud, ptr::null_mut(), ffi::LUA_TTABLE as usize, 56);
            assert_eq!(state.used, 56);
            allocate(ud, a, 56, 0);
            assert_eq!((state.used, state.kept), (0, 56));
            let other = allocate(ud, ptr::null_mut(), 0, 48);
            assert_ne!(other, a);
            let again = allocate(ud, ptr::null_mut(), 0, 56);
            assert_eq!(again, a);
            assert_eq!((state.used, state.kept), (104, 0));
            // Resizing between kept and unkept sizes keeps the contents.
            again.cast::<u8>().write_bytes(7, 56);
            let grown = allocate(ud, again, 56, 4096);
            assert_eq!(std::slice::from_raw_parts(grown.cast::<u8>(), 56), [7; 56]);
            let shrunk = allocate(ud, grown, 4096, 24);
            assert_eq!(std::slice::from_raw_parts(shrunk.cast::<u8>(), 24), [7; 24]);
            assert_eq!(state.used, 48 + 24);
            allocate(ud, shrunk, 24, 0);
            allocate(ud, other, 48, 0);
            // The 56 bytes the table grew out of are kept too.
            assert_eq!((state.used, state.kept), (0, 24 + 48 + 56));
            for size in [24, 48, 56] {
                alloc::dealloc(state.pop(size).unwrap(), layout(size));
            }
        }
    }

    #[test]
    fn the_kept_blocks_are_bounded() {
        let mut state = State::new(0, 0);
        let ud = ptr::from_mut(&mut state).cast::<c_void>();
        let count = 2 * KEPT_MOST / 64;
        unsafe {
            let blocks: Vec<_> = (0..count)
                .map(|_| allocate(ud, ptr::null_mut(), 0, 64))
                .collect();
            for block in blocks {
                allocate(ud, block, 64, 0);
            }
            assert_eq!((state.used, state.kept), (0, KEPT_MOST));
            while let Some(block) = state.pop(64) {
                alloc::dealloc(block, layout(64));
            }
        }
    }

    #[test]
    fn the_state_outlives_the_heap() {
        let lua = limited_lua(0);
        let heap = Heap::install(&lua, 0).unwrap();
        lua.load("kept = {} for i = 1, 1000 do kept[i] = { i, tostring(i) } end")
            .exec()
            .unwrap();
        drop(heap);
        // mlua's allocator frees the blocks made through the heap.
        let total: i64 = lua
            .load(
                "local s = 0 for i, t in ipairs(kept) do s = s + t[1] end
                 kept = nil collectgarbage() return s",
            )
            .eval()
            .unwrap();
        assert_eq!(total, 500_500);
    }
}
