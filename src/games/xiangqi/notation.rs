//! Xiangqi move notations: ICCS coordinates, WXF and Chinese, read against the position and
//! written from it.
//!
//! ICCS names two points (`h2e2`). WXF (`C2.5`, `H8+7`, `R+.3`) and Chinese notation
//! (`炮二平五`, `马８进７`, `前车进一`) name a piece and its file and say where it goes, so a move
//! is only a move once the position says which piece stands there. Sources of the rules:
//!
//! - WXF: the AXF notation of 1980/82, piece letters revised by AXF in 1995 and adopted by WXF in
//!   1997 ("Official Xiangqi piece names and notation", wxf.org): piece letter, file (1-9 from
//!   the mover's right), `+` forward / `-` backward / `.` sideways (`=` is read too), then the
//!   new file (sideways moves and the diagonal movers A, E, H) or the number of points. Two like
//!   pieces on a file: `+` (front) or `-` (rear) in place of the file (`R+.3`; the sign before
//!   the letter, `+R.3`, as the wxf.ca database writes it, means the same). Three Soldiers on a
//!   file: `P+`, `P3` (the middle one) and `P-`; four or five: `++` (foremost), `P+`, `P3`
//!   (middle of five), `P-`, `--` (rearmost); Soldiers doubled on two files: the file digit in
//!   place of the letter, then `+`, `-` or the file digit again for the middle one (`3+.4`,
//!   `33.4`, `3-.4`). Letters `K A E H R C P`, also `N` and `B`, in either case.
//! - Chinese: 《中国象棋电脑应用规范(二)：着法表示》 (xqbase.com, 2006) and the Chinese rules
//!   (象棋竞赛规则 2020, 7.5): piece, file (Red 一..九, Black 1..9), 进/退/平, then file or
//!   number. Two like pieces on a file: 前/后 before the piece (`前车进一`; after it, `车前进一`,
//!   is read too); three Soldiers: 前/中/后; more than three on a file, or Soldiers doubled on
//!   two files: 一..五 before the piece, counting the Soldiers of those files by file from the
//!   mover's right, then front to back (xqbase); the older `前兵九平八` / `前九平八` (front
//!   Soldier of file 九) is read too. Simplified and traditional characters alike.
//!
//! Full-width characters (U+FF01..U+FF5E, `Ｃ２＝５`, Black's `８`) read as their ASCII forms.
//!
//! A move names a set of pieces; among several, only those the move's geometry allows (on the
//! board, in the palace, this side of the river: the xqbase rule for two Advisors or Elephants
//! on a file) remain. One left is the move; none or several is an `illegal-move` that says
//! which pieces it could mean. Blocking and check never pick a piece: a move they would have to
//! decide is ambiguous as written.

use super::position::{Illegal, Kind, Move, Position, GEOMETRY, SQUARES};
use super::{side_name, Xiangqi};
use crate::finding::{Code, Finding};
use crate::geometry::Square;
use crate::record::GameRecord;
use crate::rulebook::Rule;
use crate::rules::{Parameters, Rules};
use crate::types::Side;
use crate::types::Span;

/// The rule source cited by notation findings.
pub(super) const NOTATION_RULE: Rule = Rule::XiangqiNotation;

/// A move notation (the `Format` tag of xqbase PGN).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Notation {
    /// ICCS coordinates, `h2e2`.
    Iccs,
    /// WXF, `C2.5`.
    Wxf,
    /// Chinese, `炮二平五`.
    Chinese,
}

impl Notation {
    /// Reads a `Format` tag value or `--notation` argument: `ICCS`, `WXF`, `Chinese`
    /// (any case).
    pub fn parse(s: &str) -> Option<Notation> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" => Some(Notation::Iccs),
            "wxf" => Some(Notation::Wxf),
            "chinese" => Some(Notation::Chinese),
            _ => None,
        }
    }
    /// The `Format` tag value: `ICCS`, `WXF`, `Chinese`.
    pub fn as_str(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }
}

