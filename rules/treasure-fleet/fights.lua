-- Treasure Fleet: the tactical battle as a phase (rules 9 and 10). The
-- battle's geometry and procedures are lib/battle.lua; this file runs
-- them in the rule's sequence and asks the players.
local fleet = require("lib.fleet")
local battle = require("lib.battle")
local victory = require("lib.victory")
local ipairs, attr, set_attr = ipairs, pieces.attr, pieces.set_attr

-- Each stage of a battle: set-up, drawing activation cards, the active
-- side's movement, the stationary side's fire, the active side's fire or
-- boarding, and the winner's share of a prize's treasure.
local fights = {}

function fights.setup(ctx)
  battle.set_up(ctx.box, ctx.attacker)
  ctx.defender = fleet.enemy(ctx.attacker)
  ctx.wind = dice.roll("1D8", "wind direction")
  game.logf("Battle at %s: the wind blows from the %s.", fleet.place(ctx.box), battle.HEADINGS[ctx.wind])
  ctx.round = 1
  ctx.card = 0
  ctx.stage = "draw"
end

-- A fresh pass through the activation deck, or the end of the battle.
local function new_round(ctx)
  ctx.round = ctx.round + 1
  if ctx.round > tables.battle.rounds then
    return false
  end
  ctx.left_attacker, ctx.left_defender = nil, nil
  return true
end

function fights.draw(ctx)
  local per_side = tables.battle.cards_per_side
  local a, d = ctx.left_attacker or per_side, ctx.left_defender or per_side
  if a + d == 0 then
    if not new_round(ctx) then
      return "over"
    end
    a, d = per_side, per_side
  end
  local drawn = dice.roll("1D" .. (a + d), "activation card")
  if drawn <= a then
    ctx.active, a = ctx.attacker, a - 1
  else
    ctx.active, d = ctx.defender, d - 1
  end
  ctx.left_attacker, ctx.left_defender = a, d
  ctx.card = ctx.card + 1
  game.logf("%s's card: %s moves.", game.player_name(ctx.active), game.player_name(ctx.active))
  -- Docked ships of the active side try to get under way (9b).
  for _, id in ipairs(battle.ships(ctx.active)) do
    if attr(id, "moored") then
      local chance = fleet.fraction(attr(id, "cp"), tables.battle.under_way)
      if dice.roll("D100", fleet.name(id) .. " gets under way") <= chance then
        set_attr(id, "moored", false)
        game.logf("%s gets under way.", fleet.name(id))
      end
    end
  end
  ctx.stamp = (ctx.stamp or 0) + 1
  ctx.stage = "move"
end

