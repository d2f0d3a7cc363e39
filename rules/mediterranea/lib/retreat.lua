-- [8.3] Retreats: where the armies of a nation in a combat may go (land
-- areas free of other nations, external areas the nation receives
-- reinforcements in next turn, seas for attackers), and moving them, the
-- last army of a nation carrying its leaders. Raiders go back to where
-- they began their movement [8.2.5], [8.3.4].
local ipairs = ipairs
local nations = require("lib.nations")
local armies = require("lib.armies")
local map = require("lib.map")
local get = vars.get
local M = {}

-- [8.3.1]-[8.3.3] Whether a nation's army may retreat into an area.
local function may_retreat_to(nation, area)
  if not map.in_play(area) then
    return false
  end
  if map.is_land(area) then
    return armies.alone(nation, area)
  elseif map.is_external(area) then
    return nations.receives_in(nation, get("turn") + 1, area)
  end
  return true
end

-- [8.3.6] The areas a defending army may retreat to: adjacent land or
-- external areas.
local function defender_areas(nation, area, into)
  for _, to in ipairs(map.adjacent_land(area)) do
    if may_retreat_to(nation, to) then
      into[to] = true
    end
  end
end

-- [8.3] The legal retreat areas of a nation in a combat: an area legal for
-- any of its armies is legal for all. (Raiders going home: `raid_homes`.)
function M.areas(nation, area, mover)
  local legal = {}
  for _, id in ipairs(armies.at(nation, area)) do
    if nation == mover and armies.began_in(id) ~= area then
      -- [8.3.5] Attackers go to the area they entered last before the
      -- combat.
      local to = armies.came_from(id)
      if to and may_retreat_to(nation, to) then
        legal[to] = true
      end
    else
      defender_areas(nation, area, legal)
    end
  end
  local out = {}
  for to in pairs(legal) do
    out[#out + 1] = to
  end
  return map.sort(out)
end

-- One army of the nation leaves the combat for `to`; the last one takes
-- the nation's leaders along [8.3].
function M.one(nation, area, to)
  local list = armies.at(nation, area)
  local id = list[#list]
  if #list == 1 then
    for _, leader in ipairs(armies.leaders_at(nation, area)) do
      pieces.move(leader, to)
    end
  end
  armies.enter(id, to)
  if game.narrating() then
    game.logf("A %s army retreats from %s to %s.", nation, area, to)
  end
  return id
end

-- [8.3.4] The areas the mover's raiders in an area may go home to: where
-- each began its movement, when that is a legal retreat (board order).
function M.raid_homes(mover, area)
  local seen, out = {}, {}
  for _, id in ipairs(armies.at(mover, area)) do
    local began = armies.began_in(id)
    if began ~= area and not seen[began] and may_retreat_to(mover, began) then
      seen[began] = true
      out[#out + 1] = began
    end
  end
  return map.sort(out)
end

-- One raider goes home to `home`, where it began its movement, marked as
-- having raided [9.3]; the last army of the mover here takes its leaders.
function M.raid_one(mover, area, home)
  for _, id in ipairs(armies.at(mover, area)) do
    if armies.began_in(id) == home then
      if #armies.at(mover, area) == 1 then
        for _, leader in ipairs(armies.leaders_at(mover, area)) do
          pieces.move(leader, home)
        end
      end
      armies.enter(id, home)
      armies.mark_raid(id)
      return
    end
  end
end

-- [8.2.5] Raider retreat after a round: every surviving attacker that can
-- legally go back where it began its movement does.
function M.raid_home(mover, area)
  for _, home in ipairs(M.raid_homes(mover, area)) do
    for _, id in ipairs(armies.at(mover, area)) do
      if armies.began_in(id) == home then
        M.raid_one(mover, area, home)
      end
    end
  end
end

return M