/// `text` with the full-width forms U+FF01..U+FF5E replaced by ASCII (`Ｃ２＝５` -> `C2=5`).
pub fn normalise(text: &str) -> String {
    text.chars()
        .map(|c| match c as u32 {
            0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// Which way a move goes, seen from the mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dir {
    Forward,
    Backward,
    Sideways,
}

/// Which of the mover's pieces of a kind a move names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pick {
    /// The pieces on this file (1-9 from the mover's right).
    File(u8),
    /// WXF `+` / `-`: front / rear of two or three on a file, second from the front / back of
    /// four or five. `file` when written (`3+`).
    Sign { front: bool, file: Option<u8> },
    /// WXF `++` / `--`, Chinese 前 / 后: the foremost / rearmost on a file.
    End { front: bool, file: Option<u8> },
    /// Chinese 中, WXF `33`: the middle one of three or five on a file.
    Middle { file: Option<u8> },
    /// xqbase 一..五 (WXF `Pa`..`Pe`): the n-th (from 1) Soldier of the files holding more
    /// than one, by file from the mover's right, then front to back.
    Index(u8),
}

/// A WXF or Chinese move as written, before the position resolves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Written {
    kind: Kind,
    pick: Pick,
    dir: Dir,
    /// The new file (sideways moves, diagonal movers) or the number of points, 1-9.
    value: u8,
    /// WXF rules for a plain file (the middle Soldier of three or five).
    wxf: bool,
}

/// A WXF piece letter in either case: the FEN letters `K A B N R C P` and WXF's `E`, `H`.
fn letter_kind(c: char) -> Option<Kind> {
    Kind::from_letter(c).map(|(_, k)| k)
}

fn digit(c: char) -> Option<u8> {
    c.to_digit(10).filter(|&d| d >= 1).map(|d| d as u8)
}

fn wxf_dir(c: char) -> Option<Dir> {
    match c {
        '+' => Some(Dir::Forward),
        '-' => Some(Dir::Backward),
        '.' | '=' => Some(Dir::Sideways),
        _ => None,
    }
}

/// Reads a normalised WXF move (four characters).
pub(super) fn parse_wxf(s: &str) -> Option<Written> {
    let c: Vec<char> = s.chars().collect();
    let [c0, c1, c2, c3] = c[..] else {
        return None;
    };
    let sign = |c: char| match c {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    };
    let (kind, pick) = if let Some(kind) = letter_kind(c0) {
        let pick = if let Some(f) = digit(c1) {
            Pick::File(f)
        } else if let Some(front) = sign(c1) {
            Pick::Sign { front, file: None }
        } else if ('a'..='e').contains(&c1.to_ascii_lowercase()) {
            Pick::Index(c1.to_ascii_lowercase() as u8 - b'a' + 1)
        } else {
            return None;
        };
        (kind, pick)
    } else if let Some(front) = sign(c0) {
        if let Some(kind) = letter_kind(c1) {
            (kind, Pick::Sign { front, file: None })
        } else if c1 == c0 {
            (Kind::Soldier, Pick::End { front, file: None })
        } else {
            return None;
        }
    } else if let Some(f) = digit(c0) {
        if let Some(front) = sign(c1) {
            (
                Kind::Soldier,
                Pick::Sign {
                    front,
                    file: Some(f),
                },
            )
        } else if c1 == c0 {
            (Kind::Soldier, Pick::Middle { file: Some(f) })
        } else {
            return None;
        }
    } else {
        return None;
    };
    Some(Written {
        kind,
        pick,
        dir: wxf_dir(c2)?,
        value: digit(c3)?,
        wxf: true,
    })
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn numeral(c: char) -> Option<u8> {
    RED_NUMERALS
        .iter()
        .position(|&n| n == c)
        .map(|i| i as u8 + 1)
        .or_else(|| digit(c))
}

fn chinese_kind(c: char) -> Option<Kind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Kind::General,
        '仕' | '士' => Kind::Advisor,
        '相' | '象' => Kind::Elephant,
        '马' | '馬' | '傌' => Kind::Horse,
        '车' | '車' | '俥' => Kind::Chariot,
        '炮' | '砲' | '包' => Kind::Cannon,
        '兵' | '卒' => Kind::Soldier,
        _ => return None,
    })
}

/// 前 / 后 / 中 as a pick, with the file when written.
fn chinese_marker(c: char, file: Option<u8>) -> Option<Pick> {
    match c {
        '前' => Some(Pick::End { front: true, file }),
        '后' | '後' => Some(Pick::End { front: false, file }),
        '中' => Some(Pick::Middle { file }),
        _ => None,
    }
}

