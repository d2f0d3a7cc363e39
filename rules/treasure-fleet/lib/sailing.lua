-- Strategic movement (rule 6): each turn a ship at sea plays a Favorable
-- Wind card to sail 1 or 2 boxes in its direction (no diagonals), a No
-- Wind card to hold its box, or drifts one box in a random direction.
-- Docked ships need no card to stay. A ship that sails off the map is in
-- limbo and returns each turn with a chance of half its CP in percent.
local fleet = require("lib.fleet")
local wind = require("lib.wind")
local victory = require("lib.victory")
local M = {}
local attr, set_attr, where = pieces.attr, pieces.set_attr, pieces.where

-- The orders a ship may be given with the side's hand (`held`, its
-- cards counted by kind: wind.counts), as choice texts added to `out`:
-- "Revenge sails E 2", "Revenge sails E 1 and docks", "Revenge holds",
-- "Revenge docks", "Revenge drifts", "Revenge stays docked".
function M.orders(id, side, held, out)
  local name, box = fleet.name(id), where(id)
  if attr(id, "docked") then
    out[#out + 1] = name .. " stays docked"
  else
    if fleet.may_dock(side, box) then
      out[#out + 1] = name .. " docks"
    end
    if held[wind.NO_WIND] then
      out[#out + 1] = name .. " holds"
    end
    out[#out + 1] = name .. " drifts"
  end
  local home, most = fleet.home(side), tables.sailing.max_boxes
  for _, letter in ipairs(fleet.LETTERS) do
    if held[wind.FAVORABLE[letter]] then
      local sails = name .. " sails " .. letter .. " "
      for boxes = 1, most do
        local to, off = fleet.sail_from(box, letter, boxes)
        out[#out + 1] = sails .. boxes
        if not off and to ~= home and fleet.may_dock(side, to) then
          out[#out + 1] = sails .. boxes .. " and docks"
        end
      end
    end
  end
  return out
end

-- A ship off the map goes into limbo, remembering the box it left.
local function into_limbo(id, last)
  set_attr(id, "left_from", last)
  set_attr(id, "docked", false)
  pieces.move(id, "limbo")
  game.logf("%s is blown off the map into limbo.", fleet.name(id))
end

-- Moves a ship to a box (or into limbo), docking it if asked; reaching
-- its home port, it docks and unloads.
local function arrive(id, side, to, off, dock)
  if off then
    return into_limbo(id, to)
  end
  pieces.move(id, to)
  set_attr(id, "docked", dock or false)
  if to == fleet.home(side) then
    victory.arrive_home(id)
  end
end

-- Whether a ship at sea may be asked to dock where chance left it (after
-- a drift or a return from limbo): a box where it may dock, not its home
-- port (where it docks and unloads by itself).
function M.may_dock_here(id, side)
  local box = where(id)
  return fleet.box[box] ~= nil and not attr(id, "docked") and box ~= fleet.home(side) and fleet.may_dock(side, box)
end

-- Carries out an order chosen among `M.orders`.
function M.carry_out(id, side, order)
  local box = where(id)
  local letter, boxes = order:match(" sails (%a) (%d)")
  if letter then
    wind.play(side, wind.FAVORABLE[letter])
    local to, off = fleet.sail_from(box, letter, tonumber(boxes))
    game.logf("%s sails %s %s to %s.", fleet.name(id), letter, boxes, off and "the edge and beyond" or fleet.place(to))
    return arrive(id, side, to, off, order:find("and docks", 1, true) ~= nil)
  elseif order:find(" holds$") then
    wind.play(side, wind.NO_WIND)
  elseif order:find(" docks$") then
    set_attr(id, "docked", true)
    game.logf("%s docks at %s.", fleet.name(id), fleet.place(box))
    victory.unload_if_home(id)
  elseif order:find(" drifts$") then
    M.drift(id, side)
  end
end

-- Drift: without a card, a ship at sea moves one box in a random direction.
function M.drift(id, side)
  local letter = fleet.LETTERS[dice.roll("1D4", "drift direction")]
  local to, off = fleet.sail_from(where(id), letter, 1)
  game.logf("%s drifts %s.", fleet.name(id), letter)
  arrive(id, side, to, off, false)
end

-- Limbo: a ship there returns with a chance of CP/2 percent, at sea in
-- the box it left (docked and unloading if that is its home port).
-- Whether it came back.
function M.return_from_limbo(id, side)
  local chance = fleet.fraction(attr(id, "cp"), tables.sailing.limbo_return)
  if dice.roll("D100", fleet.name(id) .. " returns from limbo") > chance then
    return false
  end
  local box = attr(id, "left_from")
  pieces.move(id, box)
  game.logf("%s returns from limbo to %s.", fleet.name(id), fleet.place(box))
  if box == fleet.home(side) then
    victory.arrive_home(id)
  end
  return true
end

return M
