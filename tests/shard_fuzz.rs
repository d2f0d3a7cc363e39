//! `portolan merge` reads result files from anywhere: valid shards
//! mutated field by field and byte by byte, and random bytes, from fixed
//! seeds. Whatever the file says, merge reports or refuses in words: no
//! panic, and no allocation sized from a number in the file.

mod hostile;

use hostile::Rng;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes the two shards of a small run with coverage, as `simulate`
/// writes them, and returns their paths.
fn shards(dir: &Path) -> [PathBuf; 2] {
    [0, 1].map(|i| {
        let path = dir.join(format!("shard-{i}.json"));
        let out = Command::new(env!("CARGO_BIN_EXE_portolan"))
            .args(["simulate", "med-convoy", "--games", "7", "--threads", "1"])
            .args(["--coverage", "--shard", &format!("{i}/2"), "--out"])
            .arg(&path)
            .env_remove("PORTOLAN_RULES")
            .output()
            .expect("the binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        path
    })
}

/// Numbers and values a hostile file might hold where a count, an index
/// or a size is expected.
fn hostile_value(rng: &mut Rng) -> Value {
    let numbers: [Value; 18] = [
        json!(0),
        json!(1),
        json!(2),
        json!(3),
        json!(5),
        json!(-1),
        json!(200),
        json!(255),
        json!(65_536),
        json!(4_294_967_295u64),
        json!(4_294_967_296u64),
        json!(1_000_000_000_000u64),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1e308),
        json!(0.5),
        json!(null),
        json!("x"),
    ];
    match rng.below(6) {
        0 => json!([]),
        1 => json!({}),
        _ => rng.pick(&numbers).clone(),
    }
}

/// Every place in a JSON tree, as a path of keys and indexes.
fn places(value: &Value, at: &mut Vec<Vec<Value>>, path: &mut Vec<Value>) {
    at.push(path.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                path.push(json!(k));
                places(v, at, path);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(json!(i));
                places(v, at, path);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at_mut<'a>(root: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(root, |v, key| match key {
        Value::String(k) => &mut v[k.as_str()],
        _ => &mut v[key.as_u64().unwrap() as usize],
    })
}

/// A valid shard, changed: one place set to a hostile value, removed or
/// repeated; bytes flipped or cut short; or random bytes.
fn mutate(rng: &mut Rng, original: &str) -> Vec<u8> {
    match rng.below(8) {
        0 | 1 => rng.damage(original.as_bytes().to_vec()),
        2 => rng.bytes(256),
        _ => {
            let mut json: Value = serde_json::from_str(original).unwrap();
            let mut all = Vec::new();
            places(&json, &mut all, &mut Vec::new());
            let path = rng.pick(&all[1..]).clone();
            let (parent, last) = path.split_at(path.len() - 1);
            let holder = at_mut(&mut json, parent);
            match (rng.below(4), holder) {
                (0, Value::Object(map)) => {
                    map.remove(last[0].as_str().unwrap());
                }
                (1, Value::Array(items)) => {
                    let i = last[0].as_u64().unwrap() as usize;
                    let again = items[i].clone();
                    items.insert(i, again);
                }
                (_, holder) => *at_mut(holder, last) = hostile_value(rng),
            }
            serde_json::to_vec(&json).unwrap()
        }
    }
}

#[test]
fn mutated_and_random_shard_files_are_merged_or_refused_in_words() {
    use portolan::sim::command::{Format, merge};
    let dir = tempfile::tempdir().unwrap();
    let [a, b] = shards(dir.path());
    for format in [Format::Table, Format::Json, Format::Csv] {
        merge(&[a.clone(), b.clone()], format).expect("the shards as written merge");
    }
    let original = std::fs::read_to_string(&a).unwrap();
    let other = std::fs::read_to_string(&b).unwrap();
    let case = dir.path().join("case.json");
    let mut rng = Rng::new(19);
    let (mut merged, mut refused) = (0, 0);
    for i in 0..3000 {
        std::fs::write(&case, mutate(&mut rng, &original)).unwrap();
        // Now and then both shards are changed alike (a count on both).
        if rng.below(4) == 0 {
            std::fs::write(&b, mutate(&mut rng, &other)).unwrap();
        } else {
            std::fs::write(&b, &other).unwrap();
        }
        let format = *rng.pick(&[Format::Table, Format::Json, Format::Csv]);
        match merge(&[case.clone(), b.clone()], format) {
            Ok(_) => merged += 1,
            Err(e) => {
                assert!(!e.trim().is_empty(), "case {i}: an empty error");
                refused += 1;
            }
        }
    }
    assert!(
        merged > 50 && refused > 1000,
        "{merged} merged, {refused} refused"
    );
}
