-- Optional rule 2: the coin is flipped when an Air Strike is called; it
-- hits only if the caller's colour shows.
local strike = rules.air_strike
function rules.air_strike(player, cell)
  if dice.coin("Air Strike coin flip") then
    strike(player, cell)
  else
    game.log("The coin shows the enemy's colour: the Air Strike misses.")
  end
end