/// Reads a normalised Chinese move.
pub(super) fn parse_chinese(s: &str) -> Option<Written> {
    let c: Vec<char> = s.chars().collect();
    let n = c.len();
    if !(4..=5).contains(&n) {
        return None;
    }
    let dir = match c[n - 2] {
        '进' | '進' => Dir::Forward,
        '退' => Dir::Backward,
        '平' => Dir::Sideways,
        _ => return None,
    };
    let value = numeral(c[n - 1])?;
    let (kind, pick) = match c[..n - 2] {
        [a, b] => {
            if let (Some(k), Some(f)) = (chinese_kind(a), numeral(b)) {
                (k, Pick::File(f))
            } else if let (Some(p), Some(k)) = (chinese_marker(a, None), chinese_kind(b)) {
                (k, p)
            } else if let (Some(k), Some(p)) = (chinese_kind(a), chinese_marker(b, None)) {
                (k, p)
            } else if let (Some(i), Some(k)) = (numeral(a), chinese_kind(b)) {
                if i > 5 {
                    return None;
                }
                (k, Pick::Index(i))
            } else if let Some(p) = numeral(b).and_then(|f| chinese_marker(a, Some(f))) {
                (Kind::Soldier, p)
            } else {
                return None;
            }
        }
        [a, b, f] => {
            let k = chinese_kind(b)?;
            (k, chinese_marker(a, Some(numeral(f)?))?)
        }
        _ => return None,
    };
    Some(Written {
        kind,
        pick,
        dir,
        value,
        wxf: false,
    })
}

/// The file index (0 = `a`) of `side`'s file number `n` (1-9 from its right).
fn file_index(side: Side, n: u8) -> i32 {
    match side {
        Side::First => 9 - n as i32,
        Side::Second => n as i32 - 1,
    }
}

/// `side`'s number (1-9 from its right) of the file with index `f`.
fn file_number(side: Side, f: u8) -> u8 {
    match side {
        Side::First => 9 - f,
        Side::Second => f + 1,
    }
}

fn forward(side: Side) -> i32 {
    match side {
        Side::First => 1,
        Side::Second => -1,
    }
}

fn straight(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::General | Kind::Chariot | Kind::Cannon | Kind::Soldier
    )
}

/// A side's pieces of one kind, file by file, front to back.
struct Files {
    sq: [[Square; 5]; 9],
    len: [u8; 9],
}

impl Files {
    fn of(pos: &Position, side: Side, kind: Kind) -> Files {
        let mut files = Files {
            sq: [[0; 5]; 9],
            len: [0; 9],
        };
        for i in 0..10u8 {
            // Front first: Red's front is rank 9, Black's rank 0.
            let rank = if side == Side::First { 9 - i } else { i };
            for f in 0..9u8 {
                let sq = rank * 9 + f;
                if matches!(pos.piece(sq), Some(p) if p.side() == side && p.kind() == kind) {
                    let l = &mut files.len[f as usize];
                    if (*l as usize) < 5 {
                        files.sq[f as usize][*l as usize] = sq;
                        *l += 1;
                    }
                }
            }
        }
        files
    }
    fn on(&self, f: usize) -> &[Square] {
        &self.sq[f][..self.len[f] as usize]
    }
    /// File indices holding more than one piece, by the side's file number (from its right).
    fn shared(&self, side: Side) -> Vec<usize> {
        let mut v: Vec<usize> = (0..9).filter(|&f| self.len[f] >= 2).collect();
        v.sort_by_key(|&f| file_number(side, f as u8));
        v
    }
}

/// Where the piece on `from` goes for `w`, or `None` when the notation names no point (off
/// the board, a sideways move to its own file, a diagonal mover's impossible file).
fn destination(side: Side, from: Square, w: &Written) -> Option<Square> {
    let (ff, fr) = (GEOMETRY.file(from) as i32, GEOMETRY.rank(from) as i32);
    let fwd = forward(side);
    let v = w.value as i32;
    let (tf, tr) = if straight(w.kind) {
        match w.dir {
            Dir::Sideways => {
                let tf = file_index(side, w.value);
                if tf == ff {
                    return None;
                }
                (tf, fr)
            }
            Dir::Forward => (ff, fr + v * fwd),
            Dir::Backward => (ff, fr - v * fwd),
        }
    } else {
        let tf = file_index(side, w.value);
        let df = (tf - ff).abs();
        let dr = match (w.kind, df) {
            (Kind::Advisor, 1) => 1,
            (Kind::Elephant, 2) => 2,
            (Kind::Horse, 1) => 2,
            (Kind::Horse, 2) => 1,
            _ => return None,
        };
        match w.dir {
            Dir::Sideways => return None,
            Dir::Forward => (tf, fr + dr * fwd),
            Dir::Backward => (tf, fr - dr * fwd),
        }
    };
    GEOMETRY.square(tf, tr)
}

