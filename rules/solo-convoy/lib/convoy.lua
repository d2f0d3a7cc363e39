-- Shared helpers of the solitaire convoy: the convoy's counters, the option
-- in force, and the turn record. Every value the game remembers lives in
-- the kernel's variables (vars); this module only holds lookups derived
-- from the data, built once by `prepare` before the package freezes.
--
-- The game sheet's boxes are laid out as slots of `vars.sheet` (see
-- `M.slot`): the rules read and write them as a plain array, and the
-- kernel takes the sheet back after every call, so the variables are
-- still the kernel's (a save, `vars.get` and `vars.game` see them by name).
local M = {}
local var, set = vars.game, vars.set
local sheet = vars.sheet
local narrating = game.narrating

M.PLAYER = "convoy"

-- The ship types in the order of the composition table, and each type's row.
M.types = {}
local ships = {}

-- The variable of each ship type's counters: `M.name.afloat.cargo` is
-- "afloat_cargo" (ships still with the convoy, damaged ones included);
-- `damaged`, `lost` (sunk), `home` (sent home with a carrier) and `sailed`.
M.name = { sailed = {}, afloat = {}, damaged = {}, lost = {}, home = {} }

-- The sheet's slots (made by `prepare`): `M.slot.afloat.cargo` is the slot
-- of "afloat_cargo", `M.slot.used.decoy` that of "used_decoy", and
-- `M.slot.turn` that of "turn"; likewise every other box of the sheet.
M.slot = { sailed = {}, afloat = {}, damaged = {}, lost = {}, home = {}, used = {} }

-- The boxes of the sheet that are not per ship type or per option.
local BOXES = { "turn", "length", "friendly", "next_turn", "interceptions", "options_used", "option",
  "option_until", "halfway_done" }

-- The ship types whose loss costs interception rolls
-- (`tables.interception.without`), in name order: a list is quicker to
-- walk than the map, and the order is the log's.
M.without = {}

-- The points for losing every ship of a type, by type; nil where
-- `tables.scoring.all_lost` gives none (it names only some types).
M.all_lost = {}

-- The option rows by id: `M.options[sheet[M.slot.option]]` is the
-- option in force (nil when the box is empty), read without a call.
M.options = {}
local options = M.options

-- The variable that records the turn each option was taken, by option id:
-- `M.used.decoy` is "used_decoy".
M.used = {}

-- The labels of an option's rolls, by option id: `M.rolls.decoy.duration`
-- is "Decoy duration", and `journey` labels the turns it adds. Made once,
-- not at every roll, since a roll's label is built even when no log
-- reads it.
M.rolls = {}

-- Where the contact modifier carried to a turn comes from, in words, by
-- its value: the result of the contact row that sets it (a -1 comes from
-- Dumb luck).
M.carried_from = {}

-- The variable of a ship type's counter ("afloat", "cargo"): "afloat_cargo".
local function counter_name(counter, type)
  return counter .. "_" .. type
end

-- The game sheet as it starts, before the convoy is rolled: every counter
-- of every ship type at zero, no interception scored, no contact modifier
-- carried, no option used or in force (false: an empty box), the journey's
-- boxes at zero until the setup rolls them, the first turn. Starting values
-- are data (game.yaml's `vars`, here filled from the composition table, so
-- a scenario's ship types get theirs): the kernel sets them when a game
-- starts, for much less than the rules writing each one. (No box starts
-- nil: the first write to a slot that holds nil costs a metamethod call,
-- see docs/lua-api.md.)
function M.configure(data)
  local start = data.vars or {}
  for _, row in ipairs(data.tables.composition) do
    for counter in pairs(M.name) do
      start[counter_name(counter, row.type)] = 0
    end
  end
  for _, row in ipairs(data.tables.options) do
    start["used_" .. row.id] = false
  end
  start.interceptions, start.next_turn, start.options_used, start.turn = 0, 0, 0, 1
  start.length, start.friendly, start.option, start.option_until = 0, 0, false, 0
  start.halfway_done = false
  data.vars = start
end

function M.prepare()
  for _, row in ipairs(tables.composition) do
    M.types[#M.types + 1] = row.type
    ships[row.type] = row
  end
  for counter, names in pairs(M.name) do
    for _, type in ipairs(M.types) do
      names[type] = counter_name(counter, type)
    end
  end
  for i = #tables.contact.rows, 1, -1 do
    local row = tables.contact.rows[i]
    if row.next_turn then
      M.carried_from[row.next_turn] = row.result
    end
  end
  for type in pairs(tables.interception.without or {}) do
    M.without[#M.without + 1] = type
  end
  table.sort(M.without)
  for _, type in ipairs(M.types) do
    M.all_lost[type] = rawget(tables.scoring.all_lost, type)
  end
  for _, row in ipairs(tables.options) do
    options[row.id] = row
    M.used[row.id] = "used_" .. row.id
    M.rolls[row.id] = { duration = row.title .. " duration", journey = row.title .. " adds turns" }
  end
  local names = {}
  for _, list in pairs { M.name.sailed, M.name.afloat, M.name.damaged, M.name.lost, M.name.home, M.used } do
    for _, name in pairs(list) do
      names[#names + 1] = name
    end
  end
  for _, name in ipairs(BOXES) do
    names[#names + 1] = name
  end
  table.sort(names)
  local at = vars.slots(names)
  for counter, list in pairs(M.name) do
    for type, name in pairs(list) do
      M.slot[counter][type] = at[name]
    end
  end
  for id, name in pairs(M.used) do
    M.slot.used[id] = at[name]
  end
  for _, name in ipairs(BOXES) do
    M.slot[name] = at[name]
  end
end

-- The composition row of a ship type.
function M.ship(type)
  return ships[type] or error("no ship type '" .. tostring(type) .. "' in tables.composition", 2)
end

-- A ship type's counter ("afloat", "damaged", "lost", "home", "sailed").
function M.count(counter, type)
  return sheet[M.slot[counter][type]] or 0
end


-- The option row by id.
function M.option_row(id)
  return options[id] or error("no option '" .. tostring(id) .. "' in tables.options", 2)
end

-- The option in force this turn, or nil. (The start of a turn ends an
-- option that has run its course, so one that is set is in force.)
function M.option_in_force()
  local id = sheet[M.slot.option]
  return id and options[id]
end

-- Appends a note (formatted like string.format) to this turn's record, kept
-- for the game sheet. The record is narration: it is written only when
-- someone reads the game.
function M.note(fmt, ...)
  if narrating() then
    local text = string.format(fmt, ...)
    local key = "turn_" .. sheet[M.slot.turn]
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
