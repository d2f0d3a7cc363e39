//! The win-rate panel: for each variant, each player's win rate as a dot
//! in the player's colour with its 95% interval, players side by side.

use super::axis::{self, Scale};
use super::legend::{self, Key};
use super::{Frame, Player, legend_corner, marks};
use crate::render::xml::Svg;
use crate::sim::metrics::Metrics;

pub fn draw(svg: &mut Svg, frame: &Frame, players: &[Player], variants: &[(String, Metrics)]) {
    let n = variants.len().max(1);
    let top = variants
        .iter()
        .flat_map(|(_, m)| m.win_rate.values().map(|r| r.high))
        .fold(0.0f64, f64::max);
    let y = Scale::new(
        0.0,
        ((100.0 * top / 10.0).ceil() * 10.0).max(10.0),
        frame.bottom(),
        frame.y,
    );
    let x = Scale::new(-0.5, n as f64 - 0.5, frame.x, frame.right());
    axis::y_axis(svg, frame, &y, "win rate (%)");
    let slot = frame.w / n as f32;
    let chars = ((slot / 8.0) as usize).max(4);
    for (v, (name, _)) in variants.iter().enumerate() {
        axis::below(
            svg,
            x.at(v as f64),
            frame.bottom() + 18.0,
            &legend::cut(name, chars),
        );
    }
    axis::below(
        svg,
        frame.x + frame.w / 2.0,
        frame.bottom() + 40.0,
        "variant",
    );
    // Players share a variant's slot, spread over half of it.
    let spread = 0.5 / players.len() as f64;
    for (p, player) in players.iter().enumerate() {
        let offset = (p as f64 - (players.len() - 1) as f64 / 2.0) * spread;
        svg.open(
            "g",
            &[
                ("class", "series".into()),
                ("data-player", (&player.id).into()),
            ],
        );
        for (v, (_, m)) in variants.iter().enumerate() {
            let Some(r) = m.win_rate.get(&player.id) else {
                continue;
            };
            let at = x.at(v as f64 + offset);
            marks::interval(
                svg,
                at,
                y.at(100.0 * r.low),
                y.at(100.0 * r.high),
                player.colour,
            );
            marks::dot(svg, at, y.at(100.0 * r.rate), player.colour);
        }
        svg.close();
    }
    let entries: Vec<(Key, &str)> = players
        .iter()
        .map(|p| (Key::Dot(p.colour), p.name.as_str()))
        .collect();
    let (lx, ly) = legend_corner(frame);
    legend::draw(svg, lx, ly, &entries, &[]);
}
