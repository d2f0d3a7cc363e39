-- Contact (rule 3): after a side has moved, in every box holding ships of
-- both sides, the side that moved finds the enemy with a chance of 60%
-- plus 5% for every ship in the box; then a battle follows at once.
local fleet = require("lib.fleet")
local M = {}

-- The boxes holding ships of both sides, in board order.
function M.shared_boxes()
  local sides, out = {}, {}
  for _, side in ipairs(game.players()) do
    for _, id in ipairs(fleet.on_map(side)) do
      local box = pieces.where(id)
      sides[box] = sides[box] or {}
      sides[box][side] = true
    end
  end
  for _, box in ipairs(fleet.boxes) do
    local here = sides[box]
    if here and here[game.players()[1]] and here[game.players()[2]] then
      out[#out + 1] = box
    end
  end
  return out
end

-- The chance in percent to find the enemy in a box.
function M.chance(box)
  local t = tables.contact
  return math.min(t.max, t.base + t.per_ship * #pieces.at(box))
end

-- Whether the attacker finds the enemy in a box.
function M.roll(box)
  return dice.roll("D100", "contact at " .. box) <= M.chance(box)
end

return M
