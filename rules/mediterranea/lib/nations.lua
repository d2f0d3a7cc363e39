-- Nations and factions [1.2], [1.3], and the unit arrival chart [6.2]: who
-- belongs to which faction, which leaders a nation has, and what the chart
-- says about a nation in a turn (arrivals, ships, raiders, double moves,
-- status changes, removals, leaders). Filled from the data at load time
-- (`configure` and `prepare`); read-only during games.
local ipairs = ipairs
local map = require("lib.map")
local M = {}

-- Nations in turn order [4.1], and each one's place in it.
M.order = {}
local rank = {}
local faction = {}      -- nation -> player id
local nomadic = {}      -- nation -> true when it starts migrant
local leaders_of = {}   -- nation -> list of leader kinds
local leader_nation = {}
-- leader kind -> its nation, as a table for the loops that ask of every
-- counter in an area whether it is a leader. Read-only.
M.leader_kinds = leader_nation
local permanent = {}    -- leader -> true when marked P [5.7]
local chart = {}        -- nation -> turn -> list of available entries
local nations_of = {}   -- faction -> its nations, in set-up order

-- At load time, from game.yaml's pieces: each nation's faction (the owner
-- of its counters), its starting status and its leaders.
function M.configure(data)
  for _, placement in ipairs(data.pieces.setup or {}) do
    faction[placement.kind] = placement.owner
  end
  for name, k in pairs(data.pieces.kinds) do
    local attrs = k.attrs or {}
    if attrs.leader_of then
      leader_nation[name] = attrs.leader_of
    elseif attrs.nomadic then
      nomadic[name] = true
    end
  end
  local listed = {}
  for _, placement in ipairs(data.pieces.setup or {}) do
    local nation, owner = placement.kind, placement.owner
    if not leader_nation[nation] and not listed[nation] then
      listed[nation] = true
      nations_of[owner] = nations_of[owner] or {}
      table.insert(nations_of[owner], nation)
    end
  end
end

-- Whether the scenario has a chart (or set-up) entry: its suffix is one the scenario
-- takes [11]; an entry without a suffix is always taken (its areas are
-- checked when armies are placed).
local accepted = {}
function M.available(entry)
  local suffix = entry.suffix
  if suffix == nil then
    return true
  end
  if type(suffix) == "string" then
    suffix = { suffix }
  end
  for _, s in ipairs(suffix) do
    if accepted[s] then
      return true
    end
  end
  return false
end

-- [5.2], [5.5], [5.7] A leader takes the field once, with his own nation,
-- and leaves the game at the end of that nation-turn (or of its double
-- move): the chart may name him in one pulse of one turn only, so a chart
-- (or a balance overlay) that gives him a second turn, or another nation's
-- armies, is refused at load instead of doing nothing. Several entries of
-- one pulse may name him (the variants of a half-map scenario). `served`
-- keeps where each leader was met; `i` is the entry's place in the
-- nation's list, from 1 (the data path numbers items from 0).
local function check_leader(served, leader, nation, turn, pulse, i)
  local where = string.format("tables.arrivals.%s.%d", nation, i - 1)
  local own = leader_nation[leader]
  if own == nil then
    error(string.format("%s names the leader %s, but no piece kind %s has attrs.leader_of: "
      .. "add the leader's kind to pieces.kinds", where, leader, leader), 0)
  elseif own ~= nation then
    error(string.format("%s gives %s to the %s, but %s leads the %s (attrs.leader_of): "
      .. "a leader joins only his own nation's armies", where, leader, nation, leader, own), 0)
  end
  local first = served[leader]
  if first == nil then
    served[leader] = { turn = turn, pulse = pulse, where = where }
  elseif first.turn ~= turn or first.pulse ~= pulse then
    error(string.format("%s gives %s a second turn: he already took the field in turn %d "
      .. "(pulse %d, %s) and leaves the game after it [5.2], [5.7]; give this turn another "
      .. "leader (a piece kind with attrs.leader_of: %s)",
      where, leader, first.turn, first.pulse, first.where, nation), 0)
  end
end

