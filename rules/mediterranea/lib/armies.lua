-- Armies on the map: who is where, in what order they came, and the small
-- marks the rules need (the area an army began its movement in [8.3.4], the
-- area it entered before [8.3.5], whether it raided [9.3]). Everything lives
-- in the kernel: piece attributes and game variables.
local ipairs = ipairs
local nations = require("lib.nations")
local map = require("lib.map")
local M = {}
local list, places, pieces_at, kind_of, kinds_at =
  pieces.list, pieces.places, pieces.at, pieces.kind, pieces.kinds_at
local place, attr, set_attr = pieces.where, pieces.attr, pieces.set_attr
local get = vars.get
-- leader kind -> its nation (nations.leader_kinds): what tells a leader
-- from an army, read for every counter these lists look at.
local leader_of = nations.leader_kinds

-- The nation's armies in an area (ids, in id order): read from the
-- area's own pieces, which the kernel indexes.
function M.at(nation, area)
  local out = {}
  for _, id in ipairs(pieces_at(area)) do
    if kind_of(id) == nation then
      out[#out + 1] = id
    end
  end
  return out
end

-- Every army of the nation on the map (or every counter of a leader's
-- kind). A nation's counters are its faction's pieces: naming the owner
-- lets the kernel look at those only.
function M.on_map(nation)
  return list { owner = nations.faction(nation), kind = nation, on_board = true }
end

-- The areas holding armies of the nation, in board order, and how many
-- are in each (a second list, area by area), asked of the kernel in one
-- call.
function M.areas_of(nation)
  return places { owner = nations.faction(nation), kind = nation, on_board = true }
end

-- The nations with armies in an area, in turn order, and their counts.
function M.nations_at(area)
  local count, out = {}, {}
  for _, nation in ipairs(kinds_at(area)) do
    if not leader_of[nation] then
      local n = count[nation]
      if n == nil then
        out[#out + 1] = nation
        n = 0
      end
      count[nation] = n + 1
    end
  end
  return nations.sort(out), count
end

-- Whether no army of another nation is in an area (cheaper than
-- `nations_at` where only that matters).
function M.alone(nation, area)
  for _, other in ipairs(kinds_at(area)) do
    if other ~= nation and not leader_of[other] then
      return false
    end
  end
  return true
end

-- The nation's leaders in an area (ids, in id order): read from the
-- area's own pieces, like `at`.
function M.leaders_at(nation, area)
  local out = {}
  for _, id in ipairs(pieces_at(area)) do
    if leader_of[kind_of(id)] == nation then
      out[#out + 1] = id
    end
  end
  return out
end

-- Whether the nation has an army in an area, and whether it is alone
-- there (no army of another nation): what a territory award asks [4.2].
function M.holds(nation, area)
  local held, alone = false, true
  for _, kind in ipairs(kinds_at(area)) do
    if kind == nation then
      held = true
    elseif not leader_of[kind] then
      alone = false
    end
  end
  return held, alone
end

-- The areas where the nation's leaders stand (none for a nation without
-- leaders), in one call: a shot's modifier looks for them in its area and
-- each adjacent land area [8.2.3.1], which took a call an area.
local NONE = {}
function M.leader_areas(nation)
  local kinds = nations.leaders(nation)
  if #kinds == 0 then
    return NONE
  end
  return (places { owner = nations.faction(nation), kind = kinds, on_board = true })
end

-- An army enters an area: it takes the next place in the order of entry
-- that decides who shoots first [8.2.3], one after the latest of the
-- counters already there. Only the armies of one area are ever compared,
-- and every army there entered it before this one, so the order is the
-- one a count kept for the whole game gave; it is read from the area, not
-- kept in a game variable that every move wrote (which a bot that weighs
-- each move on a copy of the game copied whole for each).
function M.enter(id, area)
  local latest = 0
  for _, other in ipairs(pieces_at(area)) do
    local seq = attr(other, "seq")
    if seq and seq > latest then
      latest = seq
    end
  end
  pieces.move(id, area)
  set_attr(id, "seq", latest + 1)
end

-- The order an army entered its area (higher: later).
function M.seq(id)
  return attr(id, "seq") or 0
end

-- A counter of the nation (or of a leader) from the counter box, or nil
-- when every one is on the map [6.1].
function M.from_reserve(nation)
  return list { owner = nations.faction(nation), kind = nation, at = "reserve" }[1]
end

-- The stamp of the current movement phase (one per pulse) and nation-turn.
function M.pulse() return get("pulse") or 0 end
function M.nation_turn() return get("nation_turn") or 0 end

-- Whether the army moved in this movement phase (`pulse`, when the caller
-- has read it already), and the area it began the phase in (where it
-- stands if it did not move) [8.3.4].
function M.moved(id, pulse)
  return attr(id, "moved") == (pulse or M.pulse())
end
function M.began_in(id)
  if M.moved(id) then
    return attr(id, "from")
  end
  return place(id)
end

-- The area the army entered before its current one, this phase [8.3.5].
function M.came_from(id)
  return attr(id, "last")
end

-- Raids of [9.3]: marked with the nation-turn in which they happened.
function M.mark_raid(id)
  set_attr(id, "raided", M.nation_turn())
end
function M.raided(id)
  return attr(id, "raided") == M.nation_turn()
end

return M
