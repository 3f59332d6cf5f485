//! Reading a move written in coordinates (`a4-a5`, `a4xa5`; docs/log-format.md, Movetext) on
//! a board of the Stratego family, Spionage or Jungle: the first step of an engine's `play`.

// Findings travel by value through the `Rules` trait; this helper returns them the same way.
#![allow(clippy::result_large_err)]

use crate::finding::{Code, Finding};
use crate::geometry::{Geometry, Square};
use crate::record::{MoveRecord, Tag};
use crate::rulebook::Rule;
use crate::types::Span;

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
            mv.text_span(),
            format!("`{}` is not a move", shown(mv.text())),
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

/// In a game of one move a turn, ply `number` (1-based), the `nth` ply of the log (1-based:
/// `number` less the plies before a position start), must be a turn of its own: a move
/// joined to the previous one by a comma is a `parse-error` under `rule`.
pub fn one_move_turn(
    mv: &MoveRecord,
    (number, nth): (u32, u32),
    rule: Rule,
) -> Result<(), Finding> {
    if mv.turn() + 1 == nth as usize {
        return Ok(());
    }
    Err(
        Finding::new(Code::ParseError, mv.span(), "two moves in one turn", rule)
            .at_ply(number)
            .label("joined to the previous move by a comma")
            .help("only Spionage plays two moves a turn; separate the moves with a space"),
    )
}

/// The words of a tag value (separated by white space and commas) with their bytes: exact
/// when the value was written without escapes, else the whole value. For tags that list
/// squares or moves (`Volcanoes`, `Revealed`, `NoReturn`).
pub fn tag_words(tag: &Tag) -> Vec<(Span, &str)> {
    let value = tag.value.value.as_str();
    let exact = tag.value.span.len() == value.len();
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in value.char_indices().chain([(value.len(), ' ')]) {
        let sep = c.is_whitespace() || c == ',';
        match (start, sep) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                let at = tag.value.span.start + s;
                let span = if exact {
                    Span::new(at, at + (i - s))
                } else {
                    tag.value.span
                };
                out.push((span, &value[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Reads a square name on `g`: a file letter (either case) and a rank of one or two digits
/// (`e5`, `J10`); `None` for anything else or a square off the board.
pub fn parse_square(g: &Geometry, word: &str) -> Option<Square> {
    let mut chars = word.chars();
    let file = chars.next()?.to_ascii_lowercase();
    if !file.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    g.square_written(file as u8 - b'a', digits.parse().ok()?)
}

/// Reads a move `e4-e5` (or `e4xe5`) of a tag value on `g`: its from- and to-square.
pub fn parse_move(g: &Geometry, word: &str) -> Option<(Square, Square)> {
    let c = crate::record::parse_coord_move(word, 0)?;
    Some((
        g.square_written(c.from.0, c.from.1)?,
        g.square_written(c.to.0, c.to.1)?,
    ))
}

/// A board as setup rows (docs/log-format.md, setups): the ranks where `letter` gives a
/// character, top rank first, each as (rank as written, one character per file, `.` where
/// `letter` gives none).
pub fn rows(g: &Geometry, letter: impl Fn(Square) -> Option<char>) -> Vec<(u32, String)> {
    (0..g.height)
        .rev()
        .filter_map(|rank| {
            let squares = (0..g.width).filter_map(|file| g.square(file as i32, rank as i32));
            let cells: String = squares.map(|s| letter(s).unwrap_or('.')).collect();
            let any = cells.chars().any(|c| c != '.');
            any.then(|| (rank as u32 + g.rank_base as u32, cells))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Spanned;

    fn tag(value: &str, written: usize) -> Tag {
        Tag {
            name: Spanned::new("Volcanoes".into(), Span::new(1, 10)),
            value: Spanned::new(value.into(), Span::new(12, 12 + written)),
            span: Span::new(0, 14 + written),
        }
    }

    #[test]
    fn words_with_their_bytes() {
        let t = tag(" d5, e6  f4,g7", 14);
        let words: Vec<(usize, &str)> = tag_words(&t).iter().map(|(s, w)| (s.start, *w)).collect();
        assert_eq!(words, vec![(13, "d5"), (17, "e6"), (21, "f4"), (24, "g7")]);
        // Written with an escape: every word points at the whole value.
        let t = tag("a1 b2", 7);
        assert!(tag_words(&t).iter().all(|(s, _)| *s == Span::new(12, 19)));
    }

    #[test]
    fn squares_and_moves() {
        let ten = Geometry {
            width: 10,
            height: 10,
            rank_base: 1,
        };
        assert_eq!(parse_square(&ten, "a1"), Some(0));
        assert_eq!(parse_square(&ten, "J10"), Some(99));
        for bad in ["k1", "a11", "a0", "a", "a1x", "é1", "1a"] {
            assert_eq!(parse_square(&ten, bad), None, "{bad}");
        }
        assert_eq!(parse_move(&ten, "a1-a2"), Some((0, 10)));
        assert_eq!(parse_move(&ten, "j10xj9"), Some((99, 89)));
        assert_eq!(parse_move(&ten, "a1-k2"), None);
        assert_eq!(parse_move(&ten, "a1"), None);
    }
}
