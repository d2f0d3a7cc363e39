-- [7] Movement: the moving nation's armies move one at a time, each once a
-- movement phase, with three movement points. A move is two decisions:
-- the area an army leaves, then its destination and, when it may come by
-- more than one way, the area it enters just before it ("AREA > AREA via
-- AREA"): that area is where it would retreat to as an attacker [8.3.5],
-- the only part of a route the rules remember.
local ipairs, pairs = ipairs, pairs
local nations = require("lib.nations")
local armies = require("lib.armies")
local sequence = require("lib.sequence")
local map = require("lib.map")
local lists = require("lib.lists")
local get = vars.get
local pieces_at, kind_of, kinds_at = pieces.at, pieces.kind, pieces.kinds_at
local find, sub = string.find, string.sub
local M = {}

M.END = "end movement"
M.HOLDS = " holds"
M.VIA = " via "

-- What the cost rules read, taken when an army begins to move [7.2.1.1]:
-- the movement chart, the armies in each area (counted when first needed,
-- then kept), the nation's ships this turn, next turn, and whether it is
-- settled [7.2.4]. `room`, when given, is how many areas' counts to make
-- room for at once (a destination listing counts many; the areas to move
-- from, few: plain tables, without the call).
local function situation(nation, room)
  local turn = get("turn")
  local own, total
  if room then
    own, total = table.create(0, room), table.create(0, room)
  else
    own, total = {}, {}
  end
  local is_leader = nations.leader_kinds
  local s = {
    costs = tables.movement,
    nation = nation,
    ships = nations.flag(nation, turn, "ships"),
    next_turn = turn + 1,
    settled = sequence.status(nation) == "settled",
  }
  -- The nation's armies and all armies in an area.
  function s.count(area)
    local t = total[area]
    if t == nil then
      local mine, all = 0, 0
      local kinds = kinds_at(area)
      for k = 1, #kinds do
        local kind = kinds[k]
        if not is_leader[kind] then
          all = all + 1
          if kind == nation then
            mine = mine + 1
          end
        end
      end
      own[area], total[area], t = mine, all, all
    end
    return own[area], t
  end
  return s
end

-- [7.2.1.1], [7.2.1.2] The cost of entering a land area with `left` points.
local function land_cost(s, area, left)
  local share = s.costs.share
  local own, total = s.count(area)
  if own * share[2] >= total * share[1] then
    return 1
  end
  return left > 0 and left or 1
end

-- The cost of crossing an edge into `to` with `left` points, or nil when
-- it may not be crossed [7.2].
local function cost(s, edge, left)
  local to, kind, to_kind = edge.to, edge.kind, edge.to_kind
  if to_kind == "sea" then
    -- [7.2.2] Only a nation with ships enters seas; the Constantinople
    -- strait only while its guard area is vacant or the nation's.
    if not s.ships then
      return nil
    end
    if kind == "guarded_strait" then
      for _, strait in ipairs(tables.guarded_straits) do
        local own, total = s.count(strait.guard)
        if total > 0 and own == 0 then
          return nil
        end
      end
    end
    return s.costs.sea
  elseif to_kind == "external" and not nations.receives_in(s.nation, s.next_turn, to) then
    -- [7.2.3] Only where the nation receives reinforcements next turn.
    return nil
  end
  if kind == "arrow" and not s.ships then
    -- [7.2.1.3] Without ships a crossing arrow costs three points, into an
    -- external area as into a land area.
    return s.costs.arrow_without_ships
  elseif to_kind == "external" then
    -- [7.2.3.1] Every point left.
    return left
  end
  return land_cost(s, to, left)
end

-- Whether an army with `left` points may cross an edge. A land area
-- costs one point or every point left [7.2.1.1], never more than the army
-- has, so its armies need not be counted to know.
local function enterable(s, edge, left)
  if edge.to_kind == "land" and (edge.kind ~= "arrow" or s.ships) then
    return true
  end
  local c = cost(s, edge, left)
  return c ~= nil and c <= left
end

-- Every area an army may reach from `origin`, as board ranks in board
-- order (`map.areas` names them), each with the rank of the first area (in
-- board order) it may enter just before it: an area it can reach with
-- points to spare and leave for the destination. That area is where the
-- army would retreat to as an attacker [8.3.5], so where a combat may
-- follow the player chooses it: there, `via` lists every such area (names,
-- in board order). Ranks, not names, because the listing sorts them and
-- names only those it lists.
--
-- The areas are taken in order of the most points an army can have left
-- there, most first: no step adds points, so every way into an area with
-- more has been taken before it, and each area is taken once, with its
-- best, where the ways out of it are what it offers as the area before.
--
-- A step into a land area (by land, or by an arrow with ships) is always
-- possible and its cost depends on the armies there [7.2.1.1], so it is
-- costed here, only when it may improve on the best so far; any other
-- step is costed by `cost` before it is taken. The walk reads the
-- situation and the map into locals once: it takes every edge of every
-- area it reaches.
local NONE = {}
function M.reach(s, origin)
  local costs, count = s.costs, s.count
  local points, ships, sea = costs.points, s.ships, costs.sea
  local share = costs.share
  local share_own, share_all = share[2], share[1]
  local order, edges_of = map.order_of, map.edges_of
  -- Room for the areas an army with ships may reach, made at once.
  local best, first, destinations = table.create(0, 32), table.create(0, 32), table.create(32)
  local found = 0
  best[origin] = points
  -- The origin counts as seen, before every area: never a destination.
  first[origin] = 0
  local waiting = { [points] = { origin } }
  local via = {}
  for left = points, 1, -1 do
    local areas, i = waiting[left] or NONE, 1
    while areas[i] do
      local area = areas[i]
      i = i + 1
      if best[area] == left then
        local rank = order[area]
        local edges = edges_of[area]
        for e = 1, #edges do
          local edge = edges[e]
          local to, to_kind = edge.to, edge.to_kind
          -- The step's cost when it is not a land step; a land step is
          -- costed below.
          local step, open
          if to_kind == "land" and (ships or edge.kind ~= "arrow") then
            open = true
          elseif to_kind == "sea" and ships and edge.kind ~= "guarded_strait" then
            -- [7.2.2] A sea, as `cost` has it: the most frequent step of
            -- a nation with ships.
            step = sea
            open = sea <= left
          else
            step = cost(s, edge, left)
            open = step ~= nil and step <= left
          end
          if open then
            local earliest = first[to]
            if earliest == nil then
              first[to] = rank
              found = found + 1
              destinations[found] = order[to]
              -- A combat may follow only in a land area holding another
              -- nation's armies (only the moving nation moves in its
              -- phase): elsewhere the way taken does not matter.
              if to_kind == "land" then
                local own, total = count(to)
                if total > own then
                  via[to] = { area }
                end
              end
            else
              if rank < earliest then
                first[to] = rank
              end
              local list = via[to]
              if list then
                list[#list + 1] = area
              end
            end
            -- Only a way that may leave more points than the best so far
            -- is costed.
            local known = best[to]
            if known == nil or known < left then
              if step == nil then
                local own, total = count(to)
                step = own * share_own >= total * share_all and 1 or left
              end
              local rest = left - step
              if known == nil or known < rest then
                best[to] = rest
                if rest > 0 then
                  local queue = waiting[rest]
                  if queue == nil then
                    queue = {}
                    waiting[rest] = queue
                  end
                  queue[#queue + 1] = to
                end
              end
            end
          end
        end
      end
    end
  end
  for _, list in pairs(via) do
    map.sort(list)
  end
  table.sort(destinations)
  return destinations, first, via
end

-- [7.2.4] Whether an army may leave its area: a settled army that is the
-- only army there may not.
local function may_depart(s, area)
  if not s.settled or map.kind_of[area] ~= "land" then
    return true
  end
  local _, total = s.count(area)
  return total > 1
end

-- The areas holding armies of the nation that may still move, in board
-- order: those holding more of its armies than have had their move there.
-- `moved` records the area where each army that has had its move this
-- phase stands ("A|B|A", or nil before the first): the phase's context
-- keeps it, so the kernel saves it with the phase (each army's own mark,
-- `armies.moved`, says the same but is one call an army to read).
local function movers(nation, moved)
  local areas, counts = armies.areas_of(nation)
  if moved == nil then
    return areas
  end
  local done = {}
  for _, area in ipairs(lists.split(moved)) do
    done[area] = (done[area] or 0) + 1
  end
  local out = {}
  for i = 1, #areas do
    local area = areas[i]
    if counts[i] > (done[area] or 0) then
      out[#out + 1] = area
    end
  end
  return out
end

-- The record of `movers` with one more army that has had its move, in
-- `area`.
local function record_move(moved, area)
  return moved == nil and area or moved .. "|" .. area
end

-- Whether an army in the area has anywhere to go (one edge it may cross).
local function may_move(s, area)
  if not may_depart(s, area) then
    return false
  end
  local points = s.costs.points
  local edges = map.edges_of[area]
  for e = 1, #edges do
    if enterable(s, edges[e], points) then
      return true
    end
  end
  return false
end

-- The decisions of the movement phase, in two steps: which area an army
-- moves from ("AREA", or "end movement"), then where it goes ("AREA >
-- AREA", or "AREA holds": that army stays). ctx.from holds the first.
function M.run(frame)
  local ctx = frame.ctx
  local nation = ctx.nation
  if ctx.ended then
    return nil
  end
  local from = ctx.from
  if from then
    local destinations, first, via = M.reach(situation(nation, 16), from)
    local areas = map.areas
    local choices, ways = {}, { "" }
    for k = 1, #destinations do
      local to = areas[destinations[k]]
      local list = via[to]
      if list == nil or #list == 1 then
        choices[#choices + 1] = from .. " > " .. to
        ways[#ways + 1] = to .. "<" .. areas[first[to]]
      else
        for _, p in ipairs(list) do
          choices[#choices + 1] = from .. " > " .. to .. M.VIA .. p
        end
      end
    end
    choices[#choices + 1] = from .. M.HOLDS
    -- The area entered last on the only way to each destination that has
    -- one, for the move chosen.
    ways[#ways + 1] = ""
    ctx.ways = table.concat(ways, "|")
    return choices
  end
  local s = situation(nation)
  local choices = {}
  for _, area in ipairs(movers(nation, ctx.moved)) do
    if may_move(s, area) then
      choices[#choices + 1] = area
    end
  end
  if #choices == 0 then
    return nil
  end
  choices[#choices + 1] = M.END
  return choices
end

-- The army of the nation in an area that moves next: the first (in id
-- order) that has not moved in this phase, as `movers` picks it.
local function mover_in(nation, area)
  local pulse = armies.pulse()
  for _, id in ipairs(pieces_at(area)) do
    if kind_of(id) == nation and not armies.moved(id, pulse) then
      return id
    end
  end
  return nil
end

-- Moves one army: it remembers where it began the phase and the area it
-- entered last before its destination.
function M.move(nation, from, to, before)
  local id = mover_in(nation, from)
  pieces.set_attr(id, "from", from)
  pieces.set_attr(id, "last", before)
  pieces.set_attr(id, "moved", armies.pulse())
  armies.enter(id, to)
end

function M.choose(frame, choice)
  local ctx = frame.ctx
  local nation = ctx.nation
  if choice == M.END then
    ctx.ended = true
    return
  elseif ctx.from == nil then
    ctx.from = choice
    return
  end
  ctx.from = nil
  local ways = ctx.ways
  ctx.ways = nil
  if choice:sub(-#M.HOLDS) == M.HOLDS then
    -- The army stays: it has had its move [7.1].
    local area = choice:sub(1, -#M.HOLDS - 1)
    local id = mover_in(nation, area)
    pieces.set_attr(id, "from", area)
    pieces.set_attr(id, "moved", armies.pulse())
    ctx.moved = record_move(ctx.moved, area)
    return
  end
  -- "FROM > TO" or "FROM > TO via BEFORE", read with plain searches.
  local gt = find(choice, " > ", 1, true)
  local from, to, before = sub(choice, 1, gt - 1), nil, nil
  local via = find(choice, M.VIA, gt + 3, true)
  if via then
    to, before = sub(choice, gt + 3, via - 1), sub(choice, via + #M.VIA)
  else
    to = sub(choice, gt + 3)
    local at = find(ways, "|" .. to .. "<", 1, true) + #to + 2
    before = sub(ways, at, find(ways, "|", at, true) - 1)
  end
  -- The kernel tells the move (`White Gauls moved Neustria -> Wessex`).
  M.move(nation, from, to, before)
  ctx.moved = record_move(ctx.moved, to)
end

return M
