//! Checks stage: what only a finished replay shows. A check reads a [`crate::rules::Replay`]
//! (and the record it came from); it never parses and never decides what is legal: history
//! rules that forbid moves live in the engines that use them (`games::stratego::two_squares`,
//! `games::stratego::chase`, `games::jungle::history`, `games::xiangqi::repetition`).

pub mod no_capture;
pub mod outcome;