/// True when the move's shape fits the piece wherever the other pieces stand: on the board, in
/// the palace, on its side of the river, a Soldier not backwards or sideways too early.
pub(super) fn fits(pos: &Position, m: Move) -> bool {
    !matches!(
        pos.diagnose(m),
        Err(Illegal::Shape(_)
            | Illegal::OutOfPalace(_)
            | Illegal::AcrossRiver
            | Illegal::SoldierSideways
            | Illegal::SoldierBackward)
    )
}

/// Why a written move names no single piece.
pub(super) struct Unresolved {
    /// What is wrong, after the move text (`is ambiguous: ...`).
    pub message: String,
    /// The label under the move.
    pub label: String,
    /// What to do.
    pub help: String,
}

fn file_text(side: Side, n: u8) -> String {
    let f = file_index(side, n);
    format!(
        "{}'s file {n} (the {} file)",
        side_name(side),
        (b'a' + f as u8) as char
    )
}

fn plural(kind: Kind) -> String {
    format!("{}s", kind.name())
}

fn list(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(|&s| GEOMETRY.name(s)).collect();
    names.join(", ")
}

/// The piece `which` picks among the pieces on file `f` (front, rear, middle: WXF's + and -,
/// Chinese 前/中/后), if the file holds a number of them the pick can name.
fn pick_on(files: &Files, f: usize, which: Pick) -> Option<Square> {
    let on = files.on(f);
    let c = on.len();
    let i = match which {
        Pick::Sign { front, .. } => match (c, front) {
            (2 | 3, true) => 0,
            (2 | 3, false) => c - 1,
            (4 | 5, true) => 1,
            (4 | 5, false) => c - 2,
            _ => return None,
        },
        Pick::End { front, .. } if c >= 2 => {
            if front {
                0
            } else {
                c - 1
            }
        }
        Pick::Middle { .. } => match c {
            3 => 1,
            5 => 2,
            _ => return None,
        },
        _ => return None,
    };
    Some(on[i])
}

/// The pieces of the kind `w` names on the file numbered `n` from the mover's right, or why
/// it holds none (WXF writes the middle Soldier of three or five by its file).
fn on_file(files: &Files, side: Side, w: &Written, n: u8) -> Result<Vec<Square>, Unresolved> {
    let kind = w.kind;
    let on = files.on(file_index(side, n) as usize);
    if on.is_empty() {
        return Err(Unresolved {
            message: format!(
                "names no piece: {} has no {} on {}",
                side_name(side),
                kind.name(),
                file_text(side, n)
            ),
            label: format!("no {} there", kind.name()),
            help: "files count from the mover's right, 1-9 (Red writes 一..九 in Chinese \
                   notation); the move names the file the piece stands on"
                .into(),
        });
    }
    if w.wxf && kind == Kind::Soldier && matches!(on.len(), 3 | 5) {
        return Ok(vec![on[on.len() / 2]]);
    }
    Ok(on.to_vec())
}

