-- Mediterranea: the rule book's procedures, one module per section under
-- lib/ (see each file's header). This file wires the modules to the
-- scripted phases named in game.yaml, and builds the lookups they read
-- once the data is final.
local map = require("lib.map")
local nations = require("lib.nations")
local sequence = require("lib.sequence")
local reinforcement = require("lib.reinforcement")
local movement = require("lib.movement")
local combat = require("lib.combat")
local overpopulation = require("lib.overpopulation")
local victory = require("lib.victory")
local status = require("lib.status")

-- At load time: each nation's faction and leaders, from the pieces.
function configure(data)
  nations.configure(data)
end

-- Each player's filter for its armies on the map (`rules.evaluate`), made
-- once the factions' nations are known.
local armies_on_map = {}

function prepare()
  map.prepare()
  nations.prepare()
  reinforcement.prepare()
  for _, player in ipairs(game.players()) do
    armies_on_map[player] = { owner = player, kind = nations.of_faction(player), on_board = true }
  end
end

phases.setup = { run = function() sequence.setup() end }
phases.turn = { run = sequence.turn }
phases.nation_turn = { run = sequence.nation_turn, choose = sequence.choose_leader_area }
phases.reinforcement = { run = reinforcement.run, choose = reinforcement.choose }
phases.movement = { run = movement.run, choose = movement.choose }
phases.combat_order = { run = combat.order_run, choose = combat.order_choose }
phases.combat_choice = { run = combat.choice_run, choose = combat.choice_choose }
phases.battle = { run = combat.battle_run, choose = combat.battle_choose }
phases.overpopulation = { run = overpopulation.run, choose = overpopulation.choose }

function rules.status()
  return status.text()
end

-- The header of a drawing of the map: the same turn and points (all public).
function rules.map_notes()
  return status.lines()
end

-- The bots' heuristic (not a rule): the faction's net victory score so far,
-- plus a little for each army on the map (armies hold the areas that score).
-- The greedy bot calls it for every action it weighs, so it lists the
-- faction's armies in one call, by their nations' kinds (armies belong to
-- their faction's player; leaders are kinds of their own): asking every
-- counter its kind took four fifths of the call. Each faction's filter is
-- made once (`prepare`), the armies are counted without making their list
-- (`pieces.count`), and the functions it calls are held in locals.
local count, net = pieces.count, victory.net
function rules.evaluate(player)
  return net(player) + 0.25 * count(armies_on_map[player])
end
