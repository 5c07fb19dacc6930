//! The tools as the model calls them: [`crate::tools::session::Session`] takes a call by
//! name with raw JSON arguments, [`args`] checks them (aliases, numeric
//! strings, `null` as absent), and [`definitions`] and [`schema`] describe
//! the tools to the model in each API's form. [`sets`] names the tool sets
//! a session may offer; [`shapes`] translates each vendor's tool shape onto
//! the core's operations. Everything below this layer is reached from here.

pub mod args;
mod call;
pub mod definitions;
pub mod schema;
pub(crate) mod session;
pub mod sets;
pub mod shapes;
