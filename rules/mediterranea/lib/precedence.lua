-- [6.2] Precedence of choices: an arrival chart location (or a removal)
-- lists rules separated by commas; the leftmost decides, each rule to its
-- right only breaks the ties left by those before it, and whatever ties
-- remain are the faction's choice. A rule is `coast`, `own`, `empty`, or
-- `{ nearest: AREA }` / `{ farthest: AREA }`.
local map = require("lib.map")
local armies = require("lib.armies")
local M = {}

-- How well an area meets one rule: higher is better.
local function score(rule, area, nation)
  if rule == "coast" then
    return map.coastal(area) and 1 or 0
  elseif rule == "own" then
    return #armies.at(nation, area) > 0 and 1 or 0
  elseif rule == "empty" then
    return armies.alone(nation, area) and 1 or 0
  elseif type(rule) == "table" and rule.nearest then
    return -map.distance(area, rule.nearest)
  elseif type(rule) == "table" and rule.farthest then
    return map.distance(area, rule.farthest)
  end
  error("unknown precedence rule in the arrival chart: " .. tostring(rule))
end

-- The candidates that the rules leave for the player to choose among.
function M.best(candidates, rules, nation)
  local left = candidates
  for _, rule in ipairs(rules or {}) do
    if #left <= 1 then
      break
    end
    local best, kept = nil, {}
    for _, area in ipairs(left) do
      local s = score(rule, area, nation)
      if best == nil or s > best then
        best, kept = s, { area }
      elseif s == best then
        kept[#kept + 1] = area
      end
    end
    left = kept
  end
  return left
end

return M
