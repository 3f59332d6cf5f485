//! How one Xiangqi move is read: the `Format` tag's notation, or the game's dialect
//! ([`super::san::decide`]), picks ICCS coordinates, WXF, Chinese or SAN
//! ([`super::notation`] and [`super::san`] read each), and the move text becomes coordinates
//! or the finding that stops the replay (rulings §4.1; docs/xiangqi.md, notation).

use super::notation::{
    normalise, parse_chinese, parse_wxf, resolve, Notation, Unresolved, NOTATION_RULE,
};
use super::position::{Move, Position, GEOMETRY};
use crate::finding::{Code, Finding};
use crate::record::{parse_coord_move, CoordMove, MoveRecord};
use crate::rulebook::Rule;
use crate::types::Span;

/// How a game's moves are read: the `Format` tag's notation, or without one the game's
/// dialect ([`super::san::decide`]: SAN or not, and the rank base of its coordinates).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reading {
    /// The `Format` tag's notation; `None`: each move is read as its text shows.
    pub format: Option<Notation>,
    /// Without a `Format` tag: SAN or not, and ranks from 0 or from 1.
    pub dialect: super::san::Dialect,
}

/// Which notation one move is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum How {
    Coordinates,
    Wxf,
    Chinese,
    San,
}

/// The notation of one move: the `Format` tag's; without one, coordinates when the text is a
/// coordinate move, Chinese when it holds CJK characters, SAN in a SAN game or when the text
/// is SAN and not WXF, else WXF.
fn how_written(reading: &Reading, coord: bool, norm: &str) -> How {
    match reading.format {
        Some(Notation::Iccs) => How::Coordinates,
        Some(Notation::Wxf) => How::Wxf,
        Some(Notation::Chinese) => How::Chinese,
        None if coord && !super::san::lettered(norm) => How::Coordinates,
        None if norm.chars().any(|c| c as u32 >= 0x2E80) => How::Chinese,
        None if reading.dialect.san => How::San,
        None if parse_wxf(norm).is_none() && super::san::parse(norm).is_some() => How::San,
        None => How::Wxf,
    }
}

/// A coordinate move read with rank base `base` (0: ICCS, 1: UCI), its ranks counted from 0;
/// a rank below the base is left off the board.
fn from_base(mut c: CoordMove, base: u8) -> CoordMove {
    if base > 0 {
        let down = |r: u32| r.checked_sub(base as u32).unwrap_or(u32::MAX);
        c.from.1 = down(c.from.1);
        c.to.1 = down(c.to.1);
    }
    c
}

/// The coordinates of move `m`, both spans at `span` (a move written as one token).
fn coords_of(m: Move, capture_mark: bool, span: Span) -> CoordMove {
    CoordMove {
        from: (GEOMETRY.file(m.from), GEOMETRY.rank(m.from) as u32),
        to: (GEOMETRY.file(m.to), GEOMETRY.rank(m.to) as u32),
        capture_mark,
        from_span: span,
        to_span: span,
    }
}

/// The move `mv` when it is written `h2e2` on the board (files a-i, one-digit ranks, none
/// below the rank base) and read as coordinates: the archives' common case, told from its
/// four bytes. `None` for every other move, which [`read`] reads (with the same answer for
/// these).
#[inline]
pub(super) fn plain_move(mv: &MoveRecord, reading: &Reading) -> Option<Move> {
    if !matches!(reading.format, None | Some(Notation::Iccs)) || mv.extra.is_some() {
        return None;
    }
    let &[f0 @ b'a'..=b'i', r0 @ b'0'..=b'9', f1 @ b'a'..=b'i', r1 @ b'0'..=b'9'] =
        mv.text().as_bytes()
    else {
        return None;
    };
    let base = reading.dialect.base;
    let point = |f: u8, r: u8| {
        let rank = (r - b'0').checked_sub(base)?;
        GEOMETRY.square((f - b'a') as i32, rank as i32)
    };
    Some(Move {
        from: point(f0, r0)?,
        to: point(f1, r1)?,
    })
}

