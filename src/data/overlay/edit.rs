//! One change of an overlay applied to the data: the path walked key by
//! key, the items an `item:` selects, and the edit done there, each
//! failure a message that names the path and what it offers instead.

use super::Change;
use crate::data::error::suggest;
use crate::data::scenario::merge;
use crate::untrusted::echo;
use serde_json::Value as Json;

/// What an edit does, once checked.
enum Edit<'a> {
    Set(&'a Json),
    Merge(&'a serde_json::Map<String, Json>),
    Append(&'a Json),
    Swap(&'a Json, &'a Json),
    Remove,
}

impl Change {
    pub(super) fn keys(&self) -> Vec<String> {
        self.path
            .value
            .split('.')
            .map(|k| k.trim().to_string())
            .collect()
    }

    /// Exactly one edit, and an `item` that is a number or a map.
    pub(super) fn check(&self) -> Result<(), String> {
        let edits = [
            self.set.is_some(),
            self.merge.is_some(),
            self.append.is_some(),
            self.swap.is_some(),
            self.remove,
        ];
        match edits.iter().filter(|&&e| e).count() {
            1 => {}
            0 => {
                return Err(format!(
                    "the change at '{}' says nothing to do: give one of set, merge, append, \
                     swap or remove: true (to clear a value, use remove)",
                    echo(&self.path.value)
                ));
            }
            _ => {
                return Err(format!(
                    "the change at '{}' gives several edits: write one change for each",
                    echo(&self.path.value)
                ));
            }
        }
        if self.keys().iter().any(String::is_empty) {
            return Err(format!(
                "'{}' is not a path: write keys joined by dots, like tables.arrivals.Huns",
                echo(&self.path.value)
            ));
        }
        match &self.item {
            None | Some(Json::Object(_)) => Ok(()),
            Some(Json::Number(n)) if n.as_u64().is_some() => Ok(()),
            Some(_) => Err(format!(
                "the item at '{}' must be a map of fields to match, like {{turn: 3}}, \
                 or an item number from 0",
                echo(&self.path.value)
            )),
        }
    }

    /// The key of the file that holds the edit.
    pub(super) fn edit_name(&self) -> &'static str {
        match self.edit() {
            Edit::Set(_) => "set",
            Edit::Merge(_) => "merge",
            Edit::Append(_) => "append",
            Edit::Swap(..) => "swap",
            Edit::Remove => "remove",
        }
    }

    fn edit(&self) -> Edit<'_> {
        if let Some(v) = &self.set {
            Edit::Set(v)
        } else if let Some(m) = &self.merge {
            Edit::Merge(m)
        } else if let Some(v) = &self.append {
            Edit::Append(v)
        } else if let Some((a, b)) = &self.swap {
            Edit::Swap(a, b)
        } else {
            Edit::Remove
        }
    }

    pub(super) fn apply(&self, data: &mut Json) -> Result<(), String> {
        let keys = self.keys();
        let (last, parents) = keys.split_last().expect("a path has a key");
        let mut at = data;
        let mut walked = String::new();
        for key in parents {
            at = child(at, key, &walked)?;
            walked = join(&walked, key);
        }
        let whole = join(&walked, last);
        let edit = self.edit();
        // `set` and `merge` may add a key to a map; every other edit
        // needs what it names to exist.
        if self.item.is_none() {
            match (edit, at) {
                (Edit::Remove, Json::Object(map)) => {
                    return map
                        .remove(last)
                        .map(drop)
                        .ok_or_else(|| missing(map, last, &walked));
                }
                (Edit::Remove, at @ Json::Array(_)) => {
                    child(at, last, &walked)?;
                    if let Json::Array(list) = at {
                        list.remove(last.parse::<usize>().expect("child found it by number"));
                    }
                    return Ok(());
                }
                (Edit::Set(v), Json::Object(map)) => {
                    map.insert(last.clone(), v.clone());
                    return Ok(());
                }
                (edit, at) => return edit_value(child(at, last, &walked)?, edit, &whole),
            }
        }
        let list = match child(at, last, &walked)? {
            Json::Array(list) => list,
            _ => {
                return Err(format!(
                    "'{}' is not a list, so it has no items",
                    echo(&whole)
                ));
            }
        };
        let chosen = select(list, self.item.as_ref().expect("an item"), &whole)?;
        if let Edit::Remove = edit {
            let mut index = 0;
            list.retain(|_| {
                index += 1;
                !chosen.contains(&(index - 1))
            });
            return Ok(());
        }
        for i in chosen {
            edit_value(&mut list[i], self.edit(), &format!("{whole} item {i}"))?;
        }
        Ok(())
    }
}