/// The pieces a pick names, or why it names none.
fn candidates(files: &Files, side: Side, w: &Written) -> Result<Vec<Square>, Unresolved> {
    let who = side_name(side);
    let kind = w.kind;
    let stacked_help = "several like pieces on one file are told apart by 前/中/后 (WXF + and -); \
                        see docs/xiangqi.md (notation)";
    let none = |message: String, label: &str| Unresolved {
        message: format!("names no piece: {message}"),
        label: label.to_string(),
        help: stacked_help.to_string(),
    };
    let in_range = |n: u8| (1..=9).contains(&n);
    match w.pick {
        Pick::File(n) => on_file(files, side, w, n),
        Pick::Sign { file, .. } | Pick::End { file, .. } | Pick::Middle { file } => {
            let which = w.pick;
            let files_to_try: Vec<usize> = match file {
                Some(n) if in_range(n) => vec![file_index(side, n) as usize],
                Some(_) => Vec::new(),
                None => files.shared(side),
            };
            let found: Vec<Square> = files_to_try
                .iter()
                .filter_map(|&f| pick_on(files, f, which))
                .collect();
            if found.is_empty() {
                let what = match which {
                    Pick::Middle { .. } => "three or five",
                    Pick::Sign { .. } => "two to five",
                    _ => "two or more",
                };
                let place = match file {
                    Some(n) => file_text(side, n),
                    None => "one file".to_string(),
                };
                return Err(none(
                    format!("{who} has no {what} {} on {place}", plural(kind)),
                    "names a piece among several on a file",
                ));
            }
            Ok(found)
        }
        Pick::Index(k) => {
            let series: Vec<Square> = files
                .shared(side)
                .iter()
                .flat_map(|&f| files.on(f).iter().copied())
                .collect();
            match (k as usize).checked_sub(1).and_then(|i| series.get(i)) {
                Some(&sq) => Ok(vec![sq]),
                None => Err(none(
                    format!(
                        "{who} has {} {} on files shared with another, so there is no number {k}",
                        series.len(),
                        plural(kind)
                    ),
                    "no such piece",
                )),
            }
        }
    }
}

/// Resolves a written move in `pos` (the side to move makes it).
pub(super) fn resolve(pos: &Position, w: &Written) -> Result<Move, Unresolved> {
    let side = pos.to_move();
    let files = Files::of(pos, side, w.kind);
    let found = candidates(&files, side, w)?;
    let moves: Vec<(Square, Option<Square>)> = found
        .iter()
        .map(|&from| (from, destination(side, from, w)))
        .collect();
    let what = |from: Square| format!("the {} on {}", w.kind.name(), GEOMETRY.name(from));
    if let [(from, to)] = moves[..] {
        return match to {
            // The engine explains a move the piece cannot make (river, palace, blocking).
            Some(to) => Ok(Move { from, to }),
            None => Err(Unresolved {
                message: format!("names no point for {}", what(from)),
                label: "no such point".into(),
                help: match (straight(w.kind), w.dir) {
                    (false, Dir::Sideways) => format!(
                        "a {} never moves sideways; its number after + or - is the file it goes to",
                        w.kind.name()
                    ),
                    (false, _) => format!(
                        "the number after + or - is the file a {} goes to, {} away",
                        w.kind.name(),
                        match w.kind {
                            Kind::Advisor => "one file",
                            Kind::Elephant => "two files",
                            _ => "one or two files",
                        }
                    ),
                    (true, Dir::Sideways) => {
                        "a sideways move names the file it goes to, not its own".into()
                    }
                    (true, _) => {
                        "the move would leave the board: after + or - the number counts points"
                            .into()
                    }
                },
            }),
        };
    }
    let fitting: Vec<Move> = moves
        .iter()
        .filter_map(|&(from, to)| to.map(|to| Move { from, to }))
        .filter(|&m| fits(pos, m))
        .collect();
    match fitting[..] {
        [m] => Ok(m),
        [] => Err(Unresolved {
            message: format!(
                "fits no piece: none of {}'s {} on {} can move so",
                side_name(side),
                plural(w.kind),
                list(&found)
            ),
            label: "no piece can move so".into(),
            help: "the move must fit one of the pieces it names (its shape, the palace, the river)"
                .into(),
        }),
        _ => {
            let options: Vec<String> = fitting
                .iter()
                .map(|m| format!("{} ({})", what(m.from), m.iccs()))
                .collect();
            Err(Unresolved {
                message: format!("is ambiguous: it could be {}", options.join(" or ")),
                label: format!("{} {} could make this move", fitting.len(), plural(w.kind)),
                help: "name the piece: 前/中/后 or a number before it (WXF: + or - for the file, \
                       ++/-- and file digits for Soldiers); see docs/xiangqi.md (notation)"
                    .into(),
            })
        }
    }
}

