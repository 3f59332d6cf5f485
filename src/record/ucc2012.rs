//! The game logs of the UCC Programming Competition 2012 judge (Stratego, bot against bot;
//! the format is described in `../shared/corpus/stratego-ucc2012/SOURCE.md`), read as classic
//! Stratego records.
//!
//! ```text
//! ../../agents/celsius/celsius.py RED SETUP     then Red's rows y = 0..3 (y 0 its back row)
//! ../../agents/peternlewis/peternlewis BLUE SETUP   then Blue's rows y = 6..9
//! 1 RED: 9 3 DOWN OK                            <turn> <side>: <x> <y> <dir> [<n>] <outcome>
//! 2 BLU: 8 4 UP 1 BOTHDIE 9 9                   an attack names attacker and defender
//! Game ends on BLUE's turn - REASON: Destroyed all mobile enemy pieces
//! ../../agents/peternlewis/peternlewis BLUE VICTORY 149 0 43
//! ```
//!
//! The judge's column x is file `a` + x, its row y rank y + 1 (Red on ranks 1-4, Blue on 7-10,
//! the lakes on c5 d5 g5 h5 c6 d6 g6 h6: the judge's picture mirrored top to bottom, which
//! keeps every neighbourhood); UP is y - 1. Strengths are written the other way round (1 the
//! Marshal ... 9 the Scout, `s` the Spy) and become the native letters X 9 ... 2 S. The judge
//! played without the two-squares and chase rules: the record carries them off as its format's
//! own (`TwoSquares` 0, `MoreSquares` off). An attack is written `x` and, when the judge names
//! who met (`KILLS`, `DIES`, `BOTHDIE`), carries the combat annotation arbiter checks. The
//! result: a flag capture and "Destroyed all mobile enemy pieces" are on-board ends
//! (`flag-captured`, `no-legal-move`), the 1000-turn draw the judge's (`admin`), an `ILLEGAL`
//! summary a `forfeit` by the side it names; a bot that crashed leaves no result. The judge's
//! other lines (the end, the summary, debug output) are kept as comments.

use super::{imported_tag, located_words, SetupBlock, SetupRow, Span, Spanned};
use super::{located_lines, Comment, CoordMove, GameRecord, MoveRecord, PlyExtra};
use crate::finding::{Code, Finding};
use crate::rulebook::Rule;

const RULE: Rule = Rule::Ucc2012Format;

/// True when `head` starts like a judge's log: a line ending `RED SETUP`, four rows of ten
/// piece characters, a line ending `BLUE SETUP`.
pub fn looks_like(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&head[..head.len().min(1024)]);
    let lines: Vec<&str> = text.lines().take(6).collect();
    matches!(lines.as_slice(), [red, a, b, c, d, blue]
        if red.ends_with(" RED SETUP") && blue.ends_with(" BLUE SETUP")
            && [a, b, c, d].iter().all(|r| r.len() == 10 && r.bytes().all(|c| letter(c).is_some())))
}

/// The native letter of a judge's piece character (`1` the Marshal -> `X`).
fn letter(c: u8) -> Option<char> {
    Some(match c {
        b'1' => 'X',
        b'2'..=b'9' => (b'0' + 11 - (c - b'0')) as char,
        b's' => 'S',
        b'B' => 'B',
        b'F' => 'F',
        b'.' => '.',
        _ => return None,
    })
}

fn error(span: Span, message: String) -> Finding {
    Finding::new(Code::ParseError, span, message, RULE)
        .label("not what the judge writes here")
        .help("see the format in corpus/stratego-ucc2012/SOURCE.md (docs/log-format.md, Imports)")
}

/// Reads one game log (the whole file). Spans are offsets into `text`.
pub fn read(text: &str) -> GameRecord {
    let mut g = GameRecord {
        span: Span::new(0, text.len()),
        implied_game: Some("stratego".into()),
        format_defaults: vec![("TwoSquares", "0"), ("MoreSquares", "off")],
        ..GameRecord::default()
    };
    let lines = located_lines(text);
    if lines.len() < 10 {
        g.findings
            .push(error(g.span, "the two setups take ten lines".into()));
        return g;
    }
    read_setup(&mut g, &lines[0..5], "red", |i| i + 1);
    read_setup(&mut g, &lines[5..10], "blue", |i| i + 7);
    let mut end = Ending::default();
    for &(at, line) in &lines[10..] {
        read_line(&mut g, &mut end, at, line);
    }
    g.turns = g.moves.len();
    end.tags(&mut g);
    g
}

