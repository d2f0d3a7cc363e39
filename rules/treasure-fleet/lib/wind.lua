-- Wind cards (rule 6): a common deck of Favorable Wind cards (one per
-- compass direction) and No Wind cards. Each side holds a hidden hand of
-- two cards more than its ships; played cards go face up to the discard
-- pile, which is shuffled back when the deck runs out.
local fleet = require("lib.fleet")
local M = {}
local ipairs, kind_of, kinds_at, at = ipairs, pieces.kind, pieces.kinds_at, pieces.at

M.NO_WIND = "No_Wind"

-- The card kind of a Favorable Wind by compass letter: Wind_N...
M.FAVORABLE = {}
for _, letter in ipairs(fleet.LETTERS) do
  M.FAVORABLE[letter] = "Wind_" .. letter
end

function M.hand_pool(side)
  return "hand_" .. side
end

-- The cards of the deck, as tables.wind_deck counts them, shuffled face down.
function M.build_deck()
  local kinds = {}
  for kind in pairs(tables.wind_deck) do
    kinds[#kinds + 1] = kind
  end
  table.sort(kinds)
  for _, kind in ipairs(kinds) do
    for _ = 1, tables.wind_deck[kind] do
      pieces.create(kind, nil, "deck")
    end
  end
  cards.shuffle("deck")
end

-- Hand size: two cards more than the ships in the fleet.
function M.hand_size(side)
  return #fleet.fleet(side) + tables.hand.extra_cards
end

function M.hand(side)
  return at(M.hand_pool(side))
end

-- The first card of a kind in a side's hand, or nil.
function M.find(side, kind)
  for _, id in ipairs(M.hand(side)) do
    if kind_of(id) == kind then
      return id
    end
  end
end

-- How many cards of each kind a side holds: { Wind_N = 2, ... }.
function M.counts(side)
  local out = {}
  for _, kind in ipairs(kinds_at(M.hand_pool(side))) do
    out[kind] = (out[kind] or 0) + 1
  end
  return out
end

-- Plays a card of a kind from a side's hand: face up on the discard pile.
function M.play(side, kind)
  local id = assert(M.find(side, kind), "no such card in hand")
  pieces.move(id, "discard")
  pieces.reveal(id)
end

-- Replacement: draw up to the hand size.
function M.refill(side)
  for _ = #M.hand(side) + 1, M.hand_size(side) do
    if not cards.draw("deck", M.hand_pool(side), side, "discard") then
      break
    end
  end
end

-- The kinds of card a side may give up while its hand is larger than its
-- hand size (the fleet lost ships), in kind order; empty when it is not.
function M.surplus_kinds(side)
  if #M.hand(side) <= M.hand_size(side) then
    return {}
  end
  local kinds = {}
  for kind in pairs(M.counts(side)) do
    kinds[#kinds + 1] = kind
  end
  table.sort(kinds)
  return kinds
end

-- Gives up a card of the kind chosen, face up on the discard pile.
function M.give_up(side, kind)
  M.play(side, kind)
  game.logf("%s gives up a %s card.", game.player_name(side), kind)
end

-- Exchange: the whole hand goes to the discard pile and a new one is drawn.
function M.exchange(side)
  for _, id in ipairs(M.hand(side)) do
    pieces.move(id, "discard")
    pieces.reveal(id)
  end
  M.refill(side)
  game.logf("%s exchanges its hand of wind cards.", game.player_name(side))
end

return M