function M.prepare()
  for i, nation in ipairs(tables.turn_order) do
    M.order[i] = nation
    rank[nation] = i
    chart[nation] = {}
    leaders_of[nation] = {}
  end
  for leader, nation in pairs(leader_nation) do
    local list = leaders_of[nation]
    list[#list + 1] = leader
  end
  for _, list in pairs(leaders_of) do
    table.sort(list)
  end
  for _, s in ipairs(tables.scenario.suffixes or {}) do
    accepted[s] = true
  end
  local served = {}
  for _, nation in ipairs(M.order) do
    for i, entry in ipairs(rawget(tables.arrivals, nation) or {}) do
      if M.available(entry) then
        for _, turn in ipairs(entry.turns or { entry.turn }) do
          local list = chart[nation][turn] or {}
          chart[nation][turn] = list
          list[#list + 1] = entry
          if entry.leader then
            check_leader(served, entry.leader, nation, turn, entry.pulse or 1, i)
          end
        end
        if entry.leader then
          permanent[entry.leader] = entry.P == true
        end
      end
    end
  end
end

-- Sorts a list of nations into turn order.
local function earlier(a, b) return rank[a] < rank[b] end
function M.sort(list)
  if #list > 1 then
    table.sort(list, earlier)
  end
  return list
end

function M.faction(nation) return faction[nation] end
function M.in_order(nation) return rank[nation] ~= nil end
function M.starts_nomadic(nation) return nomadic[nation] == true end
function M.leaders(nation) return leaders_of[nation] or {} end
function M.leader_nation(leader) return leader_nation[leader] end
function M.is_leader(kind) return leader_nation[kind] ~= nil end
-- A faction's nations: the kinds of its armies (its leaders are kinds of
-- their own), in set-up order.
function M.of_faction(player) return nations_of[player] or {} end
function M.permanent(leader) return permanent[leader] == true end

-- The chart's entries for a nation in a turn (an empty list when none).
local NONE = {}
function M.entries(nation, turn)
  return chart[nation] and chart[nation][turn] or NONE
end

-- Whether any entry of the turn sets a flag (`ships`, `raiders`, `double`).
function M.flag(nation, turn, flag)
  for _, entry in ipairs(M.entries(nation, turn)) do
    if entry[flag] then
      return true
    end
  end
  return false
end

-- The status change of [5.1] for a turn, or nil.
function M.status_change(nation, turn)
  local status
  for _, entry in ipairs(M.entries(nation, turn)) do
    status = entry.status or status
  end
  return status
end

-- Whether the nation is to receive (zero or more) reinforcements in an area
-- in a turn: what lets it enter or retreat to an external area [7.2.3.1],
-- [8.3.2].
function M.receives_in(nation, turn, area)
  for _, entry in ipairs(M.entries(nation, turn)) do
    for _, a in ipairs(entry.at or NONE) do
      if a == area then
        return true
      end
    end
  end
  return false
end

-- The entries of a turn that act in a pulse of the nation-turn: an entry
-- marked `pulse: 2` acts only in the second pulse of a double move, any
-- other only in the first [5.8.2].
function M.pulse_entries(nation, turn, pulse)
  local out = {}
  for _, entry in ipairs(M.entries(nation, turn)) do
    if (entry.pulse or 1) == pulse then
      out[#out + 1] = entry
    end
  end
  return out
end

-- Whether a nation has anything to do in a turn: armies or leaders on the
-- map, or an entry of the chart.
function M.active(nation, turn)
  if #M.entries(nation, turn) > 0 then
    return true
  end
  if #pieces.list { owner = faction[nation], kind = nation, on_board = true } > 0 then
    return true
  end
  for _, leader in ipairs(M.leaders(nation)) do
    if #pieces.list { owner = faction[leader], kind = leader, on_board = true } > 0 then
      return true
    end
  end
  return false
end

-- The areas an entry's armies may arrive in: those of its list in play.
function M.arrival_areas(entry)
  local out = {}
  for _, a in ipairs(entry.at or NONE) do
    if map.in_play(a) then
      out[#out + 1] = a
    end
  end
  return out
end

return M
