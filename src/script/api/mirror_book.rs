//! What the Lua-side mirror of the game variables (`vars_cache.rs`) holds,
//! and how it can go back to what it held when it was loaded.
//!
//! A bot weighing its moves clones one state for each move it tries, plays
//! the move on the clone (the rules change a few variables) and scores it;
//! each clone has the variables of the state it was cloned from, and so the
//! same stamp (`GameState::vars_stamp`). Loading the whole mirror again for
//! each clone cost a greedy Mediterranea game a seventh of its time; going
//! back costs a write per variable the last move changed. So the book keeps
//! the names changed since the mirror was loaded, up to a quarter of the
//! variables (past that, or with few variables, loading is about as quick,
//! and the book stops). The names are kept in one buffer, reused from load
//! to load, so following a change allocates nothing.

/// The mirror's bookkeeping.
#[derive(Default)]
pub struct MirrorBook {
    /// The stamp of the variables the mirror holds, if it holds any state's.
    holds: Option<u64>,
    /// The stamp it was loaded from, while `changed` can take it back there.
    loaded: Option<u64>,
    /// The names changed since it was loaded, one after the other, and
    /// where each ends; at most `room` of them.
    names: String,
    ends: Vec<usize>,
    room: usize,
    /// Whether the mirror holds no name: every variable the state lent
    /// last holds is on the sheet, and no script has stored one since. A
    /// new state whose variables are all on the sheet then needs only the
    /// sheet filled, not a new mirror (see `VarsCache::fill_sheet`).
    empty: bool,
}

impl MirrorBook {
    /// Whether the mirror holds the variables stamped `stamp`.
    pub fn holds(&self, stamp: u64) -> bool {
        self.holds == Some(stamp)
    }

    /// Forgets what the mirror holds, as it is about to be made to hold the
    /// variables stamped `stamp`: whether it can go back to them (by the
    /// [`MirrorBook::way_back`]) rather than be loaded.
    pub fn start_over(&mut self, stamp: u64) -> bool {
        let back = self.loaded == Some(stamp);
        self.holds = None;
        self.loaded = None;
        back
    }

    /// The names changed since the mirror was loaded (until it is loaded or
    /// changed again).
    pub fn way_back(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.names[start..end])
    }

    /// The mirror was loaded with `count` variables stamped `stamp`, or put
    /// back to them.
    pub fn loaded(&mut self, stamp: u64, count: usize) {
        self.holds = Some(stamp);
        self.loaded = Some(stamp);
        self.names.clear();
        self.ends.clear();
        self.room = count / 4;
    }

    /// A script changed the variables `names`, which took the state's
    /// variables from stamp `before` to `after`: the mirror follows if it
    /// held them.
    pub fn changed<'a>(
        &mut self,
        before: u64,
        after: u64,
        names: impl IntoIterator<Item = &'a str>,
    ) {
        if self.holds != Some(before) {
            return;
        }
        self.holds = Some(after);
        for name in names {
            if self.loaded.is_none() {
                return;
            }
            if self.ends.len() < self.room {
                self.names.push_str(name);
                self.ends.push(self.names.len());
            } else {
                self.loaded = None;
            }
        }
    }

    /// Forgets what the mirror holds: it is loaded afresh at the next call.
    pub fn forget(&mut self) {
        self.holds = None;
        self.loaded = None;
    }

    /// The mirror is being changed: it holds nothing trustworthy until
    /// [`MirrorBook::resume`] is given what this returns. (Plain data, so
    /// that an error raised meanwhile skips no destructor.) A name is
    /// stored in it, so it is no longer empty.
    pub fn suspend(&mut self) -> Option<u64> {
        self.empty = false;
        self.holds.take()
    }

    /// Whether the mirror holds no name (see the field).
    pub fn empty(&self) -> bool {
        self.empty
    }

    pub fn set_empty(&mut self, empty: bool) {
        self.empty = empty;
    }

    pub fn resume(&mut self, holds: Option<u64>) {
        self.holds = holds;
    }
}

#[cfg(test)]
mod tests {
    use super::MirrorBook;

    #[test]
    fn the_mirror_goes_back_by_the_names_changed_since_it_was_loaded() {
        let mut book = MirrorBook::default();
        assert!(!book.holds(7));
        book.loaded(7, 40);
        assert!(book.holds(7));
        book.changed(7, 8, ["turn"]);
        book.changed(8, 9, ["score"]);
        assert!(book.holds(9) && !book.holds(7));
        // A change to a state the mirror does not hold is not followed.
        book.changed(3, 4, ["other"]);
        assert!(book.holds(9));
        assert!(book.start_over(7));
        assert!(!book.holds(9));
        assert_eq!(book.way_back().collect::<Vec<_>>(), ["turn", "score"]);
    }

    #[test]
    fn past_its_room_the_book_stops_and_the_mirror_must_be_loaded() {
        let mut book = MirrorBook::default();
        book.loaded(1, 40);
        for stamp in 1..=11 {
            book.changed(stamp, stamp + 1, ["turn"]);
        }
        assert!(book.holds(12));
        assert!(!book.start_over(1));
        // Nor to a state it was not loaded from.
        book.loaded(30, 40);
        book.changed(30, 31, ["turn"]);
        assert!(!book.start_over(31));
        // With few variables, loading them is the way back.
        book.loaded(20, 3);
        book.changed(20, 21, ["turn"]);
        assert!(!book.start_over(20));
    }
}
