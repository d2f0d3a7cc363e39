-- Solitaire convoy: the procedure, one function per section of the rule
-- book. Every number it uses comes from the tables in game.yaml (the kernel
-- rolls on the dice tables: dice.on); every value it keeps lives in the
-- kernel's variables (see lib/convoy.lua). Log lines and the turn record
-- are narration: they cost nothing when nobody reads the game.
local convoy = require("lib.convoy")
local rules, tables = rules, nil
local get, set, add = vars.get, vars.set, vars.add
local on, roll = dice.on, dice.roll
local log, logf, narrating = game.log, game.logf, game.narrating
local afloat, damaged = convoy.afloat, convoy.damaged
local max, min = math.max, math.min
local NONE = {}

-- Once the data is final: the tables, for the functions below.
function prepare()
  tables = _ENV.tables
  convoy.prepare()
end

-- An option's modifier to a roll, as a `source, value` pair for dice.on.
local function option_mod(option, field)
  if option and option[field] then
    return option.id, option[field]
  end
  return nil, 0
end

-- "4", "4+2=6", "4-3=1 (read as 1)": a roll with its modifier, in words.
local function sum_text(natural, modifier, read)
  local text = tostring(natural)
  if modifier ~= 0 then
    text = string.format("%d%+d=%d", natural, modifier, natural + modifier)
  end
  if read ~= natural + modifier then
    text = text .. " (read as " .. read .. ")"
  end
  return text
end

-- Convoy composition: roll how many ships of each type sail.
function rules.convoy_composition()
  for _, row in ipairs(tables.composition) do
    local n = roll(row.dice, row.plural)
    for _, name in ipairs { "sailed", "afloat" } do
      set(convoy.counter(name, row.type), n)
    end
    for _, name in ipairs { "damaged", "lost", "home" } do
      set(convoy.counter(name, row.type), 0)
    end
    logf("%s: %d", row.plural, n)
  end
end

-- Length of journey: the number of turns to port.
function rules.length_of_journey()
  local n = roll(tables.journey.length, "journey length")
  set("length", n)
  logf("The journey lasts %d turns.", n)
end

-- Friendly waters: no contact (so no attack) for the first turns.
function rules.friendly_waters()
  local n = roll(tables.journey.friendly_waters, "friendly waters")
  set("friendly", n)
  logf("Friendly waters for the first %d turn%s.", n, n == 1 and "" or "s")
end

