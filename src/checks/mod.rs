//! Checks stage: history rules that only a whole replay shows, and the recorded result
//! against the moves. A check reads a [`crate::rules::Replay`]; it never parses.

pub mod chase;
pub mod no_capture;
pub mod outcome;
pub mod two_squares;
