-- Optional rule 7: a Merchant attacking a Merchant sinks both.
function configure(data)
  data.tables.attack_results.Merchant.Merchant = "both"
end
