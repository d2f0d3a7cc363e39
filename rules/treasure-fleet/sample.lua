-- The search bots' sampler (not a rule). A ship's class and CP are its
-- owner's secret until a battle shows them (rule 11), so in a sample for
-- `player` the kernel blanks the enemy's `cp` and `max_cp` (private
-- attributes). This deals them back as `player` may believe them: what
-- the last battle showed (`known_cp`, `known_max_cp`), and for a ship
-- never seen, a class dealt at random from those the enemy fields and
-- has not shown, at full CP (a ship never in battle was never damaged).
local fleet = require("lib.fleet")
local attr, set_attr = pieces.attr, pieces.set_attr

-- The CP of the classes of `side`'s ships that no battle has shown yet,
-- one entry a ship.
local function unseen_classes(side)
  local left = {}
  for _, class in ipairs(tables.classes) do
    for _ = 1, class.count do
      left[#left + 1] = class.cp
    end
  end
  for _, id in ipairs(pieces.all()) do
    local shown = attr(id, "known_max_cp")
    if shown and attr(id, "origin") == side then
      for i, cp in ipairs(left) do
        if cp == shown then
          table.remove(left, i)
          break
        end
      end
    end
  end
  return left
end

function rules.sample(player)
  local enemy = fleet.enemy(player)
  local left
  for _, id in ipairs(pieces.list { owner = enemy }) do
    if attr(id, "name") and attr(id, "cp") == nil then
      local max_cp, cp = attr(id, "known_max_cp"), attr(id, "known_cp")
      if not max_cp then
        left = left or unseen_classes(attr(id, "origin"))
        max_cp = table.remove(left, dice.roll("1D" .. #left, "an unseen class"))
        cp = max_cp
      end
      set_attr(id, "max_cp", max_cp)
      set_attr(id, "cp", cp)
    end
  end
end
