//! The choices a scripted phase's `run` returns are read the same way
//! whatever the list is: a plain list of strings (read raw, in one call),
//! a list behind a metatable, or items that are not strings.

#[allow(dead_code)]
mod common;

use portolan::kernel::engine::Engine;

const GAME: &str = "id: choices\ntitle: Choices\nplayers: [{ id: solo, name: Solo }]\n\
                    phases:\n  pick: { kind: script }\nflow: [pick]\nscripts: [rules.lua]\n";

/// A package whose only phase offers what `offer` (a Lua expression)
/// evaluates to.
fn package(offer: &str) -> (tempfile::TempDir, Engine) {
    let rules = format!(
        "phases.pick = {{\n  run = function(frame) if not vars.get('done') then return {offer} end end,\n  \
         choose = function(frame, choice) vars.set('done', true) end,\n}}\n"
    );
    common::temp_package("choices", GAME, &rules)
}

fn offered(offer: &str) -> Result<Vec<String>, String> {
    let (_dir, engine) = package(offer);
    let state = engine.new_game(1).map_err(|e| e.0)?;
    Ok(common::legal(&engine, &state))
}

#[test]
fn a_plain_list_of_strings_is_offered_in_order() {
    assert_eq!(
        offered("{ 'north', 'south', 'east' }").unwrap(),
        ["north", "south", "east"]
    );
}

#[test]
fn a_list_behind_a_metatable_is_read_through_it() {
    let offer =
        "setmetatable({}, { __index = { 'left', 'right' }, __len = function() return 2 end })";
    assert_eq!(offered(offer).unwrap(), ["left", "right"]);
}

#[test]
fn numbers_in_the_list_are_offered_as_their_text() {
    assert_eq!(offered("{ 'stay', 3 }").unwrap(), ["stay", "3"]);
}

#[test]
fn an_item_that_is_not_text_is_refused_with_the_phase_named() {
    let err = offered("{ 'stay', {} }").unwrap_err();
    assert!(
        err.contains("phases.pick.run") && err.contains("list of choice strings"),
        "{err}"
    );
}

#[test]
fn text_that_is_not_utf8_is_refused() {
    let err = offered("{ 'stay', '\\255' }").unwrap_err();
    assert!(err.contains("list of choice strings"), "{err}");
}
