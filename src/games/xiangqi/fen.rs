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
//!
//! Jieqi ([`parse_jieqi`], [`write_jieqi`]) uses the Pikafish-Jieqi convention instead
//! (log-format.md): `<board> <side> <pool> <halfmove> <fullmove>`, e.g. the start [`JIEQI_START`].
//! `X`/`x` is a covered piece, allowed only on a start point of its colour other than the
//! General's; the pool lists the identities of each colour not yet revealed, letter and count
//! (count 1 may be left out; upper case Red; `-` when empty), written in the order R A C P N B.
//! A covered piece captured unseen stays in the pool, so a pool never holds fewer identities
//! than its side has covered pieces, and a pool and the revealed pieces of a kind never exceed
//! the kind's count. Revealed Advisors, Elephants and Soldiers may stand anywhere (rulings
//! §4.2); Generals stay in their palace.

use super::position::{
    in_palace, own_half, start_kind, Kind, Piece, Position, GEOMETRY, HEIGHT, WIDTH,
};
use super::side_name;
use crate::geometry::Square;
use crate::types::Side;
use std::ops::Range;

/// The standard start position.
pub const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The Jieqi start (log-format.md): every piece but the Generals covered, full pools.
pub const JIEQI_START: &str =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1";

/// The order in which a Jieqi pool is written (that of the Pikafish-Jieqi start FEN).
const POOL_ORDER: [Kind; 6] = [
    Kind::Chariot,
    Kind::Advisor,
    Kind::Cannon,
    Kind::Soldier,
    Kind::Horse,
    Kind::Elephant,
];

/// Identities per kind (index [`Kind::index`]) of one side.
pub type Counts = [u8; 7];

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
    /// Jieqi: each side's pool (index [`Side::index`]), the identities not yet revealed.
    /// All zero for Xiangqi.
    pub pool: [Counts; 2],
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

/// Parses a xqbase FEN; all problems at once.
pub fn parse(text: &str) -> Result<Fen, Vec<FenError>> {
    parse_with(text, false)
}

/// Parses a Pikafish-Jieqi FEN (covered pieces as positioned by [`Piece::covered`] with the
/// kind of their start point, [`Fen::pool`] filled); all problems at once.
pub fn parse_jieqi(text: &str) -> Result<Fen, Vec<FenError>> {
    parse_with(text, true)
}

fn parse_with(text: &str, jieqi: bool) -> Result<Fen, Vec<FenError>> {
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
    let to_move = read_side(fields.get(1).copied(), &mut errors);
    let (halfmove, fullmove) = read_counters(&fields, jieqi, &mut errors);
    let pool_field = if jieqi { fields.get(2).copied() } else { None };
    let pool = pool_field.map(|(at, f)| parse_pool(at, f, &mut errors));

    let mut pos = Position::empty(to_move);
    // Jieqi's revealed Advisors and Elephants attack off their palace and river, also in the
    // test below that the side that just moved is not in check.
    pos.set_free_diagonals(jieqi);
    let placed = read_board(board_at, board, jieqi, &mut pos, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let board_range = board_at..board_at + board.len();
    check_counts(&placed, &pos, &board_range, &mut errors);
    let pool = pool.unwrap_or_else(|| unseen_pool(&placed, jieqi));
    if jieqi && errors.is_empty() {
        check_pool(&placed, &pool, pool_field, &mut errors);
    }
    check_points(&placed, jieqi, &mut errors);
    if errors.is_empty() {
        check_arisable(&pos, board_range, &mut errors);
    }
    if errors.is_empty() {
        Ok(Fen {
            position: pos,
            halfmove,
            fullmove,
            pool,
        })
    } else {
        Err(errors)
    }
}

/// A piece the board field places: its point, the piece and the bytes of its letter.
type Placed = (Square, Piece, Range<usize>);

/// The side to move from the second field (Red when absent).
fn read_side(field: Option<(usize, &str)>, errors: &mut Vec<FenError>) -> Side {
    match field {
        None | Some((_, "w" | "r" | "W" | "R")) => Side::First,
        Some((_, "b" | "B")) => Side::Second,
        Some((at, f)) => {
            errors.push(err(
                at..at + f.len(),
                format!("`{f}` is not a side to move"),
                "expected w (Red) or b (Black)",
                "the second FEN field names the side to move",
            ));
            Side::First
        }
    }
}

/// The plies since the last capture and the move number (Xiangqi: fields 5 and 6; Jieqi,
/// whose third field is the pool: 4 and 5), 0 and 1 when absent; text after them is an error.
fn read_counters(fields: &[(usize, &str)], jieqi: bool, errors: &mut Vec<FenError>) -> (u32, u32) {
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
    let first_number = if jieqi { 3 } else { 4 };
    let counters = (
        number(first_number, 0, "ply count"),
        number(first_number + 1, 1, "move number"),
    );
    if let Some(&(at, f)) = fields.get(first_number + 2) {
        let end = fields.last().map_or(at + f.len(), |&(a, l)| a + l.len());
        errors.push(if jieqi {
            err(
                at..end,
                "text after the FEN's fifth field".into(),
                "not part of a Jieqi FEN",
                "a Jieqi FEN has five fields: board, side, pool, halfmove, fullmove",
            )
        } else {
            err(
                at..end,
                "text after the FEN's sixth field".into(),
                "not part of a FEN",
                "a FEN has six fields: board, side, two `-`, halfmove, fullmove",
            )
        });
    }
    counters
}

/// Places the board field's pieces on `pos`; every letter that is no piece and every rank
/// that is not 9 points wide is an error.
fn read_board(
    board_at: usize,
    board: &str,
    jieqi: bool,
    pos: &mut Position,
    errors: &mut Vec<FenError>,
) -> Vec<Placed> {
    let mut placed = Vec::new();
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
        return placed;
    }
    for (i, &(at, row)) in ranks.iter().enumerate() {
        let rank = HEIGHT as usize - 1 - i;
        let file = read_rank(rank, at, row, jieqi, pos, &mut placed, errors);
        if file != WIDTH as usize {
            errors.push(err(
                at..at + row.len(),
                format!("rank {rank} has {file} points, the board has 9"),
                "expected 9 points (pieces plus empty counts)",
                LETTERS,
            ));
        }
    }
    placed
}

