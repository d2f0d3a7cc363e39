-- Ports (rules 7 and 9e): a ship docked at an island or a land mass
-- either loads treasure or repairs each turn, never both. Treasure grows
-- with the box's distance in columns from the loading side's home port;
-- at most 200 VP aboard. Repairs add CP up to the ship's starting CP.
local fleet = require("lib.fleet")
local M = {}
local attr, set_attr = pieces.attr, pieces.set_attr

-- The treasure factor of a box for a side: its distance in columns from
-- the side's home port.
function M.distance(side, box)
  return math.abs(fleet.box[box][1] - fleet.box[fleet.home(side)][1])
end

function M.can_load(id, side, box)
  return box ~= fleet.home(side) and attr(id, "cargo") < tables.ports.max_cargo
    and M.distance(side, box) > 0
end

function M.can_repair(id)
  return attr(id, "cp") < attr(id, "max_cp")
end

-- Loading: the roll times the distance times the factor, up to the limit.
function M.load(id, side, box)
  local t = tables.ports
  local roll = dice.roll_secret(t.treasure.dice, side, "treasure")
  local loaded = math.min(roll * M.distance(side, box) * t.treasure.factor, t.max_cargo - attr(id, "cargo"))
  set_attr(id, "cargo", attr(id, "cargo") + loaded)
  game.log(string.format("%s loads %d VP of treasure.", fleet.name(id), loaded), side)
  game.logf("%s loads treasure at %s.", fleet.name(id), fleet.place(box))
end

-- Repairing: home port or foreign port rate, up to the starting CP. The
-- roll and the CP are the repairing side's secret (rule 11: the enemy
-- knows a ship's strength only from a battle).
function M.repair(id, side, box)
  local rate = box == fleet.home(side) and tables.ports.repair.home or tables.ports.repair.foreign
  local cp = math.min(attr(id, "cp") + dice.roll_secret(rate, side, "repair"), attr(id, "max_cp"))
  set_attr(id, "cp", cp)
  game.log(string.format("%s repairs to %d CP.", fleet.name(id), cp), side)
  game.logf("%s repairs at %s.", fleet.name(id), fleet.place(box))
end

-- The docked ships of a side whose work this turn is not yet done, with
-- what each may do: { id, box, load, repair }.
function M.work(side, turn)
  local out = {}
  for _, id in ipairs(fleet.on_map(side)) do
    local box = pieces.where(id)
    if attr(id, "docked") and attr(id, "worked") ~= turn then
      out[#out + 1] = { id = id, box = box, load = M.can_load(id, side, box), repair = M.can_repair(id) }
    end
  end
  return out
end

return M
