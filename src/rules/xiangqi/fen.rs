//! Xiangqi FEN in the xqbase convention (log-format.md, "Setups and positions"):
//! `<board> <side> - - <halfmove> <fullmove>`, e.g. the start
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! The board lists ranks 9 down to 0 (Black's back rank first), each from file `a` to `i`:
//! letters `K A B N R C P` (upper case Red, lower case Black; `E` and `H` are read as `B` and
//! `N`), digits 1–9 for runs of empty points. Side: `w` (or `r`) Red, `b` Black; when the side
//! and later fields are missing Red moves. The third and fourth fields are ignored (xqbase
//! writes `-`). Halfmove: plies since the last capture; fullmove: the move number, from 1.
//!
//! Besides the syntax, a FEN must describe a position that can arise (rulings §4.1): one General
//! a side inside its palace, at most 2 Advisors, Elephants, Horses, Chariots, Cannons and 5
//! Soldiers, Advisors and Elephants on their points, no Soldier behind its start rank or off
//! its file before the river, and the side that just moved not in check (Generals facing
//! included). Every problem is reported, each with the bytes of the FEN it concerns.

use super::position::{in_palace, Kind, Piece, Position, GEOMETRY, HEIGHT, WIDTH};
use crate::geometry::Square;
use crate::rules::Side;
use std::ops::Range;

/// The standard start position.
pub const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// One problem with a FEN, located by a byte range of the FEN text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    /// Bytes of the FEN text the problem concerns.
    pub range: Range<usize>,
    /// Headline (lower case, no period).
    pub message: String,
    /// Text under the span.
    pub label: String,
    /// What to do.
    pub help: String,
}

/// A parsed FEN.
#[derive(Debug, Clone)]
pub struct Fen {
    /// The position (pieces and side to move).
    pub position: Position,
    /// Plies since the last capture (the fifth field; 0 when absent).
    pub halfmove: u32,
    /// The move number (the sixth field; 1 when absent).
    pub fullmove: u32,
}

fn err(range: Range<usize>, message: String, label: &str, help: &str) -> FenError {
    FenError {
        range,
        message,
        label: label.to_string(),
        help: help.to_string(),
    }
}

const LETTERS: &str = "letters K A B N R C P (upper case Red, lower case Black), digits 1-9 for empty points, `/` between ranks";

