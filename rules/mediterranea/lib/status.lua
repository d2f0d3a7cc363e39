-- The REPL's status block (not a rule): the turn on the track, the nation
-- whose nation-turn it is, and each faction's victory points against its
-- target [10.3].
local victory = require("lib.victory")
local M = {}

-- The status as lines: the turn, then each faction's points.
function M.lines()
  local turn, scenario = vars.get("turn"), tables.scenario
  local years = ""
  for _, row in ipairs(tables.turn_track) do
    if row.turn == turn then
      years = " (" .. row.years .. ")"
    end
  end
  local out = {
    string.format("%s: turn %d%s of %d-%d; nation-turn: %s", scenario.name, turn, years,
      scenario.first_turn, scenario.last_turn, vars.get("moving") or "none yet"),
  }
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
