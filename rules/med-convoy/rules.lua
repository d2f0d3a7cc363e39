-- Mediterranean Convoy: the procedures. Movement, attacks and the two
-- ordinary ways to win are data in game.yaml, played by the kernel.

-- Air Strike: once a game, instead of moving, the caller destroys whatever
-- ship stands on one cell of the two rows farthest from them.
function rules.air_strike(player, cell)
  for _, id in ipairs(pieces.at(cell)) do
    pieces.reveal(id)
    pieces.remove(id)
  end
end

-- How many rows a Merchant still has to sail to reach its far row.
local function distance_to_goal(id)
  local ship = pieces.get(id)
  return board.rows() - board.rank(ship.at, ship.owner)
end

-- End by repetition: a position seen three times ends the game. Every ship
-- is revealed; the closer Merchant to its goal wins, then the larger number
-- of surviving Merchants; otherwise the game is drawn.
function rules.end_by_repetition()
  for _, id in ipairs(pieces.all()) do
    pieces.reveal(id)
  end
  local nearest, count = {}, {}
  for _, player in ipairs(game.players()) do
    count[player] = 0
    for _, id in ipairs(pieces.list { owner = player, kind = "Merchant", on_board = true }) do
      count[player] = count[player] + 1
      local d = distance_to_goal(id)
      if nearest[player] == nil or d < nearest[player] then
        nearest[player] = d
      end
    end
  end
  local a, b = table.unpack(game.players())
  local da, db = nearest[a] or math.huge, nearest[b] or math.huge
  if da ~= db then
    local winner = da < db and a or b
    game.finish { winner = winner, reason = "position repeated three times; " .. game.player_name(winner)
      .. " has the Merchant nearest its goal" }
  elseif count[a] ~= count[b] then
    local winner = count[a] > count[b] and a or b
    game.finish { winner = winner, reason = "position repeated three times; " .. game.player_name(winner)
      .. " has more Merchants" }
  else
    game.finish { reason = "position repeated three times; Merchants equally placed and numbered: a draw" }
  end
end