/// A setup: its header line (bot path, colour, `SETUP`) and four rows; `rank` gives the rank
/// of the row with index i (0 the first written).
fn read_setup(g: &mut GameRecord, lines: &[(usize, &str)], side: &str, rank: fn(u32) -> u32) {
    let (at, head) = lines[0];
    let w = located_words(head, at);
    if let [path, colour, _] = &w[..] {
        let bot = path.value.rsplit('/').nth(1).unwrap_or(path.value);
        let name = if side == "red" { "Red" } else { "Blue" };
        g.tags.push(imported_tag(name, bot, path.span));
        let mut rows = Vec::new();
        for (i, &(at, row)) in lines[1..].iter().enumerate() {
            let cells: Option<String> = row.bytes().map(letter).collect();
            match cells {
                Some(c) if c.len() == 10 => rows.push(SetupRow {
                    rank: Spanned::new(rank(i as u32), Span::new(at, at)),
                    cells: Spanned::new(c, Span::new(at, at + row.len())),
                }),
                _ => g.findings.push(error(
                    Span::new(at, at + row.len()),
                    format!("a {side} setup row is ten piece characters"),
                )),
            }
        }
        let last = lines.last().map_or(at, |&(a, l)| a + l.len());
        g.setups.push(SetupBlock {
            side: Spanned::new(side.into(), colour.span),
            rows,
            span: Span::new(at, last),
        });
    } else {
        g.findings.push(error(
            Span::new(at, at + head.len()),
            format!("expected `<bot> {} SETUP`", side.to_uppercase()),
        ));
    }
}

/// How the judge ended the game: its end line and summary line.
#[derive(Default)]
struct Ending {
    /// The first `Game ends on ...` reason and its span.
    reason: Option<Spanned<String>>,
    /// The summary's colour (true: Red), result word and span.
    summary: Option<(bool, String, Span)>,
    /// Turns by which the judge's written turn numbers run ahead of the plies read (behind
    /// when negative), as the last wrong one set it: the later ones are checked from it on.
    turn_shift: i128,
}

/// One line after the setups: a move, the end, the summary, or the judge's other output.
fn read_line(g: &mut GameRecord, end: &mut Ending, at: usize, line: &str) {
    let w = located_words(line, at);
    let mut rest = line;
    if let [turn, side, ..] = &w[..] {
        let colour = side.value.strip_suffix(':');
        if let Some(c @ ("RED" | "BLU")) = colour {
            rest = line[side.span.end - at..].trim_start();
            let moves: Vec<Spanned<&str>> = w[2..].to_vec();
            if !rest.is_empty()
                && rest != "NO_MOVE"
                && !rest.starts_with("Game ends on ")
                && end.reason.is_none()
            {
                let at_turn = turn.span.join(side.span);
                match turn.value.parse::<usize>() {
                    Ok(n) => check_turn(g, &mut end.turn_shift, (n, c == "RED"), at_turn),
                    Err(_) => g.findings.push(unreadable_turn(turn, g.moves.len())),
                }
                read_move(g, &moves, Span::new(at, at + line.len()));
                return;
            }
        }
    }
    if let Some(reason) = rest
        .strip_prefix("Game ends on ")
        .and_then(|r| r.split_once(" - REASON: "))
    {
        if end.reason.is_none() {
            let start = at + line.len() - reason.1.len();
            end.reason = Some(Spanned::new(
                reason.1.to_string(),
                Span::new(start, at + line.len()),
            ));
        }
    } else if let [_, colour, result, _, _, _] = &w[..] {
        if matches!(result.value, "VICTORY" | "ILLEGAL" | "DRAW_DEFAULT") {
            end.summary = Some((colour.value == "RED", result.value.to_string(), result.span));
        }
    }
    // A line's trailing white space is no part of what it says (a log writes none back).
    let line = line.trim_end();
    g.comments.push(Comment {
        text: line.to_string(),
        span: Span::new(at, at + line.len()),
        line: 0,
        after: g.moves.len(),
        line_comment: true,
    });
}

