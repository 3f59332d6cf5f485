//! Properties over generated games and logs (proptest).

#[path = "../support/from_ply.rs"]
mod from_ply_support;
#[path = "../support/roundtrip.rs"]
mod roundtrip;

mod claims;
mod convert_roundtrip;
mod escaping;
mod evidence;
mod fast_parser;
mod jungle;
mod multigame;
mod positions;
mod report_as;
mod show;
mod spionage;
mod stratego;
mod svg_points;
mod variations;
