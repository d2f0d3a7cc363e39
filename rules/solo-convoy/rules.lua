-- Solitaire convoy: the procedure, one function per section of the rule
-- book. Every number it uses comes from the tables in game.yaml; every
-- value it keeps lives in the kernel's variables (see lib/convoy.lua).
local convoy = require("lib.convoy")
local get, add = convoy.get, convoy.add

-- Convoy composition: roll how many ships of each type sail.
function rules.convoy_composition()
  for _, row in ipairs(tables.composition) do
    local n = dice.roll(row.dice, row.plural .. " (" .. row.dice .. ")")
    for _, counter in ipairs { "sailed_", "afloat_" } do
      vars.set(counter .. row.type, n)
    end
    for _, counter in ipairs { "damaged_", "lost_", "home_" } do
      vars.set(counter .. row.type, 0)
    end
    game.log(string.format("%s: %d", row.plural, n))
  end
end

-- Length of journey: the number of turns to port.
function rules.length_of_journey()
  local n = dice.roll(tables.journey.length, "journey length (" .. tables.journey.length .. ")")
  vars.set("length", n)
  game.log("The journey lasts " .. n .. " turns.")
end

-- Friendly waters: no contact (so no attack) for the first turns.
function rules.friendly_waters()
  local n = dice.roll(tables.journey.friendly_waters, "friendly waters")
  vars.set("friendly", n)
  game.log(n == 1 and "Friendly waters for the first turn." or ("Friendly waters for the first " .. n .. " turns."))
end

