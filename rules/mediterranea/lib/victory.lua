-- [4.2] and [10] Victory: territory awards at the end of each turn from the
-- factions' victory cards, kill awards from combat [8.2.8], and the final
-- net scores against the scenario's targets [10.3], [10.4]. Points are kept
-- per nation (`vp:NATION`) and per faction (the player variable `vp`).
local nations = require("lib.nations")
local armies = require("lib.armies")
local map = require("lib.map")
local M = {}
local get, add, get_player, add_player = vars.get, vars.add, vars.get_player, vars.add_player
local floor = math.floor

-- Points to a nation (and its faction).
function M.award(nation, points, why)
  if points == 0 then
    return
  end
  add("vp:" .. nation, points)
  add_player(nations.faction(nation), "vp", points)
  if game.narrating() then
    game.logf("%s score %d (%s).", nation, points, why)
  end
end

-- [10.2] Whether a territory award counts in this turn: on its `turns`, or
-- "Turn MT or N": on M if M is the scenario's last turn, else on N.
local function due(award, turn, last)
  if award.turns then
    for _, t in ipairs(award.turns) do
      if t == turn then
        return true
      end
    end
    return false
  end
  if award.or_last and award.or_last == last then
    return turn == award.or_last
  end
  return turn == award.turn
end

-- [4.2] The territorial victory award phase: every area a card lists for a
-- nation that holds it; halved (rounded down) when another nation shares it.
function M.territory(turn)
  local last = tables.scenario.last_turn
  for _, player in ipairs(game.players()) do
    for _, award in ipairs(rawget(tables.victory, player) or {}) do
      if award.areas and due(award, turn, last) then
        local nation, total = award.nation, 0
        for _, area in ipairs(map.areas) do
          local points = award.areas[area]
          if points then
            local held, alone = armies.holds(nation, area)
            if held then
              total = total + (alone and points or floor(points / 2))
            end
          end
        end
        M.award(nation, total, "territory, turn " .. turn)
      end
    end
  end
end

-- The kill award of [8.2.8]: what the shooting nation's card gives for an
-- army of the victim nation.
function M.kill_value(shooter, victim)
  for _, award in ipairs(rawget(tables.victory, nations.faction(shooter)) or {}) do
    if award.nation == shooter and award.kills then
      return award.kills[victim] or 0
    end
  end
  return 0
end

-- [10.3] A faction's net victory score: its points less its target.
function M.net(player)
  return (get_player(player, "vp") or 0) - (rawget(tables.scenario.targets, player) or 0)
end

-- Marks the nation's faction as taking part in the game when the nation
-- has an army on the map (called in each of its nation-turns).
function M.mark_played(nation)
  local key = "played:" .. nations.faction(nation)
  if not get(key) and #armies.on_map(nation) > 0 then
    vars.set(key, true)
  end
end

-- Whether a faction took part: one of its nations had an army on the map
-- in its own nation-turn.
function M.played(player)
  return get("played:" .. player) == true
end

-- [3.3], [10.4] The end of the scenario: the largest net score among the
-- factions that took part wins (a faction none of whose nations ever had
-- an army on the map never played, so it cannot win, whatever its target);
-- a tie for the lead is a draw.
function M.finish()
  local scores, best, winner = {}, nil, nil
  for _, player in ipairs(game.players()) do
    local net = M.net(player)
    scores[player] = net
    if M.played(player) then
      if best == nil or net > best then
        best, winner = net, player
      elseif net == best then
        winner = nil
      end
    end
  end
  game.finish {
    winner = winner,
    reason = "the scenario ends after turn " .. tables.scenario.last_turn,
    scores = scores,
  }
end

return M
