//! The Xiangqi board (rulings §4.1): a 90-point mailbox, move generation, attack queries,
//! check, and an incremental Zobrist key.
//!
//! A point is `rank * 9 + file` (ICCS: file `a` = 0 from Red's left, rank 0 = Red's back rank),
//! the same numbering as [`GEOMETRY`]. Red is [`Side::First`] and moves first.
//!
//! Everything here works on fixed arrays: a [`Position`] is `Copy` (about 110 bytes), a
//! [`MoveList`] holds at most 128 moves (a side has at most 119 pseudo-legal moves: 2 Chariots
//! and 2 Cannons with 17 each, 2 Horses with 8, 2 Elephants and 2 Advisors with 4, the General
//! with 4 and 5 Soldiers with 3), and nothing allocates.
//!
//! Jieqi (rulings §4.2) is meant as a layer over this board: a piece may be *covered*
//! ([`Piece::covered`]); a covered piece moves as the piece that starts on its point
//! ([`start_kind`]) with that piece's limits, and with [`Position::set_free_diagonals`]
//! revealed Advisors and Elephants lose their palace and river limits.

use crate::geometry::{zobrist, Geometry, Square};
use crate::types::Side;
use std::num::NonZeroU8;

/// Files on the board.
pub const WIDTH: u8 = 9;
/// Ranks on the board.
pub const HEIGHT: u8 = 10;
/// Points on the board.
pub const SQUARES: usize = 90;
/// The board's geometry: 9 files `a`–`i`, 10 ranks written 0–9 (ICCS, rulings §4.1).
pub const GEOMETRY: Geometry = Geometry {
    width: WIDTH,
    height: HEIGHT,
    rank_base: 0,
};

/// What a piece is (rulings §4.1). Letters follow the xqbase FEN: `K A B N R C P`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// General (King), `K`: one point orthogonally inside its palace.
    General = 0,
    /// Advisor, `A`: one point diagonally inside its palace.
    Advisor = 1,
    /// Elephant, `B` (also read as `E`): two points diagonally, blocked on the eye, never
    /// across the river.
    Elephant = 2,
    /// Horse, `N` (also read as `H`): one point orthogonally then one diagonally outward,
    /// blocked on the leg.
    Horse = 3,
    /// Chariot, `R`: any distance orthogonally.
    Chariot = 4,
    /// Cannon, `C`: moves like a Chariot, captures over exactly one screen.
    Cannon = 5,
    /// Soldier, `P`: one point forward; also sideways once across the river.
    Soldier = 6,
}

impl Kind {
    /// Every kind, in index order.
    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Soldier,
    ];
    /// 0..7, for per-kind arrays.
    pub fn index(self) -> usize {
        self as usize
    }
    /// The xqbase FEN letter, upper case (Red's).
    pub fn letter(self) -> char {
        ['K', 'A', 'B', 'N', 'R', 'C', 'P'][self.index()]
    }
    /// Reads a FEN letter: upper case is Red, lower case Black. `E` and `H` are accepted
    /// for the Elephant and the Horse (WXF letters).
    pub fn from_letter(c: char) -> Option<(Side, Kind)> {
        let side = if c.is_ascii_uppercase() {
            Side::First
        } else {
            Side::Second
        };
        let kind = match c.to_ascii_uppercase() {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        };
        Some((side, kind))
    }
    /// The English name (`General`, `Horse`, ...).
    pub fn name(self) -> &'static str {
        [
            "General", "Advisor", "Elephant", "Horse", "Chariot", "Cannon", "Soldier",
        ][self.index()]
    }
    /// The name with its indefinite article: `an Advisor`, `an Elephant`, `a Horse`.
    pub fn a(self) -> String {
        match self {
            Kind::Advisor | Kind::Elephant => format!("an {}", self.name()),
            _ => format!("a {}", self.name()),
        }
    }
    /// How many of this kind a side starts with (rulings §4.2 pool: 1 General, 2 each of
    /// A B N R C, 5 Soldiers). No position may hold more.
    pub fn count(self) -> u8 {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }
    fn from_index(i: u8) -> Kind {
        Kind::ALL[(i as usize).min(6)]
    }
}

/// A piece: side, kind and (Jieqi only) whether it is covered. One byte; `Option<Piece>` too.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl std::fmt::Debug for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.fen_letter())?;
        if self.is_covered() {
            f.write_str("(covered)")?;
        }
        Ok(())
    }
}

impl Piece {
    const SIDE: u8 = 0x08;
    const COVERED: u8 = 0x10;

    /// An uncovered piece.
    pub fn new(side: Side, kind: Kind) -> Piece {
        let code = (kind as u8 + 1) | if side == Side::Second { Self::SIDE } else { 0 };
        Piece(NonZeroU8::new(code).unwrap_or(NonZeroU8::MIN))
    }
    /// A covered piece (Jieqi): `kind` is its identity when known to the engine; it moves as
    /// [`start_kind`] of its point until turned over.
    pub fn covered(side: Side, kind: Kind) -> Piece {
        let p = Piece::new(side, kind);
        Piece(p.0 | Self::COVERED)
    }
    /// The owner.
    pub fn side(self) -> Side {
        if self.0.get() & Self::SIDE != 0 {
            Side::Second
        } else {
            Side::First
        }
    }
    /// The identity.
    pub fn kind(self) -> Kind {
        Kind::from_index((self.0.get() & 0x07) - 1)
    }
    /// True for a covered Jieqi piece.
    pub fn is_covered(self) -> bool {
        self.0.get() & Self::COVERED != 0
    }
    /// The byte code (1..=31), for keys.
    pub fn code(self) -> u8 {
        self.0.get()
    }
    /// The FEN letter: upper case for Red.
    pub fn fen_letter(self) -> char {
        let c = self.kind().letter();
        match self.side() {
            Side::First => c,
            Side::Second => c.to_ascii_lowercase(),
        }
    }
}

/// A move from one point to another (a capture when the to-point holds an enemy piece).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move {
    /// From-point.
    pub from: Square,
    /// To-point.
    pub to: Square,
}

impl Move {
    /// The move in ICCS coordinates, `h2e2`.
    pub fn iccs(self) -> String {
        format!("{}{}", GEOMETRY.name(self.from), GEOMETRY.name(self.to))
    }
    /// Reads an ICCS move (`h2e2`, `H2-E2`); `None` when it is not of that form or off the
    /// board.
    pub fn from_iccs(s: &str) -> Option<Move> {
        let c = crate::record::parse_coord_move(s, 0)?;
        Some(Move {
            from: GEOMETRY.square_written(c.from.0, c.from.1)?,
            to: GEOMETRY.square_written(c.to.0, c.to.1)?,
        })
    }
}

