//! The pieces API as rules read it: `pieces.owner` answers what
//! `pieces.get(id).owner` does without building the piece's table, and
//! `pieces.get`, built in one protected call, still carries every field.
//! Treasure Fleet has both kinds of piece: ships with a side and private
//! attributes, and neutral wind cards. `pieces.list` takes one kind or a
//! list of them. `pieces.kinds_at` answers what `pieces.kind` says of
//! each of `pieces.at`'s pieces, `pieces.places` where the pieces of
//! `pieces.list` stand, and `pieces.count` how many there are.

#[allow(dead_code)]
mod common;

/// Evaluates `code` (a Lua expression giving a string) against a fresh
/// Treasure Fleet game.
fn lua(code: &str) -> String {
    lua_in("treasure-fleet", code)
}

/// Evaluates `code` (a Lua expression giving a string) against a fresh game
/// of a stock package, once its set-up has run.
fn lua_in(game: &str, code: &str) -> String {
    let engine = common::stock(game);
    let state = engine.new_game(7).expect("the game starts");
    let shown = engine
        .lua_eval(&state, code)
        .unwrap_or_else(|e| panic!("{code}: {e}"));
    shown.trim_matches('"').to_string()
}

/// The error `code` raises against a fresh Treasure Fleet game, as text.
fn lua_error(code: &str) -> String {
    let engine = common::stock("treasure-fleet");
    let state = engine.new_game(7).expect("the game starts");
    engine.lua_eval(&state, code).expect_err(code).to_string()
}

#[test]
fn owner_is_the_owner_of_the_whole_piece_for_every_piece() {
    let checked = lua("(function()\n\
           local owned, neutral = 0, 0\n\
           for _, id in ipairs(pieces.all()) do\n\
             local whole = pieces.get(id).owner\n\
             assert(pieces.owner(id) == whole, id .. ': ' .. tostring(pieces.owner(id)) .. ' ~= ' .. tostring(whole))\n\
             if whole then owned = owned + 1 else neutral = neutral + 1 end\n\
           end\n\
           return owned .. ' owned, ' .. neutral .. ' neutral'\n\
         end)()");
    // Six ships a side, and a deck of wind cards that belongs to no one.
    let (owned, rest) = checked.split_once(" owned, ").expect("counts");
    assert_eq!(owned, "12", "{checked}");
    assert_ne!(rest, "0 neutral", "{checked}");
}

#[test]
fn owner_of_a_piece_that_does_not_exist_is_an_error_saying_so_where() {
    let err = lua_error("pieces.owner(100000)");
    assert!(err.contains("repl:1: no piece 100000"), "{err}");
}

#[test]
fn a_whole_piece_carries_every_field_and_attribute() {
    let fields = lua("(function()\n\
           local id = pieces.list { kind = 'Ship' }[1]\n\
           local p = pieces.get(id)\n\
           assert(p.id == id and p.kind == 'Ship' and p.owner == pieces.owner(id))\n\
           assert(p.at == pieces.where(id) and type(p.on_board) == 'boolean' and type(p.public) == 'boolean')\n\
           local names = {}\n\
           for name, value in pairs(p.attrs) do\n\
             assert(pieces.attr(id, name) == value, name)\n\
             names[#names + 1] = name\n\
           end\n\
           table.sort(names)\n\
           return table.concat(names, ',')\n\
         end)()");
    for attr in ["cargo", "cp", "max_cp", "name"] {
        assert!(fields.split(',').any(|n| n == attr), "{attr} in {fields}");
    }
}

#[test]
fn a_list_of_kinds_lists_the_pieces_of_any_of_them() {
    let counts = lua("(function()\n\
           local ships, north = #pieces.list { kind = 'Ship' }, #pieces.list { kind = 'Wind_N' }\n\
           local both = pieces.list { kind = { 'Wind_N', 'Ship' } }\n\
           for i = 2, #both do assert(both[i - 1] < both[i], 'in id order') end\n\
           return ships .. ' ' .. north .. ' ' .. #both .. ' ' .. #pieces.list { kind = {} }\n\
         end)()");
    let n: Vec<usize> = counts.split(' ').map(|c| c.parse().unwrap()).collect();
    assert_eq!(n[0], 12, "{counts}");
    assert!(n[1] > 0, "{counts}");
    assert_eq!(n[2], n[0] + n[1], "any of the kinds: {counts}");
    assert_eq!(n[3], 0, "no kind, no piece: {counts}");
}

