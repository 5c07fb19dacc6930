//! The tools as the model calls them, the top layer: a [`Session`](crate::Session)
//! holds one conversation's memory over one file system and takes typed
//! calls; `call` routes a raw call to the tool set that offers it; [`args`]
//! checks raw arguments (aliases, numeric strings, `null` as absent);
//! [`definitions`] and [`schema`] describe the tools to the model in each
//! API's form; [`sets`] says what each tool set offers; [`shapes`] translates
//! each vendor's tool shape onto the guarded operations below.

pub mod args;
mod call;
pub mod definitions;
pub mod gemini;
mod many;
#[cfg(test)]
mod read_only_tests;
pub mod schema;
mod search;
mod search_definitions;
pub(crate) mod session;
pub mod sets;
pub mod shapes;