/// A fixed-capacity list of moves (128; see the module doc for why that is enough).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 128],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|m| m.iccs()))
            .finish()
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::default(); 128],
            len: 0,
        }
    }
    /// Appends a move (a move past the capacity, impossible with a valid position, is
    /// dropped rather than panicking).
    pub fn push(&mut self, m: Move) {
        if self.len < self.moves.len() {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    /// Empties the list.
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if f(self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

/// Why a move is not legal (rulings §4.1), from [`Position::diagnose`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The piece never moves that way (wrong shape or distance).
    Shape(Kind),
    /// A General or Advisor would leave its palace.
    OutOfPalace(Kind),
    /// An Elephant would cross the river.
    AcrossRiver,
    /// An Elephant's eye (the point between) is occupied.
    EyeBlocked(Square),
    /// A Horse's leg (the first orthogonal point) is occupied.
    LegBlocked(Square),
    /// A Chariot's (or a non-capturing Cannon's) path is blocked at this point.
    PathBlocked(Square),
    /// A Cannon capture over `count` screens (it needs exactly one); `first` and `second`
    /// are the first two screens when there are that many.
    Screens {
        /// Pieces between the Cannon and its target.
        count: u8,
        /// The first screen, if any.
        first: Option<Square>,
        /// The second screen, if any.
        second: Option<Square>,
    },
    /// A Soldier moving sideways before it has crossed the river.
    SoldierSideways,
    /// A Soldier moving backwards.
    SoldierBackward,
    /// After the move the two Generals would face each other on an open file.
    FacingGenerals,
    /// After the move the mover's General is attacked by the piece on `attacker`;
    /// `was_in_check` tells whether it was already in check before (an unanswered check).
    LeavesGeneralAttacked {
        /// The attacking enemy piece's point.
        attacker: Square,
        /// The mover was in check before the move.
        was_in_check: bool,
    },
}

const NONE: u8 = 0xFF;
/// A Soldier's step of (`df`, `dr`) points from `from`: one point forward, or sideways once
/// across the river (rulings §4.1).
#[inline]
fn soldier_move(side: Side, from: Square, df: i32, dr: i32) -> Result<(), Illegal> {
    let fwd = if side == Side::First { 1 } else { -1 };
    if df == 0 && dr == fwd {
        Ok(())
    } else if dr == 0 && df.abs() == 1 {
        match own_half(side, from) {
            true => Err(Illegal::SoldierSideways),
            false => Ok(()),
        }
    } else if df == 0 && dr == -fwd {
        Err(Illegal::SoldierBackward)
    } else {
        Err(Illegal::Shape(Kind::Soldier))
    }
}

/// Orthogonal directions: north (towards Black, rank + 1), south, east (file + 1), west.
const ORTH: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const HORSE: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];
const NORTH: usize = 0;
const SOUTH: usize = 1;
const EAST: usize = 2;
const WEST: usize = 3;

/// The bit of point `sq` in an occupancy mask (of `sq` modulo 128, as a shift would give).
#[inline]
fn bit(sq: usize) -> u128 {
    BITS[sq & 127]
}

/// Every single-bit mask, looked up: a `u128` shift takes a handful of instructions.
static BITS: [u128; 128] = {
    let mut b = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        b[i] = 1u128 << i;
        i += 1;
    }
    b
};

/// File and rank of every byte a point can be, as [`GEOMETRY`] computes them (`sq % 9`,
/// `sq / 9`), looked up: the hot tests ask for them at every ply.
static FILE_RANK: [(u8, u8); 256] = {
    let mut t = [(0u8, 0u8); 256];
    let mut i = 0;
    while i < 256 {
        t[i] = ((i % WIDTH as usize) as u8, (i / WIDTH as usize) as u8);
        i += 1;
    }
    t
};

/// The 0-based file and rank of `sq` ([`FILE_RANK`]).
#[inline]
fn file_rank(sq: Square) -> (u8, u8) {
    FILE_RANK[sq as usize]
}

/// The [`ORTH`] direction from `a` to `b` when they share a file or rank (and differ).
fn line_from(a: Square, b: Square) -> Option<usize> {
    let ((af, ar), (bf, br)) = (file_rank(a), file_rank(b));
    match (af == bf, ar == br) {
        (true, false) => Some(if br > ar { NORTH } else { SOUTH }),
        (false, true) => Some(if bf > af { EAST } else { WEST }),
        _ => None,
    }
}

/// The point of `mask` (points on one [`ORTH`] ray from some point) nearest that point:
/// north and east count up, south and west down.
#[inline]
fn nearest(mask: u128, d: usize) -> Option<usize> {
    if mask == 0 {
        None
    } else if d == NORTH || d == EAST {
        Some(mask.trailing_zeros() as usize)
    } else {
        Some(127 - mask.leading_zeros() as usize)
    }
}

const fn at(file: i32, rank: i32) -> u8 {
    if file < 0 || rank < 0 || file >= WIDTH as i32 || rank >= HEIGHT as i32 {
        NONE
    } else {
        (rank * WIDTH as i32 + file) as u8
    }
}

/// Neighbour tables, built at compile time.
struct Tables {
    /// One step in each [`ORTH`] direction.
    orth: [[u8; 4]; SQUARES],
    /// One step in each [`DIAG`] direction.
    diag: [[u8; 4]; SQUARES],
    /// Two steps in each [`DIAG`] direction (the eye is `diag`).
    diag2: [[u8; 4]; SQUARES],
    /// Horse moves from a point: (leg, target).
    horse: [[(u8, u8); 8]; SQUARES],
    /// Horses that attack a point: (horse point, its leg).
    horse_in: [[(u8, u8); 8]; SQUARES],
    /// Every point beyond a point in each [`ORTH`] direction, to the edge (bit `sq`).
    ray: [[u128; 4]; SQUARES],
    /// `touch[g][sq]`: how point `sq` stands to a General on `g` (what a move from or to it
    /// can change about the attacks on that General):
    /// [`ON_LINE`] with the [`ORTH`] direction from `g` in [`LINE_DIR`], [`DIAG_NEXT`],
    /// [`HORSE_ORIGIN`], [`DIAG_ORIGIN`].
    touch: [[u8; SQUARES]; SQUARES],
}

/// On the General's file or rank (a line, a screen, a line piece).
const ON_LINE: u8 = 1;
/// Diagonally next to the General (a Horse's leg or an Elephant's eye on the way to it).
const DIAG_NEXT: u8 = 2;
/// A point from which a Horse attacks the General (its leg aside).
const HORSE_ORIGIN: u8 = 4;
/// A point from which an Advisor or an Elephant attacks the General (one or two steps
/// diagonally).
const DIAG_ORIGIN: u8 = 8;
/// Where the [`ORTH`] direction from the General to an [`ON_LINE`] point is kept.
const LINE_DIR: u32 = 4;

/// How `m`'s from- and to-point stand to a General on `g` ([`Tables::touch`]); a point off
/// the board stands everywhere (every test then looks further).
#[inline]
fn touch(g: Square, m: Move) -> (u8, u8) {
    let Some(row) = T.touch.get(g as usize) else {
        return (u8::MAX, u8::MAX);
    };
    let at = |sq: Square| row.get(sq as usize).copied().unwrap_or(u8::MAX);
    (at(m.from), at(m.to))
}

/// The [`ORTH`] direction kept in a [`Tables::touch`] entry.
#[inline]
fn line_dir(touch: u8) -> usize {
    (touch >> LINE_DIR) as usize & 3
}

