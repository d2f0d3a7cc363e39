-- Solitaire convoy: the procedure, one function per section of the rule
-- book. Every number it uses comes from the tables in game.yaml (the kernel
-- rolls on the dice tables: dice.on); every value it keeps lives in the
-- kernel's variables, read and written as the boxes of the game sheet
-- (`sheet[TURN]`, `sheet[AFLOAT.cargo]`: see lib/convoy.lua). Log lines and the turn record
-- are narration: they are only written when someone reads the game
-- (`narrating()`), so a simulation pays nothing for them. The loops a
-- journey runs are counted (`for i = 1, #list`): each step of `ipairs` is
-- a call.
local convoy = require("lib.convoy")
local rules = rules
local sheet = vars.sheet
local on, roll = dice.on, dice.roll
local log, logf, narrating = game.log, game.logf, game.narrating
local max, min = math.max, math.min
local ipairs, pairs = ipairs, pairs
local create = table.create
local S = convoy.slot
local SAILED, AFLOAT, DAMAGED, LOST, HOME, USED = S.sailed, S.afloat, S.damaged, S.lost, S.home, S.used
-- An empty list to share: no allocation where nothing is offered or missing.
local NONE = {}
local tables, option_count
-- The option rows by id (the option in force: `OPTIONS[sheet[OPTION]]`).
local OPTIONS = convoy.options
-- The slots of the sheet's single boxes (set by `prepare`).
local TURN, LENGTH, FRIENDLY, NEXT_TURN, INTERCEPTIONS, OPTIONS_USED, OPTION, OPTION_UNTIL, HALFWAY_DONE

-- Before the data is compiled: the game sheet's starting values.
function configure(data)
  convoy.configure(data)
end

-- Once the data is final: the tables, for the functions below.
function prepare()
  tables = _ENV.tables
  option_count = #tables.options
  convoy.prepare()
  TURN, LENGTH, FRIENDLY, NEXT_TURN = S.turn, S.length, S.friendly, S.next_turn
  INTERCEPTIONS, OPTIONS_USED, OPTION, OPTION_UNTIL = S.interceptions, S.options_used, S.option, S.option_until
  HALFWAY_DONE = S.halfway_done
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

-- A ship type's name in lower case, for the log.
local function named(type, plural)
  local row = convoy.ship(type)
  return (plural and row.plural or row.name):lower()
end

-- Convoy composition: roll how many ships of each type sail. (A labelled
-- roll narrates itself: "Cargo ships: 3D6 rolled 3+6+4 = 13". None is yet
-- damaged, lost or home: the sheet starts at zero, see lib/convoy.lua.)
function rules.convoy_composition()
  local composition = tables.composition
  for i = 1, #composition do
    local row = composition[i]
    local n = roll(row.dice, row.plural)
    sheet[SAILED[row.type]] = n
    sheet[AFLOAT[row.type]] = n
  end
end

-- Length of journey: the number of turns to port.
function rules.length_of_journey()
  local n = roll(tables.journey.length, "journey length")
  sheet[LENGTH] = n
end

-- Friendly waters: no contact (so no attack) for the first turns.
function rules.friendly_waters()
  local n = roll(tables.journey.friendly_waters, "friendly waters")
  sheet[FRIENDLY] = n
end

