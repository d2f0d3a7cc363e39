-- Treasure Fleet: the procedures, one phase per part of the rule book.
-- The numbers are in game.yaml's tables; what the game remembers lives in
-- the kernel (piece attributes, player variables, frame contexts). Each
-- concern is a module of lib/: the fleets and the map (fleet), wind cards
-- (wind), strategic movement and limbo (sailing), contact (contact),
-- ports (ports), the tactical battle (battle), victory (victory).
local fleet = require("lib.fleet")
local wind = require("lib.wind")
local sailing = require("lib.sailing")
local contact = require("lib.contact")
local ports = require("lib.ports")
local battle = require("lib.battle")
local victory = require("lib.victory")
local attr, set_attr = pieces.attr, pieces.set_attr

function prepare()
  fleet.prepare()
end

-- The choice of a decision, less the ship's name in front of it.
local function ship_of(choice, side)
  local name = choice:match("^(%S+)")
  return fleet.by_name(side, name) or battle.ship(name)
end

---------------------------------------------------------------- set-up (11)

-- Status cards: each ship gets its name and its side of origin.
local function name_ships()
  for _, side in ipairs(game.players()) do
    local ships = pieces.list { owner = side }
    table.sort(ships, function(x, y)
      local cx, cy = attr(x, "max_cp"), attr(y, "max_cp")
      return cx > cy or cx == cy and x < y
    end)
    for i, id in ipairs(ships) do
      set_attr(id, "name", tables.ship_names[side][i])
      set_attr(id, "origin", side)
      set_attr(id, "docked", false)
    end
  end
end