const fn tables() -> Tables {
    let mut t = Tables {
        orth: [[NONE; 4]; SQUARES],
        diag: [[NONE; 4]; SQUARES],
        diag2: [[NONE; 4]; SQUARES],
        horse: [[(NONE, NONE); 8]; SQUARES],
        horse_in: [[(NONE, NONE); 8]; SQUARES],
        ray: [[0; 4]; SQUARES],
        touch: [[0; SQUARES]; SQUARES],
    };
    let mut s = 0;
    while s < SQUARES {
        let f = (s % WIDTH as usize) as i32;
        let r = (s / WIDTH as usize) as i32;
        let mut d = 0;
        while d < 4 {
            t.orth[s][d] = at(f + ORTH[d].0, r + ORTH[d].1);
            t.diag[s][d] = at(f + DIAG[d].0, r + DIAG[d].1);
            t.diag2[s][d] = at(f + 2 * DIAG[d].0, r + 2 * DIAG[d].1);
            let mut k = 1;
            loop {
                let q = at(f + k * ORTH[d].0, r + k * ORTH[d].1);
                if q == NONE {
                    break;
                }
                t.ray[s][d] |= 1u128 << q;
                k += 1;
            }
            d += 1;
        }
        let mut h = 0;
        while h < 8 {
            let (df, dr) = HORSE[h];
            let (lf, lr) = if dr == 2 || dr == -2 {
                (0, dr / 2)
            } else {
                (df / 2, 0)
            };
            let target = at(f + df, r + dr);
            if target != NONE {
                t.horse[s][h] = (at(f + lf, r + lr), target);
            }
            // A Horse on (f - df, r - dr) reaches s with its leg one step from its own point.
            let from = at(f - df, r - dr);
            if from != NONE {
                t.horse_in[s][h] = (from, at(f - df + lf, r - dr + lr));
            }
            h += 1;
        }
        s += 1;
    }
    sensitive(&mut t);
    t
}

/// Fills [`Tables::touch`] from the step tables.
const fn sensitive(t: &mut Tables) {
    let mut g = 0;
    while g < SQUARES {
        let mut d = 0;
        while d < 4 {
            let mut q = 0;
            while q < SQUARES {
                if t.ray[g][d] & (1u128 << q) != 0 {
                    t.touch[g][q] |= ON_LINE | ((d as u8) << LINE_DIR);
                }
                q += 1;
            }
            let (a, e) = (t.diag[g][d], t.diag2[g][d]);
            if a != NONE {
                t.touch[g][a as usize] |= DIAG_NEXT | DIAG_ORIGIN;
            }
            if e != NONE {
                t.touch[g][e as usize] |= DIAG_ORIGIN;
            }
            d += 1;
        }
        let mut h = 0;
        while h < 8 {
            let horse = t.horse_in[g][h].0;
            if horse != NONE {
                t.touch[g][horse as usize] |= HORSE_ORIGIN;
            }
            h += 1;
        }
        g += 1;
    }
}

static T: Tables = tables();

/// The kind that starts on a point of the standard position, if any (used for covered
/// Jieqi pieces, which move as that kind).
pub fn start_kind(sq: Square) -> Option<Kind> {
    let f = GEOMETRY.file(sq);
    let r = GEOMETRY.rank(sq);
    let back = [
        Kind::Chariot,
        Kind::Horse,
        Kind::Elephant,
        Kind::Advisor,
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
    ];
    match r {
        0 | 9 => Some(back[f as usize]),
        2 | 7 if f == 1 || f == 7 => Some(Kind::Cannon),
        3 | 6 if f.is_multiple_of(2) => Some(Kind::Soldier),
        _ => None,
    }
}

/// True when `sq` lies in `side`'s palace (files d–f, ranks 0–2 for Red, 7–9 for Black).
pub fn in_palace(side: Side, sq: Square) -> bool {
    let (f, r) = file_rank(sq);
    (3..=5).contains(&f)
        && match side {
            Side::First => r <= 2,
            Side::Second => r >= 7,
        }
}

/// True when `sq` lies on `side`'s own half (ranks 0–4 for Red, 5–9 for Black); a Soldier
/// off its own half has crossed the river.
pub fn own_half(side: Side, sq: Square) -> bool {
    let r = file_rank(sq).1;
    match side {
        Side::First => r <= 4,
        Side::Second => r >= 5,
    }
}

fn forward(side: Side) -> usize {
    match side {
        Side::First => NORTH,
        Side::Second => SOUTH,
    }
}

/// The key of the piece with byte code `code` ([`Piece::code`]) on `sq`. A covered piece is
/// keyed by its side and point only: its identity is nobody's knowledge, so the same
/// placement repeats whatever the shuffle was (rulings §4.3: placement incl. covered pieces).
const fn piece_key_of(code: u8, sq: usize) -> u64 {
    let code = if code & Piece::COVERED != 0 {
        Piece::COVERED | (code & Piece::SIDE)
    } else {
        code
    };
    zobrist(0x5851_0000_0000 | ((code as u64) << 8) | sq as u64)
}

/// [`piece_key_of`] for every piece code and point, computed at compile time: a key is one
/// load, not a hash, on the hot path (make, unmake).
static PIECE_KEYS: [[u64; SQUARES]; 32] = {
    let mut t = [[0; SQUARES]; 32];
    let mut code = 1;
    while code < 32 {
        let mut sq = 0;
        while sq < SQUARES {
            t[code][sq] = piece_key_of(code as u8, sq);
            sq += 1;
        }
        code += 1;
    }
    t
};

/// The key of `p` on `sq` ([`piece_key_of`]).
#[inline]
fn piece_key(p: Piece, sq: Square) -> u64 {
    PIECE_KEYS[p.code() as usize & 31][sq as usize % SQUARES]
}

const SIDE_KEY: u64 = zobrist(0x5851_FFFF_FFFF);

#[inline]
fn side_key() -> u64 {
    SIDE_KEY
}

/// A position: the pieces, the side to move and the key. Plain data (`Copy`): a copy is a
/// cheap snapshot.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; SQUARES],
    /// The occupied points (bit `sq`), kept with `board`: a line's first piece is one bit
    /// scan, and the pieces are walked without looking at empty points. One mask, not one
    /// per side: the position stays within 128 bytes, which copies without a call.
    occ: u128,
    to_move: Side,
    generals: [Square; 2],
    key: u64,
    free_diagonals: bool,
}

// A copy of a position (each legality test makes one) stays a few vector moves, not a call.
const _: () = assert!(std::mem::size_of::<Position>() <= 128);

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen(0, 1))
    }
}

impl Position {
    /// An empty board with `to_move` to move (no Generals yet: add them with
    /// [`Position::set`] before asking about check).
    pub fn empty(to_move: Side) -> Position {
        Position {
            board: [None; SQUARES],
            occ: 0,
            to_move,
            generals: [NONE, NONE],
            key: if to_move == Side::Second {
                side_key()
            } else {
                0
            },
            free_diagonals: false,
        }
    }

    /// The standard start position, Red to move.
    pub fn start() -> Position {
        let mut p = Position::empty(Side::First);
        for sq in 0..SQUARES as Square {
            if let Some(k) = start_kind(sq) {
                let side = if GEOMETRY.rank(sq) <= 4 {
                    Side::First
                } else {
                    Side::Second
                };
                p.set(sq, Some(Piece::new(side, k)));
            }
        }
        p
    }

    /// Jieqi: revealed Advisors and Elephants move one / two points diagonally anywhere
    /// (rulings §4.2). Off (standard Xiangqi) unless set.
    pub fn set_free_diagonals(&mut self, on: bool) {
        self.free_diagonals = on;
    }

