//! `dice.roll_secret`: a roll only one player may see, such as treasure
//! loaded into a hold the enemy must not count. It draws from the game's
//! stream exactly as `dice.roll` does (forced faces included), but its
//! narration is a log line addressed to that player alone, which views
//! withhold from the others.

use super::native::Native;
use super::player_arg;
use crate::kernel::event::Event;
use crate::kernel::piece::player_bit;

/// `dice.roll_secret(notation, player [, why])`: the total.
pub static ROLL_SECRET: Native = Native {
    name: "dice.roll_secret",
    call: |link, a, out| {
        let dice = link.dice(a.str(1)?)?;
        let (player, why) = (a.str(2)?, a.opt_str(3)?);
        link.with_state(|g, s| {
            let to = player_bit(player_arg(g, player)?);
            if link.narrating() {
                let roll = dice.roll_detailed(&mut s.rng);
                let faces: Vec<String> = roll.dice.iter().map(u32::to_string).collect();
                let label = why.map(|w| format!("{w}: ")).unwrap_or_default();
                s.record(|| Event::Text {
                    text: format!(
                        "{label}{dice} rolled {} = {} (seen by you only)",
                        faces.join("+"),
                        roll.total
                    ),
                    to,
                });
                out.int(roll.total);
            } else {
                out.int(dice.roll(&mut s.rng));
            }
            Ok(())
        })
    },
};
