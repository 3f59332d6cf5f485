//! Properties over generated games and logs (proptest).

mod fast_parser;
mod jungle;
mod show;
mod spionage;
mod stratego;
