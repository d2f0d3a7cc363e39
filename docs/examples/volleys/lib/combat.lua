-- Volleys' combat: the modifier of a shot and the shot itself. A module,
-- so an optional rule can change one of its functions for every caller.
local M = {}

-- The modifier of `player`'s next volley: +1 after holding fire.
function M.modifier(player)
  return vars.get_player(player, "steady") or 0
end

-- One volley: returns whether it hit.
function M.volley(player)
  local roll = dice.roll("1D6", player)
  local total = roll + M.modifier(player)
  vars.set_player(player, "steady", 0)
  return total >= tables.volleys.hits_on
end

return M
