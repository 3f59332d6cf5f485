//! Properties over generated games and logs (proptest).

#[path = "../support/roundtrip.rs"]
mod roundtrip;

mod claims;
mod convert_roundtrip;
mod escaping;
mod evidence;
mod fast_parser;
mod jungle;
mod multigame;
mod report_as;
mod show;
mod spionage;
mod stratego;
mod svg_points;
mod variations;
