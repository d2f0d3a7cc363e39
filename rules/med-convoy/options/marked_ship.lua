-- Optional rule 5: each side sails three Merchants and three Submarines
-- (the fourth Merchant is the marked ship, and it sails as a Submarine).
-- The marked ship's other uses are scenarios, made from data alone:
-- scenarios/med-convoy/marked-cruiser.yaml and marked-destroyer.yaml.
function configure(data)
  data.pieces.kinds.Merchant.count = 3
  data.pieces.kinds.Submarine.count = 3
end