/// Places one rank's pieces (the text `row` at byte `at`); returns how many points it spans.
fn read_rank(
    rank: usize,
    at: usize,
    row: &str,
    jieqi: bool,
    pos: &mut Position,
    placed: &mut Vec<Placed>,
    errors: &mut Vec<FenError>,
) -> usize {
    let mut file = 0usize;
    for (off, c) in row.char_indices() {
        let here = at + off..at + off + c.len_utf8();
        if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
            file += d as usize;
            continue;
        }
        let covered = jieqi && (c == 'X' || c == 'x');
        let sq = (rank * WIDTH as usize + file.min(8)) as Square;
        match read_piece(c, sq, covered, jieqi, &here) {
            Ok(p) if file < WIDTH as usize => {
                pos.set(sq, Some(p));
                placed.push((sq, p, here));
            }
            Ok(_) => {}
            Err(e) => errors.push(e),
        }
        file += 1;
    }
    file
}

/// The piece letter `c` names on `sq` (`covered`: a Jieqi `X`/`x`, which takes the kind of
/// its start point).
fn read_piece(
    c: char,
    sq: Square,
    covered: bool,
    jieqi: bool,
    here: &Range<usize>,
) -> Result<Piece, FenError> {
    if covered {
        let side = if c == 'X' { Side::First } else { Side::Second };
        return covered_kind(c, sq)
            .map(|k| Piece::covered(side, k))
            .ok_or_else(|| {
                err(
                    here.clone(),
                    format!(
                        "a covered piece `{c}` cannot stand on {}",
                        GEOMETRY.name(sq)
                    ),
                    "not a start point of this colour",
                    "a covered piece stands only on a start point of its own colour (not the General's); X is Red's, x Black's",
                )
            });
    }
    Kind::from_letter(c)
        .map(|(side, kind)| Piece::new(side, kind))
        .ok_or_else(|| {
            err(
                here.clone(),
                format!("`{}` is not a xiangqi piece", c.escape_debug()),
                "unknown letter",
                if jieqi { JIEQI_LETTERS } else { LETTERS },
            )
        })
}

