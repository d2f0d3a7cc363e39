-- [6] Reinforcement: removals and replacements [6.3], arrivals [6.2] and
-- population increase [6.4], in the order the faction chooses [6.1]. Each
-- army placed or removed is one step; where the chart's precedence leaves
-- several areas, the faction (or the nation the chart names) chooses.
local ipairs = ipairs
local nations = require("lib.nations")
local armies = require("lib.armies")
local precedence = require("lib.precedence")
local sequence = require("lib.sequence")
local lists = require("lib.lists")
local get, set = vars.get, vars.set
local floor, min = math.floor, math.min
local M = {}

-- The population increase chart's half for the nation [3.1.2].
local function chart_half(nation)
  return tables.population[sequence.status(nation)]
end

-- [6.1] One army for the nation from its counter box; when none is left
-- the army is lost and the nation's marker goes to the overflow box.
local function give(nation)
  local id = armies.from_reserve(nation)
  if id == nil then
    set("pop:" .. nation, chart_half(nation).overflow)
    if game.narrating() then
      game.logf("Every %s army is on the map: the army is lost.", nation)
    end
  end
  return id
end

-- Balance multipliers of the points a nation earns in a turn
-- (`tables.increase_multipliers`, empty in the chart): nation -> turn ->
-- times. Britannia's designer gives the Saxons double increase points in
-- one round; an overlay says the same here in one line of YAML.
local multiplier = {}

function M.prepare()
  for i, row in ipairs(tables.increase_multipliers) do
    local where = string.format("tables.increase_multipliers.%d", i - 1)
    if not nations.in_order(row.nation) then
      error(string.format("%s names %s, which is no nation of tables.turn_order",
        where, tostring(row.nation)), 0)
    end
    if math.type(row.turn) ~= "integer" or type(row.times) ~= "number" or row.times < 0 then
      error(string.format("%s needs a whole turn number and times, a number from 0 "
        .. "(like { nation: Saxons, turn: 12, times: 2 })", where), 0)
    end
    local turns = multiplier[row.nation] or {}
    multiplier[row.nation] = turns
    turns[row.turn] = (turns[row.turn] or 1) * row.times
  end
end

-- [6.4.1] Population increase points the nation earns now: its marker,
-- plus the points of the areas it holds (times the turn's multiplier, if
-- any; the fraction is dropped).
function M.points(nation)
  local half = chart_half(nation)
  local earned = 0
  for _, area in ipairs(armies.areas_of(nation)) do
    earned = earned + (armies.alone(nation, area) and half.alone or half.shared)
  end
  local times = multiplier[nation] and multiplier[nation][get("turn")]
  if times then
    earned = floor(earned * times)
  end
  return (get("pop:" .. nation) or 0) + earned
end

