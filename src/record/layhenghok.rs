//! The saved games of the layhenghok Jungle program (`Layheng-Hok/Jungle-Chess`; the format is
//! described in `../shared/corpus/jungle-layhenghok/SOURCE.md`), read as Jungle records.
//!
//! ```text
//! hu ai ha          players (Blue, Red: hu human, ai engine) and the engine level
//! 45                the number of plies
//! bl 48 41          one line a ply, Blue first: side, from and to square (row * 7 + column)
//! bl el 48 41       older files: the moving piece's code before the squares
//! re                the side to move after the last ply
//! **  **  LI ...    the final position, 9 lines
//! blitz 219 270     newer files: the clock mode (blitz: Blue's and Red's seconds left)
//! resign            when a player resigned
//! ```
//!
//! The program's square `row * 7 + column` (row 0 on Red's side, column 0 at the left as Blue
//! sees it) is arbiter's file `g` minus the column, rank row + 1. The record: `[FirstMove
//! "blue"]` as the format's own (the program lets Blue move first); tags `Blue`, `Red`
//! (player types) and `Level`; a move `a2-a3` per ply, spans on its two numbers, and the old
//! format's piece code as the annotation arbiter checks; `Result` and `Termination` only where
//! the file says how the game ended off the board (a clock at 0: `time`; `resign`:
//! `resignation`, the result unknown); the lines after the moves kept as one comment. A line
//! arbiter cannot read is a `parse-error` at it.

use super::CoordMove;
use super::{imported_tag, located_lines, located_words, Comment, GameRecord, MoveRecord};
use super::{PlyExtra, Span, Spanned};
use crate::finding::{Code, Finding};
use crate::rulebook::Rule;

const RULE: Rule = Rule::LayhenghokFormat;

/// The player type words of the first line.
const PLAYERS: [&str; 2] = ["hu", "ai"];
/// The engine level words of the first line.
const LEVELS: [&str; 4] = ["ea", "me", "ha", "nu"];

/// True when `head` starts like a saved game: `hu|ai hu|ai ea|me|ha|nu`, a ply count, then a
/// move line or the side line.
pub fn looks_like(head: &[u8]) -> bool {
    let head = head.strip_prefix(super::encoding::BOM).unwrap_or(head);
    let text = String::from_utf8_lossy(&head[..head.len().min(256)]);
    let mut lines = text.lines().map(str::trim);
    let first: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    let header = matches!(first.as_slice(), [b, r, l]
        if PLAYERS.contains(b) && PLAYERS.contains(r) && LEVELS.contains(l));
    let count = lines.next().is_some_and(|l| l.parse::<u32>().is_ok());
    let third = lines.next().unwrap_or("");
    header && count && (third.starts_with("bl") || third.starts_with("re"))
}

/// The Jungle letter of a piece code (`el` -> `E`), lower case for Blue.
fn letter(code: &str, blue: bool) -> Option<char> {
    let l = match code.to_ascii_lowercase().as_str() {
        "ra" => 'R',
        "ca" => 'C',
        "do" => 'D',
        "wo" => 'W',
        "le" => 'P',
        "ti" => 'T',
        "li" => 'L',
        "el" => 'E',
        _ => return None,
    };
    Some(if blue { l.to_ascii_lowercase() } else { l })
}

/// The program's square index as (file index, rank): file `g` minus the column, rank row + 1.
fn square(index: u32) -> Option<(u8, u32)> {
    (index < 63).then(|| (6 - (index % 7) as u8, index / 7 + 1))
}

fn error(span: Span, message: String, label: &str) -> Finding {
    Finding::new(Code::ParseError, span, message, RULE)
        .label(label.to_string())
        .help("see the layhenghok format in corpus/jungle-layhenghok/SOURCE.md (docs/log-format.md, Imports)")
}

