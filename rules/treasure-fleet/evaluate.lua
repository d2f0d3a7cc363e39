-- The bots' heuristic (not a rule of the game): how good the position
-- looks to `player`. It runs on a sample of the game, where the enemy's
-- cargo and hand are guesses, so it reads only what the player may know.
-- VP at home count most; then treasure aboard own ships, worth more the
-- nearer home it is; then the fleets' combat points.
local fleet = require("lib.fleet")
local victory = require("lib.victory")
local attr = pieces.attr

-- Own treasure afloat, discounted by the columns still to sail home.
local function afloat_worth(side)
  local home, worth = fleet.box[fleet.home(side)][1], 0
  for _, id in ipairs(fleet.fleet(side)) do
    local at = fleet.box[pieces.where(id)]
    local cargo = attr(id, "cargo") + (attr(id, "prize") and attr(id, "max_cp") or 0)
    local columns = at and math.abs(at[1] - home) or 6
    worth = worth + cargo * (1 - columns / 10)
  end
  return worth
end

-- Combat points of a side's fleet.
local function strength(side)
  local cp = 0
  for _, id in ipairs(fleet.fleet(side)) do
    cp = cp + attr(id, "cp")
  end
  return cp
end

-- Own ships docked where they load the most, for a fleet still empty.
local function treasure_prospects(side)
  local home, score = fleet.box[fleet.home(side)][1], 0
  for _, id in ipairs(fleet.on_map(side)) do
    local at = fleet.box[pieces.where(id)]
    if attr(id, "cargo") < 100 then
      score = score + math.abs(at[1] - home) * (attr(id, "docked") and 3 or 1)
    end
  end
  return score
end

function rules.evaluate(player)
  local enemy = fleet.enemy(player)
  return 4 * (victory.vp(player) - victory.vp(enemy))
    + afloat_worth(player)
    + (strength(player) - strength(enemy)) / 2
    + treasure_prospects(player)
end