-- The work of a pulse's reinforcement, in order: removals and
-- replacements, then arrivals and population increase in the order chosen.
local function tasks(nation, turn, pulse, population_first)
  local first, arrivals = {}, {}
  for _, entry in ipairs(nations.pulse_entries(nation, turn, pulse)) do
    if entry.remove then
      first[#first + 1] = { kind = "remove", rule = entry.remove }
    end
    if entry.replace then
      first[#first + 1] = { kind = "replace", rule = entry.replace }
    end
    if (entry.armies or 0) > 0 then
      arrivals[#arrivals + 1] = { kind = "arrive", entry = entry }
    end
  end
  local population = pulse == 1 and { kind = "population" } or nil
  if population and population_first then
    first[#first + 1] = population
  end
  for _, t in ipairs(arrivals) do
    first[#first + 1] = t
  end
  if population and not population_first then
    first[#first + 1] = population
  end
  return first, arrivals
end

-- [6.1] Whether the order of arrivals and population increase can change
-- anything: both may bring armies. Points enough for an army now, or
-- arrivals that could reach them: each arriving army can add at most one
-- area held alone, among the arrival areas the chart's precedence leaves
-- that the nation does not hold yet.
local function order_matters(nation, arrivals)
  if #arrivals == 0 then
    return false
  end
  local half = chart_half(nation)
  local points = M.points(nation)
  if points >= half.per_army then
    return true
  end
  local new, seen, arriving = 0, {}, 0
  for _, task in ipairs(arrivals) do
    arriving = arriving + task.entry.armies
    for _, area in ipairs(precedence.best(nations.arrival_areas(task.entry), task.entry.prefer, nation)) do
      if not seen[area] and #armies.at(nation, area) == 0 then
        seen[area] = true
        new = new + 1
      end
    end
  end
  return points + min(new, arriving) * half.alone >= half.per_army
end

-- How many armies a task moves, when it starts.
local function count(task, nation, ctx)
  if task.kind == "arrive" then
    return task.entry.armies
  elseif task.kind == "population" then
    -- [6.4.2] one army per six points; [6.4.3] the rest is recorded.
    local half = chart_half(nation)
    local points = M.points(nation)
    set("pop:" .. nation, points % half.per_army)
    local areas = armies.areas_of(nation)
    ctx.pop_areas = table.concat(areas, "|")
    -- No more than one army per area that held the nation's armies.
    return min(floor(points / half.per_army), #areas)
  end
  local rule = task.rule
  local on_map = #armies.on_map(nation) - (rule.keep or 0)
  if rule.armies == "all" then
    return on_map
  end
  return min(rule.armies, on_map)
end

-- The areas the next army of a task may go to (or leave), after the
-- chart's precedence.
local function candidates(task, nation, ctx)
  if task.kind == "arrive" then
    return precedence.best(nations.arrival_areas(task.entry), task.entry.prefer, nation)
  elseif task.kind == "population" then
    return lists.split(ctx.pop_areas)
  end
  return precedence.best(armies.areas_of(nation), task.rule.prefer, nation)
end

-- One army of a task, in an area.
local function act(task, nation, area, ctx)
  if task.kind == "arrive" or task.kind == "population" then
    local id = give(nation)
    if id then
      armies.enter(id, area)
    end
    if task.kind == "population" then
      ctx.pop_areas = lists.remove(ctx.pop_areas, area)
    end
    return
  end
  -- [6.3] A removal sends an army back to the counter box; a replacement
  -- puts an army of the other nation in its place.
  local id = armies.at(nation, area)[1]
  pieces.move(id, "reserve")
  if task.kind == "replace" then
    local other = give(task.rule.by)
    if other then
      armies.enter(other, area)
    end
  end
  if game.narrating() then
    game.logf("%s army in %s %s.", nation, area,
      task.kind == "replace" and ("replaced by the " .. task.rule.by) or "removed")
  end
end

-- The player who chooses for a task: the faction of the nation the chart
-- names (`chooser`), or the nation's own.
local function chooser(task, nation)
  local rule = task.rule
  return nations.faction(rule and rule.chooser or nation)
end

-- The reinforcement phase. ctx: nation, pulse, task (index), left (armies
-- left in the task), order ("arrivals" or "population" first).
function M.run(frame)
  local ctx = frame.ctx
  local nation, pulse, turn = ctx.nation, ctx.pulse, get("turn")
  if ctx.order == nil then
    local _, arrivals = tasks(nation, turn, pulse, false)
    ctx.order = "arrivals"
    -- [6.1] The faction chooses the order when both may bring armies.
    if pulse == 1 and order_matters(nation, arrivals) then
      return { "arrivals first", "population increase first" }
    end
  end
  local list = tasks(nation, turn, pulse, ctx.order == "population")
  while true do
    local index = ctx.task or 1
    local task = list[index]
    if task == nil then
      return nil
    end
    if ctx.left == nil then
      ctx.left = count(task, nation, ctx)
    end
    local cands = ctx.left > 0 and candidates(task, nation, ctx) or {}
    if #cands == 0 then
      ctx.task, ctx.left = index + 1, nil
    elseif #cands == 1 or (task.kind == "population" and ctx.left >= #cands)
        or (task.kind ~= "remove" and task.kind ~= "replace" and armies.from_reserve(nation) == nil) then
      act(task, nation, cands[1], ctx)
      ctx.left = ctx.left - 1
    else
      frame.player = chooser(task, nation)
      return cands
    end
  end
end

function M.choose(frame, choice)
  local ctx = frame.ctx
  if ctx.left == nil and (choice == "arrivals first" or choice == "population increase first") then
    ctx.order = choice == "arrivals first" and "arrivals" or "population"
    return
  end
  local list = tasks(ctx.nation, get("turn"), ctx.pulse, ctx.order == "population")
  act(list[ctx.task or 1], ctx.nation, choice, ctx)
  ctx.left = ctx.left - 1
  frame.player = nations.faction(ctx.nation)
end

return M