-- Options: the ones that may be taken now (none while one is active).
function rules.options_offered()
  local out = {}
  if convoy.active_option() then
    return out
  end
  for _, row in ipairs(tables.options) do
    if not vars.get("used_" .. row.id) then
      out[#out + 1] = row.id
    end
  end
  return out
end

-- Options: taking one, for its duration counting this turn.
function rules.take_option(id)
  local row = convoy.option_row(id)
  local turn = get("turn")
  local turns = dice.roll(row.duration, row.title .. " duration")
  vars.set("used_" .. id, turn)
  vars.set("option", id)
  vars.set("option_until", turn + turns - 1)
  game.log(string.format("%s option for %d turn%s (through turn %d).",
    row.title, turns, turns == 1 and "" or "s", turn + turns - 1))
  convoy.note(id .. " option, " .. turns .. " turns")
  if row.journey then
    local extra = dice.roll(row.journey, row.title .. " adds turns")
    add("length", extra)
    game.log(string.format("The journey grows by %d turns to %d.", extra, get("length")))
  end
end

-- Contact: one roll a turn, modified by last turn's result and the option.
-- Returns the row read; its `next_turn` carries to the next turn's roll.
function rules.contact()
  local carried = { vars.get("next_turn_from") or "last turn", get("next_turn") }
  local row, text = convoy.roll_on("contact", "contact roll", { carried, convoy.option_mod("contact") })
  vars.set("next_turn", row.next_turn or 0)
  vars.set("next_turn_from", row.next_turn and row.result or nil)
  convoy.note("contact " .. text .. ": " .. row.result)
  return row
end

-- Enemy force: what kind of enemy made contact.
function rules.enemy_force()
  return convoy.roll_on("enemy", "enemy type roll", {})
end

-- Force size: 1D6 plus the contact, enemy and option modifiers, minimum 1.
function rules.force_size(contact, enemy)
  local t = tables.force_size
  local modifier, sources = convoy.modifiers {
    { contact.result, contact.force or 0 },
    { enemy.result, enemy.force or 0 },
    convoy.option_mod("force"),
  }
  local natural = dice.roll(t.dice, "force size")
  local size = math.max(t.minimum, natural + modifier)
  game.log(string.format("force size %s: %d %s%s", convoy.sum_text(natural, modifier, natural + modifier),
    size, size == 1 and "enemy" or "enemies", sources))
  return size
end

-- Interception: the number of rolls the escort makes this turn, and where
-- they come from in words.
function rules.interception_rolls()
  local t = tables.interception
  local carriers = convoy.afloat("carrier")
  local list = { { convoy.ships(carriers, "carrier"), t.per_carrier * carriers } }
  local without = t.without or {}
  for _, type in ipairs(convoy.types()) do
    if without[type] and convoy.afloat(type) == 0 then
      list[#list + 1] = { "no " .. string.lower(convoy.ship(type).plural), without[type] }
    end
  end
  list[#list + 1] = convoy.option_mod("interception")
  local modifier, sources = convoy.modifiers(list)
  return math.max(0, t.rolls + modifier), sources
end

-- Interception: each roll in `hits` turns one enemy back and scores.
function rules.interception(force)
  local t = tables.interception
  local rolls, sources = rules.interception_rolls()
  game.log(string.format("The escort makes %d interception roll%s: %d%s.", rolls, rolls == 1 and "" or "s",
    t.rolls, sources))
  local intercepted = 0
  for i = 1, rolls do
    local face = dice.roll(t.dice, string.format("interception roll %d of %d", i, rolls))
    local result = "no effect"
    if convoy.within(face, t.hits) then
      if force > 0 then
        force = force - 1
        intercepted = intercepted + 1
        result = "one enemy intercepted"
      else
        result = "nothing left to intercept"
      end
    end
    game.log(string.format("interception roll %d: %s", face, result))
  end
  add("interceptions", intercepted)
  return force, intercepted
end

-- Targets: which type of ship a hit falls on, or nil when none is left.
function rules.target()
  local row = convoy.roll_on("target", "target roll", { convoy.option_mod("target") })
  local type = row.type
  if convoy.afloat(type) == 0 and row.if_none then
    game.log("No " .. string.lower(convoy.ship(type).plural) .. " left: the hit counts against the "
      .. string.lower(convoy.ship(row.if_none).plural) .. ".")
    type = row.if_none
  end
  if convoy.afloat(type) == 0 then
    game.log("No " .. string.lower(convoy.ship(type).plural) .. " left: the hit falls on empty sea.")
    return nil
  end
  return type
end

-- One ship of a type sinks; a damaged one goes first.
local function sink(type)
  if convoy.damaged(type) > 0 then
    add("damaged_" .. type, -1)
  end
  add("afloat_" .. type, -1)
  add("lost_" .. type, 1)
end

-- Targets: a second "damaged" on a type with a damaged ship may sink it;
-- otherwise another ship of that type is damaged, if one is undamaged.
function rules.damage(type)
  local name = string.lower(convoy.ship(type).name)
  if convoy.damaged(type) == 0 then
    add("damaged_" .. type, 1)
    game.log("One " .. name .. " is damaged.")
    return name .. " damaged"
  end
  local t = tables.second_damage
  local face = dice.roll(t.dice, "second damage roll")
  if convoy.within(face, t.sinks) then
    game.log(string.format("second damage roll %d: the damaged %s is hit again and sinks", face, name))
    sink(type)
    return name .. " sunk"
  end
  if convoy.afloat(type) > convoy.damaged(type) then
    game.log(string.format("second damage roll %d: another %s is damaged", face, name))
    add("damaged_" .. type, 1)
    return name .. " damaged"
  end
  game.log(string.format("second damage roll %d: every %s is already damaged; no further harm", face, name))
  return name .. " hit again, no harm"
end

-- Enemy attacks: one roll per enemy left, with the enemy's modifier.
function rules.enemy_attacks(force, enemy)
  local modifiers = { { enemy.result, enemy.attack or 0 }, convoy.option_mod("attack") }
  local results = {}
  for i = 1, force do
    local row = convoy.roll_on("attack", "enemy " .. i .. " attack roll", modifiers)
    if row.damage then
      local type = rules.target()
      if type == nil then
        results[#results + 1] = "hit on empty sea"
      elseif row.damage == "destroyed" then
        sink(type)
        local name = string.lower(convoy.ship(type).name)
        game.log("One " .. name .. " is sunk.")
        results[#results + 1] = name .. " sunk"
      else
        results[#results + 1] = rules.damage(type)
      end
    end
  end
  return results
end

-- Contact made: enemy type, force size, interception, attacks.
function rules.engagement(contact)
  local enemy = rules.enemy_force()
  local force = rules.force_size(contact, enemy)
  local left, intercepted = rules.interception(force)
  local summary = string.format("%s, force %d, %d intercepted", enemy.result, force, intercepted)
  local results = rules.enemy_attacks(left, enemy)
  if #results > 0 then
    summary = summary .. ", " .. table.concat(results, ", ")
  elseif left > 0 then
    summary = summary .. ", all missed"
  end
  convoy.note(summary)
end

-- Covering force returns: halfway, each carrier may go home with an escort.
function rules.covering_force_returns()
  local t = tables.covering_force
  vars.set("halfway_done", true)
  local carriers = convoy.afloat("carrier")
  if carriers == 0 then
    game.log("Halfway: no carrier is left to go home.")
    convoy.note("halfway: no carrier left")
    return
  end
  game.log("Halfway: the covering force decides (" .. carriers .. " carrier" .. (carriers == 1 and "" or "s") .. ").")
  local gone = {}
  for i = 1, carriers do
    local face = dice.roll(t.dice, "covering force roll, carrier " .. i)
    if face >= t.returns_from then
      local escort = dice.roll(t.escort, "escort of carrier " .. i)
      game.log(string.format("covering force roll %d: carrier %d goes home with %d warships", face, i, escort))
      rules.send_home("carrier", 1)
      for _, type in ipairs(t.escort_from) do
        local n = math.min(escort, convoy.afloat(type))
        rules.send_home(type, n)
        escort = escort - n
        if n > 0 then
          gone[#gone + 1] = convoy.ships(n, type)
        end
      end
      gone[#gone + 1] = "1 carrier"
    else
      game.log(string.format("covering force roll %d: carrier %d stays", face, i))
    end
  end
  convoy.note(#gone == 0 and "halfway: the carriers stay" or ("halfway, home: " .. table.concat(gone, ", ")))
end

-- Ships leaving the convoy (not losses); damaged ones go first.
function rules.send_home(type, n)
  local damaged = math.min(n, convoy.damaged(type))
  add("damaged_" .. type, -damaged)
  add("afloat_" .. type, -n)
  add("home_" .. type, n)
end

-- Scoring: the total and its lines ({label, points}) for the sheet.
function rules.score()
  local t = tables.scoring
  local lines = { { "start", t.start } }
  local total = t.start
  for _, type in ipairs(convoy.types()) do
    local lost = convoy.lost(type)
    local each = t.lost[type] or 0
    if lost > 0 and each ~= 0 then
      lines[#lines + 1] = { convoy.ships(lost, type) .. " lost", lost * each }
      total = total + lost * each
    end
  end
  local intercepted = get("interceptions")
  if intercepted > 0 then
    lines[#lines + 1] = { intercepted .. " interceptions", intercepted * t.interception }
    total = total + intercepted * t.interception
  end
  for _, type in ipairs(convoy.types()) do
    local penalty = t.all_lost[type]
    if penalty and convoy.sailed(type) > 0 and convoy.lost(type) == convoy.sailed(type) then
      lines[#lines + 1] = { "all " .. string.lower(convoy.ship(type).plural) .. " lost", penalty }
      total = total + penalty
    end
  end
  return total, lines
end

-- A turn: friendly waters, or a contact roll and whatever it brings; the
-- covering force's decision once half the journey is behind.
function rules.play_turn(turn)
  if turn <= get("friendly") then
    game.log("Friendly waters: no contact.")
    convoy.note("friendly waters")
  else
    local contact = rules.contact()
    if contact.contact then
      rules.engagement(contact)
    end
  end
  if not vars.get("halfway_done") and turn >= (get("length") + 1) // 2 then
    rules.covering_force_returns()
  end
end

-- The start of a turn: an option that has run its course ends.
function rules.start_of_turn(turn)
  local id = vars.get("option")
  if id and turn > get("option_until") then
    vars.set("option", nil)
    game.log(convoy.option_row(id).title .. " option ends.")
  end
  game.log(string.format("Turn %d of %d.", turn, get("length")))
end

-- The end of the journey: the score is the result.
function rules.arrival()
  local total, lines = rules.score()
  for _, line in ipairs(lines) do
    game.log(string.format("%-24s %+d", line[1], line[2]))
  end
  game.log("Final score: " .. total)
  game.finish { reason = "the convoy reached port", scores = { [convoy.PLAYER] = total } }
end

phases.setup = {}

-- Setup: roll the convoy, the journey and the friendly waters.
function phases.setup.run(frame)
  rules.convoy_composition()
  rules.length_of_journey()
  rules.friendly_waters()
  for _, name in ipairs { "interceptions", "next_turn" } do
    vars.set(name, 0)
  end
  vars.set("next_turn_from", nil)
  vars.set("turn", 1)
  return nil
end

phases.journey = {}

-- The journey: at the start of each turn, offer the options that may be
-- taken ("no option" declines); then play the turn and run again.
function phases.journey.run(frame)
  local turn = get("turn")
  if turn > get("length") then
    rules.arrival()
    return nil
  end
  if frame.step < turn then
    frame.step = turn
    rules.start_of_turn(turn)
    local offered = rules.options_offered()
    if #offered > 0 then
      offered[#offered + 1] = "no option"
      return offered
    end
  end
  rules.play_turn(turn)
  vars.set("turn", turn + 1)
  return true
end

function phases.journey.choose(frame, choice)
  if choice ~= "no option" then
    rules.take_option(choice)
  end
end
