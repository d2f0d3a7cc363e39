-- The bots' heuristic (not a rule of the game): what the journey looks
-- like it will score, for the greedy bot's choice of options. The greedy
-- bot plays each choice on a few samples of the coming dice and keeps the
-- one whose result evaluates best, so this function is the option policy:
-- an option is worth keeping for later (`KEEP`), so the bot spends one
-- only when the turns it covers promise more than that, and never in
-- friendly waters, where it would protect nothing.
local convoy = require("lib.convoy")
local sheet, S = vars.sheet, convoy.slot
local max, min = math.max, math.min

-- Points a turn in contact waters costs on average (measured with
-- `simulate`), so that choices which play different numbers of turns
-- (an option runs for 1D6 turns before the next choice) compare fairly.
local LOSS_PER_TURN = 0.6

-- What an unused option is worth while enough of the journey remains to
-- use it (about its gain over the turns it runs); it fades over the last
-- `FADE` turns, so the options are spent before port.
local KEEP = 1.5
local FADE = 6

function rules.evaluate(player)
  local score = rules.score()
  local turn, length = sheet[S.turn], sheet[S.length]
  if turn > length then
    return score
  end
  local left = max(0, length - max(turn, sheet[S.friendly] + 1) + 1)
  local value = score - LOSS_PER_TURN * left
  for _, row in ipairs(tables.options) do
    if not sheet[S.used[row.id]] then
      value = value + KEEP * min(1, left / FADE)
    end
  end
  return value
end
