-- Shared helpers of the solitaire convoy: the convoy's counters, reading a
-- rolled table, and the option in force. Every value lives in the kernel's
-- variables (vars); this module keeps no state of its own.
local M = {}

M.PLAYER = "convoy"

-- A counter kept in the kernel; absent counts as zero.
function M.get(name)
  return vars.get(name) or 0
end

function M.add(name, n)
  vars.set(name, M.get(name) + n)
end

-- The ship types in the order of the composition table.
function M.types()
  local out = {}
  for _, row in ipairs(tables.composition) do
    out[#out + 1] = row.type
  end
  return out
end

-- The composition row of a ship type.
function M.ship(type)
  for _, row in ipairs(tables.composition) do
    if row.type == type then
      return row
    end
  end
  error("no ship type '" .. tostring(type) .. "' in tables.composition")
end

-- Ships of a type still with the convoy (damaged ones included), damaged,
-- sunk, and sent home with a carrier.
function M.afloat(type) return M.get("afloat_" .. type) end
function M.damaged(type) return M.get("damaged_" .. type) end
function M.lost(type) return M.get("lost_" .. type) end
function M.home(type) return M.get("home_" .. type) end
function M.sailed(type) return M.get("sailed_" .. type) end

-- The lowest and highest face of a table row (`roll: 4` or `roll: [2, 3]`).
function M.faces(row)
  if type(row.roll) == "table" then
    return row.roll[1], row.roll[2]
  end
  return row.roll, row.roll
end

-- Whether a face lies in a `[low, high]` pair.
function M.within(face, pair)
  return face >= pair[1] and face <= pair[2]
end

-- The row of a rolled table for a total; a total past either end of the
-- table reads the first or the last row. Returns the row and the total read.
function M.lookup(t, total)
  local rows = t.rows
  local low = M.faces(rows[1])
  local _, high = M.faces(rows[#rows])
  local read = math.max(low, math.min(high, total))
  for _, row in ipairs(rows) do
    local a, b = M.faces(row)
    if read >= a and read <= b then
      return row, read
    end
  end
  error("no row of the table covers the roll " .. read)
end

-- "4", "4+2=6", "4-3=1 (read as 1)": a roll with its modifier, in words.
function M.sum_text(natural, modifier, read)
  local total = natural + modifier
  local text = tostring(natural)
  if modifier ~= 0 then
    text = string.format("%d%+d=%d", natural, modifier, total)
  end
  if read ~= total then
    text = text .. " (read as " .. read .. ")"
  end
  return text
end

-- Modifiers as a list of `{source, value}` pairs: their sum, and their
-- sources in words (" (Reconnaissance plane +2, split +1)"; "" for none).
function M.modifiers(list)
  local total, parts = 0, {}
  for _, m in ipairs(list) do
    if m[2] ~= 0 then
      total = total + m[2]
      parts[#parts + 1] = string.format("%s %+d", m[1], m[2])
    end
  end
  return total, #parts > 0 and (" (" .. table.concat(parts, ", ") .. ")") or ""
end

-- Rolls a table of `tables` with modifiers (`{source, value}` pairs) and
-- logs the roll with the row it reads, e.g.
-- "contact roll 4+2=6: Contact (Reconnaissance plane +2)".
-- Returns the row and the roll in words ("4+2=6").
function M.roll_on(name, label, modifiers)
  local t = tables[name]
  local modifier, sources = M.modifiers(modifiers)
  local natural = dice.roll(t.dice, label)
  local row, read = M.lookup(t, natural + modifier)
  local text = M.sum_text(natural, modifier, read)
  game.log(string.format("%s %s: %s%s", label, text, row.result, sources))
  return row, text
end

-- The option row by id.
function M.option_row(id)
  for _, row in ipairs(tables.options) do
    if row.id == id then
      return row
    end
  end
  error("no option '" .. tostring(id) .. "' in tables.options")
end

-- The option in force this turn, or nil.
function M.active_option()
  local id = vars.get("option")
  if id and M.get("turn") <= M.get("option_until") then
    return M.option_row(id)
  end
  return nil
end

-- What the option in force adds to a roll (`contact`, `force`, ...), as a
-- `{source, value}` pair.
function M.option_mod(field)
  local row = M.active_option()
  if row and row[field] then
    return { row.id, row[field] }
  end
  return { "", 0 }
end

-- Appends a note to this turn's record, kept for the game sheet.
function M.note(text)
  local key = "turn_" .. M.get("turn")
  local old = vars.get(key)
  vars.set(key, old and (old .. "; " .. text) or text)
end

-- A ship count with its type's name ("1 cargo ship", "3 destroyers").
function M.ships(n, type)
  local row = M.ship(type)
  local name = n == 1 and row.name or row.plural
  return n .. " " .. string.lower(name)
end

return M
