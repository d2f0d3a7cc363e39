-- Shared helpers of the solitaire convoy: the convoy's counters, the option
-- in force, and the turn record. Every value the game remembers lives in
-- the kernel's variables (vars); this module only holds lookups derived
-- from the data, built once by `prepare` before the package freezes.
local M = {}
local get, set, add = vars.get, vars.set, vars.add

M.PLAYER = "convoy"

-- The ship types in the order of the composition table, each type's row,
-- and the name of each of its counters ("afloat_cargo").
M.types = {}
local ships, counter = {}, {}
local COUNTERS = { "sailed", "afloat", "damaged", "lost", "home" }

-- The option rows by id, and the variable that records when each was taken.
local options, used = {}, {}

function M.prepare()
  for _, row in ipairs(tables.composition) do
    M.types[#M.types + 1] = row.type
    ships[row.type] = row
  end
  for _, name in ipairs(COUNTERS) do
    counter[name] = {}
    for _, type in ipairs(M.types) do
      counter[name][type] = name .. "_" .. type
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

-- The name of a ship type's counter: "afloat", "damaged", "lost", "home"
-- or "sailed".
function M.counter(name, type)
  return counter[name][type]
end

-- Ships of a type still with the convoy (damaged ones included), damaged,
-- sunk, sent home with a carrier, and sailed at the start.
function M.afloat(type) return get(counter.afloat[type]) end
function M.damaged(type) return get(counter.damaged[type]) end
function M.lost(type) return get(counter.lost[type]) end
function M.home(type) return get(counter.home[type]) end
function M.sailed(type) return get(counter.sailed[type]) end

-- Adds `n` to a ship type's counter.
function M.add(name, type, n)
  add(counter[name][type], n)
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
  local id = get("option")
  return id and options[id]
end

-- Whether a face lies in a `[low, high]` pair.
function M.within(face, pair)
  return face >= pair[1] and face <= pair[2]
end

-- Appends a note (formatted like string.format) to this turn's record, kept
-- for the game sheet. The record is narration: it is written only when
-- someone reads the game.
function M.note(fmt, ...)
  if game.narrating() then
    local text = string.format(fmt, ...)
    local key = "turn_" .. get("turn")
    local old = get(key)
    set(key, old and (old .. "; " .. text) or text)
  end
end

-- A ship count with its type's name ("1 cargo ship", "3 destroyers").
function M.ships(n, type)
  local row = M.ship(type)
  return n .. " " .. string.lower(n == 1 and row.name or row.plural)
end

return M