    /// Puts `piece` on `sq` (or empties it), keeping the key and the General points right.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        let i = sq as usize;
        if i >= SQUARES {
            return;
        }
        if let Some(old) = self.board[i] {
            self.key ^= piece_key(old, sq);
            self.occ &= !bit(i);
            if old.kind() == Kind::General && self.generals[old.side().index()] == sq {
                self.generals[old.side().index()] = NONE;
            }
        }
        self.board[i] = piece;
        if let Some(p) = piece {
            self.key ^= piece_key(p, sq);
            self.occ |= bit(i);
            if p.kind() == Kind::General && !p.is_covered() {
                self.generals[p.side().index()] = sq;
            }
        }
    }

    /// The piece on `sq`, if any.
    pub fn piece(&self, sq: Square) -> Option<Piece> {
        self.board.get(sq as usize).copied().flatten()
    }

    /// The occupied points, one bit per point (bit `sq`).
    pub fn occupied(&self) -> u128 {
        self.occ
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Sets the side to move (keeps the key right).
    pub fn set_to_move(&mut self, side: Side) {
        if side != self.to_move {
            self.key ^= side_key();
            self.to_move = side;
        }
    }

    /// The Zobrist key: every piece on its point (side, kind, covered) and the side to move.
    /// Equal keys mean the same position for repetition (rulings §4.3).
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The point of `side`'s General, or `None` when it has none (only while a position is
    /// being built).
    pub fn general(&self, side: Side) -> Option<Square> {
        let g = self.generals[side.index()];
        (g != NONE).then_some(g)
    }

    /// The kind a piece moves as: its own, or for a covered Jieqi piece the kind that starts
    /// on its point.
    fn mover(&self, p: Piece, sq: Square) -> Kind {
        if p.is_covered() {
            start_kind(sq).unwrap_or(p.kind())
        } else {
            p.kind()
        }
    }

    /// The kind the piece on `sq` moves as (for a covered Jieqi piece, the kind of its start
    /// point), or `None` on an empty point.
    pub fn moves_as(&self, sq: Square) -> Option<Kind> {
        self.piece(sq).map(|p| self.mover(p, sq))
    }

    /// Whether a piece's Advisor/Elephant moves keep the palace and river limits.
    fn limited(&self, p: Piece) -> bool {
        !self.free_diagonals || p.is_covered()
    }

    fn own(&self, sq: u8, side: Side) -> bool {
        matches!(self.piece(sq), Some(p) if p.side() == side)
    }

    /// Pushes the pseudo-legal moves of the piece on `from` (its own limits and blocking
    /// applied, but not whether its General is left attacked).
    pub fn moves_from(&self, from: Square, out: &mut MoveList) {
        self.any_move_from(from, |m| {
            out.push(m);
            false
        });
    }

    /// Hands the pseudo-legal moves of the piece on `from` to `stop` in the order
    /// [`Position::moves_from`] lists them, until `stop` returns true; returns whether it did.
    /// The search for one legal move stops at the first, with no list to fill.
    #[inline]
    pub fn any_move_from(&self, from: Square, mut stop: impl FnMut(Move) -> bool) -> bool {
        let Some(p) = self.piece(from) else {
            return false;
        };
        let side = p.side();
        let f = from as usize;
        let mut push = |to: u8| to != NONE && !self.own(to, side) && stop(Move { from, to });
        match self.mover(p, from) {
            Kind::General => T.orth[f]
                .iter()
                .any(|&t| t != NONE && in_palace(side, t) && push(t)),
            Kind::Advisor => T.diag[f]
                .iter()
                .any(|&t| t != NONE && (!self.limited(p) || in_palace(side, t)) && push(t)),
            Kind::Elephant => (0..4).any(|d| {
                let t = T.diag2[f][d];
                t != NONE
                    && self.board[T.diag[f][d] as usize].is_none()
                    && (!self.limited(p) || own_half(side, t))
                    && push(t)
            }),
            Kind::Horse => T.horse[f]
                .iter()
                .any(|&(leg, t)| t != NONE && self.board[leg as usize].is_none() && push(t)),
            Kind::Chariot => (0..4).any(|d| {
                let mut t = T.orth[f][d];
                while t != NONE {
                    if push(t) {
                        return true;
                    }
                    if self.board[t as usize].is_some() {
                        break;
                    }
                    t = T.orth[t as usize][d];
                }
                false
            }),
            Kind::Cannon => (0..4).any(|d| {
                let mut t = T.orth[f][d];
                while t != NONE && self.board[t as usize].is_none() {
                    if push(t) {
                        return true;
                    }
                    t = T.orth[t as usize][d];
                }
                if t == NONE {
                    return false;
                }
                let mut s = T.orth[t as usize][d];
                while s != NONE && self.board[s as usize].is_none() {
                    s = T.orth[s as usize][d];
                }
                s != NONE && push(s)
            }),
            Kind::Soldier => {
                push(T.orth[f][forward(side)])
                    || (!own_half(side, from) && (push(T.orth[f][2]) || push(T.orth[f][3])))
            }
        }
    }

    /// Pushes every pseudo-legal move of the side to move.
    pub fn pseudo_moves(&self, out: &mut MoveList) {
        for sq in 0..SQUARES as Square {
            if self.own(sq, self.to_move) {
                self.moves_from(sq, out);
            }
        }
    }

    /// Fills `out` with every legal move of the side to move (rulings §4.1), in board order.
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        self.pseudo_moves(out);
        out.retain(|m| self.keeps_general_safe(m));
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.has_legal_move_given(self.is_check())
    }

    /// [`Position::has_legal_move`] when the caller knows whether the side to move is in
    /// check ([`Position::is_check`]): `in_check` must be exactly that.
    pub fn has_legal_move_given(&self, in_check: bool) -> bool {
        self.a_legal_move_given(in_check, None).is_some()
    }

    /// One legal move of the side to move, or `None` when it has none (checkmate or
    /// stalemate); `in_check` must be exactly [`Position::is_check`]. Not in check, the moves
    /// known safe without making them (`surely_safe`) are looked for first, `hint` (a move
    /// that was legal for this side before, the one this returned two plies ago) before the
    /// others: the piece has usually not been disturbed. Only when none is, every move is
    /// tested in full.
    pub fn a_legal_move_given(&self, in_check: bool, hint: Option<Move>) -> Option<Move> {
        let side = self.to_move;
        if !in_check {
            if let Some(m) = hint {
                let pseudo = (m.to as usize) < SQUARES
                    && m.from != m.to
                    && self.own(m.from, side)
                    && !self.own(m.to, side);
                if pseudo && self.surely_safe(m) {
                    if let Some(p) = self.piece(m.from) {
                        if self.movement(p, m).is_ok() {
                            return Some(m);
                        }
                    }
                }
            }
            let quick = self.first_move(0, |m| self.surely_safe(m));
            if quick.is_some() {
                return quick;
            }
            return self.first_move(0, |m| self.safe_given(m, false));
        }
        // In check: the General's own moves first (they meet most checks), then the others'.
        let g = self.generals[side.index()];
        if g == NONE {
            return self.first_move(0, |m| self.safe_given(m, true));
        }
        let mut found = None;
        if self.any_move_from(g, |m| {
            found = Some(m);
            self.safe_given(m, true)
        }) {
            return found;
        }
        self.first_move(bit(g as usize), |m| self.safe_given(m, true))
    }

    /// The first pseudo-legal move of the side to move, walking its pieces in board order
    /// (those on the points of `skip` left out), that `accept` accepts.
    #[inline]
    fn first_move(&self, skip: u128, accept: impl Fn(Move) -> bool) -> Option<Move> {
        let side = self.to_move;
        let mut found = None;
        let mut pieces = self.occ & !skip;
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as Square;
            pieces &= pieces - 1;
            if self.own(sq, side)
                && self.any_move_from(sq, |m| {
                    found = Some(m);
                    accept(m)
                })
            {
                return found;
            }
        }
        None
    }

    /// True when the pseudo-legal move `m` of the side to move keeps its General safe;
    /// `in_check` must be exactly whether that side is in check now. Not in check: a move
    /// [`Position::surely_safe`] is, and otherwise only what `m` changed is looked at
    /// ([`Position::exposed_after`]); in check, the whole test.
    #[inline]
    fn safe_given(&self, m: Move, in_check: bool) -> bool {
        if !in_check && self.surely_safe(m) {
            return true;
        }
        let side = self.to_move;
        let mut after = *self;
        after.make(m);
        if !in_check && self.partial_test_holds(m) {
            let safe = !after.exposed_after(m, side);
            debug_assert_eq!(safe, !after.in_check(side), "{self:?} {m:?}");
            return safe;
        }
        !after.in_check(side)
    }

    /// Whether [`Position::exposed_after`] decides `m` (of the side to move, which is not in
    /// check): the General does not move and no General is captured.
    #[inline]
    fn partial_test_holds(&self, m: Move) -> bool {
        m.from != self.generals[self.to_move.index()]
            && self.board[m.to as usize % SQUARES].is_none_or(|p| p.kind() != Kind::General)
    }

    /// True when the pseudo-legal move `m` of a side that is not in check certainly keeps its
    /// General safe, without making it. Every attack on a point needs a line through it (a
    /// Chariot's, a Cannon's over one screen, a Soldier's or General's next to it, the Generals
    /// facing), a Horse's leg or an Elephant's eye diagonally next to it, or an Advisor next to
    /// it; the moving piece is the mover's own. So the move is safe when the piece is not the
    /// General, its from-point is not diagonally next to the General (a leg or eye it could
    /// free), and on each of the General's file and rank:
    /// - a from-point on it has at least two pieces between it and the General (the first
    ///   and second pieces from the General, the only ones a line attack looks at, stay);
    /// - an empty to-point on it has at least one piece between it and the General (a new
    ///   piece there is then at least the second, and only pushes pieces beyond it further
    ///   out); a capture leaves the point occupied and changes no line;
    /// - from- and to-point are not both on it.
    ///
    /// `false` means "make it and look".
    fn surely_safe(&self, m: Move) -> bool {
        let Some(g) = self.general(self.to_move) else {
            return false;
        };
        if m.from == g {
            return false;
        }
        let (tf, tt) = touch(g, m);
        if tf & DIAG_NEXT != 0 {
            return false;
        }
        let (on_f, on_t) = (tf & ON_LINE != 0, tt & ON_LINE != 0);
        // From and to both on the General's file, or both on its rank.
        if on_f && on_t && line_dir(tf) >> 1 == line_dir(tt) >> 1 {
            return false;
        }
        let between = |x: Square, d: usize| -> u32 {
            let (g, x) = (g as usize, x as usize % SQUARES);
            (T.ray[g][d] & !T.ray[x][d] & !bit(x) & self.occ).count_ones()
        };
        let from_ok = !on_f || between(m.from, line_dir(tf)) >= 2;
        let to_ok =
            !on_t || self.board[m.to as usize].is_some() || between(m.to, line_dir(tt)) >= 1;
        let safe = from_ok && to_ok;
        debug_assert!(!safe || self.keeps_general_safe(m), "{self:?} {m:?}");
        safe
    }

    /// True when `m` touches none of the points through which a move changes the attacks on
    /// a General on `g`: its from-point is not on `g`'s file or rank nor diagonally next to
    /// it (a line, leg or eye it could open), and its to-point is not on the file or rank (a
    /// screen or a line piece it brings) nor on a point from which a Horse, Advisor or
    /// Elephant attacks `g`. [`Position::exposed_after`] then answers at once.
    #[inline]
    fn untouched(&self, g: Square, m: Move) -> bool {
        let (from, to) = touch(g, m);
        from & (ON_LINE | DIAG_NEXT) == 0 && to & (ON_LINE | HORSE_ORIGIN | DIAG_ORIGIN) == 0
    }

    /// True when a pseudo-legal move leaves the mover's General unattacked and not facing the
    /// other General.
    fn keeps_general_safe(&self, m: Move) -> bool {
        let mut p = *self;
        p.make(m);
        !p.in_check(self.to_move)
    }

    /// True when `m` is legal for the side to move.
    pub fn is_legal(&self, m: Move) -> bool {
        (m.to as usize) < SQUARES
            && self.own(m.from, self.to_move)
            && !self.own(m.to, self.to_move)
            && self.diagnose(m).is_ok()
    }

    /// Applies `m` without any check (it must be pseudo-legal for the side to move) and
    /// returns the captured piece. The key is updated incrementally.
    pub fn make(&mut self, m: Move) -> Option<Piece> {
        let (f, t) = (m.from as usize, m.to as usize);
        if f >= SQUARES || t >= SQUARES || f == t {
            return None;
        }
        let p = self.board[f]?;
        let captured = self.board[t];
        self.key ^= piece_key(p, m.from) ^ piece_key(p, m.to) ^ side_key();
        self.occ = (self.occ & !bit(f)) | bit(t);
        if let Some(c) = captured {
            self.key ^= piece_key(c, m.to);
        }
        self.board[t] = Some(p);
        self.board[f] = None;
        if p.kind() == Kind::General && !p.is_covered() {
            self.generals[p.side().index()] = m.to;
        }
        self.to_move = self.to_move.other();
        captured
    }

    /// Takes back `m`, which [`Position::make`] applied and which captured `captured`.
    pub fn unmake(&mut self, m: Move, captured: Option<Piece>) {
        let (f, t) = (m.from as usize, m.to as usize);
        if f >= SQUARES || t >= SQUARES || f == t {
            return;
        }
        let Some(p) = self.board[t] else { return };
        self.key ^= piece_key(p, m.from) ^ piece_key(p, m.to) ^ side_key();
        self.occ |= bit(f);
        if let Some(c) = captured {
            self.key ^= piece_key(c, m.to);
        } else {
            self.occ &= !bit(t);
        }
        self.board[f] = Some(p);
        self.board[t] = captured;
        if p.kind() == Kind::General && !p.is_covered() {
            self.generals[p.side().index()] = m.from;
        }
        self.to_move = self.to_move.other();
    }

    /// Jieqi: turns the covered piece on `sq` over as `kind` (rulings §4.2: a covered piece is
    /// revealed by its first move). Nothing happens when `sq` holds no covered piece; a
    /// General is never an identity of a covered piece, so `kind` General is refused too.
    pub fn uncover(&mut self, sq: Square, kind: Kind) {
        if let Some(p) = self.piece(sq).filter(|p| p.is_covered()) {
            if kind != Kind::General {
                self.set(sq, Some(Piece::new(p.side(), kind)));
            }
        }
    }

    /// True when the two Generals stand on one file with nothing between them.
    pub fn generals_face(&self) -> bool {
        let (a, b) = (self.generals[0], self.generals[1]);
        if a == NONE || b == NONE || GEOMETRY.file(a) != GEOMETRY.file(b) {
            return false;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        ((lo + WIDTH)..hi)
            .step_by(WIDTH as usize)
            .all(|s| self.board[s as usize].is_none())
    }

    /// True when `side`'s General is attacked by an enemy piece, or faces the other General
    /// (rulings §4.1: both make the position illegal for the side that just moved).
    pub fn in_check(&self, side: Side) -> bool {
        match self.general(side) {
            Some(g) => self.attacker(g, side.other()).is_some() || self.generals_face(),
            None => false,
        }
    }

    /// True when the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.in_check(self.to_move)
    }

    /// True when `m` (legal for the side to move) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut p = *self;
        p.make(m);
        p.is_check()
    }

    /// True when a piece of `by` could capture on `sq` by its movement (pseudo-legally; the
    /// facing-Generals rule is not an attack on a point, see [`Position::generals_face`]).
    pub fn is_attacked(&self, sq: Square, by: Side) -> bool {
        self.attacker(sq, by).is_some()
    }

    /// One piece of `by` that attacks `sq` (a Chariot, Cannon, Soldier or General along a
    /// line, then Horses, Advisors and Elephants), or `None`.
    pub fn attacker(&self, sq: Square, by: Side) -> Option<Square> {
        if sq as usize >= SQUARES {
            return None;
        }
        for d in 0..4 {
            if let (Some(a), _) = self.line_attacker(sq, d, by) {
                return Some(a);
            }
        }
        self.horse_attacker(sq, by, |_, _| true)
            .or_else(|| self.diagonal_attacker(sq, by, |_, _| true))
    }

    /// The piece of `by` attacking `sq` along the line from `sq` in [`ORTH`] direction `d` (a
    /// Chariot or the General or a Soldier as the first piece, a Cannon as the second), and
    /// the first piece on that line.
    #[inline(always)]
    fn line_attacker(&self, sq: Square, d: usize, by: Side) -> (Option<Square>, Option<Piece>) {
        let t = sq as usize;
        let line = T.ray[t][d] & self.occ;
        let Some(s) = nearest(line, d) else {
            return (None, None);
        };
        let first = self.board[s];
        if let Some(p) = first.filter(|p| p.side() == by) {
            let next = s as u8 == T.orth[t][d];
            match self.mover(p, s as u8) {
                Kind::Chariot => return (Some(s as u8), first),
                Kind::General if next && in_palace(by, sq) => return (Some(s as u8), first),
                // The Soldier on s moves in the direction opposite to d to reach sq.
                Kind::Soldier if next => {
                    let back = d ^ 1;
                    if back == forward(by) || (d >= 2 && !own_half(by, s as u8)) {
                        return (Some(s as u8), first);
                    }
                }
                _ => {}
            }
        }
        // A Cannon beyond the first piece (its screen).
        if let Some(c) = nearest(line & !bit(s), d) {
            if let Some(p) = self.board[c] {
                if p.side() == by && self.mover(p, c as u8) == Kind::Cannon {
                    return (Some(c as u8), first);
                }
            }
        }
        (None, first)
    }

    /// A Horse of `by` attacking `sq` over a free leg, among the (horse point, leg) pairs
    /// `consider` accepts.
    #[inline]
    fn horse_attacker(
        &self,
        sq: Square,
        by: Side,
        consider: impl Fn(Square, Square) -> bool,
    ) -> Option<Square> {
        T.horse_in[sq as usize].iter().find_map(|&(h, leg)| {
            if h == NONE || !consider(h, leg) || self.board[leg as usize].is_some() {
                return None;
            }
            let p = self.board[h as usize]?;
            (p.side() == by && self.mover(p, h) == Kind::Horse).then_some(h)
        })
    }

    /// An Advisor or Elephant of `by` attacking `sq`, among the (point next to `sq`, point
    /// two steps away) diagonals `consider` accepts.
    #[inline]
    fn diagonal_attacker(
        &self,
        sq: Square,
        by: Side,
        consider: impl Fn(Square, Square) -> bool,
    ) -> Option<Square> {
        // Advisors and Elephants that keep the palace and river limits stay in their own
        // half, so they attack nothing beyond it (the other General's palace included).
        if !self.free_diagonals && !own_half(by, sq) {
            return None;
        }
        let t = sq as usize;
        for d in 0..4 {
            let a = T.diag[t][d];
            let e = T.diag2[t][d];
            if a == NONE || !consider(a, e) {
                continue;
            }
            if let Some(p) = self.board[a as usize] {
                if p.side() == by
                    && self.mover(p, a) == Kind::Advisor
                    && (!self.limited(p) || in_palace(by, sq))
                {
                    return Some(a);
                }
            }
            if e == NONE || self.board[a as usize].is_some() {
                continue;
            }
            if let Some(p) = self.board[e as usize] {
                if p.side() == by
                    && self.mover(p, e) == Kind::Elephant
                    && (!self.limited(p) || own_half(by, sq))
                {
                    return Some(e);
                }
            }
        }
        None
    }

    /// [`Position::is_check`] just after `m` was made (and, in Jieqi, its piece turned over),
    /// for a side to move that was not in check before `m`: every attack on its General that
    /// `m` can have made passes through a point `m` changed. So only these are looked at: the
    /// General's file and rank where they run through `m`'s from- or to-point (a line opened,
    /// a new screen, the piece arrived, the Generals facing), Horses on the to-point or whose
    /// leg is the from-point, and Advisors or Elephants on the to-point or whose eye is the
    /// from-point. Equal to [`Position::is_check`] under that condition (checked in debug
    /// builds at every ply the tests replay).
    pub fn is_check_after(&self, m: Move) -> bool {
        self.exposed_after(m, self.to_move)
    }

    /// Whether `side`'s General is attacked or faces the other General just after `m` was
    /// made, for a side whose General was safe before `m` and did not make `m`, with no
    /// General captured by `m`: [`Position::is_check_after`]'s reasoning (only the lines
    /// through `m`'s points, the Horses and diagonals it can have opened or brought), which
    /// holds for the mover's own General too (its own arrived piece attacks nothing of its
    /// own). Equal to [`Position::in_check`] under those conditions (checked in debug builds).
    fn exposed_after(&self, m: Move, side: Side) -> bool {
        let Some(g) = self.general(side) else {
            return false;
        };
        if self.untouched(g, m) {
            return false;
        }
        let by = side.other();
        let (tf, tt) = touch(g, m);
        for t in [tf, tt] {
            if t & ON_LINE == 0 {
                continue;
            }
            let d = line_dir(t);
            let (attacker, first) = self.line_attacker(g, d, by);
            let facing = d <= SOUTH
                && first.is_some_and(|p| {
                    p.side() == by && p.kind() == Kind::General && !p.is_covered()
                });
            if attacker.is_some() || facing {
                return true;
            }
        }
        // A leg or eye the move freed is diagonally next to the General.
        let freed = tf & DIAG_NEXT != 0;
        if !freed && tt & (HORSE_ORIGIN | DIAG_ORIGIN) == 0 {
            return false;
        }
        let arrived = self.moves_as(m.to);
        (freed || arrived == Some(Kind::Horse) && tt & HORSE_ORIGIN != 0)
            && self
                .horse_attacker(g, by, |h, leg| h == m.to || leg == m.from)
                .is_some()
            || (freed
                || matches!(arrived, Some(Kind::Advisor | Kind::Elephant)) && tt & DIAG_ORIGIN != 0)
                && self
                    .diagonal_attacker(g, by, |a, e| a == m.to || e == m.to || a == m.from)
                    .is_some()
    }

    /// Says why `m` is not legal for the piece on its from-point, or `Ok` when it is. The
    /// caller has checked that the from-point holds a piece of the side to move, that the
    /// to-point differs and does not hold one of its own pieces.
    pub fn diagnose(&self, m: Move) -> Result<(), Illegal> {
        let in_check = self.piece(m.from).is_some_and(|p| self.in_check(p.side()));
        self.diagnose_given(m, in_check)
    }

    /// [`Position::diagnose`] when the caller knows whether the mover is in check:
    /// `was_in_check` must be exactly [`Position::in_check`] of the piece's side.
    pub fn diagnose_given(&self, m: Move, was_in_check: bool) -> Result<(), Illegal> {
        let Some(p) = self.piece(m.from) else {
            return Err(Illegal::Shape(Kind::General));
        };
        if m.to as usize >= SQUARES || m.from == m.to {
            return Err(Illegal::Shape(p.kind()));
        }
        self.movement(p, m)?;
        let side = p.side();
        let quiet = !was_in_check && self.to_move == side;
        if quiet && self.surely_safe(m) {
            return Ok(());
        }
        let mut after = *self;
        after.make(m);
        if quiet && self.partial_test_holds(m) && !after.exposed_after(m, side) {
            debug_assert!(!after.in_check(side), "{self:?} {m:?}");
            return Ok(());
        }
        if let Some(g) = after.general(side) {
            if let Some(attacker) = after.attacker(g, side.other()) {
                return Err(Illegal::LeavesGeneralAttacked {
                    attacker,
                    was_in_check,
                });
            }
        }
        if after.generals_face() {
            return Err(Illegal::FacingGenerals);
        }
        Ok(())
    }

    /// Whether `p` on `m.from` moves to `m.to` by its movement rules (shape, palace, river,
    /// eye, leg, path, screens; rulings §4.1), check aside.
    #[inline]
    fn movement(&self, p: Piece, m: Move) -> Result<(), Illegal> {
        let side = p.side();
        let kind = self.mover(p, m.from);
        let ((ff, fr), (tf, tr)) = (file_rank(m.from), file_rank(m.to));
        let (ff, fr, tf, tr) = (ff as i32, fr as i32, tf as i32, tr as i32);
        let (df, dr) = (tf - ff, tr - fr);
        match kind {
            Kind::General if df.abs() + dr.abs() != 1 => Err(Illegal::Shape(kind)),
            Kind::General if !in_palace(side, m.to) => Err(Illegal::OutOfPalace(kind)),
            Kind::Advisor if df.abs() != 1 || dr.abs() != 1 => Err(Illegal::Shape(kind)),
            Kind::Advisor if self.limited(p) && !in_palace(side, m.to) => {
                Err(Illegal::OutOfPalace(kind))
            }
            Kind::General | Kind::Advisor => Ok(()),
            Kind::Elephant if df.abs() != 2 || dr.abs() != 2 => Err(Illegal::Shape(kind)),
            Kind::Elephant if self.limited(p) && !own_half(side, m.to) => Err(Illegal::AcrossRiver),
            Kind::Elephant => {
                let eye = at(ff + df / 2, fr + dr / 2);
                match self.board[eye as usize] {
                    Some(_) => Err(Illegal::EyeBlocked(eye)),
                    None => Ok(()),
                }
            }
            Kind::Horse => {
                let leg = match (df.abs(), dr.abs()) {
                    (1, 2) => at(ff, fr + dr / 2),
                    (2, 1) => at(ff + df / 2, fr),
                    _ => return Err(Illegal::Shape(kind)),
                };
                match self.board[leg as usize] {
                    Some(_) => Err(Illegal::LegBlocked(leg)),
                    None => Ok(()),
                }
            }
            Kind::Chariot | Kind::Cannon if df != 0 && dr != 0 => Err(Illegal::Shape(kind)),
            Kind::Chariot | Kind::Cannon => self.line_move(kind, m),
            Kind::Soldier => soldier_move(side, m.from, df, dr),
        }
    }

    /// A Chariot's or Cannon's move along a file or rank: the path clear, or for a Cannon's
    /// capture exactly one screen.
    #[inline]
    fn line_move(&self, kind: Kind, m: Move) -> Result<(), Illegal> {
        // The caller has checked that from and to share a file or rank and differ.
        let Some(d) = line_from(m.from, m.to) else {
            return Err(Illegal::Shape(kind));
        };
        let (f, t) = (m.from as usize % SQUARES, m.to as usize % SQUARES);
        let between = T.ray[f][d] & !T.ray[t][d] & !bit(t) & self.occ;
        let first = nearest(between, d);
        let capture = self.board[t].is_some();
        if kind == Kind::Cannon && capture {
            let count = between.count_ones() as u8;
            if count != 1 {
                let second = first.and_then(|s| nearest(between & !bit(s), d));
                return Err(Illegal::Screens {
                    count,
                    first: first.map(|s| s as u8),
                    second: second.map(|s| s as u8),
                });
            }
        } else if let Some(s) = first {
            return Err(Illegal::PathBlocked(s as u8));
        }
        Ok(())
    }

    /// Counts the leaf positions `depth` plies from here (perft; depth 0 is 1).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        if depth == 1 {
            return list.len() as u64;
        }
        let mut p = *self;
        list.iter()
            .map(|&m| {
                let c = p.make(m);
                let n = p.perft(depth - 1);
                p.unmake(m, c);
                n
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::from_iccs(s).unwrap()
    }

    #[test]
    fn lookups_match_the_geometry() {
        for sq in 0..=255u8 {
            assert_eq!(
                file_rank(sq),
                (GEOMETRY.file(sq), GEOMETRY.rank(sq)),
                "{sq}"
            );
        }
        for sq in 0..128usize {
            assert_eq!(bit(sq), 1u128 << sq);
        }
    }

    /// Every flag of the touch table against its definition from files and ranks.
    #[test]
    fn touch_table_says_how_each_point_stands_to_the_general() {
        for g in 0..SQUARES as Square {
            let (gf, gr) = (GEOMETRY.file(g) as i32, GEOMETRY.rank(g) as i32);
            for sq in 0..SQUARES as Square {
                let (df, dr) = (GEOMETRY.file(sq) as i32 - gf, GEOMETRY.rank(sq) as i32 - gr);
                let t = T.touch[g as usize][sq as usize];
                let on_line = sq != g && (df == 0 || dr == 0);
                assert_eq!(t & ON_LINE != 0, on_line, "line {g} {sq}");
                if on_line {
                    assert_eq!(Some(line_dir(t)), line_from(g, sq), "direction {g} {sq}");
                }
                let diag = df.abs() == dr.abs();
                assert_eq!(t & DIAG_NEXT != 0, diag && df.abs() == 1, "next {g} {sq}");
                let diag_origin = diag && (df.abs() == 1 || df.abs() == 2);
                assert_eq!(t & DIAG_ORIGIN != 0, diag_origin, "diagonal {g} {sq}");
                let horse = (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1);
                assert_eq!(t & HORSE_ORIGIN != 0, horse, "horse {g} {sq}");
            }
        }
    }

    fn at(f: &str) -> Position {
        crate::games::xiangqi::fen::parse(f).expect("fen").position
    }

    /// A move off a point diagonally next to a General frees a Horse's leg: the own General
    /// is left attacked, or the other one is checked.
    #[test]
    fn freed_leg_attacks_the_general() {
        // The Chariot on d1 is the leg of the Black Horse on d2 (d2 to e0).
        let p = at("3k5/9/9/9/9/9/9/3n5/3R5/4K4 w");
        assert!(matches!(
            p.diagnose_given(mv("d1a1"), false),
            Err(Illegal::LeavesGeneralAttacked { .. })
        ));
        assert!(!p.keeps_general_safe(mv("d1a1")));
        // The Chariot on d8 is the leg of the Red Horse on d7 (d7 to e9).
        let mut q = at("4k4/3R5/3N5/9/9/9/9/9/9/3K5 w");
        q.make(mv("d8a8"));
        assert!(q.is_check());
        assert!(q.is_check_after(mv("d8a8")));
    }

    /// The mask tests decide exactly as making the move and looking: at every ply of random
    /// games, for every move of the side to move, its legality and the check it gives.
    #[test]
    fn fast_check_tests_agree_with_making_the_move() {
        for seed in 0..40 {
            let mut pos = Position::start();
            let mut list = MoveList::new();
            for m in crate::games::xiangqi::random::random_game(&pos, seed, 200) {
                for sq in 0..SQUARES as Square {
                    if !pos.own(sq, pos.to_move()) {
                        continue;
                    }
                    list.clear();
                    pos.moves_from(sq, &mut list);
                    for &q in list.iter() {
                        let safe = pos.keeps_general_safe(q);
                        let given = pos.diagnose_given(q, pos.is_check()).is_ok();
                        assert_eq!(given, safe, "{pos:?} {q:?}");
                        let mut after = pos;
                        after.make(q);
                        if safe && after.general(after.to_move()).is_some() {
                            let check = after.is_check();
                            assert_eq!(after.is_check_after(q), check, "{pos:?} {q:?}");
                        }
                    }
                }
                pos.make(m);
            }
        }
    }

    #[test]
    fn start_position_moves() {
        let p = Position::start();
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        assert_eq!(l.len(), 44);
        assert!(l.contains(&mv("h2e2")));
        assert!(
            l.contains(&mv("h2h9")),
            "cannon takes the horse over the cannon"
        );
        assert!(!l.contains(&mv("h2h7")), "no capture without a screen");
        assert!(!l.contains(&mv("b0d1")), "horse leg c0 blocked");
        assert!(!p.is_check());
        assert_eq!(p.general(Side::First), Some(4));
        assert_eq!(p.general(Side::Second), Some(85));
    }

    #[test]
    fn key_is_incremental() {
        let mut p = Position::start();
        let k0 = p.key();
        let m = mv("h2h9");
        let c = p.make(m);
        assert!(c.is_some());
        let mut rebuilt = Position::empty(p.to_move());
        for sq in 0..SQUARES as Square {
            rebuilt.set(sq, p.piece(sq));
        }
        assert_eq!(p.key(), rebuilt.key());
        p.unmake(m, c);
        assert_eq!(p.key(), k0);
        assert_eq!(p, Position::start());
    }

    #[test]
    fn diagnoses() {
        let p = Position::start();
        assert_eq!(p.diagnose(mv("b0d1")), Err(Illegal::LegBlocked(1 + 1)));
        assert_eq!(
            p.diagnose(mv("h2h7")),
            Err(Illegal::Screens {
                count: 0,
                first: None,
                second: None
            })
        );
        assert_eq!(p.diagnose(mv("a3b3")), Err(Illegal::SoldierSideways));
        assert_eq!(p.diagnose(mv("a3a2")), Err(Illegal::SoldierBackward));
        assert_eq!(p.diagnose(mv("e0e2")), Err(Illegal::Shape(Kind::General)));
        assert_eq!(p.diagnose(mv("a0a4")), Err(Illegal::PathBlocked(27)));
        assert_eq!(p.diagnose(mv("h2e2")), Ok(()));
    }

    #[test]
    fn side_to_move_is_in_the_key() {
        let p = Position::start();
        let mut q = p;
        q.set_to_move(Side::Second);
        assert_ne!(p.key(), q.key());
        q.set_to_move(Side::First);
        assert_eq!(p.key(), q.key());
    }

    #[test]
    fn attacks_and_checks() {
        let p = Position::start();
        // h2's Cannon attacks h9 over the screen h7; b0's Horse attacks a2 and c2.
        assert_eq!(
            p.attacker(GEOMETRY.square(7, 9).unwrap(), Side::First),
            Some(25)
        );
        assert!(p.is_attacked(GEOMETRY.square(2, 2).unwrap(), Side::First));
        // Black's Soldier on e6 attacks e5; no Red piece does.
        assert_eq!(
            p.attacker(GEOMETRY.square(4, 5).unwrap(), Side::Second),
            Some(58)
        );
        assert!(!p.is_attacked(GEOMETRY.square(4, 5).unwrap(), Side::First));
        // After h2e2 h7e7, e2e6 takes the Soldier over e3 and checks over the screen e7.
        let mut q = p;
        q.make(mv("h2e2"));
        q.make(mv("h7e7"));
        assert!(q.gives_check(mv("e2e6")), "e7 is the screen");
        assert!(!p.gives_check(mv("h2e2")));
    }

    #[test]
    fn jieqi_hooks() {
        // A covered piece on b0 moves as the Horse that starts there, whatever it is.
        let mut p = Position::start();
        p.set(1, Some(Piece::covered(Side::First, Kind::Chariot)));
        let mut l = MoveList::new();
        p.moves_from(1, &mut l);
        let mut names: Vec<String> = l.iter().map(|m| m.iccs()).collect();
        names.sort();
        assert_eq!(names, ["b0a2", "b0c2"]);
        // Free diagonals: a revealed Elephant may cross the river, an Advisor leave the palace.
        let mut q = Position::empty(Side::First);
        q.set(4, Some(Piece::new(Side::First, Kind::General)));
        q.set(84, Some(Piece::new(Side::Second, Kind::General)));
        q.set(
            GEOMETRY.square(2, 4).unwrap(),
            Some(Piece::new(Side::First, Kind::Elephant)),
        );
        q.set(
            GEOMETRY.square(3, 2).unwrap(),
            Some(Piece::new(Side::First, Kind::Advisor)),
        );
        assert!(q.is_legal(mv("c4e2")), "a move on its own side is fine");
        assert!(!q.is_legal(mv("c4e6")));
        assert!(!q.is_legal(mv("d2c3")));
        q.set_free_diagonals(true);
        assert!(q.is_legal(mv("c4e6")));
        assert!(q.is_legal(mv("d2c3")));
    }

    #[test]
    fn piece_bytes() {
        for side in [Side::First, Side::Second] {
            for k in Kind::ALL {
                let p = Piece::new(side, k);
                assert_eq!((p.side(), p.kind(), p.is_covered()), (side, k, false));
                let c = Piece::covered(side, k);
                assert_eq!((c.side(), c.kind(), c.is_covered()), (side, k, true));
            }
        }
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }
}
