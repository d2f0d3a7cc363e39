-- The isles: nobody does anything but pass; the map's notes say the turn
-- and whose eyes they are for.
phases.wait = {}

function phases.wait.run(frame)
  return { "pass" }
end

function phases.wait.choose(frame, choice)
  frame.player = game.next_player(frame.player)
end

function rules.map_notes(player)
  local who = player == "" and "the table" or player
  return { "Turn " .. vars.get("turn"), "Notes for " .. who }
end
