//! arbiter replays recorded games of hidden-piece and animal board games (Stratego, Barrage,
//! Duel, Veldslag, Spionage, Jungle, Xiangqi, Jieqi) and judges them the way a tournament
//! arbiter would.
//!
//! Data flows one way:
//! ```text
//! bytes --(grammar/log.pest, record::gravon)--> record::GameRecord   tags, setups, moves + spans
//!       --(rules::<family>)-------------------> rules::Replay        plies, outcome, findings
//!       --(checks::*)-------------------------> Vec<Finding>         result vs moves, history rules
//!       --(report::*)-------------------------> miette / JSON
//! ```
//! [`pipeline`] is the one place the stages meet.

// A `Finding` (spans, labels, texts) is the error of every stage by design: it is what the
// user sees. Boxing it in every `Result` would only add noise, so clippy's size lint is off.
#![allow(clippy::result_large_err)]

pub mod checks;
pub mod claim;
pub mod codes;
pub mod convert;
pub mod finding;
pub mod games;
pub mod geometry;
pub mod input;
pub mod pipeline;
pub mod record;
pub mod report;
pub mod rulebook;
pub mod rules;
pub mod run;
pub mod show;
pub mod types;
pub mod view;

pub use finding::{Code, Finding, Severity};
pub use pipeline::{check_source, GameReport, Options, Source};
pub use report::Summary;
