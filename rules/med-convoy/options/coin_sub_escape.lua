-- Optional rule 8: a Destroyer attacking a Submarine flips the coin; the
-- Destroyer's colour sinks the Submarine, the Submarine's lets it survive
-- and the Destroyer bounces.
function configure(data)
  data.tables.attack_results.Destroyer.Submarine = { coin = { "win", "bounce" } }
end
