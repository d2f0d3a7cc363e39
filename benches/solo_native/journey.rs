//! The solitaire convoy written by hand as plain Rust: the baseline the
//! Lua-scripted solo-convoy is measured against (DESIGN.md, "Performance
//! model").
//!
//! It must play *exactly* the journeys `portolan::sim::play_game` plays
//! with the random bot for the same seed, or the comparison measures two
//! different workloads. So it follows rules/solo-convoy/rules.lua step by
//! step: every roll is a [`DiceExpr`] from the compiled tables, rolled on
//! the same [`GameRng`] stream in the same order (a roll the Lua makes and
//! ignores is made here too), the option decision comes at the same
//! moments with the same choices in the same order, and the random bot is
//! the same stream drawing the same way. Where the Lua keeps a counter in
//! the kernel's variables, this keeps a field; nothing is logged in words.

use super::tables::{Damage, OPTIONS, Opt, Ship, TYPES, Tables};
use portolan::bots::seat_seed;
use portolan::kernel::dice::DiceExpr;
use portolan::kernel::piece::PlayerId;
use portolan::kernel::rng::GameRng;

/// Ships of one type, by what became of them.
#[derive(Clone, Copy, Default)]
pub struct Fleet {
    pub sailed: i64,
    /// Still with the convoy, damaged ones included.
    pub afloat: i64,
    pub damaged: i64,
    pub lost: i64,
    /// Sent home with a carrier halfway: not lost.
    pub home: i64,
}

/// The option in force and the last turn it covers.
#[derive(Clone, Copy)]
pub struct Active {
    pub option: usize,
    pub until: i64,
}

/// One journey in progress: the state the Lua keeps in the kernel's
/// variables, and the game's random stream.
pub struct Journey<'t> {
    t: &'t Tables,
    pub rng: GameRng,
    pub fleets: [Fleet; TYPES],
    pub length: i64,
    pub friendly: i64,
    pub turn: i64,
    /// The contact modifier the last contact roll carries to the next.
    pub next_turn: i64,
    pub interceptions: i64,
    pub halfway_done: bool,
    /// The option in force, until its last turn is over.
    pub active: Option<Active>,
    /// The last turn of the last option taken (kept after it ends, as the
    /// Lua's `option_until` is).
    pub option_until: Option<i64>,
    /// The turn each option was taken on.
    pub used_on: [Option<i64>; OPTIONS],
    /// The options offered at the pending decision, in table order; the
    /// decision's last choice, `no option`, is implied.
    offered: [usize; OPTIONS],
    offered_len: usize,
    /// Decisions taken: the kernel's plies.
    pub plies: u32,
    /// The final score, once the journey is over.
    pub score: Option<i64>,
}