/// The `record-defect` for a move line whose turn number (`turn`) cannot be read, before
/// the `ply`th ply (0-based): the move is read in its place, in the order written.
fn unreadable_turn(turn: &Spanned<&str>, ply: usize) -> Finding {
    Finding::new(
        Code::RecordDefect,
        turn.span,
        format!(
            "ply {} is written with the turn number `{}`, which cannot be read",
            ply + 1,
            crate::finding::excerpt(turn.value)
        ),
        RULE,
    )
    .at_ply(ply as u32 + 1)
    .label("not a turn number")
    .help("the moves are read in the order written; the judge numbers each turn from 1")
}

/// The turn number and side of the next ply: Red and Blue alternate, Red first, and a turn
/// counts a Red and a Blue move, numbered from 1 plus `shift` (a wrong number sets it, so
/// one skipped turn is one finding).
fn check_turn(g: &mut GameRecord, shift: &mut i128, (n, red): (usize, bool), span: Span) {
    let ply = g.moves.len();
    let counted = (ply / 2 + 1) as i128;
    let expected = counted + *shift;
    if n as i128 != expected || red != ply.is_multiple_of(2) {
        *shift = n as i128 - counted;
        let want = format!(
            "{expected} {}",
            if ply.is_multiple_of(2) { "RED" } else { "BLU" }
        );
        g.findings.push(
            Finding::new(
                Code::RecordDefect,
                span,
                format!(
                    "ply {} is written as turn {n} {} where `{want}` was expected",
                    ply + 1,
                    if red { "RED" } else { "BLU" }
                ),
                RULE,
            )
            .at_ply(ply as u32 + 1)
            .label(format!("expected {want}"))
            .help("the moves are read in the order written; later turn numbers are checked on from this one"),
        );
    }
}

/// A move `<x> <y> <dir> [<n>] <outcome> [<a> <d>]` (its words `w`, the line `whole`).
fn read_move(g: &mut GameRecord, w: &[Spanned<&str>], whole: Span) {
    let ply = g.moves.len() + 1;
    // Wide enough that no square or step a log writes can overflow (x + dx * n).
    let num = |i: usize| {
        w.get(i)
            .and_then(|s| s.value.parse::<i32>().ok().map(i64::from))
    };
    let dir = match w.get(2).map(|s| s.value) {
        Some("UP") => Some((0, -1)),
        Some("DOWN") => Some((0, 1)),
        Some("LEFT") => Some((-1, 0)),
        Some("RIGHT") => Some((1, 0)),
        _ => None,
    };
    let (Some(x), Some(y), Some((dx, dy))) = (num(0), num(1), dir) else {
        g.findings.push(error(
            whole,
            format!("ply {ply}: expected `<x> <y> <UP|DOWN|LEFT|RIGHT>`"),
        ));
        return;
    };
    let n = num(3);
    let at = if n.is_some() { 4 } else { 3 };
    let n = n.unwrap_or(1);
    let outcome = w.get(at).map_or("", |s| s.value);
    let attack = matches!(outcome, "KILLS" | "DIES" | "BOTHDIE" | "VICTORY_FLAG");
    if !attack && !matches!(outcome, "OK" | "ILLEGAL") {
        g.findings.push(error(
            w.get(at).map_or(whole, |s| s.span),
            format!("ply {ply}: expected OK, KILLS, DIES, BOTHDIE, VICTORY_FLAG or ILLEGAL"),
        ));
        return;
    }
    let annotation = match (outcome, w.get(at + 1), w.get(at + 2)) {
        ("KILLS" | "DIES" | "BOTHDIE", Some(a), Some(d)) => {
            let l = |s: &Spanned<&str>| s.value.bytes().next().and_then(letter);
            match (l(a), l(d)) {
                (Some(a2), Some(d2)) => {
                    Some(Spanned::new(format!("{a2}:{d2}"), a.span.join(d.span)))
                }
                _ => None,
            }
        }
        _ => None,
    };
    let square = |x: i64, y: i64| {
        (
            u8::try_from(x).unwrap_or(u8::MAX),
            u32::try_from(y + 1).unwrap_or(u32::MAX),
        )
    };
    let (from, to) = (square(x, y), square(x + dx * n, y + dy * n));
    let name = |(f, r): (u8, u32)| match (f < 26, r < u32::MAX) {
        (true, true) => format!("{}{r}", (b'a' + f) as char),
        _ => "?".to_string(),
    };
    let from_span = w[0].span.join(w[1].span);
    let to_span = w[2].span.join(w[at - 1].span);
    let mark = if attack { 'x' } else { '-' };
    let coord = CoordMove {
        from,
        to,
        capture_mark: attack,
        from_span,
        to_span,
    };
    let extra = Box::new(PlyExtra::new(annotation, Some(Some(coord))));
    let text = format!("{}{mark}{}", name(from), name(to)).into();
    let turn = g.moves.len();
    let text_span = from_span.join(to_span);
    g.moves
        .push(MoveRecord::new(text, text_span, whole, turn, Some(extra)));
}

