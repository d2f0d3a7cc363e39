-- Optional rule 1: the line that fires second has +1 on every volley.
-- It keeps the module's function and puts a wrapper in its place: every
-- caller of combat.modifier (combat.volley here) now gets the wrapper.
local combat = require("lib.combat")

local modifier = combat.modifier
function combat.modifier(player)
  local bonus = player ~= game.first_player() and 1 or 0
  return modifier(player) + bonus
end
