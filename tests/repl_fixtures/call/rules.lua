-- Calls: ten calls in turn, each one logged.
phases.calls = {}

function phases.calls.run(frame)
  if frame.step >= 10 then
    return nil
  end
  return { "heads", "tails" }
end

function phases.calls.choose(frame, choice)
  game.log(frame.player .. " calls " .. choice)
  frame.step = frame.step + 1
  frame.player = game.next_player(frame.player)
end
