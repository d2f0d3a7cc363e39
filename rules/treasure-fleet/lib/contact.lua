-- Contact (rule 3): after a side has moved, in every box holding ships of
-- both sides, the side that moved finds the enemy with a chance of 60%
-- plus 5% for every ship in the box; then a battle follows at once.
local fleet = require("lib.fleet")
local M = {}
local ipairs = ipairs

-- The boxes holding ships of both sides, in board order.
function M.shared_boxes()
  local sides, here, out = fleet.sides, {}, {}
  for _, side in ipairs(sides) do
    for _, id in ipairs(fleet.on_map(side)) do
      local box = pieces.where(id)
      here[box] = here[box] or {}
      here[box][side] = true
    end
  end
  for _, box in ipairs(fleet.boxes) do
    local in_box = here[box]
    if in_box and in_box[sides[1]] and in_box[sides[2]] then
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