/// Parses a FEN; all problems at once.
pub fn parse(text: &str) -> Result<Fen, Vec<FenError>> {
    let mut errors = Vec::new();
    let fields: Vec<(usize, &str)> = text
        .split_ascii_whitespace()
        .map(|f| (f.as_ptr() as usize - text.as_ptr() as usize, f))
        .collect();
    let Some(&(board_at, board)) = fields.first() else {
        return Err(vec![err(
            0..text.len(),
            "empty FEN".into(),
            "no board here",
            "give a position, e.g. the start: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )]);
    };
    let to_move = match fields.get(1) {
        None => Side::First,
        Some((_, "w" | "r" | "W" | "R")) => Side::First,
        Some((_, "b" | "B")) => Side::Second,
        Some(&(at, f)) => {
            errors.push(err(
                at..at + f.len(),
                format!("`{f}` is not a side to move"),
                "expected w (Red) or b (Black)",
                "the second FEN field names the side to move",
            ));
            Side::First
        }
    };
    let mut number = |i: usize, default: u32, what: &str| {
        match fields.get(i) {
        None => default,
        Some(&(at, f)) => f.parse().unwrap_or_else(|_| {
            errors.push(err(
                at..at + f.len(),
                format!("`{f}` is not a {what}"),
                "expected a whole number",
                "the fifth FEN field counts plies since the last capture, the sixth the move number",
            ));
            default
        }),
    }
    };
    let halfmove = number(4, 0, "ply count");
    let fullmove = number(5, 1, "move number");
    if let Some(&(at, f)) = fields.get(6) {
        let end = fields.last().map_or(at + f.len(), |&(a, l)| a + l.len());
        errors.push(err(
            at..end,
            "text after the FEN's sixth field".into(),
            "not part of a FEN",
            "a FEN has six fields: board, side, two `-`, halfmove, fullmove",
        ));
    }

    let mut pos = Position::empty(to_move);
    let mut placed: Vec<(Square, Piece, Range<usize>)> = Vec::new();
    let ranks: Vec<(usize, &str)> = board
        .split('/')
        .scan(board_at, |at, r| {
            let start = *at;
            *at += r.len() + 1;
            Some((start, r))
        })
        .collect();
    if ranks.len() != HEIGHT as usize {
        errors.push(err(
            board_at..board_at + board.len(),
            format!(
                "the board has {} ranks, a xiangqi board has 10",
                ranks.len()
            ),
            "expected 10 ranks separated by `/`",
            LETTERS,
        ));
        return Err(errors);
    }
    for (i, &(at, row)) in ranks.iter().enumerate() {
        let rank = HEIGHT as usize - 1 - i;
        let mut file = 0usize;
        for (off, c) in row.char_indices() {
            let here = at + off..at + off + c.len_utf8();
            if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                file += d as usize;
                continue;
            }
            let Some((side, kind)) = Kind::from_letter(c) else {
                errors.push(err(
                    here,
                    format!("`{}` is not a xiangqi piece", c.escape_debug()),
                    "unknown letter",
                    LETTERS,
                ));
                file += 1;
                continue;
            };
            if file < WIDTH as usize {
                let sq = (rank * WIDTH as usize + file) as Square;
                let p = Piece::new(side, kind);
                pos.set(sq, Some(p));
                placed.push((sq, p, here));
            }
            file += 1;
        }
        if file != WIDTH as usize {
            errors.push(err(
                at..at + row.len(),
                format!("rank {rank} has {file} points, the board has 9"),
                "expected 9 points (pieces plus empty counts)",
                LETTERS,
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    let board_range = board_at..board_at + board.len();
    for side in [Side::First, Side::Second] {
        let name = side_name(side);
        for kind in Kind::ALL {
            let of_kind: Vec<_> = placed
                .iter()
                .filter(|(_, p, _)| p.side() == side && p.kind() == kind)
                .collect();
            if of_kind.len() > kind.count() as usize {
                let extra = &of_kind[kind.count() as usize].2;
                errors.push(err(
                    extra.clone(),
                    format!(
                        "{name} has {} {}s, at most {} are allowed",
                        of_kind.len(),
                        kind.name(),
                        kind.count()
                    ),
                    "one too many",
                    "a side has 1 General, 2 each of Advisors, Elephants, Horses, Chariots, Cannons, and 5 Soldiers",
                ));
            }
        }
        if pos.general(side).is_none() {
            errors.push(err(
                board_range.clone(),
                format!("{name} has no General"),
                "no General on this board",
                "each side has exactly one General (K for Red, k for Black) in its palace",
            ));
        }
    }
    for (sq, p, range) in &placed {
        if let Some(why) = misplaced(*sq, *p) {
            errors.push(err(
                range.clone(),
                format!(
                    "{}'s {} cannot stand on {}",
                    side_name(p.side()),
                    p.kind().name(),
                    GEOMETRY.name(*sq)
                ),
                "impossible point for this piece",
                why,
            ));
        }
    }
    if errors.is_empty() {
        let waiting = to_move.other();
        if pos.generals_face() {
            errors.push(err(
                board_range,
                "the Generals face each other on an open file".into(),
                "no position with facing Generals can arise",
                "rulings §4.1: the two Generals may never face each other on an open file",
            ));
        } else if pos.in_check(waiting) {
            let g = pos.general(waiting).unwrap_or(0);
            let by = pos.attacker(g, to_move).unwrap_or(0);
            errors.push(err(
                board_range,
                format!(
                    "{} is in check but it is {}'s move",
                    side_name(waiting),
                    side_name(to_move)
                ),
                "the side that just moved left its General attacked",
                &format!(
                    "the General on {} is attacked from {}; fix the board or the side to move",
                    GEOMETRY.name(g),
                    GEOMETRY.name(by)
                ),
            ));
        }
    }
    if errors.is_empty() {
        Ok(Fen {
            position: pos,
            halfmove,
            fullmove,
        })
    } else {
        Err(errors)
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Red",
        Side::Second => "Black",
    }
}

/// Why a piece can never stand on `sq` in standard Xiangqi, or `None` when it can.
fn misplaced(sq: Square, p: Piece) -> Option<&'static str> {
    let file = GEOMETRY.file(sq) as i32;
    // Rank counted from the piece's own back rank.
    let own_rank = match p.side() {
        Side::First => GEOMETRY.rank(sq) as i32,
        Side::Second => HEIGHT as i32 - 1 - GEOMETRY.rank(sq) as i32,
    };
    match p.kind() {
        Kind::General if !in_palace(p.side(), sq) => {
            Some("a General never leaves its palace (files d-f of its own three back ranks)")
        }
        Kind::Advisor if !(in_palace(p.side(), sq) && (file + own_rank) % 2 == 1) => {
            Some("an Advisor stands only on the palace corners and centre")
        }
        Kind::Elephant
            if !(own_rank % 2 == 0
                && own_rank <= 4
                && file % 2 == 0
                && (file / 2 + own_rank / 2) % 2 == 1) =>
        {
            Some("an Elephant stands only on its seven points on its own side of the river")
        }
        Kind::Soldier if own_rank < 3 || (own_rank <= 4 && file % 2 == 1) => {
            Some("a Soldier never moves backwards and moves sideways only after crossing the river")
        }
        _ => None,
    }
}

/// Writes a position as a xqbase FEN with the given ply count since the last capture and
/// move number.
pub fn write(pos: &Position, halfmove: u32, fullmove: u32) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..HEIGHT).rev() {
        let mut empty = 0;
        for file in 0..WIDTH {
            match pos.piece(rank * WIDTH + file) {
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.fen_letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = match pos.to_move() {
        Side::First => 'w',
        Side::Second => 'b',
    };
    out.push_str(&format!(" {side} - - {halfmove} {fullmove}"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let f = parse(START).unwrap();
        assert_eq!(f.position, Position::start());
        assert_eq!(write(&f.position, 0, 1), START);
        assert_eq!((f.halfmove, f.fullmove), (0, 1));
        let board_only =
            parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR").unwrap();
        assert_eq!(board_only.position, Position::start());
    }

    #[test]
    fn errors_are_located() {
        let e = parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w").unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(
            e[0].message,
            "the board has 9 ranks, a xiangqi board has 10"
        );
        let t = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKXBNR w - - 0 1";
        let e = parse(t).unwrap_err();
        assert_eq!(e[0].message, "`X` is not a xiangqi piece");
        assert_eq!(&t[e[0].range.clone()], "X");
        let t = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN x - - z 1";
        let e = parse(t).unwrap_err();
        let msgs: Vec<_> = e.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "`x` is not a side to move",
                "`z` is not a ply count",
                "rank 0 has 8 points, the board has 9"
            ]
        );
    }

    #[test]
    fn impossible_positions() {
        // Elephant on e4 (not one of its points), soldier on b3 (off its file before the river).
        let t = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4B4/PP2P1P1P/1C5C1/9/RN1AKABNR w - - 0 1";
        let e = parse(t).unwrap_err();
        let got: Vec<_> = e.iter().map(|e| &t[e.range.clone()]).collect();
        assert_eq!(got, ["B", "P"]);
        // Facing generals, and a side in check while the other moves.
        let e = parse("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap_err();
        assert_eq!(e[0].message, "the Generals face each other on an open file");
        let e = parse("3k5/9/9/9/9/9/9/9/3R5/4K4 w - - 0 1").unwrap_err();
        assert_eq!(e[0].message, "Black is in check but it is Red's move");
        assert!(parse("3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1").is_ok());
        let e = parse("9/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap_err();
        assert_eq!(e[0].message, "Black has no General");
    }
}
