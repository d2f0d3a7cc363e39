-- Rolls: ten turns in turn, each a throw of twelve dice or a hold.
phases.turns = {}

function phases.turns.run(frame)
  if frame.step >= 10 then
    return nil
  end
  return { "throw", "hold" }
end

function phases.turns.choose(frame, choice)
  if choice == "throw" then
    dice.roll("12D6", frame.player)
  end
  frame.step = frame.step + 1
  frame.player = game.next_player(frame.player)
end
