-- Optional rule 1: when two ships of the same type meet (Merchants still
-- bounce), the coin decides: the attacker's colour sinks the defender,
-- otherwise the attacker sinks.
function configure(data)
  local results = data.tables.attack_results
  for kind, row in pairs(results) do
    if row[kind] == "both" then
      row[kind] = { coin = { "win", "lose" } }
    end
  end
end