-- Options: the ones that may be taken now (none while one is active).
function rules.options_offered()
  if sheet[OPTION] or sheet[OPTIONS_USED] == option_count then
    return NONE
  end
  -- (A counted loop: this runs most turns, and each step of `ipairs`
  -- costs a function call. The list has room for every option and "no
  -- option" from the start, so it never grows.)
  local options = tables.options
  local out = create(option_count + 1)
  for i = 1, #options do
    local row = options[i]
    if not sheet[USED[row.id]] then
      out[#out + 1] = row.id
    end
  end
  return out
end

-- Options: taking one, for its duration counting this turn.
function rules.take_option(id)
  local row = convoy.option_row(id)
  local turn = sheet[TURN]
  local labels = convoy.rolls[id]
  local turns = roll(row.duration, labels.duration)
  local telling = narrating()
  sheet[USED[id]] = turn
  sheet[OPTIONS_USED] = sheet[OPTIONS_USED] + 1
  sheet[OPTION] = id
  sheet[OPTION_UNTIL] = turn + turns - 1
  if telling then
    logf("%s option for %d turn%s (through turn %d).", row.title, turns, turns == 1 and "" or "s",
      turn + turns - 1)
    convoy.note("%s option, %d turns", id, turns)
  end
  if row.journey then
    local extra = roll(row.journey, labels.journey)
    sheet[LENGTH] = sheet[LENGTH] + extra
    if telling then
      logf("The journey grows by %d turns to %d.", extra, sheet[LENGTH])
    end
  end
end

-- Contact: one roll a turn, modified by last turn's result and the option.
-- Returns the row read; its `next_turn` carries to the next turn's roll.
function rules.contact(option)
  local carried = sheet[NEXT_TURN]
  local modifier = option and option.contact or 0
  local row, read, natural = on("contact", convoy.carried_from[carried], carried, option and option.id, modifier)
  local next_turn = row.next_turn or 0
  if next_turn ~= carried then
    sheet[NEXT_TURN] = next_turn
  end
  if narrating() then
    convoy.note("contact %s: %s", sum_text(natural, carried + modifier, read), row.result)
  end
  return row
end

-- Enemy force: what kind of enemy made contact.
function rules.enemy_force()
  return (on("enemy"))
end

-- Force size: 1D6 plus the contact, enemy and option modifiers, minimum 1.
function rules.force_size(contact, enemy, option)
  local t = tables.force_size
  local modifier = option and option.force or 0
  local natural = roll(t.dice, "force size")
  local total = natural + (contact.force or 0) + (enemy.force or 0) + modifier
  local size = max(t.minimum, total)
  if narrating() then
    logf("force size %s: %d %s%s", sum_text(natural, total - natural, total), size,
      size == 1 and "enemy" or "enemies",
      sources(contact.result, contact.force, enemy.result, enemy.force, option and option.id, modifier))
  end
  return size
end

-- Interception: the number of rolls the escort makes this turn.
function rules.interception_rolls(option)
  local t = tables.interception
  local rolls = t.rolls + t.per_carrier * sheet[AFLOAT.carrier]
  local without = convoy.without
  for i = 1, #without do
    local type = without[i]
    if sheet[AFLOAT[type]] == 0 then
      rolls = rolls + t.without[type]
    end
  end
  return max(0, rolls + (option and option.interception or 0))
end

-- Interception in words: "3 (2 aircraft carriers +2, no cruisers -1)".
local function interception_text(option)
  local t = tables.interception
  local carriers = sheet[AFLOAT.carrier]
  local parts = { convoy.ships(carriers, "carrier"), t.per_carrier * carriers }
  for _, type in ipairs(convoy.without) do
    if sheet[AFLOAT[type]] == 0 then
      parts[#parts + 1] = "no " .. named(type, true)
      parts[#parts + 1] = t.without[type]
    end
  end
  parts[#parts + 1], parts[#parts + 2] = option and option.id, option and option.interception
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
  local low, high = t.hits[1], t.hits[2]
  local intercepted = 0
  for _ = 1, rolls do
    local face = roll(t.dice, "interception roll")
    local result = "no effect"
    if face >= low and face <= high then
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
  if intercepted > 0 then
    sheet[INTERCEPTIONS] = sheet[INTERCEPTIONS] + intercepted
  end
  return force, intercepted
end

-- Targets: which type of ship a hit falls on, or nil when none is left.
function rules.target(option)
  local row = on("target", option and option.id, option and option.target)
  local type = row.type
  if row.if_none and sheet[AFLOAT[type]] == 0 then
    if narrating() then
      logf("No %s left: the hit counts against the %s.", named(type, true), named(row.if_none, true))
    end
    type = row.if_none
  end
  if sheet[AFLOAT[type]] == 0 then
    if narrating() then
      logf("No %s left: the hit falls on empty sea.", named(type, true))
    end
    return nil
  end
  return type
end

-- One ship of a type sinks; a damaged one goes first.
local function sink(type)
  local damaged, afloat, lost = DAMAGED[type], AFLOAT[type], LOST[type]
  if sheet[damaged] > 0 then
    sheet[damaged] = sheet[damaged] - 1
  end
  sheet[afloat] = sheet[afloat] - 1
  sheet[lost] = sheet[lost] + 1
end

-- Targets: a second "damaged" on a type with a damaged ship may sink it;
-- otherwise another ship of that type is damaged, if one is undamaged.
-- Returns what happened, in words, for the turn record.
function rules.damage(type)
  local damaged = sheet[DAMAGED[type]]
  if damaged == 0 then
    sheet[DAMAGED[type]] = 1
    if narrating() then
      logf("One %s is damaged.", named(type))
    end
    return "damaged"
  end
  local t = tables.second_damage
  local face = roll(t.dice, "second damage")
  if face >= t.sinks[1] and face <= t.sinks[2] then
    if narrating() then
      logf("Second damage roll %d: the damaged %s is hit again and sinks.", face, named(type))
    end
    sink(type)
    return "sunk"
  end
  if sheet[AFLOAT[type]] > damaged then
    if narrating() then
      logf("Second damage roll %d: another %s is damaged.", face, named(type))
    end
    sheet[DAMAGED[type]] = damaged + 1
    return "damaged"
  end
  if narrating() then
    logf("Second damage roll %d: every %s is already damaged; no further harm.", face, named(type))
  end
  return "hit again, no harm"
end

-- Enemy attacks: one roll per enemy left, with the enemy's modifier.
-- Returns the results in words when the game is narrated.
function rules.enemy_attacks(force, enemy, option)
  local results = narrating() and {} or nil
  for _ = 1, force do
    local row = on("attack", enemy.result, enemy.attack, option and option.id, option and option.attack)
    if row.damage then
      local type = rules.target(option)
      local what
      if type == nil then
        what = "hit on empty sea"
      elseif row.damage == "destroyed" then
        sink(type)
        what = "sunk"
        if results then
          logf("One %s is sunk.", named(type))
        end
      else
        what = rules.damage(type)
      end
      if results then
        results[#results + 1] = type and (named(type) .. " " .. what) or what
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
  local telling = narrating()
  sheet[HALFWAY_DONE] = true
  local carriers = sheet[AFLOAT.carrier]
  if carriers == 0 then
    if telling then
      log("Halfway: no carrier is left to go home.")
      convoy.note("halfway: no carrier left")
    end
    return
  end
  local gone = 0
  for i = 1, carriers do
    if roll(t.dice, "covering force") >= t.returns_from then
      local escort = roll(t.escort, "escort")
      if telling then
        logf("Halfway: carrier %d goes home with %d warships.", i, escort)
      end
      rules.send_home("carrier", 1)
      local escort_from = t.escort_from
      for j = 1, #escort_from do
        local type = escort_from[j]
        local n = min(escort, sheet[AFLOAT[type]])
        rules.send_home(type, n)
        escort = escort - n
      end
      gone = gone + 1
    elseif telling then
      logf("Halfway: carrier %d stays.", i)
    end
  end
  if telling then
    convoy.note("halfway: %d carrier%s home", gone, gone == 1 and "" or "s")
  end
end

-- Ships leaving the convoy (not losses); damaged ones go first.
function rules.send_home(type, n)
  if n == 0 then
    return
  end
  local damaged = min(n, sheet[DAMAGED[type]])
  if damaged > 0 then
    sheet[DAMAGED[type]] = sheet[DAMAGED[type]] - damaged
  end
  sheet[AFLOAT[type]] = sheet[AFLOAT[type]] - n
  sheet[HOME[type]] = sheet[HOME[type]] + n
end

-- Scoring: the total; when `itemized`, also its lines ({label, points})
-- for the sheet and the log. Only they ask for the lines: a simulation
-- needs the total alone, and the lines' text costs more than the sum.
function rules.score(itemized)
  local t = tables.scoring
  local total = t.start
  local lines = itemized and { { "start", t.start } } or nil
  local types = convoy.types
  for i = 1, #types do
    local type = types[i]
    local lost, each = sheet[LOST[type]], t.lost[type] or 0
    if lost > 0 and each ~= 0 then
      total = total + lost * each
      if lines then
        lines[#lines + 1] = { convoy.ships(lost, type) .. " lost", lost * each }
      end
    end
  end
  local intercepted = sheet[INTERCEPTIONS]
  if intercepted > 0 then
    total = total + intercepted * t.interception
    if lines then
      lines[#lines + 1] = { intercepted .. " interceptions", intercepted * t.interception }
    end
  end
  for i = 1, #types do
    local type = types[i]
    local penalty = convoy.all_lost[type]
    local sailed = sheet[SAILED[type]]
    if penalty and sailed > 0 and sheet[LOST[type]] == sailed then
      total = total + penalty
      if lines then
        lines[#lines + 1] = { "all " .. named(type, true) .. " lost", penalty }
      end
    end
  end
  return total, lines
end

-- A turn: friendly waters, or a contact roll and whatever it brings; the
-- covering force's decision once half the journey is behind.
function rules.play_turn(turn)
  if turn <= sheet[FRIENDLY] then
    if narrating() then
      convoy.note("friendly waters")
    end
  else
    local option = OPTIONS[sheet[OPTION]]
    local contact = rules.contact(option)
    if contact.contact then
      rules.engagement(contact, option)
    end
  end
  if turn >= (sheet[LENGTH] + 1) // 2 and not sheet[HALFWAY_DONE] then
    rules.covering_force_returns()
  end
end

-- The start of a turn: an option that has run its course ends.
function rules.start_of_turn(turn)
  local id = sheet[OPTION]
  if id and turn > sheet[OPTION_UNTIL] then
    sheet[OPTION] = false
    if narrating() then
      logf("%s option ends.", convoy.option_row(id).title)
    end
  end
end

-- The end of the journey: the score is the result.
function rules.arrival()
  local telling = narrating()
  local total, lines = rules.score(telling)
  if telling then
    for i = 1, #lines do
      logf("%-24s %+d", lines[i][1], lines[i][2])
    end
    logf("Final score: %d", total)
  end
  game.finish { reason = "the convoy reached port", scores = { [convoy.PLAYER] = total } }
end

phases.setup = {}

-- Setup: roll the convoy, the journey and the friendly waters. (The other
-- counters start where the game sheet does: see lib/convoy.lua.)
function phases.setup.run()
  rules.convoy_composition()
  rules.length_of_journey()
  rules.friendly_waters()
  return nil
end

phases.journey = {}

-- The journey: at the start of each turn, offer the options that may be
-- taken ("no option" declines); then play turns until the next decision.
-- The frame's step is the last turn whose options were offered. (Whether
-- the game is narrated is asked once a call, not once a turn.)
function phases.journey.run(frame)
  local turn, offered = sheet[TURN], frame.step
  local telling = narrating()
  while turn <= sheet[LENGTH] do
    if offered < turn then
      rules.start_of_turn(turn)
      if telling then
        logf("Turn %d of %d.", turn, sheet[LENGTH])
      end
      local choices = rules.options_offered()
      if #choices > 0 then
        choices[#choices + 1] = "no option"
        frame.step = turn
        return choices
      end
    end
    rules.play_turn(turn)
    turn = turn + 1
    sheet[TURN] = turn
  end
  rules.arrival()
  return nil
end

function phases.journey.choose(frame, choice)
  if choice ~= "no option" then
    rules.take_option(choice)
  end
end