-- Options: the ones that may be taken now (none while one is active).
function rules.options_offered()
  local out = {}
  if get("option") or get("options_used") == #tables.options then
    return out
  end
  for _, row in ipairs(tables.options) do
    if not get(convoy.used(row.id)) then
      out[#out + 1] = row.id
    end
  end
  return out
end

-- Options: taking one, for its duration counting this turn.
function rules.take_option(id)
  local row = convoy.option_row(id)
  local turn = get("turn")
  local turns = roll(row.duration, row.title .. " duration")
  set(convoy.used(id), turn)
  add("options_used", 1)
  set("option", id)
  set("option_until", turn + turns - 1)
  logf("%s option for %d turn%s (through turn %d).", row.title, turns, turns == 1 and "" or "s",
    turn + turns - 1)
  convoy.note("%s option, %d turns", id, turns)
  if row.journey then
    local extra = roll(row.journey, row.title .. " adds turns")
    logf("The journey grows by %d turns to %d.", extra, add("length", extra))
  end
end

-- Contact: one roll a turn, modified by last turn's result and the option.
-- Returns the row read; its `next_turn` carries to the next turn's roll.
function rules.contact(option)
  local carried = get("next_turn")
  local source, modifier = option_mod(option, "contact")
  local row, read, natural = on("contact", get("next_turn_from") or "last turn", carried, source, modifier)
  set("next_turn", row.next_turn or 0)
  set("next_turn_from", row.next_turn and row.result or nil)
  if narrating() then
    convoy.note("contact %s: %s", sum_text(natural, carried + modifier, read), row.result)
  end
  return row
end

-- Enemy force: what kind of enemy made contact.
function rules.enemy_force()
  return (on("enemy"))
end

-- Modifiers in words for the log, from `source, value` pairs:
-- " (Surprise contact -1, split -1)", or "" when none applies.
local function sources(...)
  local parts = {}
  for i = 1, select("#", ...), 2 do
    local source, value = select(i, ...)
    if value and value ~= 0 then
      parts[#parts + 1] = string.format("%s %+d", source, value)
    end
  end
  return #parts > 0 and (" (" .. table.concat(parts, ", ") .. ")") or ""
end

-- Force size: 1D6 plus the contact, enemy and option modifiers, minimum 1.
function rules.force_size(contact, enemy, option)
  local t = tables.force_size
  local source, modifier = option_mod(option, "force")
  local natural = roll(t.dice, "force size")
  local total = natural + (contact.force or 0) + (enemy.force or 0) + modifier
  local size = max(t.minimum, total)
  if narrating() then
    logf("force size %s: %d %s%s", sum_text(natural, total - natural, total), size,
      size == 1 and "enemy" or "enemies",
      sources(contact.result, contact.force, enemy.result, enemy.force, source, modifier))
  end
  return size
end

-- The ships a type's absence costs the escort (`interception.without`).
local function missing_types()
  local out = {}
  for type, lost in pairs(tables.interception.without or NONE) do
    if afloat(type) == 0 then
      out[#out + 1] = { type, lost }
    end
  end
  table.sort(out, function(a, b) return a[1] < b[1] end)
  return out
end

-- Interception: the number of rolls the escort makes this turn.
function rules.interception_rolls(option)
  local t = tables.interception
  local rolls = t.rolls + t.per_carrier * afloat("carrier")
  for type, lost in pairs(t.without or NONE) do
    if afloat(type) == 0 then
      rolls = rolls + lost
    end
  end
  local _, modifier = option_mod(option, "interception")
  return max(0, rolls + modifier)
end

-- Interception in words: "3 (2 aircraft carriers +2, no cruisers -1)".
local function interception_text(option)
  local t = tables.interception
  local carriers = afloat("carrier")
  local parts = { convoy.ships(carriers, "carrier"), t.per_carrier * carriers }
  for _, missing in ipairs(missing_types()) do
    parts[#parts + 1] = "no " .. convoy.ship(missing[1]).plural:lower()
    parts[#parts + 1] = missing[2]
  end
  parts[#parts + 1], parts[#parts + 2] = option_mod(option, "interception")
  return t.rolls .. sources(table.unpack(parts))
end

-- Interception: each roll in `hits` turns one enemy back and scores.
function rules.interception(force, option)
  local t = tables.interception
  local rolls = rules.interception_rolls(option)
  local telling = narrating()
  if telling then
    logf("The escort makes %d interception roll%s: %s.", rolls, rolls == 1 and "" or "s",
      interception_text(option))
  end
  local intercepted = 0
  for _ = 1, rolls do
    local face = roll(t.dice, "interception roll")
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
    if telling then
      logf("interception roll %d: %s", face, result)
    end
  end
  add("interceptions", intercepted)
  return force, intercepted
end

-- Targets: which type of ship a hit falls on, or nil when none is left.
function rules.target(option)
  local row = on("target", option_mod(option, "target"))
  local type = row.type
  if afloat(type) == 0 and row.if_none then
    logf("No %s left: the hit counts against the %s.", convoy.ship(type).plural:lower(),
      convoy.ship(row.if_none).plural:lower())
    type = row.if_none
  end
  if afloat(type) == 0 then
    logf("No %s left: the hit falls on empty sea.", convoy.ship(type).plural:lower())
    return nil
  end
  return type
end

-- One ship of a type sinks; a damaged one goes first.
local function sink(type)
  if damaged(type) > 0 then
    convoy.add("damaged", type, -1)
  end
  convoy.add("afloat", type, -1)
  convoy.add("lost", type, 1)
end

-- Targets: a second "damaged" on a type with a damaged ship may sink it;
-- otherwise another ship of that type is damaged, if one is undamaged.
-- Returns what happened, in words, for the turn record.
function rules.damage(type)
  if damaged(type) == 0 then
    convoy.add("damaged", type, 1)
    logf("One %s is damaged.", convoy.ship(type).name:lower())
    return "damaged"
  end
  local t = tables.second_damage
  local face = roll(t.dice, "second damage")
  if convoy.within(face, t.sinks) then
    logf("Second damage roll %d: the damaged %s is hit again and sinks.", face,
      convoy.ship(type).name:lower())
    sink(type)
    return "sunk"
  end
  if afloat(type) > damaged(type) then
    logf("Second damage roll %d: another %s is damaged.", face, convoy.ship(type).name:lower())
    convoy.add("damaged", type, 1)
    return "damaged"
  end
  logf("Second damage roll %d: every %s is already damaged; no further harm.", face,
    convoy.ship(type).name:lower())
  return "hit again, no harm"
end

-- Enemy attacks: one roll per enemy left, with the enemy's modifier.
-- Returns the results in words when the game is narrated.
function rules.enemy_attacks(force, enemy, option)
  local source, modifier = option_mod(option, "attack")
  local results = narrating() and {} or nil
  for _ = 1, force do
    local row = on("attack", enemy.result, enemy.attack, source, modifier)
    if row.damage then
      local type = rules.target(option)
      local what
      if type == nil then
        what = "hit on empty sea"
      elseif row.damage == "destroyed" then
        sink(type)
        logf("One %s is sunk.", convoy.ship(type).name:lower())
        what = "sunk"
      else
        what = rules.damage(type)
      end
      if results then
        results[#results + 1] = type and (convoy.ship(type).name:lower() .. " " .. what) or what
      end
    end
  end
  return results
end

-- Contact made: enemy type, force size, interception, attacks.
function rules.engagement(contact, option)
  local enemy = rules.enemy_force()
  local force = rules.force_size(contact, enemy, option)
  local left, intercepted = rules.interception(force, option)
  local results = rules.enemy_attacks(left, enemy, option)
  if results then
    local outcome = #results > 0 and table.concat(results, ", ") or (left > 0 and "all missed" or nil)
    convoy.note("%s, force %d, %d intercepted%s", enemy.result, force, intercepted,
      outcome and (", " .. outcome) or "")
  end
end

-- Covering force returns: halfway, each carrier may go home with an escort.
function rules.covering_force_returns()
  local t = tables.covering_force
  set("halfway_done", true)
  local carriers = afloat("carrier")
  if carriers == 0 then
    log("Halfway: no carrier is left to go home.")
    convoy.note("halfway: no carrier left")
    return
  end
  local gone = 0
  for i = 1, carriers do
    if roll(t.dice, "covering force") >= t.returns_from then
      local escort = roll(t.escort, "escort")
      logf("Halfway: carrier %d goes home with %d warships.", i, escort)
      rules.send_home("carrier", 1)
      for _, type in ipairs(t.escort_from) do
        local n = min(escort, afloat(type))
        rules.send_home(type, n)
        escort = escort - n
      end
      gone = gone + 1
    else
      logf("Halfway: carrier %d stays.", i)
    end
  end
  convoy.note("halfway: %d carrier%s home", gone, gone == 1 and "" or "s")
end

-- Ships leaving the convoy (not losses); damaged ones go first.
function rules.send_home(type, n)
  convoy.add("damaged", type, -min(n, damaged(type)))
  convoy.add("afloat", type, -n)
  convoy.add("home", type, n)
end

-- Scoring: the total and its lines ({label, points}) for the sheet.
function rules.score()
  local t = tables.scoring
  local lines = { { "start", t.start } }
  local total = t.start
  for _, type in ipairs(convoy.types) do
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
  for _, type in ipairs(convoy.types) do
    local penalty = t.all_lost[type]
    if penalty and convoy.sailed(type) > 0 and convoy.lost(type) == convoy.sailed(type) then
      lines[#lines + 1] = { "all " .. convoy.ship(type).plural:lower() .. " lost", penalty }
      total = total + penalty
    end
  end
  return total, lines
end

-- A turn: friendly waters, or a contact roll and whatever it brings; the
-- covering force's decision once half the journey is behind.
function rules.play_turn(turn)
  if turn <= get("friendly") then
    convoy.note("friendly waters")
  else
    local option = convoy.option_in_force()
    local contact = rules.contact(option)
    if contact.contact then
      rules.engagement(contact, option)
    end
  end
  if turn >= (get("length") + 1) // 2 and not get("halfway_done") then
    rules.covering_force_returns()
  end
end

-- The start of a turn: an option that has run its course ends.
function rules.start_of_turn(turn)
  local id = get("option")
  if id and turn > get("option_until") then
    set("option", nil)
    logf("%s option ends.", convoy.option_row(id).title)
  end
  if narrating() then
    logf("Turn %d of %d.", turn, get("length"))
  end
end

-- The end of the journey: the score is the result.
function rules.arrival()
  local total, lines = rules.score()
  for _, line in ipairs(lines) do
    logf("%-24s %+d", line[1], line[2])
  end
  logf("Final score: %d", total)
  game.finish { reason = "the convoy reached port", scores = { [convoy.PLAYER] = total } }
end

phases.setup = {}

-- Setup: roll the convoy, the journey and the friendly waters.
function phases.setup.run()
  rules.convoy_composition()
  rules.length_of_journey()
  rules.friendly_waters()
  set("interceptions", 0)
  set("next_turn", 0)
  set("options_used", 0)
  set("turn", 1)
  return nil
end

phases.journey = {}

-- The journey: at the start of each turn, offer the options that may be
-- taken ("no option" declines); then play turns until the next decision.
function phases.journey.run(frame)
  local turn, step = get("turn"), frame.step
  while turn <= get("length") do
    if step < turn then
      step = turn
      frame.step = turn
      rules.start_of_turn(turn)
      local offered = rules.options_offered()
      if #offered > 0 then
        offered[#offered + 1] = "no option"
        return offered
      end
    end
    rules.play_turn(turn)
    turn = turn + 1
    set("turn", turn)
  end
  rules.arrival()
  return nil
end

function phases.journey.choose(frame, choice)
  if choice ~= "no option" then
    rules.take_option(choice)
  end
end