/// Reads the move `mv` (ply `number`) in `pos` as `reading` says ([`how_written`]). Returns the
/// coordinates, ranks counted from 0 (for WXF, Chinese and SAN both spans are the move's
/// text), or the finding that stops the replay: `parse-error` for text that is no move in the
/// notation, `illegal-move` for a move that names no piece or several.
pub(super) fn read(
    pos: &Position,
    mv: &MoveRecord,
    reading: &Reading,
    number: u32,
) -> Result<CoordMove, Finding> {
    let base = reading.dialect.base;
    // The common case first: a coordinate move where ICCS is the notation or no tag names one
    // (the same answer as below, without normalising the text).
    if let (Some(c), None | Some(Notation::Iccs)) = (mv.coord(), reading.format) {
        if reading.format.is_some() || !super::san::lettered(mv.text()) {
            return Ok(from_base(c, base));
        }
    }
    let text = mv.text();
    let span = mv.text_span();
    let norm = normalise(text);
    let coord = mv.coord().or_else(|| {
        // Full-width coordinates: both spans are the whole move.
        parse_coord_move(&norm, 0).map(|c| CoordMove {
            from_span: span,
            to_span: span,
            ..c
        })
    });
    let how = how_written(reading, coord.is_some(), &norm);
    let unreadable = |how: How| unreadable_finding(text, span, how, number);
    let w = match how {
        How::Coordinates => return coord.map(|c| from_base(c, base)).ok_or(unreadable(how)),
        How::San => {
            let s = super::san::parse(&norm).ok_or_else(|| unreadable(how))?;
            let m = super::san::resolve(pos, &s, base)
                .map_err(|u| unresolved_finding(text, span, u, number, Rule::XiangqiSan))?;
            return Ok(coords_of(m, s.capture, span));
        }
        How::Wxf => parse_wxf(&norm),
        How::Chinese => parse_chinese(&norm),
    };
    let w = w.ok_or_else(|| unreadable(how))?;
    let m =
        resolve(pos, &w).map_err(|u| unresolved_finding(text, span, u, number, NOTATION_RULE))?;
    Ok(coords_of(m, false, span))
}

/// The `illegal-move` for a move `text` at `span` that names no single move.
fn unresolved_finding(text: &str, span: Span, u: Unresolved, number: u32, rule: Rule) -> Finding {
    Finding::new(
        Code::IllegalMove,
        span,
        format!("`{text}` {}", u.message),
        rule,
    )
    .at_ply(number)
    .label(u.label)
    .help(u.help)
}

/// The `parse-error` for text that is no move in the notation `how`.
fn unreadable_finding(text: &str, span: Span, how: How, number: u32) -> Finding {
    let (what, example, help) = match how {
        How::Coordinates => (
            "an ICCS move",
            "h2e2",
            "moves are read as ICCS here (a Format tag says ICCS, and Jieqi moves are always ICCS): \
             a from-point and a to-point (h2e2 or H2-E2); a Xiangqi record in WXF or Chinese \
             notation needs [Format \"WXF\"] or [Format \"Chinese\"]",
        ),
        How::Wxf => (
            "a WXF move",
            "C2.5, H8+7, R+.3",
            "WXF: piece letter (K A E H R C P), file 1-9 or +/- for front/rear, then + - . (or =) and a digit",
        ),
        How::Chinese => (
            "a move in Chinese notation",
            "炮二平五, 马８进７, 前车进一",
            "Chinese notation: piece, file (Red 一..九, Black 1..9) or 前/中/后 before the piece, then 进/退/平 and a number",
        ),
        How::San => (
            "a SAN move",
            "Che2, Hc7, R9xd7, gxg5",
            "this game is written in SAN: piece letter (K A E/B H/N R C, P or none for a Soldier), \
             optionally its file or rank, x for a capture, then the point it goes to",
        ),
    };
    Finding::new(
        Code::ParseError,
        span,
        format!("`{}` is not {what}", text.escape_debug()),
        super::MOVES_RULE,
    )
    .at_ply(number)
    .label(format!("expected e.g. {example}"))
    .help(help.to_string())
}
