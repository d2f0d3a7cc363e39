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

-- The list without its first `item` (the list itself when it has none).
-- A plain search: an area's name may hold a pattern's magic characters
-- ("Jura-Alps"), which `string.gsub` would read as a pattern.
function M.remove(text, item)
  local at = find("|" .. text .. "|", "|" .. item .. "|", 1, true)
  if at == nil then
    return text
  end
  local before = at > 1 and sub(text, 1, at - 2) or ""
  local after = sub(text, at + #item + 1)
  if before == "" or after == "" then
    return before .. after
  end
  return before .. "|" .. after
end

return M