/// The move `m` of the side to move in `pos`, written in `notation`: ICCS `h2e2`; WXF in
/// ASCII with `.` for sideways moves and the signs after the letter (`R+.3`); Chinese in
/// xqbase's form (simplified characters, Red's numerals 一..九, Black's full-width digits, 一..五
/// before a Soldier of a doubled file). Reading the result in `pos` gives `m` back for every
/// legal `m` (a tested property). A move from an empty point, or off the board, is written in
/// ICCS.
pub fn write(pos: &Position, m: Move, notation: Notation) -> String {
    let Some(piece) = pos.piece(m.from) else {
        return m.iccs();
    };
    if notation == Notation::Iccs || m.to as usize >= SQUARES || m.from == m.to {
        return m.iccs();
    }
    let side = piece.side();
    let kind = piece.kind();
    let files = Files::of(pos, side, kind);
    let ff = GEOMETRY.file(m.from);
    let n = file_number(side, ff);
    let on = files.on(ff as usize);
    let c = on.len();
    let i = on.iter().position(|&s| s == m.from).unwrap_or(0);
    let shared = files.shared(side);
    let fwd = forward(side);
    let dr = (GEOMETRY.rank(m.to) as i32 - GEOMETRY.rank(m.from) as i32) * fwd;
    let tf = GEOMETRY.file(m.to);
    let (dir, value) = if dr == 0 {
        (Dir::Sideways, file_number(side, tf))
    } else {
        let dir = if dr > 0 { Dir::Forward } else { Dir::Backward };
        if straight(kind) {
            (dir, dr.unsigned_abs() as u8)
        } else {
            (dir, file_number(side, tf))
        }
    };
    let w = Spelled {
        side,
        kind,
        n,
        c,
        i,
        shared,
        dir,
        value,
    };
    match notation {
        Notation::Wxf => write_wxf(&w),
        Notation::Chinese => write_chinese(&w, &files, m.from),
        Notation::Iccs => m.iccs(),
    }
}

/// What a WXF or Chinese move says of a piece's move: the mover, the piece's kind, the number
/// of its file from the mover's right (`n`), how many like pieces stand on that file (`c`) and
/// which of them it is from the front (`i`), the files that hold two or more (`shared`), and
/// the direction and its number (a file, or ranks for a straight mover).
struct Spelled {
    side: Side,
    kind: Kind,
    n: u8,
    c: usize,
    i: usize,
    shared: Vec<usize>,
    dir: Dir,
    value: u8,
}

/// The move `w` in WXF (ASCII, `.` for sideways, the signs after the letter).
fn write_wxf(w: &Spelled) -> String {
    let Spelled {
        kind,
        n,
        c,
        i,
        dir,
        value,
        ..
    } = *w;
    let shared = &w.shared;
    let l = ['K', 'A', 'E', 'H', 'R', 'C', 'P'][kind.index()];
    let d = (b'0' + n) as char;
    let head = match kind {
        _ if c < 2 || matches!(kind, Kind::General | Kind::Advisor | Kind::Elephant) => {
            format!("{l}{d}")
        }
        Kind::Soldier if shared.len() >= 2 => {
            let mark = match (c, i) {
                (_, 0) => '+',
                (3, 1) => d,
                _ => '-',
            };
            format!("{d}{mark}")
        }
        Kind::Soldier => match (c, i) {
            (2 | 3, 0) => "P+".into(),
            (3, 1) | (5, 2) => format!("P{d}"),
            (2 | 3, _) => "P-".into(),
            (_, 0) => "++".into(),
            (_, 1) => "P+".into(),
            (_, i) if i + 2 == c => "P-".into(),
            _ => "--".into(),
        },
        _ => format!("{l}{}", if i == 0 { '+' } else { '-' }),
    };
    let dc = match dir {
        Dir::Forward => '+',
        Dir::Backward => '-',
        Dir::Sideways => '.',
    };
    format!("{head}{dc}{}", (b'0' + value) as char)
}

