-- Optional rule 6: no ship may move toward its own home row.
function configure(data)
  data.phases.sailing.movement.directions = { "forward", "sideways" }
end
