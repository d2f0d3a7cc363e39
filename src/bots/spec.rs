//! Bot specs: the words that name a bot and its budget, as a seat, the
//! REPL's `seat` command and `simulate --bots` write them.

use std::time::Duration;

/// The forms a spec may take, for error messages and help.
pub const FORMS: &str = "random, greedy, ismcts:ITERATIONS (ismcts:2000) or ismcts:TIME a \
     decision (ismcts:100ms, ismcts:1s)";

/// What a bare `ismcts` means where a person waits for the bot (the REPL
/// and `play --seat`): a second a decision, so a seat named without a
/// budget never stalls the game. `simulate` still asks for a budget, so
/// a balance run says what it measured.
pub const INTERACTIVE_SEARCH: &str = "ismcts:1s";

/// The largest budgets a spec may ask for. A decision at these takes
/// seconds to a minute; a bot named by a save or a command line must not
/// be able to stall a session for hours.
const MAX_ITERATIONS: u32 = 100_000;
const MAX_MILLISECONDS: u32 = 60_000;

/// A parsed bot spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    Random,
    Greedy,
    Ismcts(Budget),
}

/// How long a search bot thinks about each decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations: the same decisions on any machine.
    Iterations(u32),
    /// Wall-clock time: decisions depend on the machine's speed and load.
    Time(Duration),
}

impl Spec {
    /// Whether the bot plays on samples of what its seat cannot see (a
    /// random bot looks at nothing).
    pub fn samples(&self) -> bool {
        !matches!(self, Spec::Random)
    }

    pub fn parse(spec: &str) -> Result<Spec, String> {
        let bad = |why: &str| format!("bad bot '{spec}': {why} (bots: {FORMS})");
        match spec.split_once(':') {
            None => match spec {
                "random" => Ok(Spec::Random),
                "greedy" => Ok(Spec::Greedy),
                "ismcts" => Err(bad("ismcts needs a budget")),
                _ => Err(bad("no such bot")),
            },
            Some(("ismcts", budget)) => {
                Budget::parse(budget).map(Spec::Ismcts).map_err(|e| bad(&e))
            }
            Some(("random" | "greedy", _)) => Err(bad("this bot takes no budget")),
            Some(_) => Err(bad("no such bot")),
        }
    }
}

impl Budget {
    fn parse(text: &str) -> Result<Budget, String> {
        let (digits, scale) = if let Some(d) = text.strip_suffix("ms") {
            (d, Some(1))
        } else if let Some(d) = text.strip_suffix('s') {
            (d, Some(1000))
        } else {
            (text, None)
        };
        let n: u32 = digits
            .parse()
            .map_err(|_| format!("'{text}' is not a budget"))?;
        let time = scale.is_some();
        let n = n.saturating_mul(scale.unwrap_or(1));
        if n == 0 {
            return Err("the budget must be above zero".into());
        }
        let (most, unit) = if time {
            (MAX_MILLISECONDS, "ms")
        } else {
            (MAX_ITERATIONS, " iterations")
        };
        if n > most {
            return Err(format!("the budget is at most {most}{unit} a decision"));
        }
        Ok(if time {
            Budget::Time(Duration::from_millis(u64::from(n)))
        } else {
            Budget::Iterations(n)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(Spec::parse("random"), Ok(Spec::Random));
        assert_eq!(Spec::parse("greedy"), Ok(Spec::Greedy));
        assert_eq!(
            Spec::parse("ismcts:2000"),
            Ok(Spec::Ismcts(Budget::Iterations(2000)))
        );
        assert_eq!(
            Spec::parse("ismcts:100ms"),
            Ok(Spec::Ismcts(Budget::Time(Duration::from_millis(100))))
        );
        assert_eq!(
            Spec::parse("ismcts:2s"),
            Ok(Spec::Ismcts(Budget::Time(Duration::from_secs(2))))
        );
        assert!(Spec::parse(INTERACTIVE_SEARCH).is_ok());
    }

    #[test]
    fn bad_specs_say_why_and_list_the_forms() {
        for (spec, why) in [
            ("minimax", "no such bot"),
            ("ismcts", "needs a budget"),
            ("ismcts:0", "above zero"),
            ("ismcts:fast", "'fast' is not a budget"),
            ("ismcts:10m", "'10m' is not a budget"),
            ("ismcts:61s", "at most 60000ms"),
            ("greedy:3", "takes no budget"),
            ("ismcts:100001", "at most 100000 iterations"),
            ("ismcts:60001ms", "at most 60000ms"),
        ] {
            let e = Spec::parse(spec).unwrap_err();
            assert!(e.contains(why) && e.contains("ismcts:100ms"), "{spec}: {e}");
        }
    }
}