impl Ending {
    /// The `Result` and `Termination` the end line and summary give (none for a crash).
    fn tags(&self, g: &mut GameRecord) {
        let Some(reason) = &self.reason else { return };
        let summary = self.summary.as_ref();
        let last_red = g.moves.len() % 2 == 1;
        let wins = |red: bool| if red { "1-0" } else { "0-1" };
        let (result, term, at) = match (reason.value.as_str(), summary) {
            ("Captured the flag", None) => (wins(last_red), "flag-captured", reason.span),
            ("Captured the flag", Some((_, r, s))) if r == "VICTORY" => {
                (wins(last_red), "flag-captured", *s)
            }
            ("Destroyed all mobile enemy pieces", Some((red, r, s))) if r == "VICTORY" => {
                (wins(*red), "no-legal-move", *s)
            }
            (_, Some((_, r, s))) if r == "DRAW_DEFAULT" => ("1/2-1/2", "admin", *s),
            (_, Some((red, r, s))) if r == "ILLEGAL" => (wins(!*red), "forfeit", *s),
            _ => return,
        };
        g.tags.push(imported_tag("Result", result, at));
        g.tags.push(imported_tag("Termination", term, reason.span));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "a/red/r RED SETUP\nFB8sB979B8\nBB99555583\n6724898974\nB314676699\n\
        b/blue/b BLUE SETUP\n994s951799\n5684599536\n98B2683B84\n7B7B76BFB8\n\
        1 RED: 9 3 DOWN OK\n1 BLU: 8 6 UP 2 OK\n2 RED: 0 3 DOWN 1 KILLS 8 9\n\
        Game ends on BLUE's turn - REASON: Destroyed all mobile enemy pieces\n\
        b/blue/b BLUE VICTORY 2 0 43\n";

    #[test]
    fn a_judges_log() {
        assert!(looks_like(LOG.as_bytes()));
        assert!(!looks_like(b"[Game \"stratego\"]\n"));
        let g = read(LOG);
        assert!(g.findings.is_empty(), "{:?}", g.findings);
        let moves: Vec<&str> = g.moves.iter().map(|m| m.text()).collect();
        assert_eq!(moves, ["j4-j5", "i7-i5", "a4xa5"]);
        assert_eq!(g.moves[2].annotation().unwrap().value, "3:2");
        assert_eq!(g.setups[0].rows[0].cells.value, "FB3SB242B3");
        assert_eq!(g.setups[1].rows[3].rank.value, 10);
        assert_eq!(g.tag_value("Red"), Some("red"));
        assert_eq!(g.tag_value("Result"), Some("0-1"));
        assert_eq!(g.tag_value("Termination"), Some("no-legal-move"));
        assert_eq!(g.comments.len(), 2);
        let c = g.moves[0].coord().unwrap();
        assert_eq!(&LOG[c.from_span.start..c.from_span.end], "9 3");
    }

    #[test]
    fn broken_lines_are_reported() {
        let g = read(&LOG.replace("8 6 UP 2 OK", "8 6 SIDEWAYS OK"));
        assert!(g.unreadable());
        let g = read(&LOG.replace("1 BLU:", "3 BLU:"));
        assert_eq!(g.findings[0].code, Code::RecordDefect);
        // A move line whose turn number cannot be read is still a move.
        let g = read(&LOG.replace("1 BLU:", "x BLU:"));
        assert_eq!(g.moves.len(), 3);
        let found: Vec<&str> = g.findings.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            found,
            ["ply 2 is written with the turn number `x`, which cannot be read"]
        );
        // One skipped turn number is one finding: the later ones count on from it.
        let g = read(&LOG.replace("1 BLU:", "2 BLU:").replace("2 RED:", "3 RED:"));
        let found: Vec<&str> = g.findings.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            found,
            ["ply 2 is written as turn 2 BLU where `1 BLU` was expected"]
        );
    }
}