/// Reads one saved game (the whole file; a UTF-8 byte order mark before it is passed over).
/// Spans are offsets into `text`.
pub fn read(text: &str) -> GameRecord {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            let mut g = read_save(rest);
            g.shift_spans(text.len() - rest.len());
            g.span = Span::new(0, text.len());
            g
        }
        None => read_save(text),
    }
}

/// [`read`] of a save with no byte order mark.
fn read_save(text: &str) -> GameRecord {
    let mut g = GameRecord {
        span: Span::new(0, text.len()),
        implied_game: Some("jungle".into()),
        format_defaults: vec![("FirstMove", "blue")],
        ..GameRecord::default()
    };
    let lines = located_lines(text);
    let Some(&(at, head)) = lines.first() else {
        g.findings
            .push(error(g.span, "an empty file".into(), "no header"));
        return g;
    };
    for (w, name) in located_words(head, at).iter().zip(["Blue", "Red", "Level"]) {
        g.tags.push(imported_tag(name, w.value, w.span));
    }
    let count = lines
        .get(1)
        .and_then(|(_, l)| l.trim().parse::<usize>().ok());
    let mut i = 2;
    while let Some(&(at, line)) = lines.get(i) {
        let w = located_words(line, at);
        if w.len() < 3 || !matches!(w[0].value, "bl" | "re") {
            break;
        }
        read_move(&mut g, &w, Span::new(at, at + line.len()));
        i += 1;
    }
    g.turns = g.moves.len();
    if count != Some(g.moves.len()) && !g.unreadable() {
        let (at, line) = lines.get(1).copied().unwrap_or((0, ""));
        g.findings.push(
            Finding::new(
                Code::RecordDefect,
                Span::new(at, at + line.len()),
                format!(
                    "the ply count `{}` is not the {} move lines",
                    line.trim(),
                    g.moves.len()
                ),
                RULE,
            )
            .label("line 2 counts the move lines")
            .help("the move lines are read as they stand"),
        );
    }
    read_tail(&mut g, text, &lines[i.min(lines.len())..]);
    g
}

/// One move line `bl 48 41` or `bl el 48 41` (its words `w`, the line at `whole`).
fn read_move(g: &mut GameRecord, w: &[Spanned<&str>], whole: Span) {
    let blue = w[0].value == "bl";
    let ply = g.moves.len() + 1;
    let expected_blue = ply % 2 == 1;
    let (piece, from, to) = match w {
        [_, f, t] => (None, f, t),
        [_, p, f, t] => (Some(p), f, t),
        _ => {
            g.findings.push(error(
                whole,
                format!("ply {ply}: too many words"),
                "not a move line",
            ));
            return;
        }
    };
    let point = |s: &Spanned<&str>| s.value.parse::<u32>().ok().and_then(square);
    let (Some(fs), Some(ts)) = (point(from), point(to)) else {
        g.findings.push(error(
            from.span.join(to.span),
            format!("ply {ply}: squares are numbers from 0 to 62"),
            "not two squares",
        ));
        return;
    };
    if blue != expected_blue {
        g.findings.push(
            Finding::new(
                Code::RecordDefect,
                w[0].span,
                format!("ply {ply} is written for the wrong side"),
                RULE,
            )
            .at_ply(ply as u32)
            .label(format!(
                "the sides alternate, Blue first: ply {ply} is {}",
                if expected_blue { "Blue's" } else { "Red's" }
            ))
            .help("the moves are read in turn"),
        );
    }
    let annotation = match piece {
        Some(p) => match letter(p.value, blue) {
            Some(l) => Some(Spanned::new(l.to_string(), p.span)),
            None => {
                g.findings.push(error(
                    p.span,
                    format!("ply {ply}: unknown piece code `{}`", p.value),
                    "not a piece code",
                ));
                return;
            }
        },
        None => None,
    };
    let name = |(f, r): (u8, u32)| format!("{}{r}", (b'a' + f) as char);
    let coord = CoordMove {
        from: fs,
        to: ts,
        capture_mark: false,
        from_span: from.span,
        to_span: to.span,
    };
    let extra = Box::new(PlyExtra::new(annotation, Some(Some(coord))));
    let text = format!("{}-{}", name(fs), name(ts)).into();
    let turn = g.moves.len();
    let text_span = from.span.join(to.span);
    g.moves
        .push(MoveRecord::new(text, text_span, whole, turn, Some(extra)));
}

