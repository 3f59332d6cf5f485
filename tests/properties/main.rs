//! Properties over generated games and logs (proptest).

#[path = "../support/from_ply.rs"]
mod from_ply_support;

mod fast_parser;
mod jungle;
mod positions;
mod show;
mod spionage;
mod stratego;
