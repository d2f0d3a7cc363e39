-- Volleys: each line in turn fires or holds, until each has had its turns.
local combat = require("lib.combat")

phases.volleys = {}

function phases.volleys.run(frame)
  if frame.step >= 2 * tables.volleys.each then
    local blue = vars.get_player("blue", "hits") or 0
    local red = vars.get_player("red", "hits") or 0
    local winner = blue > red and "blue" or red > blue and "red" or nil
    game.finish { winner = winner, reason = "the volleys are fired", scores = { blue = blue, red = red } }
    return nil
  end
  return { "fire", "hold" }
end

function phases.volleys.choose(frame, choice)
  if choice == "fire" then
    if combat.volley(frame.player) then
      vars.add_player(frame.player, "hits", 1)
    end
  else
    vars.set_player(frame.player, "steady", tables.volleys.steady)
  end
  frame.step = frame.step + 1
  frame.player = game.next_player(frame.player)
end
