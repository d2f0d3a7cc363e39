-- Treasure Fleet: the procedures, one phase per part of the rule book
-- (set-up, the turn, a side's turn here; the battle in fights.lua).
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
local victory = require("lib.victory")
local ipairs, attr, set_attr = ipairs, pieces.attr, pieces.set_attr

function prepare()
  fleet.prepare()
end

---------------------------------------------------------------- set-up (8, 11)

-- The classes a side fields, one entry (its CP) a ship: tables.classes.
local function class_list()
  local out = {}
  for _, class in ipairs(tables.classes) do
    for _ = 1, class.count do
      out[#out + 1] = class.cp
    end
  end
  return out
end

-- Status cards (rule 8): each ship gets its name, its side of origin and
-- its class, dealt at random in secret, so that a name tells the enemy
-- nothing of the ship's strength (rule 11).
local function write_status_cards()
  for _, side in ipairs(game.players()) do
    local ships, classes = pieces.list { owner = side }, class_list()
    if #ships ~= #classes then
      error(string.format("tables.classes deals %d classes but %s has %d ships: make the class counts add up to "
        .. "the Ship count", #classes, game.player_name(side), #ships), 0)
    end
    for i, id in ipairs(ships) do
      local name = tables.ship_names[side][i]
      local cp = table.remove(classes, dice.roll_secret("1D" .. #classes, side, "class of " .. name))
      set_attr(id, "name", name)
      set_attr(id, "origin", side)
      set_attr(id, "docked", false)
      set_attr(id, "cp", cp)
      set_attr(id, "max_cp", cp)
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

-- Rule 11: once the ships are set out, dice are thrown for who goes first.
local function throw_for_first_player()
  local sides = game.players()
  local first = sides[dice.roll("1D" .. #sides, "who goes first")]
  game.set_first_player(first)
  game.logf("%s wins the throw and goes first.", game.player_name(first))
end

-- All ships are set out where their sides noted, the first player is
-- thrown for, and hands are dealt.
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
  game.log("The fleets are set out on the map.")
  throw_for_first_player()
  local first = game.first_player()
  for _, side in ipairs { first, game.next_player(first) } do
    wind.refill(side)
  end
end

phases.setup = {}
function phases.setup.run(frame)
  if frame.step == 0 then
    frame.step = 1
    write_status_cards()
    wind.build_deck()
    frame.player = game.players()[1]
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
  local id = fleet.ship_in(choice, frame.player)
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

-- A ship that chance left at sea in a box where it may dock (a drift, a
-- return from limbo): its side decides whether it docks there.
local function dock_question(ctx)
  local id = ctx.may_dock
  if id then
    local name = fleet.name(id)
    return { name .. " docks", name .. " stays at sea" }
  end
end

-- Limbo: each ship of the side there dices to return, once a turn.
function stages.limbo(side, ctx)
  for _, id in ipairs(pieces.list { owner = side, at = "limbo" }) do
    if not ctx["limbo_" .. id] then
      ctx["limbo_" .. id] = true
      if sailing.return_from_limbo(id, side) and sailing.may_dock_here(id, side) then
        ctx.may_dock = id
        return dock_question(ctx)
      end
    end
  end
end

function stages.hand(side, ctx)
  if not ctx.hand_decided then
    return { "keep the hand", "exchange the hand" }
  end
end

-- Orders: one to each ship on the map, in the order the side chooses:
-- the orders of every ship not yet ordered this turn are offered at once.
function stages.orders(side)
  local turn, held, out = vars.get("turn"), wind.counts(side), {}
  for _, id in ipairs(fleet.on_map(side)) do
    if attr(id, "ordered") ~= turn then
      sailing.orders(id, side, held, out)
    end
  end
  if #out > 0 then
    return out
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

-- New cards up to the hand size; a hand over it (the fleet lost ships)
-- gives up the cards its side chooses.
function stages.cards(side)
  wind.refill(side)
  local kinds = wind.surplus_kinds(side)
  if #kinds > 0 then
    local out = {}
    for i, kind in ipairs(kinds) do
      out[i] = "give up " .. kind
    end
    return out
  end
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
    local ask = dock_question(ctx) or stages[ctx.stage](frame.player, ctx)
    if ask then
      return ask
    end
    ctx.stage = ORDER[ctx.stage]
  end
  return nil
end

function phases.side_turn.choose(frame, choice)
  local side, ctx = frame.player, frame.ctx
  if ctx.may_dock then
    ctx.may_dock = nil
    if choice:find(" docks$") then
      sailing.carry_out(fleet.ship_in(choice, side), side, choice)
    end
    return
  elseif ctx.stage == "hand" then
    ctx.hand_decided = true
    if choice == "exchange the hand" then
      wind.exchange(side)
    end
    return
  elseif ctx.stage == "cards" then
    wind.give_up(side, choice:match("^give up (%S+)$"))
    return
  end
  local id = fleet.ship_in(choice, side)
  if ctx.stage == "orders" then
    set_attr(id, "ordered", vars.get("turn"))
    sailing.carry_out(id, side, choice)
    if choice:find(" drifts$") and sailing.may_dock_here(id, side) then
      ctx.may_dock = id
    end
  else
    set_attr(id, "worked", vars.get("turn"))
    if choice:find("loads treasure", 1, true) then
      ports.load(id, side, pieces.where(id))
    else
      ports.repair(id, side, pieces.where(id))
    end
  end
end

