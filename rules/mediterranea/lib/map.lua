-- The map [1.4]: what kind each area is, how areas touch (edge kinds are
-- listed at the top of game.yaml), which areas are in play in the scenario
-- [11], which are coastal, and how far apart areas are (for the "nearest"
-- precedence of [6.2]). Built once from the board by `prepare`; read-only
-- afterwards.
local ipairs = ipairs
local M = {}

-- Areas in board order (the canonical order of every list the rules make).
M.areas = {}
local kind, edges, coastal, in_play, order = {}, {}, {}, {}, {}
local distance, adjacent = {}, {}

-- Steps between two areas over any edge, counted over the areas in play.
local function distances_from(start)
  local d, queue, head = { [start] = 0 }, { start }, 1
  while queue[head] do
    local a = queue[head]
    head = head + 1
    for _, e in ipairs(edges[a]) do
      if d[e.to] == nil and in_play[e.to] then
        d[e.to] = d[a] + 1
        queue[#queue + 1] = e.to
      end
    end
  end
  return d
end

function M.prepare()
  local half = tables.scenario.half
  for i, name in ipairs(board.spaces()) do
    local space = board.space(name)
    M.areas[i] = name
    order[name] = i
    kind[name] = space.kind
    edges[name] = board.edges(name)
    local keep = half == "whole"
    for _, tag in ipairs(space.tags) do
      if tag == half then
        keep = true
      end
    end
    in_play[name] = keep
  end
  for _, name in ipairs(M.areas) do
    local kept = {}
    for _, e in ipairs(edges[name]) do
      if e.kind == "coast" then
        coastal[name] = true
      end
      -- Movement and retreats never cross into an area out of play; each
      -- edge knows the kind of area it leads to.
      if in_play[e.to] then
        e.to_kind = kind[e.to]
        kept[#kept + 1] = e
      end
    end
    edges[name] = kept
  end
  for _, name in ipairs(M.areas) do
    distance[name] = distances_from(name)
    local near = {}
    for _, e in ipairs(edges[name]) do
      if (e.kind == "land" or e.kind == "strait") and kind[e.to] ~= "sea" then
        near[#near + 1] = e.to
      end
    end
    adjacent[name] = near
  end
end

function M.kind(area) return kind[area] end
function M.is_land(area) return kind[area] == "land" end
function M.is_sea(area) return kind[area] == "sea" end
function M.is_external(area) return kind[area] == "external" end
function M.coastal(area) return coastal[area] == true end
function M.in_play(area) return in_play[area] == true end
-- Tables, for the loops that read them for every area they take (a table
-- read instead of a call): area -> the edges from it into areas in play
-- (`{to, kind, to_kind}`), area -> board order, area -> kind. Read-only.
M.edges_of, M.order_of, M.kind_of = edges, order, kind

-- Steps from one area to another; a large number when no path stays in play.
function M.distance(a, b)
  return distance[a][b] or 1000
end

-- The areas one land step away (land edges and the land strait), the
-- adjacency of [8.2.3.1] and [8.3.6]; crossing arrows and coasts are not.
-- Read-only: the list is built once, in `prepare`.
function M.adjacent_land(area)
  return adjacent[area]
end

-- Sorts a list of area names into board order: by their numbers, which
-- `table.sort` compares without calling back into Lua.
function M.sort(list)
  local n = #list
  if n > 1 then
    for i = 1, n do
      list[i] = order[list[i]]
    end
    table.sort(list)
    for i = 1, n do
      list[i] = M.areas[list[i]]
    end
  end
  return list
end

return M