/// A map's value by key, or a list's item by number.
fn child<'a>(at: &'a mut Json, key: &str, walked: &str) -> Result<&'a mut Json, String> {
    match at {
        Json::Object(map) => {
            if !map.contains_key(key) {
                return Err(missing(map, key, walked));
            }
            Ok(map.get_mut(key).expect("checked"))
        }
        Json::Array(list) => {
            let len = list.len();
            key.parse::<usize>()
                .ok()
                .and_then(|i| list.get_mut(i))
                .ok_or_else(|| {
                    format!(
                        "'{}' is a list of {len}: name an item by number (0 to {}), \
                         or select items with item: {{field: value}}",
                        echo(walked),
                        len.saturating_sub(1)
                    )
                })
        }
        _ => Err(format!(
            "'{}' is a single value, with no '{}' inside",
            echo(walked),
            echo(key)
        )),
    }
}

fn missing(map: &serde_json::Map<String, Json>, key: &str, walked: &str) -> String {
    let under = if walked.is_empty() {
        "at the top of the data".to_string()
    } else {
        format!("under '{}'", echo(walked))
    };
    format!(
        "no '{}' {under}: {}",
        echo(key),
        suggest(key, map.keys().map(String::as_str))
    )
}

fn join(walked: &str, key: &str) -> String {
    if walked.is_empty() {
        key.to_string()
    } else {
        format!("{walked}.{key}")
    }
}

/// The numbers of the items an `item:` names; at least one.
fn select(list: &[Json], item: &Json, whole: &str) -> Result<Vec<usize>, String> {
    let chosen: Vec<usize> = match item {
        Json::Number(n) => n
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n < list.len())
            .into_iter()
            .collect(),
        Json::Object(fields) => (0..list.len())
            .filter(|&i| {
                fields
                    .iter()
                    .all(|(k, v)| list[i].get(k).is_some_and(|x| same(x, v)))
            })
            .collect(),
        _ => unreachable!("checked when read"),
    };
    if chosen.is_empty() {
        return Err(format!(
            "no item of '{}' matches {} ({})",
            echo(whole),
            echo(&item.to_string()),
            what_items_have(list, item)
        ));
    }
    Ok(chosen)
}

/// What the list offers for the first field an `item:` asks about, so a
/// wrong value can be corrected: `its items have turn 2, 3, 4`.
fn what_items_have(list: &[Json], item: &Json) -> String {
    let Some((field, _)) = item.as_object().and_then(|f| f.iter().next()) else {
        return format!("it has {} items, numbered from 0", list.len());
    };
    let mut values: Vec<String> = list
        .iter()
        .filter_map(|i| i.get(field))
        .map(Json::to_string)
        .collect();
    values.dedup();
    if values.is_empty() {
        return format!("no item has a field '{}'", echo(field));
    }
    format!(
        "its items have {} {}",
        echo(field),
        echo(&values.join(", "))
    )
}

/// Equal as data: `3` and `3.0` are the same number.
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn edit_value(at: &mut Json, edit: Edit<'_>, whole: &str) -> Result<(), String> {
    match (edit, at) {
        (Edit::Set(v), at) => *at = v.clone(),
        (Edit::Merge(fields), Json::Object(map)) => {
            for (k, v) in fields {
                match (v, map.get_mut(k)) {
                    (Json::Null, _) => {
                        map.remove(k);
                    }
                    (v, Some(slot)) => merge(slot, v),
                    (v, None) => {
                        map.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (Edit::Append(v), Json::Array(list)) => list.push(v.clone()),
        (Edit::Swap(a, b), Json::Array(list)) => {
            let find = |x: &Json| {
                let found: Vec<usize> = (0..list.len()).filter(|&i| same(&list[i], x)).collect();
                match found.as_slice() {
                    [one] => Ok(*one),
                    [] => Err(format!(
                        "'{}' has no item {}",
                        echo(whole),
                        echo(&x.to_string())
                    )),
                    _ => Err(format!(
                        "'{}' has {} several times: swap needs items that occur once",
                        echo(whole),
                        echo(&x.to_string())
                    )),
                }
            };
            let (i, j) = (find(a)?, find(b)?);
            list.swap(i, j);
        }
        (Edit::Remove, _) => unreachable!("removal is done by the parent"),
        (Edit::Merge(_), _) => return Err(format!("'{}' is not a map to merge into", echo(whole))),
        (Edit::Append(_) | Edit::Swap(..), _) => {
            return Err(format!("'{}' is not a list", echo(whole)));
        }
    }
    Ok(())
}
