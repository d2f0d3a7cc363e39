-- Optional rule 5: each side sails three Merchants; the fourth ship is
-- marked, and before setting up its owner picks what it is: a Submarine
-- (three Merchants, three Submarines), a second Cruiser, a fourth
-- Destroyer, or a Merchant after all.
local choices = { "marked Submarine", "marked Cruiser", "marked Destroyer", "marked Merchant" }

function configure(data)
  data.phases.mark = { kind = "script" }
  table.insert(data.flow, 1, "mark")
end

phases.mark = {}

-- Each player, first player first, picks the marked ship's type.
function phases.mark.run(frame)
  if frame.step >= #game.players() then
    return nil
  end
  return choices
end

function phases.mark.choose(frame, choice)
  local kind = choice:match("^marked (%a+)$")
  local merchants = pieces.list { owner = frame.player, kind = "Merchant" }
  local marked = merchants[#merchants]
  pieces.set_kind(marked, kind)
  pieces.set_attr(marked, "marked", true)
  game.log(frame.player .. " marks a ship as a " .. kind, frame.player)
  frame.step = frame.step + 1
  frame.player = game.next_player(frame.player)
end