/// At most the army of each kind (revealed pieces) and exactly one General a side.
fn check_counts(
    placed: &[Placed],
    pos: &Position,
    board_range: &Range<usize>,
    errors: &mut Vec<FenError>,
) {
    for side in [Side::First, Side::Second] {
        let name = side_name(side);
        for kind in Kind::ALL {
            let of_kind: Vec<_> = placed
                .iter()
                .filter(|(_, p, _)| p.side() == side && p.kind() == kind && !p.is_covered())
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
}

/// The pool when the FEN gives none: for a Jieqi board every identity not revealed on it is
/// unseen; Xiangqi has no pool (all zero).
fn unseen_pool(placed: &[Placed], jieqi: bool) -> [Counts; 2] {
    let mut pool = [[0u8; 7]; 2];
    if !jieqi {
        return pool;
    }
    for side in [Side::First, Side::Second] {
        for k in &POOL_ORDER {
            pool[side.index()][k.index()] = k.count();
        }
    }
    for (_, p, _) in placed.iter().filter(|(_, p, _)| !p.is_covered()) {
        let n = &mut pool[p.side().index()][p.kind().index()];
        *n = n.saturating_sub(1);
    }
    pool
}

/// Every piece on a point it can reach in a game (Jieqi: only the General is bound, to its
/// palace).
fn check_points(placed: &[Placed], jieqi: bool, errors: &mut Vec<FenError>) {
    for (sq, p, range) in placed {
        let problem = if jieqi {
            (p.kind() == Kind::General && !in_palace(p.side(), *sq)).then_some(
                "a General never leaves its palace (files d-f of its own three back ranks)",
            )
        } else {
            misplaced(*sq, *p)
        };
        if let Some(why) = problem {
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
}

/// A position that can arise: no facing Generals, and the side that just moved not in check.
fn check_arisable(pos: &Position, board_range: Range<usize>, errors: &mut Vec<FenError>) {
    let to_move = pos.to_move();
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

const JIEQI_LETTERS: &str = "letters K A B N R C P (upper case Red, lower case Black), X/x for a covered piece, digits 1-9 for empty points, `/` between ranks";

/// The kind a covered piece on `sq` moves as, when `c` (`X` Red, `x` Black) may stand there: a
/// start point of that colour other than the General's.
fn covered_kind(c: char, sq: Square) -> Option<Kind> {
    let side = if c == 'X' { Side::First } else { Side::Second };
    start_kind(sq).filter(|&k| k != Kind::General && own_half(side, sq))
}

/// Reads a Jieqi pool field (`R2A2C2P5N2B2r2a2c2p5n2b2`, `-`), reporting bad letters.
fn parse_pool(at: usize, field: &str, errors: &mut Vec<FenError>) -> [Counts; 2] {
    let mut pool = [[0u8; 7]; 2];
    if field == "-" {
        return pool;
    }
    let bytes = field.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let c = field[i..].chars().next().unwrap_or('?');
        i += c.len_utf8();
        let digits_at = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        // The count as written: a count too large for any number type is still too large.
        let written = &field[digits_at..i];
        let n = if written.is_empty() {
            Some(1)
        } else {
            written.parse::<u32>().ok()
        };
        match Kind::from_letter(c).filter(|(_, k)| *k != Kind::General) {
            Some((side, k)) if n.is_some_and(|n| n <= k.count() as u32) => {
                let slot = &mut pool[side.index()][k.index()];
                *slot = slot.saturating_add(n.unwrap_or(0) as u8);
            }
            Some((_, k)) => errors.push(err(
                at + start..at + i,
                format!("a pool of {written} {}s: a side has {}", k.name(), k.count()),
                "more than a side has",
                "a side has 2 each of R A B N C and 5 P; the pool lists those not yet revealed",
            )),
            None => errors.push(err(
                at + start..at + i,
                format!("`{}` is not a pool entry", &field[start..i]),
                "expected a piece letter and a count",
                "the pool lists the unrevealed identities as letter and count, e.g. R2A2C2P5N2B2r2a2c2p5n2b2, or `-`",
            )),
        }
    }
    pool
}

/// A Jieqi pool must hold at least one identity per covered piece of its side, and a pool
/// and the revealed pieces of a kind never exceed the kind's count.
fn check_pool(
    placed: &[(Square, Piece, Range<usize>)],
    pool: &[Counts; 2],
    field: Option<(usize, &str)>,
    errors: &mut Vec<FenError>,
) {
    let range = field.map_or(0..0, |(at, f)| at..at + f.len());
    for side in [Side::First, Side::Second] {
        let mine = placed.iter().filter(|(_, p, _)| p.side() == side);
        let covered = mine.clone().filter(|(_, p, _)| p.is_covered()).count();
        let in_pool: usize = pool[side.index()].iter().map(|&n| n as usize).sum();
        if in_pool < covered {
            errors.push(err(
                range.clone(),
                format!(
                    "{} has {covered} covered pieces but only {in_pool} identities in the pool",
                    side_name(side)
                ),
                "too few unrevealed identities",
                "the pool lists every identity not yet revealed, so it holds at least one per covered piece",
            ));
        }
        for k in POOL_ORDER {
            let open = mine
                .clone()
                .filter(|(_, p, _)| !p.is_covered() && p.kind() == k)
                .count();
            let n = pool[side.index()][k.index()] as usize;
            if n > 0 && open + n > k.count() as usize {
                errors.push(err(
                    range.clone(),
                    format!(
                        "{} has {open} {}s on the board and {n} more in the pool, at most {} exist",
                        side_name(side),
                        k.name(),
                        k.count()
                    ),
                    "more identities than the side has",
                    "a revealed piece has left the pool; fix the pool or the board",
                ));
            }
        }
    }
}

/// Writes a Jieqi pool field.
fn write_pool(pool: &[Counts; 2], out: &mut String) {
    let start = out.len();
    for side in [Side::First, Side::Second] {
        for k in POOL_ORDER {
            let n = pool[side.index()][k.index()];
            if n > 0 {
                let c = k.letter();
                out.push(if side == Side::First {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
                if n > 1 {
                    out.push_str(&n.to_string());
                }
            }
        }
    }
    if out.len() == start {
        out.push('-');
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

impl Position {
    /// The position as a xqbase FEN, with the given no-capture ply count and move number.
    pub fn fen(&self, halfmove: u32, fullmove: u32) -> String {
        write(self, halfmove, fullmove)
    }
}

/// Writes a position as a xqbase FEN with the given ply count since the last capture and
/// move number.
pub fn write(pos: &Position, halfmove: u32, fullmove: u32) -> String {
    let mut out = write_board(pos);
    let side = match pos.to_move() {
        Side::First => 'w',
        Side::Second => 'b',
    };
    out.push_str(&format!(" {side} - - {halfmove} {fullmove}"));
    out
}

/// Writes a Jieqi position as a Pikafish-Jieqi FEN: covered pieces as `X`/`x`, then the
/// side, the pools, the plies since the last capture and the move number.
pub fn write_jieqi(pos: &Position, pool: &[Counts; 2], halfmove: u32, fullmove: u32) -> String {
    let mut out = write_board(pos);
    out.push_str(match pos.to_move() {
        Side::First => " w ",
        Side::Second => " b ",
    });
    write_pool(pool, &mut out);
    out.push_str(&format!(" {halfmove} {fullmove}"));
    out
}

fn write_board(pos: &Position) -> String {
    let mut out = String::with_capacity(100);
    for rank in (0..HEIGHT).rev() {
        let mut empty = 0;
        for file in 0..WIDTH {
            match pos.piece(rank * WIDTH + file) {
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(match (p.is_covered(), p.side()) {
                        (false, _) => p.fen_letter(),
                        (true, Side::First) => 'X',
                        (true, Side::Second) => 'x',
                    });
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
    fn jieqi_start_round_trip() {
        let f = parse_jieqi(JIEQI_START).unwrap();
        assert_eq!(
            write_jieqi(&f.position, &f.pool, f.halfmove, f.fullmove),
            JIEQI_START
        );
        assert_eq!(f.pool[0], [0, 2, 2, 2, 2, 2, 5]);
        let p = f.position.piece(0).unwrap();
        assert!(p.is_covered());
        assert_eq!(p.kind(), Kind::Chariot, "moves as the Chariot of a0");
        assert!(f.position.piece(4).is_some_and(|g| !g.is_covered()));
        // Board only: full pools.
        let b = parse_jieqi("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX").unwrap();
        assert_eq!(b.pool, f.pool);
    }

    #[test]
    fn jieqi_errors() {
        // A covered piece off a start point; too few pool identities; a pool letter K.
        let t = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/4X4/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1";
        let e = parse_jieqi(t).unwrap_err();
        assert_eq!(e[0].message, "a covered piece `X` cannot stand on e4");
        assert_eq!(&t[e[0].range.clone()], "X");
        let t =
            "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2r2a2c2p5n2b2 0 1";
        let e = parse_jieqi(t).unwrap_err();
        assert_eq!(
            e[0].message,
            "Red has 15 covered pieces but only 4 identities in the pool"
        );
        let e = parse_jieqi("4k4/9/9/9/9/9/9/9/9/4K4 w K 0 1").unwrap_err();
        assert_eq!(e[0].message, "`K` is not a pool entry");
        // A revealed Advisor or an Elephant across the river checks like any piece.
        let e = parse_jieqi("4k4/3A5/9/9/9/9/9/9/9/5K3 w - 0 1").unwrap_err();
        assert_eq!(e[0].message, "Black is in check but it is Red's move");
        assert!(parse_jieqi("4k4/9/2B6/9/9/9/9/9/9/3K5 w - 0 1").is_err());
        assert!(
            parse("4k4/9/2B6/9/9/9/9/9/9/3K5 w - - 0 1").is_err(),
            "no Elephant there"
        );
        // Revealed Advisors and Elephants anywhere; a revealed Chariot plus two in the pool.
        assert!(parse_jieqi("3k5/9/9/9/4A4/2B6/9/9/9/4K4 w - 0 1").is_ok());
        let e = parse_jieqi("3k5/9/9/9/4R4/9/9/9/9/4K4 w R2 0 1").unwrap_err();
        assert_eq!(
            e[0].message,
            "Red has 1 Chariots on the board and 2 more in the pool, at most 2 exist"
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
