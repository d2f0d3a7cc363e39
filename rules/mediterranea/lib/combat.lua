-- [8] Combat, in each land area where the moving nation's armies and
-- another nation's armies stand after movement. The players choose the
-- order of combats [8.1]; each combat is fought in rounds: coexistence
-- [8.2.2], shooting [8.2.3], elimination [8.2.4], raider, attacker and
-- defender retreats [8.2.5]-[8.2.7] and [8.3], until one nation is left
-- [8.2.8]. Every decision is made by the player the rule names: the frame's
-- player is set to that faction before its choices are offered.
local ipairs = ipairs
local nations = require("lib.nations")
local armies = require("lib.armies")
local victory = require("lib.victory")
local retreat = require("lib.retreat")
local map = require("lib.map")
local lists = require("lib.lists")
local get, set = vars.get, vars.set
local kind_of = map.kind_of
local pieces_at, kinds_at, kind_of_piece = pieces.at, pieces.kinds_at, pieces.kind
local M = {}

-- Whether an area's combat is over for this phase: fought already in this
-- movement pulse, or resolved by coexistence in this nation-turn [8.2.2].
local function settled_for_now(area)
  return get("fought:" .. area) == armies.pulse() or get("coexist:" .. area) == armies.nation_turn()
end

-- [8] The land areas still to be fought over, and for each non-moving
-- nation the areas it is involved in.
function M.contested(nation)
  local areas, by_nation, others = {}, {}, {}
  for _, area in ipairs(armies.areas_of(nation)) do
    if kind_of[area] == "land" and not armies.alone(nation, area) and not settled_for_now(area) then
      areas[#areas + 1] = area
      for _, other in ipairs((armies.nations_at(area))) do
        if other ~= nation then
          if by_nation[other] == nil then
            by_nation[other] = {}
            others[#others + 1] = other
          end
          local list = by_nation[other]
          list[#list + 1] = area
        end
      end
    end
  end
  return areas, by_nation, others
end

-- [8.1] The order of combats: the moving player names a non-moving nation
-- [8.1.1]; that nation's player picks which of its combats comes first
-- [8.1.2]; again until none is left [8.1.3].
function M.order_run(frame)
  local ctx = frame.ctx
  local nation = ctx.nation
  local areas, by_nation, others = M.contested(nation)
  if #areas == 0 then
    return nil
  end
  local picked = ctx.picked
  ctx.picked = nil
  if picked == nil or by_nation[picked] == nil then
    if #others > 1 then
      return others
    end
    picked = others[1]
  end
  local list = by_nation[picked]
  if #list == 1 then
    game.push_phase("battle", frame.player, { area = list[1], nation = nation })
  else
    game.push_phase("combat_choice", nations.faction(picked), { nation = nation, against = picked })
  end
  return true
end

function M.order_choose(frame, choice)
  frame.ctx.picked = choice
end

-- [8.1.2] The non-moving nation's player picks its next combat.
function M.choice_run(frame)
  if frame.step == 1 then
    return nil
  end
  local _, by_nation = M.contested(frame.ctx.nation)
  return by_nation[frame.ctx.against]
end

function M.choice_choose(frame, choice)
  frame.step = 1
  game.push_phase("battle", nations.faction(frame.ctx.nation), { area = choice, nation = frame.ctx.nation })
end

-- Lists kept in the frame's context as text: "a|b|c" (lib/lists.lua).
local split, contains = lists.split, lists.contains

-- The name of a target army in a choice: its nation alone when it is the
-- nation's only army here; else "NATION army K", the K-th of the nation's
-- armies here to have entered, with " from AREA" for an army that moved in
-- this phase (the area it would retreat to [8.3.5]). Which army falls
-- matters: entry order is firing order in later rounds [8.2.3].
local function army_label(nation, rank, count, id)
  if count == 1 then
    return nation
  end
  local label = nation .. " army " .. rank
  local last = armies.moved(id) and armies.came_from(id)
  return last and label .. " from " .. last or label
end

-- [8.2.3] Whom an army of `shooter` may shoot at, as choices: each army of
-- another nation here (the shooter chooses which is eliminated), or a
-- nation whose armies were all eliminated this round by nations other than
-- the shooter's (for the kill points alone). Returns the labels and, for
-- each, its nation and army (nil for a nation with no army left).
--
-- The area's pieces and their kinds are read once (two calls), not each
-- nation's armies with a call per counter.
function M.targets(ctx, shooter)
  local labels, aims = {}, {}
  local area = ctx.area
  local ids, kinds = pieces_at(area), kinds_at(area)
  for _, nation in ipairs(split(ctx.present)) do
    if nation ~= shooter then
      -- The nation's armies here, in id order (`armies.at`).
      local live = {}
      for i = 1, #ids do
        if kinds[i] == nation then
          live[#live + 1] = ids[i]
        end
      end
      if #live > 1 then
        -- In order of entry, each army's place read once.
        local seq = {}
        for _, id in ipairs(live) do
          seq[id] = armies.seq(id)
        end
        table.sort(live, function(a, b) return seq[a] < seq[b] end)
      end
      if #live > 0 then
        for rank, id in ipairs(live) do
          local label = army_label(nation, rank, #live, id)
          labels[#labels + 1] = label
          aims[label] = { nation = nation, id = id }
        end
      else
        local killers = ctx["killers:" .. nation]
        if killers and not contains(killers, shooter) then
          labels[#labels + 1] = nation
          aims[nation] = { nation = nation }
        end
      end
    end
  end
  return labels, aims
end

-- Whether `area` is in a list of areas.
local function listed(areas, area)
  for i = 1, #areas do
    if areas[i] == area then
      return true
    end
  end
  return false
end

-- [8.2.3.1]-[8.2.3.3] The modifier of a shot. The shooter's leaders are
-- found once (most nations have none on the map), then looked for here
-- and in the adjacent land areas.
function M.modifier(shooter, target, area, mover)
  local c = tables.combat
  local modifier = 0
  local led = armies.leader_areas(shooter)
  if #led == 0 then
    -- No leader on the map: no leader modifier.
  elseif listed(led, area) then
    modifier = c.leader_here
  else
    for _, near in ipairs(map.adjacent_land(area)) do
      if kind_of[near] == "land" and listed(led, near) then
        modifier = c.leader_near
        break
      end
    end
  end
  local fortress = c.fortress
  if fortress and area == fortress.area and mover ~= fortress.nation and target == fortress.nation then
    modifier = modifier + fortress.modifier
  end
  return modifier
end

-- [8.2.3] One shot of an army of `shooter` at the army `victim` of the
-- nation `target`: on a hit, that army is eliminated (back to its counter
-- box); with no victim (the nation's armies here are all gone already) the
-- hit only counts for kill points.
function M.shoot(ctx, shooter, target, victim)
  local c = tables.combat
  -- The shot's line below tells the roll with its modifier and result:
  -- the roll itself is kept out of the log (false), not told twice.
  local roll = dice.roll(c.die, false)
  local modifier = M.modifier(shooter, target, ctx.area, ctx.nation)
  local hit = roll + modifier >= c.hits
  if game.narrating() then
    game.logf("%s army shoots at the %s: %d%+d, %s.", shooter, target, roll, modifier, hit and "a kill" or "a miss")
  end
  if not hit then
    return
  end
  if victim then
    pieces.move(victim, "reserve")
    local killers = ctx["killers:" .. target]
    if not contains(killers, shooter) then
      ctx["killers:" .. target] = (killers and killers .. "|" or "") .. shooter
    end
  end
  local key = "hits:" .. shooter .. ":" .. target
  ctx[key] = (ctx[key] or 0) + 1
end

-- [8.2.8] The end of a round: a nation with no army left here loses its
-- leaders here, and each nation that hit its armies this round scores the
-- kill award for each hit.
local function end_of_round(ctx)
  local present = split(ctx.present)
  for _, victim in ipairs(present) do
    if #armies.at(victim, ctx.area) == 0 then
      for _, leader in ipairs(armies.leaders_at(victim, ctx.area)) do
        pieces.remove(leader)
      end
      for _, shooter in ipairs(present) do
        local hits = ctx["hits:" .. shooter .. ":" .. victim]
        if hits then
          victory.award(shooter, hits * victory.kill_value(shooter, victim), "kills in " .. ctx.area)
        end
      end
    end
  end
  for _, a in ipairs(present) do
    ctx["killers:" .. a] = nil
    for _, b in ipairs(present) do
      ctx["hits:" .. a .. ":" .. b] = nil
    end
  end
end

-- The firing order of a round [8.2.3]: every army here, the last to enter
-- first.
local function firing_order(area)
  local ids, seq = {}, {}
  local here, kinds = pieces_at(area), kinds_at(area)
  local is_leader = nations.leader_kinds
  for i = 1, #here do
    if not is_leader[kinds[i]] then
      local id = here[i]
      ids[#ids + 1] = id
      seq[id] = armies.seq(id)
    end
  end
  table.sort(ids, function(a, b) return seq[a] > seq[b] end)
  return ids
end

-- The stages of a combat, kept in ctx.stage.
local ROUND, COEXIST_MOVER, COEXIST_OTHER, SHOOT, AFTER, RETREAT, RAID_CHOICE =
  "round", "coexist mover", "coexist other", "shoot", "after", "retreat", "raid choice"

local RAID_HOME = "raid home to "

local function finish(ctx)
  set("fought:" .. ctx.area, armies.pulse())
  return nil
end

-- Whether the mover attacks as raiders this turn [8.2.5].
local function raiders(ctx)
  return ctx.rounds and ctx.rounds > 0 and nations.flag(ctx.nation, get("turn"), "raiders")
end

-- [8.2] The combat sequence, one decision at a time.
function M.battle_run(frame)
  local ctx = frame.ctx
  local area, mover = ctx.area, ctx.nation
  while true do
    local stage = ctx.stage or ROUND
    if stage == COEXIST_OTHER then
      -- The other nation answers the mover's offer.
      frame.player = nations.faction(ctx.other)
      return { "coexist", "fight" }
    elseif stage == "coexisting" then
      return nil
    elseif stage == "over" then
      return finish(ctx)
    end
    if stage == ROUND then
      local present, count = armies.nations_at(area)
      if #present <= 1 or count[mover] == nil then
        -- [8.2.4] The combat is over; each surviving raider may still go
        -- home, one army at a time ("raid home to AREA"), or the rest stay.
        local homes = count[mover] and raiders(ctx) and retreat.raid_homes(mover, area) or {}
        if #homes > 0 then
          ctx.stage = RAID_CHOICE
          frame.player = nations.faction(mover)
          local choices = {}
          for i, home in ipairs(homes) do
            choices[i] = RAID_HOME .. home
          end
          choices[#choices + 1] = "stay"
          return choices
        end
        return finish(ctx)
      end
      ctx.present = table.concat(present, "|")
      -- [8.2.2] Coexistence: one army of the mover and one of one other nation.
      if #present == 2 and count[present[1]] == 1 and count[present[2]] == 1 then
        local other = present[1] == mover and present[2] or present[1]
        ctx.other = other
        local id = armies.at(mover, area)[1]
        frame.player = nations.faction(mover)
        if armies.began_in(id) == area then
          -- The other nation must offer: the mover alone decides.
          ctx.stage = COEXIST_OTHER
          return { "coexist", "fight" }
        end
        ctx.stage = COEXIST_MOVER
        return { "offer to coexist", "fight" }
      end
      stage = SHOOT
      ctx.stage = SHOOT
    end
    if stage == SHOOT then
      if ctx.order == nil then
        local ids = firing_order(area)
        for i, id in ipairs(ids) do
          ids[i] = tostring(id)
        end
        ctx.order = table.concat(ids, "|")
        ctx.shot = 0
      end
      -- The shots taken so far, kept in a local and written back once.
      local order, first = split(ctx.order), ctx.shot
      local shot = first
      while shot < #order do
        local id = tonumber(order[shot + 1])
        local shooter = kind_of_piece(id)
        local targets, aims = M.targets(ctx, shooter)
        if #targets > 1 then
          if shot ~= first then
            ctx.shot = shot
          end
          frame.player = nations.faction(shooter)
          return targets
        end
        shot = shot + 1
        if #targets == 1 then
          local aim = aims[targets[1]]
          M.shoot(ctx, shooter, aim.nation, aim.id)
        end
      end
      end_of_round(ctx)
      ctx.order, ctx.shot = nil, nil
      ctx.rounds = (ctx.rounds or 0) + 1
      ctx.stage = AFTER
      stage = AFTER
    end
    if stage == AFTER then
      local present, count = armies.nations_at(area)
      if #present <= 1 or count[mover] == nil then
        ctx.stage = ROUND
      elseif raiders(ctx) then
        -- [8.2.5] Raiders go home and the combat ends.
        retreat.raid_home(ctx.nation, ctx.area)
        return finish(ctx)
      else
        -- [8.2.6], [8.2.7] The attacker, then each defender, may retreat.
        ctx.stage = RETREAT
        local order = { mover }
        for _, nation in ipairs(present) do
          if nation ~= mover then
            order[#order + 1] = nation
          end
        end
        ctx.retreaters = table.concat(order, "|")
        ctx.who = 1
      end
    end
    if ctx.stage == RETREAT then
      local order = split(ctx.retreaters)
      while ctx.who <= #order do
        local nation = order[ctx.who]
        local legal = #armies.at(nation, area) > 0 and retreat.areas(nation, area, mover) or {}
        if #legal > 0 then
          local choices = {}
          for i, to in ipairs(legal) do
            choices[i] = "retreat to " .. to
          end
          choices[#choices + 1] = "hold"
          frame.player = nations.faction(nation)
          return choices
        end
        ctx.who = ctx.who + 1
      end
      local present = armies.nations_at(area)
      if #present <= 1 then
        -- [8.2.7] Every defender retreated (or the attackers did).
        return finish(ctx)
      end
      -- [8.2.8] The next round.
      ctx.stage = ROUND
    end
  end
end

function M.battle_choose(frame, choice)
  local ctx = frame.ctx
  local stage = ctx.stage
  if stage == COEXIST_MOVER then
    ctx.stage = choice == "fight" and SHOOT or COEXIST_OTHER
  elseif stage == COEXIST_OTHER then
    if choice == "coexist" then
      set("coexist:" .. ctx.area, armies.nation_turn())
      ctx.stage = "coexisting"
      if game.narrating() then
        game.logf("The %s and the %s coexist in %s.", ctx.nation, ctx.other, ctx.area)
      end
    else
      ctx.stage = SHOOT
    end
  elseif stage == SHOOT then
    local id = tonumber(split(ctx.order)[ctx.shot + 1])
    local shooter = kind_of_piece(id)
    local _, aims = M.targets(ctx, shooter)
    local aim = aims[choice]
    ctx.shot = ctx.shot + 1
    M.shoot(ctx, shooter, aim.nation, aim.id)
  elseif stage == RAID_CHOICE then
    if choice == "stay" then
      ctx.stage = "over"
    else
      retreat.raid_one(ctx.nation, ctx.area, choice:sub(#RAID_HOME + 1))
      -- Asked again for the raiders left (the round stage finds the
      -- combat over).
      ctx.stage = ROUND
    end
  elseif stage == RETREAT then
    local nation = split(ctx.retreaters)[ctx.who]
    if choice == "hold" then
      ctx.who = ctx.who + 1
    else
      retreat.one(nation, ctx.area, choice:sub(#"retreat to " + 1))
      if nation == ctx.nation and #armies.at(nation, ctx.area) == 0 then
        -- [8.2.6] Every attacking army retreated: the combat ends.
        ctx.stage = "over"
      end
    end
  end
end

return M
