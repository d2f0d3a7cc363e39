//! Shard files: merging, refusing wrong sets of shards, and refusing
//! numbers out of bounds before they are used.

use super::*;
use crate::kernel::event::Outcome;

fn info() -> RunInfo {
    RunInfo {
        game: "g".into(),
        scenario: None,
        options: vec![],
        overlays: vec![],
        players: vec!["a".into(), "b".into()],
        bots: vec!["random".into(), "random".into()],
        seed: 1,
        games: 5,
        coverage: false,
    }
}

fn shard(index: u64, count: u64, run: RunInfo) -> (PathBuf, ShardFile) {
    let shard = Shard { index, count };
    let results = shard
        .games(run.games)
        .map(|i| GameResult {
            index: i,
            outcome: Outcome {
                winner: None,
                reason: "r".into(),
                scores: vec![],
                by_limit: false,
            },
            plies: i as u32 + 1,
            turns: 1,
            first: 0,
        })
        .collect();
    (
        PathBuf::from(format!("s{index}")),
        ShardFile::new(run, shard, 1.0, 1, results, None),
    )
}

#[test]
fn shards_merge_in_game_order() {
    let m = merge(vec![shard(1, 2, info()), shard(0, 2, info())]).unwrap();
    let indexes: Vec<u64> = m.results.iter().map(|r| r.index).collect();
    assert_eq!(indexes, [0, 1, 2, 3, 4]);
    assert_eq!(m.threads, 2);
}

#[test]
fn wrong_sets_of_shards_are_refused() {
    let e = merge(vec![shard(0, 3, info()), shard(2, 3, info())])
        .err()
        .unwrap();
    assert!(e.contains("shard 1/3 is missing"), "{e}");
    let e = merge(vec![shard(0, 2, info()), shard(0, 2, info())])
        .err()
        .unwrap();
    assert!(e.contains("both shard 0/2"), "{e}");
    let other = RunInfo { seed: 2, ..info() };
    let e = merge(vec![shard(0, 2, info()), shard(1, 2, other)])
        .err()
        .unwrap();
    assert!(e.contains("different runs (seed 1 against 2)"), "{e}");
    let e = merge(vec![shard(0, 2, info()), shard(1, 3, info())])
        .err()
        .unwrap();
    assert!(e.contains("one of 2 shards"), "{e}");
    let mut damaged = shard(1, 2, info());
    damaged.1.results.pop();
    let e = merge(vec![shard(0, 2, info()), damaged]).err().unwrap();
    assert!(e.contains("it holds 1 game, but shard 1/2"), "{e}");
    let mut damaged = shard(1, 2, info());
    damaged.1.results[0].index = 2;
    let e = merge(vec![shard(0, 2, info()), damaged]).err().unwrap();
    assert!(e.contains("changed or damaged"), "{e}");
}

/// A change made to a valid shard file.
type Change = fn(&mut ShardFile);

/// A whole run in one file, changed by `change`, merged.
fn merged_after(change: impl FnOnce(&mut ShardFile)) -> Result<Merged, String> {
    let mut one = shard(0, 1, info());
    change(&mut one.1);
    merge(vec![one])
}

#[test]
fn numbers_out_of_bounds_are_refused_before_use() {
    use crate::kernel::piece::PlayerId;
    // Each of these panicked or aborted before it was checked.
    let cases: [(Change, &str); 7] = [
        (
            |f| f.results[0].outcome.winner = Some(PlayerId(200)),
            "game 0 is won by player number 200 of a game of 2",
        ),
        (
            |f| f.shard = Shard { index: 5, count: 3 },
            "it calls itself shard 5/3",
        ),
        (
            |f| f.shard = Shard { index: 0, count: 0 },
            "it calls itself shard 0/0",
        ),
        (
            |f| f.run.games = 1_000_000_000_000,
            "its run plays 1000000000000 games; a run plays 1 to 10000000",
        ),
        (
            |f| f.results[1].first = 9,
            "game 1 is started by player number 9",
        ),
        (
            |f| f.results.truncate(2),
            "it holds 2 games, but shard 0/1 of a run of 5 games plays 5",
        ),
        (
            |f| f.threads = usize::MAX,
            "played on 18446744073709551615 threads",
        ),
    ];
    for (change, words) in cases {
        let e = merged_after(change).err().expect("refused");
        assert!(e.starts_with("s0: a damaged shard result file: "), "{e}");
        assert!(e.contains(words), "{e}");
    }
}

#[test]
fn a_count_of_shards_from_a_file_sizes_nothing() {
    let run = info();
    let huge = Shard {
        index: 0,
        count: 1 << 32,
    };
    let results = vec![shard(0, 1, run.clone()).1.results[0].clone()];
    let file = ShardFile::new(run, huge, 1.0, 1, results, None);
    let e = merge(vec![(PathBuf::from("s0"), file)]).err().unwrap();
    assert!(
        e.contains("shards 1/4294967296, 2/4294967296, 3/4294967296, 4/4294967296, 5/4294967296 and 4294967290 more are missing"),
        "{e}"
    );
}

#[test]
fn shard_numbers_parse_from_zero() {
    assert_eq!(Shard::parse("2/4").unwrap(), Shard { index: 2, count: 4 });
    assert!(Shard::parse("4/4").is_err());
    assert!(Shard::parse("1/0").is_err());
    assert!(Shard::parse("x").is_err());
    assert_eq!(
        Shard { index: 1, count: 3 }.games(8).collect::<Vec<_>>(),
        [1, 4, 7]
    );
    for (index, count, total) in [(1, 3, 8), (0, 1, 5), (4, 5, 3), (2, 3, 3), (0, 2, 0)] {
        let shard = Shard { index, count };
        assert_eq!(
            shard.game_count(total),
            shard.games(total).count() as u64,
            "{index}/{count} of {total}"
        );
    }
}
