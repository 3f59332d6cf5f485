//! Checks stage: what only a finished replay shows. A check reads a [`crate::rules::Replay`]
//! (and the record it came from); it never parses and never decides what is legal: history
//! rules that forbid moves live in the engines that use them (`rules::stratego::two_squares`,
//! `rules::stratego::chase`, `rules::jungle::history`, `rules::xiangqi::repetition`).

pub mod no_capture;
pub mod outcome;
