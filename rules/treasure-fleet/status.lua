-- What a player reads under the board at the REPL: the VP totals, the
-- strategic map with each box's ships, the fleets' status cards, the
-- hands, and the battle board while a battle is on. `viewer` is a player
-- id, or "" for the designer's all-seeing view: the enemy's cargo and
-- hand are shown to the all-seeing view only, and the enemy's class and
-- CP only as far as a battle showed them (rule 11).
local fleet = require("lib.fleet")
local wind = require("lib.wind")
local battle = require("lib.battle")
local victory = require("lib.victory")
local attr = pieces.attr

local TERRAIN = { sea = ".", island = "*", land = "#", port = "H" }
local ARROWS = { "^", "/", ">", "\\", "v", "/", "<", "\\" }

-- A class's name from its starting CP (tables.classes).
local function class_name(max_cp)
  for _, class in ipairs(tables.classes) do
    if class.cp == max_cp then
      return class.name
    end
  end
  return "?"
end

-- A ship's class and CP as a viewer knows them: its own side's in full;
-- an enemy's as the last battle showed them ("45/90 CP seen"), or "?".
local function strength(id, own)
  if own then
    return string.format("%-6s %2d/%2d CP", class_name(attr(id, "max_cp")), attr(id, "cp"), attr(id, "max_cp"))
  end
  local max_cp = attr(id, "known_max_cp")
  if not max_cp then
    return string.format("%-6s  ?/ ? CP", "?")
  end
  return string.format("%-6s %2d/%2d CP seen", class_name(max_cp), attr(id, "known_cp"), max_cp)
end

local function where(id)
  local at = pieces.where(id)
  if fleet.square[at] then
    return "battle " .. at:sub(8)
  elseif at == "limbo" then
    return "limbo (off " .. attr(id, "left_from") .. ")"
  end
  return at .. (attr(id, "docked") and " docked" or " at sea")
end

-- The strategic map: each box its terrain mark and the count of each
-- side's ships there, count first ("2A1B"), so that no mark reads as a
-- box's name (a2); ships on the battle board count in no box.
local function map(lines)
  local count = {}
  for _, side in ipairs(game.players()) do
    for _, id in ipairs(fleet.on_map(side)) do
      local box = pieces.where(id)
      count[box] = count[box] or {}
      count[box][side] = (count[box][side] or 0) + 1
    end
  end
  local columns, rows = board.columns(), board.rows()
  local header = "     "
  for c = 1, columns do
    header = header .. string.format("%-8s", string.char(96 + c))
  end
  lines[#lines + 1] = header
  for r = rows, 1, -1 do
    local line = string.format("%3d  ", r)
    for c = 1, columns do
      local box = fleet.box_at(c, r)
      local here = ""
      for _, side in ipairs(game.players()) do
        local n = count[box] and count[box][side]
        if n then
          here = here .. n .. side:upper()
        end
      end
      line = line .. string.format("%-8s", TERRAIN[fleet.box[box][3]] .. here)
    end
    lines[#lines + 1] = line
  end
  local first = game.players()[1]
  lines[#lines + 1] = string.format("     . sea  * island  # land  H home port; 2%s = two ships of %s", first:upper(),
    game.player_name(first))
end

-- Each side's status cards; the cargo only to its own side.
local function cards_of(lines, viewer)
  for _, side in ipairs(game.players()) do
    local own = viewer == "" or viewer == side
    lines[#lines + 1] = string.format("%s (home %s):", game.player_name(side), fleet.place(fleet.home(side)))
    for _, id in ipairs(fleet.fleet(side)) do
      local cargo = own and string.format("%3d VP", attr(id, "cargo")) or "  ? VP"
      lines[#lines + 1] = string.format("  %-9s %s  %s  %s%s", fleet.name(id), strength(id, own), cargo, where(id),
        attr(id, "prize") and "  (prize)" or "")
    end
    if own then
      for _, id in ipairs(pieces.list { owner = side, at = "reserve" }) do
        lines[#lines + 1] = string.format("  %-9s %-6s to be placed: %s", fleet.name(id), class_name(attr(id, "max_cp")),
          attr(id, "plan") or "not yet")
      end
    end
    local held = wind.hand(side)
    if own then
      local faces = {}
      for _, card in ipairs(held) do
        faces[#faces + 1] = game.kind_name(pieces.kind(card))
      end
      table.sort(faces)
      lines[#lines + 1] = "  hand: " .. table.concat(faces, ", ")
    else
      lines[#lines + 1] = string.format("  hand: %d cards", #held)
    end
  end
end

-- The battle board, when ships are on it: each ship its side letter and
-- an arrow for its heading ("a>"), moored ships in brackets.
local function battle_board(lines)
  local any = #battle.ships(game.players()[1]) + #battle.ships(game.players()[2]) > 0
  if not any then
    return
  end
  lines[#lines + 1] = "Battle board:"
  lines[#lines + 1] = "     a   b   c   d   e   f   g   h"
  for r = 8, 1, -1 do
    local line = string.format("%3d ", r)
    for c = 1, 8 do
      local ids = pieces.at(fleet.square_at(c, r))
      local id = ids[1]
      if id then
        local mark = pieces.owner(id) .. ARROWS[attr(id, "heading")]
        line = line .. (attr(id, "moored") and "[" .. mark .. "]" or " " .. mark .. " ")
      else
        line = line .. "  . "
      end
    end
    lines[#lines + 1] = line
  end
end

function rules.status(viewer)
  local lines = {}
  local vp = victory.scores()
  local parts = {}
  for _, side in ipairs(game.players()) do
    parts[#parts + 1] = string.format("%s %d", game.player_name(side), vp[side])
  end
  lines[#lines + 1] = string.format("Turn %d. VP at home: %s (%d to win). Deck %d, discard %d.",
    vars.get("turn"), table.concat(parts, ", "), tables.victory.vp, #pieces.at("deck"), #pieces.at("discard"))
  map(lines)
  cards_of(lines, viewer)
  battle_board(lines)
  return table.concat(lines, "\n") .. "\n"
end
