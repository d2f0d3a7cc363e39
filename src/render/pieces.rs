//! Pieces as a drawing shows them: per place (a space or a pool), one
//! group per owner and kind with its count, from a [`View`], so a face the
//! viewer may not see is a group of unknown kind and never a name. A piece
//! with a `name` attribute (a leader: Attila) is a group of its own, named;
//! the view keeps the attributes of hidden faces from the viewer, so a
//! hidden leader's name never shows either.

use crate::kernel::piece::{KindId, Location, PlayerId};
use crate::kernel::value::Value;
use crate::kernel::view::View;
use std::collections::BTreeMap;

/// Pieces of one owner and one kind (as the viewer sees it) in one place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub owner: Option<PlayerId>,
    /// `None`: faces hidden from the viewer.
    pub kind: Option<KindId>,
    /// The pieces' `name` attribute, for named pieces.
    pub name: Option<String>,
    pub count: usize,
}

/// The attribute that names a piece on drawings.
pub const NAME: &str = "name";

/// Every place's groups, ordered by owner in seating order (unowned
/// last), then by kind (hidden last): piece ids are shuffled in hidden
/// games, so their order would say nothing.
pub struct Groups {
    by_place: BTreeMap<Place, Vec<Group>>,
}

/// A place pieces can be, ordered spaces first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Space(u16),
    Pool(u8),
}

impl From<Location> for Place {
    fn from(loc: Location) -> Place {
        match loc {
            Location::Space(s) => Place::Space(s.0),
            Location::Pool(p) => Place::Pool(p.0),
        }
    }
}

impl Groups {
    pub fn of(view: &View) -> Groups {
        type Key = (Place, u16, u32, Option<String>);
        let mut counts: BTreeMap<Key, usize> = BTreeMap::new();
        for p in &view.pieces {
            let owner = p.owner.map_or(u16::MAX, |o| u16::from(o.0));
            let kind = p.kind.map_or(u32::MAX, |k| u32::from(k.0));
            let name = match p.attrs.get(NAME) {
                Some(Value::Str(s)) => Some(s.clone()),
                _ => None,
            };
            *counts.entry((p.loc.into(), owner, kind, name)).or_default() += 1;
        }
        let mut by_place: BTreeMap<Place, Vec<Group>> = BTreeMap::new();
        for ((place, owner, kind, name), count) in counts {
            by_place.entry(place).or_default().push(Group {
                owner: u8::try_from(owner).ok().map(PlayerId),
                kind: u16::try_from(kind).ok().map(KindId),
                name,
                count,
            });
        }
        Groups { by_place }
    }

    /// The groups at a place, in drawing order (none: an empty slice).
    pub fn at(&self, loc: Location) -> &[Group] {
        self.by_place.get(&loc.into()).map_or(&[], Vec::as_slice)
    }
}
