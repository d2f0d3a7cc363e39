-- Optional rule 4 (radical): an attacker that bounces off a target able to
-- sink it when attacking is sunk instead.
function configure(data)
  local results = data.tables.attack_results
  for attacker, row in pairs(results) do
    for defender, result in pairs(row) do
      if result == "bounce" and results[defender][attacker] == "win" then
        row[defender] = "lose"
      end
    end
  end
end
