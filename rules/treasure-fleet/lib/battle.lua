-- The tactical battle (rules 9 and 10): the ships of both sides in the
-- box are set out on the battle board, the wind is rolled, and a deck of
-- activation cards (3 a side) says which side moves; then the other side
-- fires, then the moving side fires or boards. Ships sink at 0 CP, are
-- captured in melee, or sail off the board back to the strategic map.
-- This module is the battle's geometry and its procedures; the phase that
-- runs them, and asks the players, is phases.battle in rules.lua.
local fleet = require("lib.fleet")
local victory = require("lib.victory")
local M = {}
local ipairs, attr, set_attr, place_of, list = ipairs, pieces.attr, pieces.set_attr, pieces.where, pieces.list

-- Headings and wind directions in 45 degree steps, clockwise from north.
M.HEADINGS = { "N", "NE", "E", "SE", "S", "SW", "W", "NW" }
local STEP = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { -1, 1 } }
local POINTS = { "in_irons", "close_hauled", "beam_reach", "broad_reach", "running" }
local EAST, WEST = 3, 7

-- Ships of a side on the battle board, in id order.
function M.ships(side)
  local out = {}
  for _, id in ipairs(list { owner = side, on_board = true }) do
    if fleet.square[place_of(id)] then
      out[#out + 1] = id
    end
  end
  return out
end

-- Whether a side has a ship left on the battle board.
function M.has_ships(side)
  for _, id in ipairs(list { owner = side, on_board = true }) do
    if fleet.square[place_of(id)] then
      return true
    end
  end
  return false
end

local function where(id)
  return fleet.square[place_of(id)]
end

-- Any ship, of either side, by name.
M.ship = fleet.named

-- A ship's CP changes in battle in sight of the enemy: `known_cp` (public)
-- follows it, where `cp` itself is secret to the owner (rule 11).
function M.set_cp(id, cp)
  set_attr(id, "cp", cp)
  set_attr(id, "known_cp", cp)
end

-- Rule 11: "until ships meet in combat, opposing sides do not know the
-- enemy strength". Meeting shows each ship's class and CP to the enemy.
local function reveal(id)
  set_attr(id, "known_max_cp", attr(id, "max_cp"))
  set_attr(id, "known_cp", attr(id, "cp"))
end

-- Set-up: the attacker's ships in a column near the west edge heading
-- east, the defender's near the east edge heading west, one a row from
-- the first row up (a second column inward when a column is full).
-- Docked ships stay moored until they get under way.
function M.set_up(box, attacker)
  local t = tables.battle
  for _, side in ipairs(game.players()) do
    local column = side == attacker and t.attacker_column or t.defender_column
    local inward = side == attacker and 1 or -1
    local row = t.first_row
    for _, id in ipairs(fleet.on_map(side)) do
      if place_of(id) == box then
        if not fleet.square_at(column, row) then
          column, row = column + inward, t.first_row
        end
        pieces.move(id, fleet.square_at(column, row))
        set_attr(id, "heading", side == attacker and EAST or WEST)
        set_attr(id, "moored", attr(id, "docked") or false)
        set_attr(id, "acted", nil)
        set_attr(id, "fired", nil)
        set_attr(id, "grappled_by", nil)
        reveal(id)
        row = row + 1
      end
    end
  end
end

-- The point of sailing: the angle between heading and the wind's source,
-- in 45 degree steps (0 head to wind, 4 running before it).
function M.point_of_sailing(heading, wind)
  local d = math.abs(heading - wind) % 8
  return POINTS[math.min(d, 8 - d) + 1]
end

-- The squares a ship may move: its allowance by point of sailing (halved
-- when crippled) and the least it must move.
function M.allowance(id, wind)
  local t = tables.battle
  local most = t.movement[M.point_of_sailing(attr(id, "heading"), wind)]
  if attr(id, "cp") <= t.crippled_cp then
    most = most // 2
  end
  local least = -((-most * t.minimum_move.numerator) // t.minimum_move.denominator)
  return most, least
end

-- Straight ahead from a ship: how many squares are free before a ship or
-- the edge, and whether the edge comes within `most` squares.
local function lane(id, most)
  local at, step = where(id), STEP[attr(id, "heading")]
  for k = 1, most do
    local square = fleet.square_at(at[1] + k * step[1], at[2] + k * step[2])
    if not square then
      return k - 1, true
    end
    if #pieces.at(square) > 0 then
      return k - 1, false
    end
  end
  return most, false
end

-- Movement choices of a ship: "Revenge moves 2", "Revenge moves 2 and
-- turns to port", "Revenge sails off the board".
function M.moves(id, wind)
  local name = fleet.name(id)
  local most, least = M.allowance(id, wind)
  local free, edge = lane(id, most)
  local out = {}
  for k = math.min(least, free), free do
    out[#out + 1] = string.format("%s moves %d", name, k)
    out[#out + 1] = string.format("%s moves %d and turns to port", name, k)
    out[#out + 1] = string.format("%s moves %d and turns to starboard", name, k)
  end
  if edge then
    out[#out + 1] = name .. " sails off the board"
  end
  return out
end

-- Leaving the battle: the ship goes to the strategic box next to the
-- battle's box on the side of the board it sailed off (into limbo when
-- that is off the map).
local function leave(id, box)
  local at, step = where(id), STEP[attr(id, "heading")]
  local column, row = at[1], at[2]
  repeat
    column, row = column + step[1], row + step[2]
  until not fleet.square_at(column, row)
  local letter = column < 1 and "W" or column > 8 and "E" or row < 1 and "S" or "N"
  local to, off = fleet.sail_from(box, letter, 1)
  set_attr(id, "docked", false)
  set_attr(id, "grappled_by", nil)
  game.logf("%s sails off the battle board to %s.", fleet.name(id), off and "limbo" or fleet.place(to))
  if off then
    set_attr(id, "left_from", to)
    pieces.move(id, "limbo")
  else
    pieces.move(id, to)
    victory.unload_if_home(id)
  end
end

-- Carries out a movement choice.
function M.move(id, choice, box)
  if choice:find("sails off the board", 1, true) then
    return leave(id, box)
  end
  local k = tonumber(choice:match(" moves (%d+)"))
  local at, step, heading = where(id), STEP[attr(id, "heading")], attr(id, "heading")
  pieces.move(id, fleet.square_at(at[1] + k * step[1], at[2] + k * step[2]))
  if choice:find("port", 1, true) then
    heading = (heading + 6) % 8 + 1
  elseif choice:find("starboard", 1, true) then
    heading = heading % 8 + 1
  end
  set_attr(id, "heading", heading)
end

-- The direction from one square to another, as a heading 1-8 (nearest).
local function bearing(from, to)
  local angle = math.atan(to[1] - from[1], to[2] - from[2])
  return math.floor(angle / (math.pi / 4) + 0.5) % 8 + 1
end

-- Range in squares between two squares (eight directions: the larger of
-- the two distances).
local function squares_apart(p, q)
  return math.max(math.abs(p[1] - q[1]), math.abs(p[2] - q[2]))
end

function M.range(a, b)
  return squares_apart(where(a), where(b))
end

-- Whether the square `other` lies on the line of keel of a ship at `at`
-- heading `heading`, dead ahead or astern.
local function keel_line_holds(at, heading, other)
  local rel = (bearing(at, other) - heading) % 8
  return rel == 0 or rel == 4
end

local function on_keel_line(ship, other)
  return keel_line_holds(where(ship), attr(ship, "heading"), where(other))
end

-- P(hit) in percent: the firer's CP less the range in the rule's units
-- (a firer of `cp` at the square `from`, its target at `to`).
local function chance_to_hit(cp, from, to)
  return cp - squares_apart(from, to) * tables.battle.range_per_square
end

function M.hit_chance(firer, target)
  return chance_to_hit(attr(firer, "cp"), where(firer), where(target))
end

-- Raking fire: the firer is dead ahead or astern of its target.
function M.rakes(firer, target)
  return on_keel_line(target, firer)
end

-- Damage of a hit: the units die of the roll (a 0 reads 10) times 2, or
-- times 4 when raking.
function M.damage(roll, rake)
  local units = roll % 10
  if units == 0 then
    units = 10
  end
  return units * (rake and tables.battle.rake_damage or tables.battle.damage)
end

-- Whether a ship may act (move, fire, board): under way, on the board.
function M.under_way(id)
  return not attr(id, "moored") and fleet.square[place_of(id)] ~= nil
end

-- The enemy ships on the battle board (`enemies`, M.ships of the enemy,
-- when the caller has them already) that a ship may fire at: broadside
-- (not dead ahead or astern), with a chance to hit.
function M.targets(id, enemies)
  local out, at, heading, cp = {}, where(id), attr(id, "heading"), attr(id, "cp")
  for _, target in ipairs(enemies or M.ships(fleet.enemy(pieces.owner(id)))) do
    local there = where(target)
    if not keel_line_holds(at, heading, there) and chance_to_hit(cp, at, there) > 0 then
      out[#out + 1] = target
    end
  end
  return out
end

-- The enemy ships alongside a ship (in one of the eight squares around
-- it); `enemies` as for M.targets.
function M.alongside(id, enemies)
  local out = {}
  for _, other in ipairs(enemies or M.ships(fleet.enemy(pieces.owner(id)))) do
    if M.range(id, other) == 1 then
      out[#out + 1] = other
    end
  end
  return out
end

-- A ship at 0 CP or less sinks with all its treasure.
local function sink_if_done(id)
  if attr(id, "cp") <= 0 then
    M.set_cp(id, 0)
    game.logf("%s sinks!", fleet.name(id))
    pieces.remove(id)
  end
end

-- Whether a ship has fired on the activation card `card` (each ship fires
-- once a card: in its side's fire step, or at a ship boarding it).
function M.has_fired(id, card)
  return attr(id, "fired") == card
end

-- One shot on activation card `card`: hit if the D100 roll is at most
-- P(hit); the target loses the damage in CP. Returns the roll and the
-- damage (0 for a miss).
function M.fire(firer, target, card)
  set_attr(firer, "fired", card)
  local chance, rake = M.hit_chance(firer, target), M.rakes(firer, target)
  local roll = dice.roll("D100", fleet.name(firer) .. " fires")
  if roll > chance then
    game.logf("%s fires at %s (%d%%): %d, a miss.", fleet.name(firer), fleet.name(target), chance, roll)
    return roll, 0
  end
  local damage = M.damage(roll, rake)
  M.set_cp(target, attr(target, "cp") - damage)
  game.logf("%s fires at %s (%d%%): %d, %s for %d CP.", fleet.name(firer), fleet.name(target), chance, roll,
    rake and "a raking hit" or "a hit", damage)
  sink_if_done(target)
  return roll, damage
end

-- The melee: rounds won with probability CP_A / (CP_A + CP_B) until one
-- side has won two; after each round each side loses one die of CP
-- (never below 1: crews fight on). Returns the winner and the loser.
function M.melee(a, b)
  local t, wins = tables.battle, { [a] = 0, [b] = 0 }
  while wins[a] < t.melee_wins and wins[b] < t.melee_wins do
    local ca, cb = attr(a, "cp"), attr(b, "cp")
    local round_winner = dice.roll("D100", "melee round") <= 100 * ca // (ca + cb) and a or b
    wins[round_winner] = wins[round_winner] + 1
    M.set_cp(a, math.max(1, ca - dice.roll(t.melee_loss, fleet.name(a) .. " crew losses")))
    M.set_cp(b, math.max(1, cb - dice.roll(t.melee_loss, fleet.name(b) .. " crew losses")))
  end
  if wins[a] > wins[b] then
    return a, b
  end
  return b, a
end

-- Whether the boarded ship `b` fires at its boarder `a` on card `card`
-- (10h ii): only if under way, with `a` in its broadside arc and range,
-- and if it has not fired on this card already (rule 10d: one fire each
-- side per card).
local function fires_at_boarder(b, a, card)
  if not M.under_way(b) or M.has_fired(b, card) then
    return false
  end
  for _, target in ipairs(M.targets(b)) do
    if target == a then
      return true
    end
  end
  return false
end

-- Boarding on card `card`: the ship boarded fires first (when it may);
-- the boarder, if afloat, boards with a chance of its CP in percent, and
-- a melee decides who captures whom. A failed attempt leaves the two
-- grappled (10h iv). Returns the winner and the captured ship, or nil.
function M.board(a, b, card)
  game.logf("%s runs alongside %s to board.", fleet.name(a), fleet.name(b))
  if fires_at_boarder(b, a, card) then
    M.fire(b, a, card)
  end
  if not fleet.square[place_of(a)] then
    return nil
  end
  if dice.roll("D100", fleet.name(a) .. " boards") > attr(a, "cp") then
    game.logf("%s fails to board and lies grappled to %s.", fleet.name(a), fleet.name(b))
    set_attr(b, "grappled_by", a)
    return nil
  end
  local winner, loser = M.melee(a, b)
  game.logf("%s wins the melee and captures %s.", fleet.name(winner), fleet.name(loser))
  return winner, loser
end

-- The enemy ship a ship lies grappled to (a failed boarding, 10h iv),
-- while the two are still alongside; nil when it is free.
function M.grappled(id)
  local by = attr(id, "grappled_by")
  if by and fleet.square[place_of(by)] and M.range(id, by) == 1 then
    return by
  end
end

-- A grappled ship tries to cast off (10h iv: the chance is its CP in
-- percent). Whether it got free.
function M.cast_off(id)
  local free = dice.roll("D100", fleet.name(id) .. " casts off") <= attr(id, "cp")
  if free then
    set_attr(id, "grappled_by", nil)
  end
  game.logf("%s %s.", fleet.name(id), free and "casts off" or "fails to cast off")
  return free
end

-- A captured ship changes hands (a prize unless it returns to its first
-- owner) and sails at once to the battle's box under its new flag. It is
-- the captor's to order from now on, even in the turn it was taken.
function M.capture(winner, prize, box)
  local side = pieces.owner(winner)
  pieces.set_owner(prize, side)
  set_attr(prize, "prize", attr(prize, "origin") ~= side)
  set_attr(prize, "docked", false)
  set_attr(prize, "moored", false)
  set_attr(prize, "grappled_by", nil)
  set_attr(prize, "ordered", nil)
  set_attr(prize, "worked", nil)
  pieces.move(prize, box)
end

-- The most VP the winner may take from a prize's hold into its own.
function M.most_to_take(winner, prize)
  return math.min(attr(prize, "cargo"), tables.ports.max_cargo - attr(winner, "cargo"))
end

-- The treasure split after a capture (10h viii): the winner takes
-- `amount` VP of the prize's cargo into its own hold.
function M.split(winner, prize, amount)
  set_attr(prize, "cargo", attr(prize, "cargo") - amount)
  set_attr(winner, "cargo", attr(winner, "cargo") + amount)
end

-- The end of a battle: every ship still on the board returns to the box,
-- docked if it never got under way; at its own home port it unloads.
function M.finish(box)
  game.logf("The battle at %s is over.", fleet.place(box))
  for _, side in ipairs(game.players()) do
    for _, id in ipairs(M.ships(side)) do
      pieces.move(id, box)
      set_attr(id, "docked", attr(id, "moored") or false)
      set_attr(id, "moored", nil)
      set_attr(id, "grappled_by", nil)
      victory.unload_if_home(id)
    end
  end
end

return M
