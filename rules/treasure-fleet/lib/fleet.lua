-- The fleets: which ships a side has, where they are, and the map they
-- sail on. Ships are pieces whose attributes are their status card: name,
-- cp (combat points now), max_cp (at the start), cargo (VP aboard, secret
-- to the enemy), docked, and prize (a captured ship). The lookups below
-- are built once from the data by `prepare`, before the package freezes.
local M = {}
-- The API functions the hot paths call, read once (each read of a global
-- goes through the frozen globals' metatable).
local ipairs, attr, where, list = ipairs, pieces.attr, pieces.where, pieces.list

-- Strategic boxes by name: { column, row, kind }; and back by position;
-- and their names in board order.
M.box = {}
M.boxes = {}
local box_at = {}
-- Battle squares by name: { column, row }; and back by position.
M.square = {}
local square_at = {}

-- Compass steps of the strategic map (no diagonals), by card letter.
M.STEP = { N = { 0, 1 }, E = { 1, 0 }, S = { 0, -1 }, W = { -1, 0 } }
M.LETTERS = { "N", "E", "S", "W" }

-- The sides in the game's order, and each side's enemy: the seating is
-- the game's data, so they are read once here rather than asked of the
-- API at every call (game.players() makes a new list each time).
M.sides = {}
local enemy_of = {}
-- The boxes a ship may dock in, and each side's enemy's home port (where
-- it may not): docking is asked of every box an order may reach.
local dock_box, enemy_home = {}, {}

function M.prepare()
  for i, side in ipairs(game.players()) do
    M.sides[i] = side
    enemy_of[side] = game.next_player(side)
  end
  for _, name in ipairs(board.spaces()) do
    local s = board.space(name)
    if s.grid then
      M.square[name] = { s.column, s.row }
      square_at[s.column * 100 + s.row] = name
    else
      M.box[name] = { s.column, s.row, s.kind }
      M.boxes[#M.boxes + 1] = name
      box_at[s.column * 100 + s.row] = name
    end
  end
  local dock_kind = {}
  for _, kind in ipairs(tables.ports.dock_kinds) do
    dock_kind[kind] = true
  end
  for _, name in ipairs(M.boxes) do
    dock_box[name] = dock_kind[M.box[name][3]]
  end
  for _, side in ipairs(M.sides) do
    enemy_home[side] = tables.home_port[enemy_of[side]]
  end
end

-- The box at a column and row of the strategic map, or nil off the map.
function M.box_at(column, row)
  return box_at[column * 100 + row]
end

-- The battle square at a column and row, or nil off the battle board.
function M.square_at(column, row)
  return square_at[column * 100 + row]
end

-- The box `count` boxes from `from` in direction `letter`, stopping at the
-- edge: returns the last box on the map and whether the ship sailed off.
function M.sail_from(from, letter, count)
  local step, at = M.STEP[letter], M.box[from]
  local column, row, last = at[1], at[2], from
  for _ = 1, count do
    column, row = column + step[1], row + step[2]
    local next = box_at[column * 100 + row]
    if not next then
      return last, true
    end
    last = next
  end
  return last, false
end

function M.enemy(side)
  return enemy_of[side]
end

function M.home(side)
  return tables.home_port[side]
end

-- A box's name for people: "f4 (Pais de los Muertos)".
function M.place(box)
  local name = rawget(tables.places, box)
  return name and (box .. " (" .. name .. ")") or box
end

function M.name(id)
  return attr(id, "name")
end

function M.cp(id)
  return attr(id, "cp")
end


-- A side's ships still in its fleet: on the map, in limbo or in a battle
-- (not sunk, not sold as prizes), in id order.
function M.fleet(side)
  local out = {}
  for _, id in ipairs(list { owner = side }) do
    local at = where(id)
    if at ~= "eliminated" and at ~= "prizes" and at ~= "reserve" then
      out[#out + 1] = id
    end
  end
  return out
end

-- A side's ships on the strategic map, in id order.
function M.on_map(side)
  local out = {}
  for _, id in ipairs(list { owner = side, on_board = true }) do
    if M.box[where(id)] then
      out[#out + 1] = id
    end
  end
  return out
end

-- Any ship, of either side, by name, or nil.
function M.named(name)
  for _, side in ipairs(M.sides) do
    local id = M.by_name(side, name)
    if id then
      return id
    end
  end
end

-- The ship a choice names first ("Revenge sails E 2"), looked for first
-- among the ships of `side`, the side deciding, whose ships its choices
-- name.
function M.ship_in(choice, side)
  local name = choice:match("^(%S+)")
  return M.by_name(side, name) or M.named(name)
end

-- The ship of a side named `name`, or nil.
function M.by_name(side, name)
  for _, id in ipairs(list { owner = side }) do
    if attr(id, "name") == name then
      return id
    end
  end
end

-- Whether a side's ship may dock in a box: an island or a land mass, or
-- its own home port (never the enemy's).
function M.may_dock(side, box)
  return dock_box[box] == true and box ~= enemy_home[side]
end

-- `numerator/denominator` of a value, rounded down: CP/2 chances.
function M.fraction(value, f)
  return value * f.numerator // f.denominator
end

return M
