//! The balance chart (`balance --plot`): each player in its game.yaml
//! colour, a near-white one outlined, every player's score distribution,
//! legends beside the data, and identical variants both visible.

#[allow(dead_code)]
mod common;

use portolan::kernel::event::Outcome;
use portolan::kernel::piece::PlayerId;
use portolan::plot::{Player, balance_chart};
use portolan::sim::GameResult;
use portolan::sim::metrics::Metrics;

/// Twelve hand-made four-player games: the winner and the scores turn
/// with `shift`, so two shifts make two different variants.
fn metrics(players: &[Player], shift: usize) -> Metrics {
    let results: Vec<GameResult> = (0..12u64)
        .map(|i| GameResult {
            index: i,
            outcome: Outcome {
                winner: Some(PlayerId(((i as usize + shift) % players.len()) as u8)),
                reason: "victory points".into(),
                scores: (0..players.len())
                    .map(|p| ((i as usize * 7 + p * 13 + shift * 5) % 40) as i64)
                    .collect(),
                by_limit: false,
            },
            plies: 100,
            turns: 50,
            first: 0,
        })
        .collect();
    let ids: Vec<String> = players.iter().map(|p| p.id.clone()).collect();
    Metrics::of(&ids, &results)
}

/// The value of `name="..."` in one element's text.
fn attr<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = element[start..].find('"')?;
    Some(&element[start..start + len])
}

/// The box (x, y, width, height) of every `rect` of class `class`.
fn boxes(svg: &str, class: &str) -> Vec<[f32; 4]> {
    svg.lines()
        .filter(|l| l.trim_start().starts_with("<rect") && attr(l, "class") == Some(class))
        .map(|l| ["x", "y", "width", "height"].map(|a| attr(l, a).unwrap().parse().unwrap()))
        .collect()
}

fn overlap(a: [f32; 4], b: [f32; 4]) -> bool {
    a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
}

/// The lines of the `<g>` that opens with `opening`, up to its end.
fn group<'a>(svg: &'a str, opening: &str) -> Vec<&'a str> {
    let mut lines = svg.lines().skip_while(|l| !l.contains(opening));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no {opening} in the chart"));
    std::iter::once(first)
        .chain(lines.take_while(|l| !l.trim_start().starts_with("</g>")))
        .collect()
}

#[test]
fn mediterranea_is_drawn_in_its_colours_with_every_distribution_and_legends_aside() {
    let engine = common::stock("mediterranea");
    let players = Player::of_game(&engine.game);
    let base = metrics(&players, 0);
    let variants = vec![
        ("base".to_string(), base.clone()),
        ("same".to_string(), base),
        ("other".to_string(), metrics(&players, 1)),
    ];
    let svg = balance_chart(&engine.game.title, &players, &variants);

    for (def, player) in engine.game.players.iter().zip(&players) {
        let colour = def
            .colour
            .expect("every Mediterranea faction has a colour")
            .hex();
        let wins = group(
            &svg,
            &format!("class=\"series\" data-player=\"{}\">", def.id),
        );
        assert!(
            wins.iter()
                .any(|l| attr(l, "fill") == Some(colour.as_str())),
            "{}'s dots are not in its colour {colour}: {wins:?}",
            def.id
        );
        assert!(svg.contains(&format!("{}&apos;s score distribution", player.name)));
        for (variant, _) in &variants {
            let line = group(
                &svg,
                &format!("data-player=\"{}\" data-variant=\"{variant}\"", def.id),
            );
            assert!(
                line.iter()
                    .any(|l| attr(l, "stroke") == Some(colour.as_str())),
                "{} {variant}: {line:?}",
                def.id
            );
        }
    }

    // White (#f2f2f2) is near white: every mark of it has a dark stroke,
    // and every line of it lies on a dark line with the same points.
    let white = "#f2f2f2";
    let elements: Vec<&str> = svg.lines().collect();
    for (i, l) in elements.iter().enumerate() {
        if attr(l, "fill") == Some(white) {
            assert_eq!(attr(l, "stroke"), Some("#333333"), "{l}");
        }
        if attr(l, "stroke") == Some(white) {
            let under = elements[i - 1];
            assert_eq!(attr(under, "stroke"), Some("#333333"), "{l}");
            assert_eq!(attr(under, "points"), attr(l, "points"), "{l}");
        }
    }

    // The same games under two names draw two lines, not one.
    let points = |variant: &str| {
        group(
            &svg,
            &format!("data-player=\"white\" data-variant=\"{variant}\""),
        )
        .iter()
        .find_map(|l| attr(l, "points").map(String::from))
    };
    assert_ne!(points("base"), points("same"));

    let data = boxes(&svg, "data-area");
    let legends = boxes(&svg, "legend-box");
    assert_eq!(
        (data.len(), legends.len()),
        (5, 5),
        "a win panel and four score panels"
    );
    for legend in &legends {
        assert!(
            data.iter().all(|d| !overlap(*legend, *d)),
            "{legend:?} covers data"
        );
    }
}