/// The lines after the moves: kept as a comment; a blitz clock at 0 is a loss on time, a
/// `resign` line a resignation (which side is not written).
fn read_tail(g: &mut GameRecord, text: &str, rest: &[(usize, &str)]) {
    let Some(&(start, _)) = rest.first() else {
        return;
    };
    for &(at, line) in rest {
        let w = located_words(line, at);
        let span = Span::new(at, at + line.len());
        match w.iter().map(|w| w.value).collect::<Vec<_>>().as_slice() {
            ["blitz", "0", _] => {
                g.tags.push(imported_tag("Result", "1-0", w[1].span));
                g.tags.push(imported_tag("Termination", "time", span));
            }
            ["blitz", _, "0"] => {
                g.tags.push(imported_tag("Result", "0-1", w[2].span));
                g.tags.push(imported_tag("Termination", "time", span));
            }
            ["resign"] => {
                g.tags.push(imported_tag("Result", "*", span));
                g.tags
                    .push(imported_tag("Termination", "resignation", span));
            }
            _ => {}
        }
    }
    let body = text[start..].trim_end();
    g.comments.push(Comment {
        text: body.to_string(),
        span: Span::new(start, start + body.len()),
        line: 0,
        after: g.moves.len(),
        line_comment: false,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "hu ai ha\n3\nbl 48 41\nre el 20 19\nbl 41 34\nre\n** LI\nblitz 0 12\n";

    #[test]
    fn a_saved_game() {
        assert!(looks_like(GAME.as_bytes()));
        assert!(!looks_like(b"[Game \"jungle\"]\n1. a1-a2"));
        let g = read(GAME);
        assert!(g.findings.is_empty(), "{:?}", g.findings);
        let moves: Vec<&str> = g.moves.iter().map(|m| m.text()).collect();
        // 48 = row 6, column 6: file a, rank 7; 20 = row 2, column 6: a3.
        assert_eq!(moves, ["a7-a6", "a3-b3", "a6-a5"]);
        assert_eq!(g.moves[1].annotation().unwrap().value, "E");
        let c = g.moves[0].coord().unwrap();
        assert_eq!(&GAME[c.from_span.start..c.from_span.end], "48");
        assert_eq!(g.tag_value("Result"), Some("1-0"));
        assert_eq!(g.tag_value("Termination"), Some("time"));
        assert_eq!(g.comments[0].text, "re\n** LI\nblitz 0 12");
    }

    /// A save with a UTF-8 byte order mark reads as the same save, its spans 3 bytes on.
    #[test]
    fn a_byte_order_mark_is_passed_over() {
        let marked = format!("\u{feff}{GAME}");
        assert!(looks_like(marked.as_bytes()));
        let (g, plain) = (read(&marked), read(GAME));
        assert!(g.findings.is_empty(), "{:?}", g.findings);
        assert_eq!(g.tag_value("Blue"), plain.tag_value("Blue"));
        assert_eq!(g.moves.len(), plain.moves.len());
        assert_eq!(g.moves[0].span().start, plain.moves[0].span().start + 3);
        assert_eq!(g.span, Span::new(0, marked.len()));
    }

    #[test]
    fn defects_are_reported() {
        let g = read("hu ai ha\n2\nre 48 41\nbl 41 99\n");
        let codes: Vec<Code> = g.findings.iter().map(|f| f.code).collect();
        assert_eq!(codes, [Code::RecordDefect, Code::ParseError]);
        assert!(g.unreadable());
    }
}
