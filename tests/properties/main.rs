//! Properties over generated games and logs (proptest).

#[path = "../support/roundtrip.rs"]
mod roundtrip;

mod convert_roundtrip;
mod escaping;
mod evidence;
mod fast_parser;
mod jungle;
mod multigame;
mod show;
mod spionage;
mod stratego;