/// The move `w` in Chinese, in xqbase's form; `files` and `from` number a Soldier among the
/// Soldiers of several files.
fn write_chinese(w: &Spelled, files: &Files, from: Square) -> String {
    let Spelled {
        side,
        kind,
        n,
        c,
        i,
        dir,
        value,
        ..
    } = *w;
    let shared = &w.shared;
    let name = match (side, kind) {
        (Side::First, Kind::General) => '帅',
        (Side::Second, Kind::General) => '将',
        (Side::First, Kind::Advisor) => '仕',
        (Side::Second, Kind::Advisor) => '士',
        (Side::First, Kind::Elephant) => '相',
        (Side::Second, Kind::Elephant) => '象',
        (_, Kind::Horse) => '马',
        (_, Kind::Chariot) => '车',
        (_, Kind::Cannon) => '炮',
        (Side::First, Kind::Soldier) => '兵',
        (Side::Second, Kind::Soldier) => '卒',
    };
    let num = |v: u8| {
        let i = (v as usize).clamp(1, 9) - 1;
        match side {
            Side::First => RED_NUMERALS[i],
            Side::Second => BLACK_DIGITS[i],
        }
    };
    let head = match kind {
        _ if c < 2 || matches!(kind, Kind::General | Kind::Advisor | Kind::Elephant) => {
            format!("{name}{}", num(n))
        }
        Kind::Soldier if shared.len() >= 2 || c >= 4 => {
            let k = shared
                .iter()
                .flat_map(|&f| files.on(f).iter().copied())
                .position(|s| s == from)
                .unwrap_or(0);
            format!("{}{name}", RED_NUMERALS[k.min(8)])
        }
        _ => {
            let mark = match (c, i) {
                (_, 0) => '前',
                (3, 1) => '中',
                _ => '后',
            };
            format!("{mark}{name}")
        }
    };
    let dc = match dir {
        Dir::Forward => '进',
        Dir::Backward => '退',
        Dir::Sideways => '平',
    };
    format!("{head}{dc}{}", num(value))
}

/// The plies of every line of `record` rewritten in `to` (index 0 the main line, `n` the
/// variation `variations[n - 1]`), each read by the engine in its own position (the `Format`
/// tag, or detection, says how the record is written). A coordinate move stays as written
/// when `to` is ICCS. The tree is walked once, depth first, a variation played from its
/// parent's position and taken back after ([`Rules::play_undoable`]): time linear in the
/// plies of the tree. `Err` is the finding of a game that cannot start or of the first ply
/// the rules refuse, in any line: a refused move has no writing in another notation that is
/// sure to be refused the same way (an Elephant across the river reads back as its twin's
/// legal move, a capture mark is lost), so convert refuses the game.
pub fn rewrite(
    record: &GameRecord,
    params: &Parameters,
    to: Notation,
) -> Result<Vec<Vec<String>>, Finding> {
    let lines = record.variations.len() + 1;
    let written = |n: usize| -> Vec<String> {
        let moves = record.line_moves(n);
        moves.iter().map(|m| m.text().to_string()).collect()
    };
    let engine = Xiangqi::new();
    let mut st = match engine.start(record, params, &mut Vec::new()) {
        Ok(st) => st,
        Err(mut fs) => {
            let at = Span::new(record.span.start, record.span.start);
            return Err(fs.drain(..).next().unwrap_or_else(|| {
                Finding::new(Code::ParseError, at, "the game cannot start", NOTATION_RULE)
            }));
        }
    };
    // Coordinates kept as written read the same only where the game reads them as ICCS: a
    // `Format` tag of ICCS, or none and ranks from 0 with no SAN (an engine's UCI ranks from
    // 1, and SAN, are written anew).
    let keep = to == Notation::Iccs
        && match st.reading.format {
            Some(f) => f == Notation::Iccs,
            None => st.reading.dialect.base == 0 && !st.reading.dialect.san,
        };
    let all_coords = (0..lines).all(|n| record.line_moves(n).iter().all(|m| m.coord().is_some()));
    if keep && all_coords {
        return Ok((0..lines).map(written).collect());
    }
    // The variations that replace each line's move (line, index), in the record's order.
    let mut kids: std::collections::HashMap<(usize, usize), Vec<usize>> = Default::default();
    for (parent, at, line) in record.branches() {
        kids.entry((parent, at)).or_default().push(line);
    }
    let mut out: Vec<Vec<String>> = (0..lines)
        .map(|n| Vec::with_capacity(record.line_moves(n).len()))
        .collect();
    // (line, next move, whether the variations replacing that move were walked)
    let mut stack = vec![(0usize, 0usize, false)];
    while let Some(&(line, i, walked)) = stack.last() {
        if !walked {
            stack.last_mut().expect("top").2 = true;
            let here = kids.get(&(line, i)).into_iter().flatten();
            stack.extend(here.rev().map(|&k| (k, 0, false)));
            continue;
        }
        let Some(mv) = record.line_moves(line).get(i) else {
            stack.pop();
            (0..i).for_each(|_| engine.undo(&mut st));
            continue;
        };
        let before = st.position;
        let number = record.line_start(line) + i as u32 + 1;
        let applied = engine.play_undoable(&mut st, mv, number)?;
        let m = Move {
            from: applied.info.from,
            to: applied.info.to,
        };
        out[line].push(if keep && mv.coord().is_some() {
            mv.text().to_string()
        } else {
            write(&before, m, to)
        });
        *stack.last_mut().expect("top") = (line, i + 1, false);
    }
    Ok(out)
}

