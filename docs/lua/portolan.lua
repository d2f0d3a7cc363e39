---@meta portolan
-- Definitions of the Portolan Lua API for the Lua language server (LuaLS,
-- the "Lua" extension of VS Code and others): completion, parameter hints
-- and warnings in a rules package. This file is never run; docs/lua-api.md
-- says what each call does, and tests/lua_definitions.rs holds the two,
-- and the API the host registers, to the same functions.
-- README.md ("Editor support") shows the .luarc.json that loads it.

---@alias portolan.value boolean|integer|string A game variable, attribute or context value.
---@alias portolan.player string A player id from game.yaml (`"blue"`).
---@alias portolan.place string A space name (`"d3"`) or a pool name (`"reserve"`).
---@alias portolan.piece integer A piece id, from 1 to the number of pieces.

-- ---------------------------------------------------------------- what a package defines

---The package's rule functions, named by game.yaml (a special action, an
---attack result, the end by repetition), and the optional hooks below.
---@class portolan.rules
---@field evaluate? fun(player: portolan.player): number The bots' heuristic: higher is better for `player`.
---@field sample? fun(player: portolan.player) Writes the secrets the kernel cannot draw for a sample of the game.
---@field map_notes? fun(player: portolan.player): string[] Header lines of a drawing of the board, for `player` (`""`: the table).
---@field [string] function
rules = {}

---A scripted phase (`kind: script` in game.yaml).
---@class portolan.phase
---@field run fun(frame: portolan.frame): (string[]|boolean|nil) Choices to ask `frame.player`, `true` to run again, or nil when the phase is over.
---@field choose? fun(frame: portolan.frame, choice: string) The player's choice; `run` is called again after it.

---The scripted phases, by the names game.yaml gives them.
---@type table<string, portolan.phase>
phases = {}

---The phase's frame in the kernel; changes are made in the game state at once.
---@class portolan.frame
---@field player portolan.player Who decides in this frame.
---@field step integer A counter, 0 when the frame starts.
---@field ctx table<string, portolan.value> The frame's context.

---game.yaml's `tables:` section (after overrides and optional rules), read-only once loaded.
---@type table<string, any>
tables = {}

---In an optional rule's file (or a package script): changes the game's data before it is compiled.
---@param data table game.yaml as a Lua table
function configure(data) end

---In any package file: runs once the data is final, before the package is frozen.
function prepare() end

-- ---------------------------------------------------------------- board

---@class portolan.space
---@field name string
---@field kind string
---@field tags string[]
---@field region? string
---@field column? integer From 1, on grids.
---@field row? integer From 1, on grids.
---@field grid? string The named grid of the cell.
---@field attrs table<string, portolan.value>

---@class portolan.edge
---@field to string
---@field kind string

board = {}

---Every space name, in board order.
---@return string[]
function board.spaces() end

---@param name string
---@return portolan.space
function board.space(name) end

---Names of the adjacent spaces.
---@param name string
---@return string[]
function board.neighbours(name) end

---The space's edges, in board order.
---@param name string
---@return portolan.edge[]
function board.edges(name) end

---The grid's rows, or nil without a grid.
---@return integer?
function board.rows() end

---The grid's columns, or nil without a grid.
---@return integer?
function board.columns() end

---The cell's row counted from the player's home edge (1 = home row).
---@param name string
---@param player portolan.player
---@return integer
function board.rank(name, player) end

---Whether the space is in the zone as the player sees it.
---@param zone string
---@param player portolan.player
---@param name string
---@return boolean
function board.in_zone(zone, player, name) end

---The zone's spaces as the player sees it.
---@param zone string
---@param player portolan.player
---@return string[]
function board.zone(zone, player) end

-- ---------------------------------------------------------------- pieces

---@class portolan.piece_info
---@field id portolan.piece
---@field kind string
---@field owner? portolan.player
---@field at string
---@field on_board boolean
---@field public boolean
---@field attrs table<string, portolan.value>

