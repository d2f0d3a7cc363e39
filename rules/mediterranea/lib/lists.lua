-- Lists kept in a frame's context as text, "a|b|c" (a context holds
-- booleans, whole numbers and strings only): split with a plain search,
-- not a pattern (the sandbox's patterns cost some ten times more).
local find, sub = string.find, string.sub
local M = {}

-- The items of a list, in order; none for nil or "".
function M.split(text)
  local out, start = {}, 1
  if text == nil or text == "" then
    return out
  end
  while true do
    local bar = find(text, "|", start, true)
    if bar == nil then
      out[#out + 1] = sub(text, start)
      return out
    end
    out[#out + 1] = sub(text, start, bar - 1)
    start = bar + 1
  end
end

-- Whether an item is in a list.
function M.contains(text, item)
  return text ~= nil and find("|" .. text .. "|", "|" .. item .. "|", 1, true) ~= nil
end

return M
