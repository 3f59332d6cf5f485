//! Properties over generated games and logs (proptest).

mod claims;
mod fast_parser;
mod jungle;
mod report_as;
mod show;
mod spionage;
mod stratego;
mod svg_points;
mod variations;
