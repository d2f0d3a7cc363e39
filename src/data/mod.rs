//! Game data: YAML schemas, their validation, and their errors.
pub mod catalog;
pub mod colour;
pub mod compile;
pub mod error;
pub mod game_file;
pub mod json_schema;
pub mod locate;
pub mod overlay;
pub mod package;
pub mod scenario;
pub mod schema;
pub mod yaml;
