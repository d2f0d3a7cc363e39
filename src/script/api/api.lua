-- The part of the API written in Lua: narration that formats its text only
-- when the game is narrated (the REPL), so a simulation pays for a log line
-- no more than a function call. `emit(text, player or nil)` is a native
-- (src/script/api/game.rs). Returns the host's switch for narration.
local emit = ...
local narrating = true
local format, select, tostring, concat = string.format, select, tostring, table.concat

-- Whether anyone reads this game's log: skip work that only feeds it.
function game.narrating()
  return narrating
end

-- A log line for everyone, or only for `player`.
function game.log(text, player)
  if narrating then
    emit(text, player)
  end
end

-- A log line for everyone, formatted like string.format.
function game.logf(fmt, ...)
  if narrating then
    emit(format(fmt, ...))
  end
end

-- `print` writes to the game log: a script's output belongs to the game's
-- narration, not to the terminal behind the REPL (or a simulation's JSON).
function print(...)
  if narrating then
    local parts = { ... }
    for i = 1, select("#", ...) do
      parts[i] = tostring(parts[i])
    end
    emit(concat(parts, "\t", 1, select("#", ...)))
  end
end

return function(on)
  narrating = on
end
