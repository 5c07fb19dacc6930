//! From what the model sends to a file: [`path`] maps a model's path onto
//! the root-relative form the host understands, [`repair`] tries the
//! spellings a model cannot see before "not found", [`danger`] refuses
//! devices and process files by name, and [`glob`] matches paths against the
//! patterns the MCP filesystem tools take, [`order`] sorts paths by their
//! bytes, and [`walk`] goes over a
//! directory as a search does, with the ignore rules, saying what they left
//! out.

pub mod danger;
pub mod glob;
pub mod order;
pub mod path;
pub mod repair;
pub mod walk;
