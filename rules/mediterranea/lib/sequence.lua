-- [3] Game sequence, [4] turn sequence and [5] nation-turn sequence: the
-- set-up, the turns of the scenario, and each nation's turn with its double
-- move and leaders. Reinforcement, movement, combat and overpopulation are
-- phases of their own (lib/reinforcement.lua and the others), pushed here.
local nations = require("lib.nations")
local armies = require("lib.armies")
local victory = require("lib.victory")
local map = require("lib.map")
local get, set = vars.get, vars.set
local M = {}

-- [5.1] A nation's status: "settled" or "nomadic" (migrant).
function M.status(nation)
  return get("status:" .. nation) or (nations.starts_nomadic(nation) and "nomadic" or "settled")
end

-- [3.1.1] The set-up chart for the scenario's first turn.
local function setup_chart(turn)
  for _, chart in ipairs(tables.setups) do
    if chart.turn == turn then
      return chart
    end
  end
  error("no set-up chart for turn " .. turn .. " (tables.setups): add one for the scenario's first turn")
end

-- Places `count` armies of a nation in each area of `at` that is in play.
local function place_armies(nation, at)
  for _, area in ipairs(map.areas) do
    local count = at[area]
    if count and map.in_play(area) then
      for _ = 1, count do
        local id = armies.from_reserve(nation)
        if id == nil then
          error("the set-up puts more " .. nation .. " on the map than the nation has armies")
        end
        armies.enter(id, area)
      end
    end
  end
end

-- [3.1] Set-up phase: the armies of the set-up chart, each nation's status
-- as the chart has made it by the first turn, and every population increase
-- marker in its 2 box [3.1.2].
function M.setup()
  local first = tables.scenario.first_turn
  local chart = setup_chart(first)
  set("turn", first)
  local settled = {}
  for _, nation in ipairs(chart.settled or {}) do
    settled[nation] = true
  end
  for _, nation in ipairs(nations.order) do
    local status = nations.starts_nomadic(nation) and "nomadic" or "settled"
    for turn = 1, first - 1 do
      status = nations.status_change(nation, turn) or status
    end
    if settled[nation] then
      status = "settled"
    end
    set("status:" .. nation, status)
    set("pop:" .. nation, tables.population[status].start)
    if chart.armies[nation] then
      place_armies(nation, chart.armies[nation])
    end
  end
  for _, sub in ipairs(chart.substitutes or {}) do
    if nations.available(sub) then
      place_armies(sub.nation, sub.at)
    end
  end
end

-- [4] One turn: every nation's nation-turn in the order of the chart, then
-- the territorial victory awards [4.2]. After the scenario's last turn, the
-- game ends [3.3].
function M.turn(frame)
  local turn = get("turn")
  if turn > tables.scenario.last_turn then
    victory.finish()
    return nil
  end
  local i = frame.ctx.next or 1
  while i <= #nations.order do
    local nation = nations.order[i]
    i = i + 1
    if nations.active(nation, turn) then
      frame.ctx.next = i
      if game.narrating() then
        game.logf("Turn %d: the %s.", turn, nation)
      end
      game.push_phase("nation_turn", nations.faction(nation), { nation = nation, pulse = 1 })
      return true
    end
  end
  victory.territory(turn)
  frame.ctx.next = 1
  set("turn", turn + 1)
  return true
end

-- Sends every leader of the nation on the map (or only those marked P) out
-- of the game.
local function remove_leaders(nation, only_permanent)
  for _, leader in ipairs(nations.leaders(nation)) do
    if not only_permanent or nations.permanent(leader) then
      for _, id in ipairs(armies.on_map(leader)) do
        pieces.remove(id)
      end
    end
  end
end

-- [5.5] The next leader of this pulse still to be placed, or nil.
local function leader_due(nation, turn, pulse)
  for _, entry in ipairs(nations.pulse_entries(nation, turn, pulse)) do
    if entry.leader and armies.from_reserve(entry.leader) then
      return entry.leader
    end
  end
  return nil
end

-- The nation-turn's steps, in order ([5.8]: steps 2 to 6 again for the
-- second pulse of a double move).
local BEGIN, MOVE, LEADERS, COMBAT, AFTER, DONE = 0, 1, 2, 3, 4, 5

-- [5] The nation-turn sequence. The frame's step is where it stands.
function M.nation_turn(frame)
  local ctx = frame.ctx
  local nation, pulse, turn = ctx.nation, ctx.pulse, get("turn")
  local step = frame.step
  if step == BEGIN then
    if pulse == 1 then
      vars.add("nation_turn", 1)
      set("moving", nation)
      -- [5.1] Change of migrant/settled status.
      local status = nations.status_change(nation, turn)
      if status then
        set("status:" .. nation, status)
      end
    end
    -- [5.2] Leader removal, at the start of the nation-turn only: the
    -- leaders [5.7] spares after the first pulse of a double move serve in
    -- the second (that is why [5.7] spares them).
    if pulse == 1 then
      remove_leaders(nation, false)
    end
    -- [5.3] Reinforcement.
    frame.step = MOVE
    game.push_phase("reinforcement", frame.player, { nation = nation, pulse = pulse })
    return true
  elseif step == MOVE then
    -- [5.4] Movement.
    vars.add("pulse", 1)
    -- [10.4] A faction takes part in the game once one of its nations has
    -- an army on the map in its own nation-turn; one that never does may
    -- not win (lib/victory.lua).
    victory.mark_played(nation)
    frame.step = LEADERS
    game.push_phase("movement", frame.player, { nation = nation })
    return true
  elseif step == LEADERS then
    -- [5.5] Leader placement, with an army of the nation.
    local leader = leader_due(nation, turn, pulse)
    while leader do
      local areas = armies.areas_of(nation)
      if #areas == 1 then
        M.place_leader(leader, areas[1])
      elseif #areas == 0 then
        pieces.remove(armies.from_reserve(leader))
      else
        ctx.leader = leader
        local choices = {}
        for i, area in ipairs(areas) do
          choices[i] = leader .. " to " .. area
        end
        return choices
      end
      leader = leader_due(nation, turn, pulse)
    end
    frame.step = COMBAT
    return true
  elseif step == COMBAT then
    -- [5.6] Combat.
    frame.step = AFTER
    game.push_phase("combat_order", frame.player, { nation = nation })
    return true
  elseif step == AFTER then
    local double = nations.flag(nation, turn, "double")
    -- [5.7] Leaders marked P leave, except after the first pulse of a double.
    if not (double and pulse == 1) then
      remove_leaders(nation, true)
    end
    -- [5.8] Second move.
    if double and pulse == 1 then
      ctx.pulse = 2
      frame.step = BEGIN
      return true
    end
    -- [5.9] Overpopulation.
    frame.step = DONE
    game.push_phase("overpopulation", frame.player, { nation = nation })
    return true
  end
  return nil
end

-- [5.5] A leader joins the nation's army in an area.
function M.place_leader(leader, area)
  local id = armies.from_reserve(leader)
  pieces.move(id, area)
  if game.narrating() then
    game.logf("%s takes the field in %s.", leader, area)
  end
end

function M.choose_leader_area(frame, choice)
  local leader = frame.ctx.leader
  M.place_leader(leader, choice:sub(#leader + 5))
  frame.ctx.leader = nil
end

return M
