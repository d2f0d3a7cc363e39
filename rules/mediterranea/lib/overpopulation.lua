-- [9] Overpopulation, after all combats of the nation-turn (once, even in a
-- double move [9.1]): the nation supports two armies per area it holds
-- alone and one per area it shares [9.2]; the faction removes armies until
-- the rest are supported [9.4], never the only army of an area.
local armies = require("lib.armies")
local map = require("lib.map")
local M = {}

-- [9.2], [9.3] The armies the nation can support and those needing support.
function M.balance(nation)
  local support, needing = 0, 0
  local areas, count = armies.areas_of(nation)
  for i, area in ipairs(areas) do
    support = support + (armies.alone(nation, area) and tables.support.alone or tables.support.shared)
    if map.is_land(area) then
      needing = needing + count[i]
    else
      for _, id in ipairs(armies.at(nation, area)) do
        if not armies.raided(id) then
          needing = needing + 1
        end
      end
    end
  end
  return support, needing, areas, count
end

function M.run(frame)
  local nation = frame.ctx.nation
  local support, needing, areas, count = M.balance(nation)
  if needing <= support then
    return nil
  end
  -- [9.4] Only areas with more than one army may lose one.
  local choices = {}
  for i, area in ipairs(areas) do
    if count[i] > 1 then
      choices[#choices + 1] = area
    end
  end
  if #choices == 1 then
    M.choose(frame, choices[1])
    return true
  end
  return #choices > 0 and choices or nil
end

-- One army of the nation in the area goes back to its counter box.
function M.choose(frame, area)
  local list = armies.at(frame.ctx.nation, area)
  pieces.move(list[#list], "reserve")
  if game.narrating() then
    game.logf("Overpopulation: a %s army in %s is removed.", frame.ctx.nation, area)
  end
end

return M
