-- The shells, as a fresh list of choices for a phase to offer.
local function shells()
  return { table.unpack(tables.shells) }
end

-- The shell game. Rule 1: three rounds; in each, Blue hides the pearl,
-- then Red lifts a shell. Red wins by finding the pearl twice.
phases.round = {
  run = function(frame)
    if frame.step < tables.rounds then
      frame.step = frame.step + 1
      game.push_phase("seek", "red")
      game.push_phase("hide", "blue")
      return true
    end
    local found = vars.get_player("red", "found") or 0
    game.finish{
      winner = found >= tables.finds_to_win and "red" or "blue",
      reason = "Red found the pearl " .. found .. " times",
    }
  end,
}

-- Rule 2: Blue hides the pearl. Where it lies is a variable of Blue's,
-- which only Blue sees (it is not in public_player_vars).
phases.hide = {
  run = function(frame)
    if frame.step == 0 then return shells() end
  end,
  choose = function(frame, shell)
    frame.step = 1
    vars.set_player("blue", "pearl", shell)
  end,
}

-- Rule 3: Red lifts a shell; the pearl is shown to both and taken back.
phases.seek = {
  run = function(frame)
    if frame.step == 0 then return shells() end
  end,
  choose = function(frame, shell)
    frame.step = 1
    local pearl = vars.get_player("blue", "pearl")
    if shell == pearl then vars.add_player("red", "found", 1) end
    game.log("The pearl was under the " .. pearl .. " shell.")
    vars.set_player("blue", "pearl", nil)
  end,
}

-- The sampler. A search bot playing Red plays on samples of the game, in
-- which Blue's "pearl" has been taken out: Red never saw it. While Red is
-- to lift a shell, the pearl lies under one of them; this sampler reads
-- it as any shell alike (a model of Blue, not the truth: the truth is not
-- in the sample to read) and draws it with the game's dice, which are
-- reseeded for every sample.
function rules.sample(player)
  local frames = game.frames()
  if player == "red" and frames[#frames].phase == "seek" then
    vars.set_player("blue", "pearl", shells()[dice.roll("1D" .. #tables.shells)])
  end
end

-- The bots' heuristic: Red's finds, good for Red and bad for Blue.
function rules.evaluate(player)
  local found = vars.get_player("red", "found") or 0
  return player == "red" and found or -found
end