impl<'t> Journey<'t> {
    /// Rolls the convoy, the journey and the friendly waters (the `setup`
    /// phase) and plays on to the first decision.
    pub fn new(t: &'t Tables, seed: u64) -> Journey<'t> {
        let mut rng = GameRng::new(seed);
        let fleets = t.composition.map(|dice| {
            let n = dice.roll(&mut rng);
            Fleet {
                sailed: n,
                afloat: n,
                ..Fleet::default()
            }
        });
        let length = t.length.roll(&mut rng);
        let friendly = t.friendly_waters.roll(&mut rng);
        let mut journey = Journey {
            t,
            rng,
            fleets,
            length,
            friendly,
            turn: 1,
            next_turn: 0,
            interceptions: 0,
            halfway_done: false,
            active: None,
            option_until: None,
            used_on: [None; OPTIONS],
            offered: [0; OPTIONS],
            offered_len: 0,
            plies: 0,
            score: None,
        };
        journey.advance();
        journey
    }

    /// The options offered now, as indices into the options table (the
    /// choice after them is `no option`); empty once the journey is over.
    pub fn offered(&self) -> &[usize] {
        &self.offered[..self.offered_len]
    }

    /// How many choices the pending decision has, `None` once the journey
    /// is over.
    pub fn choices(&self) -> Option<u32> {
        (self.offered_len > 0).then_some(self.offered_len as u32 + 1)
    }

    /// Answers the pending decision with choice `pick` (an offered option,
    /// or `no option` after them), plays that turn and on to the next
    /// decision.
    pub fn choose(&mut self, pick: usize) {
        self.plies += 1;
        if let Some(&option) = self.offered().get(pick) {
            self.take_option(option);
        }
        self.offered_len = 0;
        self.play_turn();
        self.advance();
    }

    /// Turn after turn until the player decides or the convoy arrives
    /// (`phases.journey.run`).
    fn advance(&mut self) {
        while self.turn <= self.length {
            self.start_of_turn();
            if self.offer_options() {
                return;
            }
            self.play_turn();
        }
        self.score = Some(self.final_score());
    }

    /// An option whose last turn is over ends.
    fn start_of_turn(&mut self) {
        if self.active.is_some_and(|a| self.turn > a.until) {
            self.active = None;
        }
    }

    /// Offers the unused options when none is active; whether there is a
    /// decision.
    fn offer_options(&mut self) -> bool {
        if self.active.is_none() {
            for (option, used) in self.used_on.iter().enumerate() {
                if used.is_none() {
                    self.offered[self.offered_len] = option;
                    self.offered_len += 1;
                }
            }
        }
        self.offered_len > 0
    }

    /// Taking an option: it runs for its rolled duration counting this
    /// turn; the evasive route's extra turns are rolled now.
    fn take_option(&mut self, option: usize) {
        let row = &self.t.options[option];
        let turns = self.roll(&row.duration);
        let until = self.turn + turns - 1;
        self.used_on[option] = Some(self.turn);
        self.active = Some(Active { option, until });
        self.option_until = Some(until);
        if let Some(extra) = &row.journey {
            self.length += self.roll(extra);
        }
    }

    /// What the option in force adds to a roll (`field` picks the roll).
    fn option_mod(&self, field: impl Fn(&Opt) -> i64) -> i64 {
        self.active.map_or(0, |a| field(&self.t.options[a.option]))
    }

    fn roll(&mut self, dice: &DiceExpr) -> i64 {
        dice.roll(&mut self.rng)
    }

    /// A turn: friendly waters, or a contact roll and what it brings; then
    /// the covering force's decision once half the journey is behind.
    fn play_turn(&mut self) {
        if self.turn > self.friendly {
            self.contact();
        }
        // Half the journey: turn ⌈length/2⌉ (lengths are positive).
        if !self.halfway_done && self.turn >= (self.length + 1) / 2 {
            self.covering_force_returns();
        }
        self.turn += 1;
    }

    /// Contact: last turn's carried modifier and the option's, replaced by
    /// whatever this roll reads.
    fn contact(&mut self) {
        let t = self.t;
        let modifier = self.next_turn + self.option_mod(|o| o.contact);
        let row = t.contact.read(self.roll(&t.contact.dice) + modifier);
        self.next_turn = row.next_turn;
        if row.contact {
            self.engagement(row.force);
        }
    }

    /// Enemy type, force size, interception, attacks.
    fn engagement(&mut self, contact_force: i64) {
        let t = self.t;
        let enemy = t.enemy.read(self.roll(&t.enemy.dice));
        let modifier = contact_force + enemy.force + self.option_mod(|o| o.force);
        let size = t
            .force_size
            .minimum
            .max(self.roll(&t.force_size.dice) + modifier);
        let left = self.interception(size);
        let attack = enemy.attack + self.option_mod(|o| o.attack);
        for _ in 0..left {
            if let Some(damage) = t.attack.read(self.roll(&t.attack.dice) + attack) {
                self.hit(damage);
            }
        }
    }

    /// The escort's interception rolls; returns the enemies left.
    fn interception(&mut self, mut force: i64) -> i64 {
        let t = &self.t.interception;
        let mut rolls = t.rolls
            + t.per_carrier * self.fleets[self.t.carrier].afloat
            + self.option_mod(|o| o.interception);
        for (fleet, without) in self.fleets.iter().zip(t.without) {
            if fleet.afloat == 0 {
                rolls += without;
            }
        }
        for _ in 0..rolls.max(0) {
            if t.hits.contains(self.roll(&t.dice)) && force > 0 {
                force -= 1;
                self.interceptions += 1;
            }
        }
        force
    }

    /// An attack that hits: the target roll, then the damage.
    fn hit(&mut self, damage: Damage) {
        let Some(ship) = self.target() else { return };
        match damage {
            Damage::Destroyed => self.sink(ship),
            Damage::Damaged => self.damage(ship),
        }
    }

    /// The type a hit falls on, or `None` when none is left (empty sea).
    fn target(&mut self) -> Option<Ship> {
        let t = self.t;
        let modifier = self.option_mod(|o| o.target);
        let row = t.target.read(self.roll(&t.target.dice) + modifier);
        let mut ship = row.ship;
        if self.fleets[ship].afloat == 0
            && let Some(instead) = row.if_none
        {
            ship = instead;
        }
        (self.fleets[ship].afloat > 0).then_some(ship)
    }

    /// One ship sinks; a damaged one goes first.
    fn sink(&mut self, ship: Ship) {
        let fleet = &mut self.fleets[ship];
        if fleet.damaged > 0 {
            fleet.damaged -= 1;
        }
        fleet.afloat -= 1;
        fleet.lost += 1;
    }

    /// A "damaged" result: a first damaged ship, or a second damage roll
    /// that sinks the damaged one or damages another sound one.
    fn damage(&mut self, ship: Ship) {
        if self.fleets[ship].damaged == 0 {
            self.fleets[ship].damaged += 1;
            return;
        }
        let t = &self.t.second_damage;
        if t.sinks.contains(self.roll(&t.dice)) {
            self.sink(ship);
        } else if self.fleets[ship].afloat > self.fleets[ship].damaged {
            self.fleets[ship].damaged += 1;
        }
    }

    /// Halfway, each carrier still with the convoy may go home with an
    /// escort taken from the warship types in order.
    fn covering_force_returns(&mut self) {
        let t = &self.t.covering_force;
        self.halfway_done = true;
        for _ in 0..self.fleets[self.t.carrier].afloat {
            if self.roll(&t.dice) < t.returns_from {
                continue;
            }
            let mut escort = self.roll(&t.escort);
            self.send_home(self.t.carrier, 1);
            for &ship in &t.escort_from {
                let n = escort.min(self.fleets[ship].afloat);
                self.send_home(ship, n);
                escort -= n;
            }
        }
    }

    /// Ships leave the convoy (not losses); damaged ones go first.
    fn send_home(&mut self, ship: Ship, n: i64) {
        let fleet = &mut self.fleets[ship];
        fleet.damaged -= n.min(fleet.damaged);
        fleet.afloat -= n;
        fleet.home += n;
    }

    /// The score: the start, the ships lost, the interceptions, and the
    /// penalty for each type whose every sailed ship was lost.
    fn final_score(&self) -> i64 {
        let s = &self.t.scoring;
        let mut total = s.start + self.interceptions * s.interception;
        for ((fleet, each), all_lost) in self.fleets.iter().zip(s.lost).zip(s.all_lost) {
            total += fleet.lost * each;
            if let Some(penalty) = all_lost
                && fleet.sailed > 0
                && fleet.lost == fleet.sailed
            {
                total += penalty;
            }
        }
        total
    }
}

/// The random bot of the journey's one seat, as `sim::play_game` seats it:
/// its own stream, picking uniformly among the choices.
pub fn bot(seed: u64) -> GameRng {
    GameRng::new(seat_seed(seed, PlayerId(0)))
}

/// Plays one journey with the random bot, as `sim::play_game` does, and
/// writes the bot's picks to `picks` (the kernel's action log).
pub fn play<'t>(t: &'t Tables, seed: u64, picks: &mut Vec<u32>) -> Journey<'t> {
    let mut bot = bot(seed);
    let mut journey = Journey::new(t, seed);
    picks.clear();
    while let Some(choices) = journey.choices() {
        let pick = bot.below(choices);
        picks.push(pick);
        journey.choose(pick as usize);
    }
    journey
}