/// The WXF or Chinese move `text` (as written, full width allowed) read in `pos`, if it names
/// one move: for deciding a game's dialect.
pub(super) fn read_written(pos: &Position, text: &str) -> Option<Move> {
    let norm = normalise(text);
    let w = if norm.chars().any(|c| c as u32 >= 0x2E80) {
        parse_chinese(&norm)
    } else {
        parse_wxf(&norm)
    }?;
    resolve(pos, &w).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::xiangqi::fen;

    fn at(fen_text: &str) -> Position {
        fen::parse(fen_text).expect("valid FEN").position
    }

    fn read_in(pos: &Position, text: &str) -> Result<Move, String> {
        let w = parse_wxf(&normalise(text))
            .or_else(|| parse_chinese(&normalise(text)))
            .ok_or_else(|| format!("unreadable {text}"))?;
        resolve(pos, &w).map_err(|u| u.message)
    }

    #[test]
    fn full_width_is_ascii() {
        assert_eq!(normalise("Ｃ２＝５"), "C2=5");
        assert_eq!(normalise("马８进７"), "马8进7");
        assert_eq!(normalise("＋Ｐ－１"), "+P-1");
    }

    #[test]
    fn opening_moves_in_all_forms() {
        let p = Position::start();
        let h2e2 = Move::from_iccs("h2e2").unwrap();
        for t in ["C2.5", "C2=5", "c2.5", "Ｃ２＝５", "炮二平五", "砲二平五"] {
            assert_eq!(read_in(&p, t), Ok(h2e2), "{t}");
        }
        assert_eq!(read_in(&p, "H2+3"), Ok(Move::from_iccs("h0g2").unwrap()));
        assert_eq!(read_in(&p, "N2+3"), Ok(Move::from_iccs("h0g2").unwrap()));
        assert_eq!(
            read_in(&p, "傌二進三"),
            Ok(Move::from_iccs("h0g2").unwrap())
        );
        assert_eq!(read_in(&p, "E3+5"), Ok(Move::from_iccs("g0e2").unwrap()));
        assert_eq!(read_in(&p, "B7+5"), Ok(Move::from_iccs("c0e2").unwrap()));
        assert_eq!(read_in(&p, "R1+1"), Ok(Move::from_iccs("i0i1").unwrap()));
        assert_eq!(write(&p, h2e2, Notation::Wxf), "C2.5");
        assert_eq!(write(&p, h2e2, Notation::Chinese), "炮二平五");
        let mut b = p;
        b.make(h2e2);
        let h9g7 = Move::from_iccs("h9g7").unwrap();
        assert_eq!(read_in(&b, "H8+7"), Ok(h9g7));
        assert_eq!(read_in(&b, "马８进７"), Ok(h9g7));
        assert_eq!(read_in(&b, "馬8進7"), Ok(h9g7));
        assert_eq!(write(&b, h9g7, Notation::Chinese), "马８进７");
        assert_eq!(write(&b, h9g7, Notation::Wxf), "H8+7");
    }

    #[test]
    fn any_pair_of_points_is_written_without_panic() {
        let p = Position::start();
        for from in 0..=255u8 {
            for to in (0..=255u8).step_by(7) {
                for n in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
                    assert!(!write(&p, Move { from, to }, n).is_empty());
                }
            }
        }
    }

    #[test]
    fn advisors_on_one_file_are_told_apart_by_the_palace() {
        // Red Advisors on d0 and d2 (file 6): A6+5 can only be d0e1, A6-5 only d2e1.
        let p = at("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
        assert_eq!(read_in(&p, "A6+5"), Ok(Move::from_iccs("d0e1").unwrap()));
        assert_eq!(
            read_in(&p, "仕六退五"),
            Ok(Move::from_iccs("d2e1").unwrap())
        );
        assert_eq!(
            write(&p, Move::from_iccs("d0e1").unwrap(), Notation::Wxf),
            "A6+5"
        );
    }
}