---@class portolan.filter
---@field owner? portolan.player
---@field kind? string
---@field at? portolan.place
---@field on_board? boolean

pieces = {}

---Every piece id.
---@return portolan.piece[]
function pieces.all() end

---Ids on a space or in a pool.
---@param place portolan.place
---@return portolan.piece[]
function pieces.at(place) end

---The kinds of the pieces on a space or in a pool, in id order: what
---`pieces.kind` says of each of `pieces.at(place)`'s ids, in one call.
---@param place portolan.place
---@return string[]
function pieces.kinds_at(place) end

---Ids matching every given field.
---@param filter portolan.filter
---@return portolan.piece[]
function pieces.list(filter) end

---Where the pieces matching a filter (as `pieces.list` reads it) stand:
---each place once, spaces in board order then pools, and how many of
---those pieces are at each (the second list, place by place).
---@param filter portolan.filter
---@return string[] places
---@return integer[] counts
function pieces.places(filter) end

---How many pieces `pieces.list` would give for the same filter, without
---making the list.
---@param filter portolan.filter
---@return integer
function pieces.count(filter) end

---@param id portolan.piece
---@return portolan.piece_info
function pieces.get(id) end

---The name of the piece's space or pool.
---@param id portolan.piece
---@return string
function pieces.where(id) end

---The piece's kind (scripts see every face).
---@param id portolan.piece
---@return string
function pieces.kind(id) end

---The piece's owner, nil for a neutral piece (`pieces.get(id).owner`
---without building the piece's table).
---@param id portolan.piece
---@return portolan.player?
function pieces.owner(id) end

---Whether the player may see the piece's face.
---@param id portolan.piece
---@param player portolan.player
---@return boolean
function pieces.seen(id, player) end

---@param id portolan.piece
---@param place portolan.place
function pieces.move(id, place) end

---Destroys the piece: to `eliminated`, or the pool given.
---@param id portolan.piece
---@param pool? string
function pieces.remove(id, pool) end

---Shows the piece's face to everyone, or to one player.
---@param id portolan.piece
---@param player? portolan.player
function pieces.reveal(id, player) end

---@param id portolan.piece
---@param kind string
function pieces.set_kind(id, kind) end

---@param id portolan.piece
---@param player portolan.player|nil
function pieces.set_owner(id, player) end

---@param id portolan.piece
---@param name string
---@return portolan.value?
function pieces.attr(id, name) end

---nil clears the attribute.
---@param id portolan.piece
---@param name string
---@param value portolan.value|nil
function pieces.set_attr(id, name, value) end

---A new piece; returns its id.
---@param kind string
---@param owner portolan.player|nil
---@param place portolan.place
---@return portolan.piece
function pieces.create(kind, owner, place) end

-- ---------------------------------------------------------------- cards

cards = {}

---Gathers the pools named into the deck, face down, and deals its faces anew; returns the deck's size.
---@param deck string
---@param ... string pools to gather
---@return integer
function cards.shuffle(deck, ...) end

---A card at random from the deck to `to`, seen by `player` only; nil when no card is left.
---@param deck string
---@param to portolan.place
---@param player portolan.player
---@param discard? string shuffled into an empty deck first
---@return portolan.piece?
function cards.draw(deck, to, player, discard) end

-- ---------------------------------------------------------------- dice

dice = {}

---The total of a roll (`"2D6"`, `"1D6x5"`, `"1D6+3"`, `"coin"`); `why` labels it in the log, `false` keeps it out (the rules tell it in their own line).
---@param notation string
---@param why? string|false
---@return integer
function dice.roll(notation, why) end

---Rolls on a dice table of `tables` with `source, value` modifier pairs:
---the row read, the total read and the unmodified roll.
---@param table string
---@param ... string|integer|nil
---@return table? row
---@return integer total
---@return integer roll
function dice.on(table, ...) end

