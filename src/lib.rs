//! arbiter replays recorded games of hidden-piece and animal board games (Stratego, Barrage,
//! Duel, Veldslag; more to come) and judges them the way a tournament arbiter would.
//!
//! Data flows one way:
//! ```text
//! bytes --(grammar/log.pest, record::gravon)--> record::GameRecord   tags, setups, moves + spans
//!       --(rules::<family>)-------------------> rules::Replay        plies, outcome, findings
//!       --(checks::*)-------------------------> Vec<Finding>         result vs moves, history rules
//!       --(report::*)-------------------------> miette / JSON
//! ```
//! [`pipeline`] is the one place the stages meet.

pub mod checks;
pub mod convert;
pub mod finding;
pub mod geometry;
pub mod pipeline;
pub mod record;
pub mod report;
pub mod rules;

pub use finding::{Code, Finding, Severity};
pub use pipeline::{check_source, GameReport, Options, Source, Summary};
