-- Victory (rules 4 and 12): VP count only when ships reach their home
-- port: the treasure aboard, and each captured ship's starting CP. The
-- first side to 500 VP wins; totals are announced every turn.
local fleet = require("lib.fleet")
local M = {}
local attr, set_attr = pieces.attr, pieces.set_attr

function M.vp(side)
  return vars.get_player(side, "vp") or 0
end

-- Ends the game when a side has reached the VP to win.
local function check(side)
  if M.vp(side) >= tables.victory.vp then
    game.finish {
      winner = side,
      reason = string.format("%s brought %d VP home first", game.player_name(side), tables.victory.vp),
      scores = M.scores(),
    }
  end
end

function M.scores()
  local out = {}
  for _, side in ipairs(game.players()) do
    out[side] = M.vp(side)
  end
  return out
end

-- A ship reaches its home port: it docks, unloads its treasure, and a
-- captured ship is sold for its starting CP (it leaves the fleet).
function M.arrive_home(id)
  local side = pieces.owner(id)
  set_attr(id, "docked", true)
  local cargo = attr(id, "cargo")
  if cargo > 0 then
    vars.add_player(side, "vp", cargo)
    set_attr(id, "cargo", 0)
    game.logf("%s unloads %d VP of treasure at home.", fleet.name(id), cargo)
  end
  if attr(id, "prize") then
    local worth = attr(id, "max_cp")
    vars.add_player(side, "vp", worth)
    pieces.move(id, "prizes")
    game.logf("The prize %s is sold at home for %d VP.", fleet.name(id), worth)
  end
  check(side)
end

-- A ship that comes to rest in its own home port by any way (sailing,
-- drifting, docking, back from limbo or a battle, captured there)
-- unloads, and a prize is sold (rule 4).
function M.unload_if_home(id)
  if pieces.where(id) == fleet.home(pieces.owner(id)) then
    M.arrive_home(id)
  end
end

-- The announcement at the end of every turn.
function M.announce()
  if game.narrating() then
    local parts = {}
    for _, side in ipairs(game.players()) do
      parts[#parts + 1] = string.format("%s %d", game.player_name(side), M.vp(side))
    end
    game.logf("Turn %d: VP at home: %s.", vars.get("turn"), table.concat(parts, ", "))
  end
end

-- Past the last turn (a safety net, not in the rule text): more VP wins.
function M.end_of_game()
  local a, b = table.unpack(game.players())
  local winner = M.vp(a) > M.vp(b) and a or M.vp(b) > M.vp(a) and b or nil
  game.finish {
    winner = winner,
    reason = string.format("turn %d was the last: the side with more VP at home wins", vars.get("turn") - 1),
    scores = M.scores(),
  }
end

return M
