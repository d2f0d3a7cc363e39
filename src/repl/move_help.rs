//! `help moves`: what each kind of move of the loaded game means and how
//! to type it, in the words of the game's package (game.yaml's
//! `move_help`), so a package from anyone explains its own notation.

use crate::kernel::game::Game;
use crate::untrusted::escape;

/// The width the explanations are wrapped to.
const WIDTH: usize = 76;

/// The game's moves explained, or what a package writes to explain them.
pub fn text(game: &Game) -> String {
    let title = escape(&game.title);
    if game.move_help.is_empty() {
        return format!(
            "{title} does not explain its moves: its package has no move_help in game.yaml \
             (docs/game-yaml.md, \"move_help\"). 'moves' lists the legal actions as they are typed.\n"
        );
    }
    let mut out =
        format!("{title}: the moves, and how to type them (a number from 'moves' works too)\n");
    let width = game
        .move_help
        .iter()
        .map(|h| escape(&h.kind).chars().count())
        .max()
        .unwrap_or(0)
        .min(32);
    for help in &game.move_help {
        let kind = escape(&help.kind);
        out += &format!("  {kind:<width$}  {}\n", escape(&help.typed));
        for line in wrap(&escape(&help.means), WIDTH - 6) {
            out += &format!("      {line}\n");
        }
    }
    out
}

/// Words filled into lines of at most `width` characters (a longer word
/// stands alone on its line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn words_fill_lines_up_to_the_width() {
        assert_eq!(
            wrap("one two three four", 9),
            vec!["one two", "three", "four"]
        );
        assert_eq!(wrap("  ", 9), Vec::<String>::new());
        assert_eq!(wrap("unbreakable x", 5), vec!["unbreakable", "x"]);
    }
}
