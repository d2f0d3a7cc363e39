-- Optional rule 3: the centre cell of the board is land; no ship enters it.
function configure(data)
  local grid = data.board.grid
  local centre = string.char(string.byte("a") + grid.columns // 2) .. (grid.rows // 2 + 1)
  data.board.terrain[centre] = "land"
end