#[test]
fn a_kind_list_with_an_item_that_is_no_kind_is_refused_naming_it() {
    let err = lua_error("pieces.list { kind = { 'Ship', 3 } }");
    assert!(
        err.contains("bad field 'kind' in argument #1 to 'pieces.list'")
            && err.contains("number at 2"),
        "{err}"
    );
    let err = lua_error("pieces.list { kind = { 'Ship', 'Shipp' } }");
    assert!(err.contains("no piece kind 'Shipp'"), "{err}");
}

#[test]
fn kinds_at_names_the_kind_of_each_piece_at_a_place_in_id_order() {
    // Every place that holds a piece: the ships' and the wind deck's.
    let checked = lua("(function()\n\
           local places, seen = {}, {}\n\
           for _, id in ipairs(pieces.all()) do\n\
             local at = pieces.where(id)\n\
             if not seen[at] then seen[at] = true; places[#places + 1] = at end\n\
           end\n\
           local pieces_seen = 0\n\
           for _, at in ipairs(places) do\n\
             local ids, kinds = pieces.at(at), pieces.kinds_at(at)\n\
             assert(#ids == #kinds, at)\n\
             for i, id in ipairs(ids) do\n\
               assert(kinds[i] == pieces.kind(id), at .. ' ' .. i)\n\
             end\n\
             pieces_seen = pieces_seen + #ids\n\
           end\n\
           return #places .. ' ' .. pieces_seen .. ' ' .. #pieces.all() .. ' ' .. #pieces.kinds_at('a1')\n\
         end)()");
    let n: Vec<usize> = checked.split(' ').map(|c| c.parse().unwrap()).collect();
    assert!(n[0] >= 2, "the fleets' ships and the wind deck: {checked}");
    assert_eq!(n[1], n[2], "every piece is somewhere: {checked}");
    assert_eq!(n[3], 0, "an empty space has no kinds: {checked}");
}

#[test]
fn kinds_at_a_place_that_does_not_exist_is_an_error_saying_so_where() {
    let engine = common::stock("treasure-fleet");
    let state = engine.new_game(7).expect("the game starts");
    for (call, says) in [
        (
            "pieces.kinds_at('Atlantis')",
            "repl:1: 'Atlantis' is neither a space nor a pool",
        ),
        (
            "pieces.kinds_at(3)",
            "repl:1: bad argument #1 to 'pieces.kinds_at' (string expected, got number)",
        ),
    ] {
        let err = engine.lua_eval(&state, call).expect_err(call).to_string();
        assert!(err.contains(says), "{call}: {err}");
    }
}

#[test]
fn places_are_where_the_listed_pieces_stand_each_once_in_board_order() {
    // Mediterranea's armies spread over many areas once the set-up ran.
    let checked = lua_in(
        "mediterranea",
        "(function()\n\
               local order = {}\n\
               for i, name in ipairs(board.spaces()) do order[name] = i end\n\
               local filters = { { on_board = true }, { owner = 'white' }, { kind = 'Romans' }, {} }\n\
               local out = {}\n\
               for _, filter in ipairs(filters) do\n\
                 local expected = {}\n\
                 for _, id in ipairs(pieces.list(filter)) do\n\
                   local at = pieces.where(id)\n\
                   expected[at] = (expected[at] or 0) + 1\n\
                 end\n\
                 local places, counts = pieces.places(filter)\n\
                 assert(#places == #counts)\n\
                 local seen = 0\n\
                 for i, at in ipairs(places) do\n\
                   assert(counts[i] == expected[at], at)\n\
                   expected[at] = nil\n\
                   if order[at] then\n\
                     assert(i == 1 or (order[places[i - 1]] and order[places[i - 1]] < order[at]), 'board order at ' .. at)\n\
                   else\n\
                     assert(i == #places or not order[places[i + 1]], 'spaces before pools at ' .. at)\n\
                   end\n\
                   seen = seen + counts[i]\n\
                 end\n\
                 assert(next(expected) == nil, 'every place listed')\n\
                 out[#out + 1] = #places .. ':' .. seen\n\
               end\n\
               return table.concat(out, ' ')\n\
             end)()",
    );
    let counts: Vec<(usize, usize)> = checked
        .split(' ')
        .map(|p| {
            let (places, pieces) = p.split_once(':').expect("places:pieces");
            (places.parse().unwrap(), pieces.parse().unwrap())
        })
        .collect();
    assert!(counts[0].0 > 5, "armies in many areas: {checked}");
    assert!(
        counts[3].1 > counts[0].1,
        "the whole box is more: {checked}"
    );
}

