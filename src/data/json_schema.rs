//! JSON Schemas of the files designers write (`game.yaml`, scenarios,
//! balance overlays), generated from the very types that read them, so
//! an editor's completion and checks cannot drift from what `check`
//! accepts. `portolan schema game|scenario|overlay` prints one; the
//! copies in docs/schema/ are what a `# yaml-language-server: $schema=`
//! line points at (tests/json_schema.rs holds them equal).
//!
//! The schema knows the shape of a file (keys, kinds of values, the words
//! allowed); `check` knows more: names that must exist elsewhere in the
//! file, rows that must not overlap, scripts that must define a function.

use crate::data::game_file::GameFile;
use crate::data::overlay::OverlayFile;
use crate::data::scenario::ScenarioFile;
use schemars::{JsonSchema, generate::SchemaSettings};
use serde_json::Value as Json;

/// The files that have a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaFile {
    /// `rules/GAME/game.yaml`
    Game,
    /// `scenarios/GAME/NAME.yaml`
    Scenario,
    /// `rules/GAME/overlays/NAME.yaml`, or an overlay file anywhere
    Overlay,
}

impl SchemaFile {
    pub const ALL: [SchemaFile; 3] = [SchemaFile::Game, SchemaFile::Scenario, SchemaFile::Overlay];

    /// The word that names it on the command line and in docs/schema/.
    pub fn name(self) -> &'static str {
        match self {
            SchemaFile::Game => "game",
            SchemaFile::Scenario => "scenario",
            SchemaFile::Overlay => "overlay",
        }
    }

    fn title(self) -> &'static str {
        match self {
            SchemaFile::Game => "Portolan game.yaml: a rules package's data",
            SchemaFile::Scenario => "Portolan scenario: options, overrides and overlays of a game",
            SchemaFile::Overlay => "Portolan balance overlay: edits of a game's data",
        }
    }

    /// The schema, as JSON.
    pub fn schema(self) -> Json {
        let mut schema = match self {
            SchemaFile::Game => generate::<GameFile>(),
            SchemaFile::Scenario => generate::<ScenarioFile>(),
            SchemaFile::Overlay => generate::<OverlayFile>(),
        };
        if let Some(top) = schema.as_object_mut() {
            top.insert("title".into(), Json::from(self.title()));
        }
        schema
    }

    /// The schema as the text docs/schema/NAME.json holds.
    pub fn text(self) -> String {
        let mut text =
            serde_json::to_string_pretty(&self.schema()).expect("a schema is plain JSON");
        text.push('\n');
        text
    }
}

/// A draft 2020-12 schema of what `T` reads (serde's renames, defaults,
/// tags and `deny_unknown_fields` included).
fn generate<T: JsonSchema>() -> Json {
    let generator = SchemaSettings::draft2020_12().into_generator();
    generator.into_root_schema_for::<T>().to_value()
}
