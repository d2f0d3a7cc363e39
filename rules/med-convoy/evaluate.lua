-- The bots' heuristic (not a rule of the game): how good the position
-- looks to `player`, from what that player may see. The greedy bot plays
-- the move whose result scores best. It runs on a sample of the game in
-- which the faces the player has not seen are guesses, so it reads an
-- enemy ship's type only when `pieces.seen` says the player knows it.

-- What a ship is worth on the board, by type.
local WORTH = { Cruiser = 3, Destroyer = 3, Submarine = 3, Merchant = 4 }

-- What a Merchant's progress is worth, by the rank it stands on (1 is its
-- home row; rank 5 wins): each step nearer the goal counts more.
local PROGRESS = { 0, 1, 3, 8, 0 }

-- Enemy ships whose type the player has not seen: where those on the
-- board stand, and the odds that one is a Merchant (the fleets' make-up is
-- known, so the odds are the same on every sample). The greedy bot asks
-- this for every action it weighs, so it reads a ship's kind and place
-- one by one (`pieces.kind`, `pieces.where`) rather than build the whole
-- record of `pieces.get`.
local function unseen_enemies(player, enemy)
  local count, merchants = 0, 0
  for _, id in ipairs(pieces.list { owner = enemy }) do
    if not pieces.seen(id, player) then
      count = count + 1
      if pieces.kind(id) == "Merchant" then
        merchants = merchants + 1
      end
    end
  end
  local on_board = {}
  for _, id in ipairs(pieces.list { owner = enemy, on_board = true }) do
    if not pieces.seen(id, player) then
      on_board[#on_board + 1] = pieces.where(id)
    end
  end
  return on_board, count > 0 and merchants / count or 0
end

-- One side's known ships: their worth and their Merchants' progress.
local function known_strength(owner, player)
  local total = 0
  for _, id in ipairs(pieces.list { owner = owner, on_board = true }) do
    if owner == player or pieces.seen(id, player) then
      local kind = pieces.kind(id)
      total = total + WORTH[kind]
      if kind == "Merchant" then
        total = total + PROGRESS[board.rank(pieces.where(id), owner)]
      end
    end
  end
  return total
end

function rules.evaluate(player)
  local enemy = game.next_player(player)
  local score = known_strength(player, player) - known_strength(enemy, player)
  -- An unseen enemy ship counts its average worth, and the progress it
  -- would have if it were a Merchant, weighted by the odds that it is one.
  local unseen, odds = unseen_enemies(player, enemy)
  for _, at in ipairs(unseen) do
    score = score - (3 + odds) - odds * PROGRESS[board.rank(at, enemy)]
  end
  return score
end