-- Where a ship may be placed: any box but the enemy's home port, docked
-- where it may dock ("Revenge at f4", "Revenge at f4 docked").
local function placements(id, side)
  local name, out = fleet.name(id), {}
  for _, box in ipairs(fleet.boxes) do
    if box ~= fleet.home(fleet.enemy(side)) then
      out[#out + 1] = name .. " at " .. box
      if fleet.may_dock(side, box) and box ~= fleet.home(side) then
        out[#out + 1] = name .. " at " .. box .. " docked"
      end
    end
  end
  return out
end

-- The next ship of a side still without a secret place, or nil.
local function unplaced(side)
  for _, id in ipairs(pieces.list { owner = side, at = "reserve" }) do
    if not attr(id, "plan") then
      return id
    end
  end
end

-- All ships are set out where their sides noted, and hands are dealt.
local function set_out()
  for _, side in ipairs(game.players()) do
    for _, id in ipairs(pieces.list { owner = side, at = "reserve" }) do
      local plan = attr(id, "plan")
      local box = plan:match("^(%w+)")
      pieces.move(id, box)
      set_attr(id, "docked", plan:find("docked", 1, true) ~= nil)
      set_attr(id, "plan", nil)
      if box == fleet.home(side) then
        set_attr(id, "docked", true)
      end
    end
  end
  local first = game.first_player()
  for _, side in ipairs { first, game.next_player(first) } do
    wind.refill(side)
  end
  game.log("The fleets are set out on the map.")
end

phases.setup = {}
function phases.setup.run(frame)
  if frame.step == 0 then
    frame.step = 1
    name_ships()
    wind.build_deck()
    frame.player = game.first_player()
  end
  local id = unplaced(frame.player)
  if not id then
    frame.player = game.next_player(frame.player)
    id = unplaced(frame.player)
  end
  if not id then
    set_out()
    return nil
  end
  return placements(id, frame.player)
end

function phases.setup.choose(frame, choice)
  local id = ship_of(choice, frame.player)
  set_attr(id, "plan", choice:match(" at (.+)$"))
end

---------------------------------------------------------------- the turn (12)

phases.turn = {}
function phases.turn.run(frame)
  if frame.step == 0 then
    if vars.add("turn", 1) > tables.victory.max_turns then
      victory.end_of_game()
      return nil
    end
    frame.step = 1
    game.push_phase("side_turn", game.first_player())
  elseif frame.step == 1 then
    frame.step = 2
    game.push_phase("side_turn", game.next_player(game.first_player()))
  else
    victory.announce()
    frame.step = 0
  end
  return true
end

---------------------------------------------------------------- a side's turn (3, 6, 7)

-- Each stage of a side's turn returns the choices of the next decision,
-- or nil when the stage is over (then the next stage starts).
local stages = {}

function stages.limbo(side)
  sailing.return_from_limbo(side)
end

function stages.hand(side, ctx)
  if not ctx.hand_decided then
    return { "keep the hand", "exchange the hand" }
  end
end

function stages.orders(side)
  local turn = vars.get("turn")
  for _, id in ipairs(fleet.on_map(side)) do
    if attr(id, "ordered") ~= turn then
      return sailing.orders(id, side)
    end
  end
end

-- Contact: a roll in each box shared with the enemy, a battle on a find.
-- Returns true when a battle was pushed.
function stages.contact(side, ctx)
  for _, box in ipairs(contact.shared_boxes()) do
    if not ctx["checked_" .. box] then
      ctx["checked_" .. box] = true
      if contact.roll(box) then
        game.logf("%s finds the enemy at %s!", game.player_name(side), fleet.place(box))
        game.push_phase("battle", side, { box = box, attacker = side })
        return true
      end
    end
  end
end

function stages.ports(side)
  local turn = vars.get("turn")
  for _, ship in ipairs(ports.work(side, turn)) do
    if ship.load and ship.repair then
      local name = fleet.name(ship.id)
      return { name .. " loads treasure", name .. " repairs" }
    end
    set_attr(ship.id, "worked", turn)
    if ship.load then
      ports.load(ship.id, side, ship.box)
    elseif ship.repair then
      ports.repair(ship.id, side, ship.box)
    end
  end
end

function stages.cards(side)
  wind.refill(side)
end

local ORDER = { limbo = "hand", hand = "orders", orders = "contact", contact = "ports", ports = "cards" }

phases.side_turn = {}
function phases.side_turn.run(frame)
  local ctx = frame.ctx
  if frame.step == 0 then
    frame.step = 1
    ctx.stage = ctx.stage or "limbo"
  end
  while ctx.stage do
    local ask = stages[ctx.stage](frame.player, ctx)
    if ask then
      return ask
    end
    ctx.stage = ORDER[ctx.stage]
  end
  return nil
end

function phases.side_turn.choose(frame, choice)
  local side, ctx = frame.player, frame.ctx
  if ctx.stage == "hand" then
    ctx.hand_decided = true
    if choice == "exchange the hand" then
      wind.exchange(side)
    end
    return
  end
  local id = ship_of(choice, side)
  if ctx.stage == "orders" then
    set_attr(id, "ordered", vars.get("turn"))
    sailing.carry_out(id, side, choice)
  else
    set_attr(id, "worked", vars.get("turn"))
    if choice:find("loads treasure", 1, true) then
      ports.load(id, side, pieces.where(id))
    else
      ports.repair(id, side, pieces.where(id))
    end
  end
end

---------------------------------------------------------------- the battle (9, 10)

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

-- The next ship of a side that may still act in this stage.
local function next_ship(ctx, side, can)
  for _, id in ipairs(battle.ships(side)) do
    if battle.under_way(id) and attr(id, "acted") ~= ctx.stamp and can(id) then
      return id
    end
  end
end

local function next_stage(ctx, stage)
  ctx.stamp = ctx.stamp + 1
  ctx.stage = stage
end

function fights.move(ctx, frame)
  local id = next_ship(ctx, ctx.active, function() return true end)
  if not id then
    return next_stage(ctx, "stationary_fire")
  end
  frame.player = ctx.active
  return battle.moves(id, ctx.wind)
end

local function fire_choices(id, boarding)
  local name, out = fleet.name(id), {}
  for _, target in ipairs(battle.targets(id)) do
    out[#out + 1] = string.format("%s fires at %s", name, fleet.name(target))
  end
  if boarding then
    for _, target in ipairs(battle.alongside(id)) do
      out[#out + 1] = string.format("%s boards %s", name, fleet.name(target))
    end
  end
  out[#out + 1] = name .. " holds fire"
  return out
end

function fights.stationary_fire(ctx, frame)
  local side = fleet.enemy(ctx.active)
  local id = next_ship(ctx, side, function(s) return #battle.targets(s) > 0 end)
  if not id then
    return next_stage(ctx, "active_fire")
  end
  frame.player = side
  return fire_choices(id, false)
end

function fights.active_fire(ctx, frame)
  local id = next_ship(ctx, ctx.active, function(s)
    return #battle.targets(s) > 0 or #battle.alongside(s) > 0
  end)
  if not id then
    return next_stage(ctx, "draw")
  end
  frame.player = ctx.active
  return fire_choices(id, true)
end

function fights.split(ctx, frame)
  frame.player = pieces.get(ctx.captor).owner
  local prize = fleet.name(ctx.prize)
  return { "take all of " .. prize .. "'s treasure", "take half of " .. prize .. "'s treasure",
    "leave the treasure aboard " .. prize }
end

-- A battle is over when a side has no ship left on the battle board.
local function one_side_left(ctx)
  return ctx.stage ~= "setup" and (#battle.ships(ctx.attacker) == 0 or #battle.ships(ctx.defender) == 0)
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

function phases.battle.choose(frame, choice)
  local ctx = frame.ctx
  if ctx.stage == "split" then
    battle.split(ctx.captor, ctx.prize, choice:match("^take (%a+)") or "none")
    ctx.stage, ctx.captor, ctx.prize = ctx.resume, nil, nil
    return
  end
  local id = ship_of(choice, frame.player)
  set_attr(id, "acted", ctx.stamp)
  if ctx.stage == "move" then
    return battle.move(id, choice, ctx.box)
  end
  local shot, boarded = choice:match(" fires at (%S+)$"), choice:match(" boards (%S+)$")
  if shot then
    battle.fire(id, battle.ship(shot))
  elseif boarded then
    local winner, prize = battle.board(id, battle.ship(boarded))
    if winner then
      battle.capture(winner, prize, ctx.box)
      ctx.captor, ctx.prize, ctx.resume, ctx.stage = winner, prize, ctx.stage, "split"
    end
  end
end
