//! Reading a move written in coordinates (`a4-a5`, `a4xa5`; docs/log-format.md, Movetext) on
//! a board of the Stratego family, Spionage or Jungle: the first step of an engine's `play`.

// Findings travel by value through the `Rules` trait; this helper returns them the same way.
#![allow(clippy::result_large_err)]

use crate::finding::{Code, Finding};
use crate::geometry::{Geometry, Square};
use crate::record::MoveRecord;
use crate::rulebook::Rule;

/// How a game words a move text that is not a coordinate move (a `parse-error`).
pub struct Unreadable {
    /// The text as the message shows it (escaped, perhaps shortened).
    pub shown: fn(&str) -> String,
    /// A move of the game, for the label: `a4-a5`.
    pub example: &'static str,
    /// How the game's moves are written.
    pub help: &'static str,
}

/// The from-square, the to-square and the attack mark (`x`) of ply `number` (1-based) on `g`.
/// A text that is not a coordinate move is the `parse-error` `unreadable` words; a square off
/// the board is the finding `off_board` makes (its argument: true for the from-square).
pub fn read(
    g: &Geometry,
    mv: &MoveRecord,
    number: u32,
    unreadable: &Unreadable,
    off_board: impl Fn(bool) -> Finding,
) -> Result<(Square, Square, bool), Finding> {
    let Unreadable {
        shown,
        example,
        help,
    } = unreadable;
    let Some(c) = mv.coord() else {
        return Err(Finding::new(
            Code::ParseError,
            mv.text.span,
            format!("`{}` is not a move", shown(&mv.text.value)),
            Rule::LogMoves,
        )
        .at_ply(number)
        .label(format!(
            "expected a from-square and a to-square, e.g. {example}"
        ))
        .help(help.to_string()));
    };
    let from = g
        .square_written(c.from.0, c.from.1)
        .ok_or_else(|| off_board(true))?;
    let to = g
        .square_written(c.to.0, c.to.1)
        .ok_or_else(|| off_board(false))?;
    Ok((from, to, c.capture_mark))
}
