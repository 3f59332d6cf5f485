//! arbiter replays recorded games of hidden-piece and animal board games (Stratego, Barrage,
//! Duel, Veldslag, Spionage, Jungle, Xiangqi, Jieqi) and judges them the way a tournament
//! arbiter would.
//!
//! Data flows one way, each stage importing only the ones below it:
//! ```text
//! bytes --(input: format known by content; record::{parse, fast, gravon, xqf})
//!       --> record::GameRecord      tags, setups, moves, variations, comments, all with spans
//!       --(games::<game>, chosen by the registry games::engine)
//!       --> rules::Replay           plies, outcome, findings of every move and history rule
//!       --(checks::*: what only the finished replay shows)
//!       --> pipeline::GameReport    result vs moves, thresholds
//!       --(report::*)--> human (miette), JSON, JSON Lines, SARIF, GitHub, JUnit, rdjson, GitLab
//! ```
//! Vocabulary (types, finding, codes, rulebook, geometry, view) is the ground floor.
//! [`pipeline`] is the one place the stages meet; [`run::check`] is the `check` command as a
//! library call (inputs in, a report on a writer and an [`ExitStatus`] out).
//!
//! Judging one log from memory:
//!
//! ```
//! use arbiter::{check_source, Code, Options, Source};
//!
//! // Black's Horse on h9 cannot jump to h5: the replay stops at ply 2.
//! let log = "[Game \"xiangqi\"]\n[Result \"*\"]\n\n1. h2e2 h9h5 *\n";
//! let games = check_source(&Source::from_bytes("game.arb", log.into()), &Options::default());
//! let finding = &games[0].findings[0];
//! assert_eq!((finding.code, finding.ply), (Code::IllegalMove, Some(2)));
//! assert_eq!(games[0].plies, 1);
//! ```

// A `Finding` (spans, labels, texts) is the error of every stage by design: it is what the
// user sees. Boxing it in every `Result` would only add noise, so clippy's size lint is off.
#![allow(clippy::result_large_err)]

pub mod checks;
pub mod claim;
pub mod cli;
pub mod codes;
pub mod convert;
pub mod escape;
pub mod explain;
pub mod finding;
pub mod games;
pub mod geometry;
pub mod input;
pub mod page;
pub mod pipeline;
pub mod record;
pub mod report;
pub mod rulebook;
pub mod rules;
pub mod run;
pub mod schema;
pub mod show;
pub mod types;
pub mod view;

pub use finding::{Code, Finding, Severity};
pub use pipeline::{check_source, GameReport, Options, Source};
pub use report::Summary;
pub use types::{ExitStatus, GameId, RecordedResult, Side};
