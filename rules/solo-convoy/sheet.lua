-- Solitaire convoy: what the player reads. `rules.status` is the block the
-- REPL shows each turn; `rules.sheet` fills in the rule book's game sheet.
local convoy = require("lib.convoy")

-- A counter, with unset as zero (the status is shown before set-up too).
local function get(name)
  return vars.get(name) or 0
end

-- The option in force, if it still runs this turn.
local function active_option()
  local row = convoy.option_in_force()
  return row and get("turn") <= get("option_until") and row or nil
end

-- The turn track: `x` sailed, `>` this turn, `f` friendly waters ahead,
-- `h` the halfway turn, `.` open sea.
local function track()
  local turn, length, friendly = get("turn"), get("length"), get("friendly")
  local halfway = (length + 1) // 2
  local cells = {}
  for t = 1, length do
    local c = "."
    if t < turn then
      c = "x"
    elseif t == turn then
      c = ">"
    elseif t <= friendly then
      c = "f"
    elseif t == halfway and not vars.get("halfway_done") then
      c = "h"
    end
    cells[#cells + 1] = c
  end
  return "[" .. table.concat(cells) .. "]"
end

-- The convoy as rows: name, sailed, afloat, damaged, lost, home.
local function convoy_rows()
  local rows = {}
  for _, row in ipairs(tables.composition) do
    local t = row.type
    rows[#rows + 1] = { row.plural, convoy.count("sailed", t), convoy.count("afloat", t), convoy.count("damaged", t),
      convoy.count("lost", t), convoy.count("home", t) }
  end
  return rows
end

local HEADINGS = { "Ships", "sailed", "afloat", "damaged", "lost", "home" }

-- The option in force and the ones left, in words.
local function options_text()
  local active = active_option()
  local parts = {}
  if active then
    local mods = {}
    for _, field in ipairs { "contact", "force", "target", "interception", "attack" } do
      if active[field] then
        mods[#mods + 1] = string.format("%s %+d", field, active[field])
      end
    end
    parts[#parts + 1] = string.format("%s active through turn %d (%s)", active.id,
      get("option_until"), table.concat(mods, ", "))
  else
    parts[#parts + 1] = "none active"
  end
  local unused = {}
  for _, row in ipairs(tables.options) do
    if not vars.get("used_" .. row.id) then
      unused[#unused + 1] = row.id
    end
  end
  parts[#parts + 1] = "unused: " .. (#unused > 0 and table.concat(unused, ", ") or "none")
  return table.concat(parts, "; ")
end

-- Status: the convoy, the turn track, the option and the carried modifier.
function rules.status(player)
  local turn, length = get("turn"), get("length")
  local out = {}
  out[#out + 1] = string.format("Turn %d of %d  %s  (x sailed, > now, f friendly, h halfway)",
    math.min(turn, length), length, track())
  out[#out + 1] = string.format("Friendly waters through turn %d; halfway at turn %d (%s)",
    get("friendly"), (length + 1) // 2, vars.get("halfway_done") and "done" or "to come")
  out[#out + 1] = string.format("%-18s %6s %6s %7s %4s %4s", table.unpack(HEADINGS))
  for _, r in ipairs(convoy_rows()) do
    out[#out + 1] = string.format("%-18s %6d %6d %7d %4d %4d", table.unpack(r))
  end
  out[#out + 1] = "Options: " .. options_text()
  local from = get("next_turn") ~= 0 and (convoy.carried_from[get("next_turn")] or "last turn")
  out[#out + 1] = string.format("Next contact roll modifier: %+d%s; interceptions: %d; score so far: %d",
    get("next_turn"), from and (" (" .. from .. ")") or "", get("interceptions"), (rules.score()))
  return table.concat(out, "\n") .. "\n"
end

-- The sheet's parts, shared by both formats.
local function sheet_parts()
  local turns = {}
  for t = 1, get("length") do
    turns[#turns + 1] = { t, vars.get("turn_" .. t) or (t < get("turn") and "" or "(to come)") }
  end
  local total, lines = rules.score(true)
  return turns, lines, total
end

local function text_sheet()
  local turns, lines, total = sheet_parts()
  local out = { "SOLITAIRE CONVOY: GAME SHEET", "" }
  out[#out + 1] = string.format("%-18s %6s %6s %7s %4s %4s", table.unpack(HEADINGS))
  for _, r in ipairs(convoy_rows()) do
    out[#out + 1] = string.format("%-18s %6d %6d %7d %4d %4d", table.unpack(r))
  end
  out[#out + 1] = ""
  out[#out + 1] = string.format("Journey: %d turns; friendly waters through turn %d; options: %s",
    get("length"), get("friendly"), options_text())
  out[#out + 1] = ""
  for _, t in ipairs(turns) do
    out[#out + 1] = string.format("Turn %2d  %s", t[1], t[2])
  end
  out[#out + 1] = ""
  for _, l in ipairs(lines) do
    out[#out + 1] = string.format("%-28s %+5d", l[1], l[2])
  end
  out[#out + 1] = string.format("%-28s %5d", "Score", total)
  return table.concat(out, "\n") .. "\n"
end

local function markdown_sheet()
  local turns, lines, total = sheet_parts()
  local out = { "# Solitaire Convoy: game sheet", "", "## Convoy", "" }
  out[#out + 1] = "| " .. table.concat(HEADINGS, " | ") .. " |"
  out[#out + 1] = "| --- | ---: | ---: | ---: | ---: | ---: |"
  for _, r in ipairs(convoy_rows()) do
    out[#out + 1] = string.format("| %s | %d | %d | %d | %d | %d |", table.unpack(r))
  end
  out[#out + 1] = ""
  out[#out + 1] = string.format("Journey of %d turns; friendly waters through turn %d. Options: %s.",
    get("length"), get("friendly"), options_text())
  out[#out + 1] = ""
  out[#out + 1] = "## Turns"
  out[#out + 1] = ""
  out[#out + 1] = "| Turn | Record |"
  out[#out + 1] = "| ---: | --- |"
  for _, t in ipairs(turns) do
    out[#out + 1] = string.format("| %d | %s |", t[1], (t[2]:gsub("|", "\\|")))
  end
  out[#out + 1] = ""
  out[#out + 1] = "## Score"
  out[#out + 1] = ""
  out[#out + 1] = "| Line | Points |"
  out[#out + 1] = "| --- | ---: |"
  for _, l in ipairs(lines) do
    out[#out + 1] = string.format("| %s | %+d |", l[1], l[2])
  end
  out[#out + 1] = string.format("| **Score** | **%d** |", total)
  return table.concat(out, "\n") .. "\n"
end

-- Game sheet: the journey turn by turn, the losses and the score, as plain
-- text ("text") or Markdown ("markdown").
function rules.sheet(format)
  if format == "markdown" then
    return markdown_sheet()
  elseif format == "text" or format == nil then
    return text_sheet()
  end
  error("rules.sheet: format '" .. tostring(format) .. "' is neither 'text' nor 'markdown'")
end
