//! Everything the model reads back, rendered from typed outcomes in one
//! place each: the [`result`] shape (content blocks, error flag, metadata),
//! the sentences about a read ([`notice`]), a change ([`report`]), a refused
//! change ([`refusal`]), any other failure ([`error`], by area), a syntax
//! check ([`syntax_note`]) and a call that trapped ([`trapped`]). The tools'
//! names and the schemas errors quote are in [`tool`], the quoting of what
//! the model sent in [`quote`], and metadata keeps its keys [`sorted`].

pub mod batch;
pub mod changes;
pub mod error;
pub mod notice;
pub mod quote;
pub mod refusal;
pub mod replace;
pub mod report;
pub mod result;
pub mod rewind;
pub mod search;
pub mod sorted;
pub mod syntax_note;
pub mod tool;
pub mod trapped;
