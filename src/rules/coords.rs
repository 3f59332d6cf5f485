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

/// The text escaped as Rust escapes a string for debugging (`\u{7}`): an [`Unreadable::shown`].
pub fn escaped(text: &str) -> String {
    text.escape_debug().to_string()
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

/// In a game of one move a turn, ply `number` (1-based) must be a turn of its own: a move joined
/// to the previous one by a comma is a `parse-error` under `rule`.
pub fn one_move_turn(mv: &MoveRecord, number: u32, rule: Rule) -> Result<(), Finding> {
    if mv.turn + 1 == number as usize {
        return Ok(());
    }
    Err(
        Finding::new(Code::ParseError, mv.span, "two moves in one turn", rule)
            .at_ply(number)
            .label("joined to the previous move by a comma")
            .help("only Spionage plays two moves a turn; separate the moves with a space"),
    )
}