---Like dice.roll, narrated to `player` alone.
---@param notation string
---@param player portolan.player
---@param why? string
---@return integer
function dice.roll_secret(notation, player, why) end

---True for heads (the current player's colour).
---@param why? string
---@return boolean
function dice.coin(why) end

-- ---------------------------------------------------------------- game

---@class portolan.finish
---@field winner? portolan.player No winner is a draw.
---@field reason? string
---@field scores? table<portolan.player, integer>

---@class portolan.push_options
---@field seen_by? portolan.player|portolan.player[]

---@class portolan.stack_frame
---@field phase string
---@field player portolan.player
---@field seen_by portolan.player[]

game = {}

---Player ids in seating order.
---@return portolan.player[]
function game.players() end

---Who moved first.
---@return portolan.player
function game.first_player() end

---Makes `player` the first player, for a game that throws for it during
---play (after a secret set-up, say); seat-order statistics follow it.
---@param player portolan.player
function game.set_first_player(player) end

---The next player in seating order.
---@param player portolan.player
---@return portolan.player
function game.next_player(player) end

---Who decides now.
---@return portolan.player
function game.current_player() end

---The player's name for messages, from game.yaml.
---@param player portolan.player
---@return string
function game.player_name(player) end

---A piece kind's name for messages, from game.yaml (its `name:`, else its id with spaces for underscores).
---@param kind string
---@return string
function game.kind_name(kind) end

---Whether an optional rule is on.
---@param id string
---@return boolean
function game.option(id) end

---Actions played so far.
---@return integer
function game.ply() end

---A log line for everyone, or one player.
---@param text string
---@param player? portolan.player
function game.log(text, player) end

---A log line for everyone, formatted like string.format only when narrated.
---@param format string
---@param ... any
function game.logf(format, ...) end

---Whether anyone reads this game's log.
---@return boolean
function game.narrating() end

---Ends the game.
---@param result portolan.finish
function game.finish(result) end

---Starts a phase on top of the current one.
---@param name string
---@param player portolan.player
---@param ctx? table<string, portolan.value>
---@param options? portolan.push_options
function game.push_phase(name, player, ctx, options) end

---The phase stack from the bottom up.
---@return portolan.stack_frame[]
function game.frames() end

---Sets (nil clears) a key of the context of frame `n` of game.frames().
---@param n integer
---@param key string
---@param value portolan.value|nil
function game.set_context(n, key, value) end

-- ---------------------------------------------------------------- vars

vars = {}

---The game variables as fields: `vars.game.turn`; assigning one is vars.set.
---@type table<string, portolan.value>
vars.game = {}

---The game sheet: the variables laid out by vars.slots, by slot, read
---and written as a plain array (taken back into the game state when the
---rule function returns).
---@type table<integer, portolan.value>
vars.sheet = {}

---Lays out each name not laid out yet (only while the package loads) and
---returns the names' slots: `local at = vars.slots { "turn" }`, then
---`vars.sheet[at.turn]`.
---@param names string[]
---@return table<string, integer>
function vars.slots(names) end

---@param name string
---@return portolan.value?
function vars.get(name) end

---nil clears the variable.
---@param name string
---@param value portolan.value|nil
function vars.set(name, value) end

---Adds to a whole-number variable (unset counts as 0); returns the sum.
---@param name string
---@param n integer
---@return integer
function vars.add(name, n) end

---@param player portolan.player
---@param name string
---@return portolan.value?
function vars.get_player(player, name) end

---@param player portolan.player
---@param name string
---@param value portolan.value|nil
function vars.set_player(player, name, value) end

---@param player portolan.player
---@param name string
---@param n integer
---@return integer
function vars.add_player(player, name, n) end

-- ---------------------------------------------------------------- the sandbox's additions

---An empty table with room for `nseq` list items and `nrec` other fields (from Lua 5.5).
---@param nseq integer
---@param nrec? integer
---@return table
function table.create(nseq, nrec) end