-- The ships of a side that may still act in this stage, in id order:
-- under way (on the battle board, as battle.ships are, and not moored),
-- not yet acted in it, and passing `can`.
local function ready_ships(ctx, side, can)
  local out = {}
  for _, id in ipairs(battle.ships(side)) do
    if not attr(id, "moored") and attr(id, "acted") ~= ctx.stamp and can(id) then
      out[#out + 1] = id
    end
  end
  return out
end

local function next_stage(ctx, stage)
  ctx.stamp = ctx.stamp + 1
  ctx.stage = stage
end

-- The choices of every ship that may act, one list: the side gives its
-- ships their turns in the order it chooses.
local function choices_of(ids, choices)
  local out = {}
  for _, id in ipairs(ids) do
    for _, choice in ipairs(choices(id)) do
      out[#out + 1] = choice
    end
  end
  return out
end

-- A ship's movement choices; a ship grappled by a boarder must first try
-- to cast off (10h iv), or stay alongside and keep its fire.
local function movement_choices(ctx)
  return function(id)
    if battle.grappled(id) then
      local name = fleet.name(id)
      return { name .. " casts off", name .. " stays grappled" }
    end
    return battle.moves(id, ctx.wind)
  end
end

function fights.move(ctx, frame)
  local ids = ready_ships(ctx, ctx.active, function() return true end)
  if #ids == 0 then
    return next_stage(ctx, "stationary_fire")
  end
  frame.player = ctx.active
  return choices_of(ids, movement_choices(ctx))
end

-- The fire choices of a ship whose enemies on the board are `enemies`.
local function fire_choices(boarding, enemies)
  return function(id)
    local name, out = fleet.name(id), {}
    for _, target in ipairs(battle.targets(id, enemies)) do
      out[#out + 1] = name .. " fires at " .. fleet.name(target)
    end
    if boarding then
      for _, target in ipairs(battle.alongside(id, enemies)) do
        out[#out + 1] = name .. " boards " .. fleet.name(target)
      end
    end
    out[#out + 1] = name .. " holds fire"
    return out
  end
end

function fights.stationary_fire(ctx, frame)
  local side = fleet.enemy(ctx.active)
  local enemies = battle.ships(ctx.active)
  local ids = ready_ships(ctx, side, function(s)
    return #battle.targets(s, enemies) > 0 and not battle.has_fired(s, ctx.card)
  end)
  if #ids == 0 then
    return next_stage(ctx, "active_fire")
  end
  frame.player = side
  return choices_of(ids, fire_choices(false, enemies))
end

function fights.active_fire(ctx, frame)
  local enemies = battle.ships(fleet.enemy(ctx.active))
  local ids = ready_ships(ctx, ctx.active, function(s)
    return (#battle.targets(s, enemies) > 0 or #battle.alongside(s, enemies) > 0) and not battle.has_fired(s, ctx.card)
  end)
  if #ids == 0 then
    return next_stage(ctx, "draw")
  end
  frame.player = ctx.active
  return choices_of(ids, fire_choices(true, enemies))
end

-- 10h viii: the captor divides the prize's treasure as it likes, each
-- amount from none to as much as its own hold takes.
function fights.split(ctx, frame)
  frame.player = pieces.owner(ctx.captor)
  local captor, prize = fleet.name(ctx.captor), fleet.name(ctx.prize)
  local out = {}
  for amount = 0, battle.most_to_take(ctx.captor, ctx.prize) do
    out[#out + 1] = string.format("%s takes %d VP from %s", captor, amount, prize)
  end
  return out
end

-- A battle is over when a side has no ship left on the battle board.
local function one_side_left(ctx)
  return ctx.stage ~= "setup" and not (battle.has_ships(ctx.attacker) and battle.has_ships(ctx.defender))
end

phases.battle = {}
function phases.battle.run(frame)
  local ctx = frame.ctx
  ctx.stage = ctx.stage or "setup"
  while true do
    if ctx.stage ~= "split" and one_side_left(ctx) then
      battle.finish(ctx.box)
      return nil
    end
    local ask = fights[ctx.stage](ctx, frame)
    if ask == "over" then
      battle.finish(ctx.box)
      return nil
    elseif ask then
      return ask
    end
  end
end

-- After a capture: the split of the prize's treasure when there is any
-- to take, and the prize's sale when it was taken in the captor's home
-- port (it is home at once).
local function after_capture(ctx, captor, prize)
  if battle.most_to_take(captor, prize) > 0 then
    ctx.captor, ctx.prize, ctx.resume, ctx.stage = captor, prize, ctx.stage, "split"
  else
    victory.unload_if_home(prize)
  end
end

-- A grappled ship's try to cast off costs its fire on this card; when it
-- gets free it moves as usual.
local function cast_off(ctx, id)
  set_attr(id, "fired", ctx.card)
  if not battle.cast_off(id) then
    set_attr(id, "acted", ctx.stamp)
  end
end

function phases.battle.choose(frame, choice)
  local ctx = frame.ctx
  if ctx.stage == "split" then
    battle.split(ctx.captor, ctx.prize, tonumber(choice:match(" takes (%d+) VP")))
    victory.unload_if_home(ctx.prize)
    ctx.stage, ctx.captor, ctx.prize, ctx.resume = ctx.resume, nil, nil, nil
    return
  end
  local id = fleet.ship_in(choice, frame.player)
  if choice:find(" casts off$") then
    return cast_off(ctx, id)
  end
  set_attr(id, "acted", ctx.stamp)
  if ctx.stage == "move" then
    if not choice:find(" stays grappled$") then
      battle.move(id, choice, ctx.box)
    end
    return
  end
  local shot, boarded = choice:match(" fires at (%S+)$"), choice:match(" boards (%S+)$")
  if shot then
    battle.fire(id, battle.ship(shot), ctx.card)
  elseif boarded then
    local winner, prize = battle.board(id, battle.ship(boarded), ctx.card)
    if winner then
      battle.capture(winner, prize, ctx.box)
      after_capture(ctx, winner, prize)
    end
  end
end
