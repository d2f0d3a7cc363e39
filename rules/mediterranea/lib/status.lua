-- The REPL's status block (not a rule): the turn on the track, the nation
-- whose nation-turn it is, and each faction's victory points against its
-- target [10.3].
local victory = require("lib.victory")
local M = {}

-- A turn with its years on the track: "turn 4 (500-549)".
local function turn_with_years(turn)
  for _, row in ipairs(tables.turn_track) do
    if row.turn == turn then
      return string.format("turn %d (%s)", turn, row.years)
    end
  end
  return string.format("turn %d", turn)
end

-- The status as lines: the turn, then each faction's points. Once the
-- last turn is over the turn counter stands one past it: the header
-- then names the last turn played and says the game is over.
function M.lines()
  local turn, scenario = vars.get("turn"), tables.scenario
  local span = string.format("of %d-%d", scenario.first_turn, scenario.last_turn)
  local header
  if turn > scenario.last_turn then
    header = string.format("%s: game over after %s, the last %s; final scores:", scenario.name,
      turn_with_years(scenario.last_turn), span)
  else
    header = string.format("%s: %s %s; nation-turn: %s", scenario.name, turn_with_years(turn), span,
      vars.get("moving") or "none yet")
  end
  local out = { header }
  for _, player in ipairs(game.players()) do
    out[#out + 1] = string.format("  %-7s %4d points, target %4d, net %+d", game.player_name(player),
      vars.get_player(player, "vp") or 0, scenario.targets[player] or 0, victory.net(player))
  end
  return out
end

function M.text()
  return table.concat(M.lines(), "\n") .. "\n"
end

return M
