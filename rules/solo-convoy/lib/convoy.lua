-- Shared helpers of the solitaire convoy: the convoy's counters, the option
-- in force, and the turn record. Every value the game remembers lives in
-- the kernel's variables (vars); this module only holds lookups derived
-- from the data, built once by `prepare` before the package freezes.
local M = {}
local var, set = vars.game, vars.set
local narrating = game.narrating

M.PLAYER = "convoy"

-- The ship types in the order of the composition table, and each type's row.
M.types = {}
local ships = {}

-- The variable of each ship type's counters: `M.name.afloat.cargo` is
-- "afloat_cargo" (ships still with the convoy, damaged ones included);
-- `damaged`, `lost` (sunk), `home` (sent home with a carrier) and `sailed`.
M.name = { sailed = {}, afloat = {}, damaged = {}, lost = {}, home = {} }

-- The option rows by id, and the variable that records when each was taken.
local options, used = {}, {}

-- The contact row that sets each carried modifier, by its value: the
-- modifier's source in the log (a -1 comes from Dumb luck).
local carried_from = {}

function M.prepare()
  for _, row in ipairs(tables.composition) do
    M.types[#M.types + 1] = row.type
    ships[row.type] = row
  end
  for counter, names in pairs(M.name) do
    for _, type in ipairs(M.types) do
      names[type] = counter .. "_" .. type
    end
  end
  for i = #tables.contact.rows, 1, -1 do
    local row = tables.contact.rows[i]
    if row.next_turn then
      carried_from[row.next_turn] = row.result
    end
  end
  for _, row in ipairs(tables.options) do
    options[row.id] = row
    used[row.id] = "used_" .. row.id
  end
end

-- The composition row of a ship type.
function M.ship(type)
  return ships[type] or error("no ship type '" .. tostring(type) .. "' in tables.composition", 2)
end

-- A ship type's counter ("afloat", "damaged", "lost", "home", "sailed").
function M.count(counter, type)
  return var[M.name[counter][type]] or 0
end

-- Where the contact modifier carried to this turn comes from, in words.
function M.carried_from(modifier)
  return carried_from[modifier] or "last turn"
end

-- The option row by id.
function M.option_row(id)
  return options[id] or error("no option '" .. tostring(id) .. "' in tables.options", 2)
end

-- The name of the variable holding the turn an option was taken ("used_decoy").
function M.used(id)
  return used[id]
end

-- The option in force this turn, or nil. (The start of a turn ends an
-- option that has run its course, so one that is set is in force.)
function M.option_in_force()
  local id = var.option
  return id and options[id]
end

-- Appends a note (formatted like string.format) to this turn's record, kept
-- for the game sheet. The record is narration: it is written only when
-- someone reads the game.
function M.note(fmt, ...)
  if narrating() then
    local text = string.format(fmt, ...)
    local key = "turn_" .. var.turn
    local old = var[key]
    set(key, old and (old .. "; " .. text) or text)
  end
end

-- A ship count with its type's name ("1 cargo ship", "3 destroyers").
function M.ships(n, type)
  local row = M.ship(type)
  return n .. " " .. string.lower(n == 1 and row.name or row.plural)
end

return M