#[test]
fn places_refuse_a_bad_filter_like_the_list_naming_themselves() {
    let err = lua_error("pieces.places { kind = { 'Ship', 'Shipp' } }");
    assert!(err.contains("repl:1: no piece kind 'Shipp'"), "{err}");
    let err = lua_error("pieces.places(3)");
    assert!(
        err.contains("bad argument #1 to 'pieces.places' (table or nil expected, got number)"),
        "{err}"
    );
}

#[test]
fn a_list_by_owner_is_every_piece_of_that_owner_with_the_other_fields() {
    // The list walks the owner's own pieces: it must find what a pass over
    // every piece finds, with every other field of the filter.
    let checked = lua_in(
        "mediterranea",
        "(function()\n\
               local out = {}\n\
               for _, player in ipairs(game.players()) do\n\
                 for _, extra in ipairs({ {}, { on_board = true }, { at = 'reserve' }, { kind = 'Romans' } }) do\n\
                   local filter = { owner = player }\n\
                   for k, v in pairs(extra) do filter[k] = v end\n\
                   local expected = {}\n\
                   for _, id in ipairs(pieces.all()) do\n\
                     local p = pieces.get(id)\n\
                     if p.owner == player and (extra.on_board == nil or p.on_board)\n\
                         and (extra.at == nil or p.at == extra.at) and (extra.kind == nil or p.kind == extra.kind) then\n\
                       expected[#expected + 1] = id\n\
                     end\n\
                   end\n\
                   local listed = pieces.list(filter)\n\
                   assert(#listed == #expected, player)\n\
                   for i, id in ipairs(listed) do assert(id == expected[i], player .. ' ' .. i) end\n\
                   out[#out + 1] = #listed\n\
                 end\n\
               end\n\
               return table.concat(out, ' ')\n\
             end)()",
    );
    let counts: Vec<usize> = checked.split(' ').map(|c| c.parse().unwrap()).collect();
    assert_eq!(counts.len(), 16, "{checked}");
    assert!(
        counts[0] > counts[1] && counts[1] > 0,
        "white has pieces on and off the map: {checked}"
    );
    assert!(counts[3] > 0, "white's Romans: {checked}");
}

#[test]
fn a_count_is_the_length_of_the_list_for_the_same_filter() {
    let checked = lua_in(
        "mediterranea",
        "(function()\n\
               local filters = { { on_board = true }, { owner = 'white' }, { kind = { 'Romans', 'Huns' } },\n\
                 { owner = 'yellow', kind = 'Huns', at = 'reserve' }, { kind = {} }, {} }\n\
               local out = {}\n\
               for _, filter in ipairs(filters) do\n\
                 assert(pieces.count(filter) == #pieces.list(filter))\n\
                 out[#out + 1] = pieces.count(filter)\n\
               end\n\
               return table.concat(out, ' ')\n\
             end)()",
    );
    let counts: Vec<usize> = checked.split(' ').map(|n| n.parse().unwrap()).collect();
    assert!(counts[0] > 5 && counts[3] > 0, "{checked}");
    assert_eq!(counts[4], 0, "an empty list of kinds matches nothing");
    assert!(counts[5] > counts[1], "{checked}");
}

#[test]
fn a_count_refuses_a_bad_filter_naming_itself() {
    let err = lua_error("pieces.count { at = 'nowhere' }");
    assert!(
        err.contains("repl:1: 'nowhere' is neither a space nor a pool"),
        "{err}"
    );
    let err = lua_error("pieces.count('red')");
    assert!(
        err.contains("bad argument #1 to 'pieces.count' (table or nil expected, got string)"),
        "{err}"
    );
}
