-- [7] Movement: the moving nation's armies move one at a time, each once a
-- movement phase, with three movement points. A decision is one army's
-- move, "AREA > AREA", or "end movement"; when the area entered last before
-- the destination could differ (it is where an attacker retreats [8.3.5]),
-- the choice names it: "AREA > AREA (from AREA)".
local nations = require("lib.nations")
local armies = require("lib.armies")
local sequence = require("lib.sequence")
local map = require("lib.map")
local get = vars.get
local M = {}

M.END = "end movement"

-- What the cost rules read, taken once when an army begins to move
-- [7.2.1.1]: the census, the nation's ships this turn, and next turn.
local function situation(nation)
  local counts, totals = armies.census()
  local turn = get("turn")
  return {
    nation = nation,
    counts = counts,
    totals = totals,
    ships = nations.flag(nation, turn, "ships"),
    next_turn = turn + 1,
  }
end

-- [7.2.1.1], [7.2.1.2] The cost of entering a land area with `left` points.
local function land_cost(s, area, left)
  local share = tables.movement.share
  local here = s.counts[area]
  local own = here and here[s.nation] or 0
  local total = s.totals[area] or 0
  if own * share[2] >= total * share[1] then
    return 1
  end
  return left > 0 and left or 1
end

-- The cost of crossing an edge into `to` with `left` points, or nil when
-- it may not be crossed [7.2].
local function cost(s, from, edge, left)
  local to, kind = edge.to, edge.kind
  if not map.in_play(to) then
    return nil
  end
  local to_kind = map.kind(to)
  if to_kind == "sea" then
    -- [7.2.2] Only a nation with ships enters seas; the Constantinople
    -- strait only while its guard area is vacant or the nation's.
    if not s.ships then
      return nil
    end
    if kind == "guarded_strait" then
      for _, strait in ipairs(tables.guarded_straits) do
        local here = s.counts[strait.guard]
        if here and not here[s.nation] then
          return nil
        end
      end
    end
    return tables.movement.sea
  elseif to_kind == "external" then
    -- [7.2.3] Only where the nation receives reinforcements next turn.
    if not nations.receives_in(s.nation, s.next_turn, to) then
      return nil
    end
    return left
  end
  if kind == "arrow" and not s.ships then
    -- [7.2.1.3] Without ships a crossing arrow costs three points.
    return tables.movement.arrow_without_ships
  end
  return land_cost(s, to, left)
end

-- Every area an army may reach from `origin`, each with the set of areas
-- it may have entered just before it.
function M.reach(s, origin)
  local points = tables.movement.points
  local seen, queue, head, before = {}, { { origin, points } }, 1, {}
  seen[origin .. "|" .. points] = true
  while queue[head] do
    local area, left = queue[head][1], queue[head][2]
    head = head + 1
    for _, edge in ipairs(map.edges(area)) do
      local c = cost(s, area, edge, left)
      if c and c <= left then
        local to, rest = edge.to, left - c
        if to ~= origin then
          local set = before[to] or {}
          before[to] = set
          set[area] = true
        end
        local key = to .. "|" .. rest
        if rest > 0 and not seen[key] then
          seen[key] = true
          queue[#queue + 1] = { to, rest }
        end
      end
    end
  end
  return before
end

-- [7.2.4] Whether an army may leave its area: a settled army that is the
-- only army there may not.
local function may_depart(s, area)
  return sequence.status(s.nation) ~= "settled" or not map.is_land(area) or (s.totals[area] or 0) > 1
end

-- The armies of the nation that may still move, by area.
local function movers(nation)
  local by_area, areas = {}, {}
  for _, id in ipairs(armies.on_map(nation)) do
    if not armies.moved(id) then
      local area = pieces.place(id)
      if by_area[area] == nil then
        by_area[area] = id
        areas[#areas + 1] = area
      end
    end
  end
  return map.sort(areas), by_area
end

-- The decisions of the movement phase.
function M.run(frame)
  local nation = frame.ctx.nation
  local areas = movers(nation)
  if frame.ctx.ended or #areas == 0 then
    return nil
  end
  local s = situation(nation)
  local choices = {}
  for _, area in ipairs(areas) do
    if may_depart(s, area) then
      local before = M.reach(s, area)
      for _, to in ipairs(map.areas) do
        local set = before[to]
        if set then
          local list = {}
          for p in pairs(set) do
            list[#list + 1] = p
          end
          if #list == 1 then
            choices[#choices + 1] = area .. " > " .. to
          else
            for _, p in ipairs(map.sort(list)) do
              choices[#choices + 1] = area .. " > " .. to .. " (from " .. p .. ")"
            end
          end
        end
      end
    end
  end
  if #choices == 0 then
    return nil
  end
  choices[#choices + 1] = M.END
  return choices
end

-- Moves one army: it remembers where it began the phase and the area it
-- entered last before its destination.
function M.move(nation, from, to, before)
  local _, by_area = movers(nation)
  local id = by_area[from]
  pieces.set_attr(id, "from", from)
  pieces.set_attr(id, "last", before)
  pieces.set_attr(id, "moved", armies.pulse())
  armies.enter(id, to)
end

function M.choose(frame, choice)
  if choice == M.END then
    frame.ctx.ended = true
    return
  end
  local nation = frame.ctx.nation
  local from, to, before = choice:match("^(.-) > (.-) %(from (.-)%)$")
  if from == nil then
    from, to = choice:match("^(.-) > (.-)$")
    before = next(M.reach(situation(nation), from)[to])
  end
  if game.narrating() then
    game.logf("%s army: %s > %s.", nation, from, to)
  end
  M.move(nation, from, to, before)
end

return M
