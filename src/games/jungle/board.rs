//! The Jungle board and pieces (rulings §3, seed 001): the 7x9 squares with their dens, traps
//! and rivers, the eight animals and their strengths, the rule switches of [`Variant`], and the
//! `FEN` position tag (read by [`parse_fen`], written by [`fen`]).

use crate::geometry::{zobrist, Geometry, Square};
use crate::types::Side;

/// The board: files `a`–`g`, ranks 1–9, Red at the bottom (rulings §3).
pub const GEOMETRY: Geometry = Geometry {
    width: 7,
    height: 9,
    rank_base: 1,
};

/// Number of squares (63).
pub const SQUARES: usize = 63;

/// Square kinds, indexed by square (`rank * 7 + file`, 0-based): `W` water, `R`/`B` Red's or
/// Blue's trap, `r`/`b` Red's or Blue's den, `.` plain land.
const TERRAIN: &[u8; SQUARES] = b"\
..RrR..\
...R...\
.......\
.WW.WW.\
.WW.WW.\
.WW.WW.\
.......\
...B...\
..BbB..";

/// True for one of the twelve water squares (b4 c4 b5 c5 b6 c6, e4 f4 e5 f5 e6 f6).
pub fn is_water(sq: Square) -> bool {
    TERRAIN.get(sq as usize) == Some(&b'W')
}

/// The side whose trap `sq` is (c1 e1 d2 Red's, c9 e9 d8 Blue's), if it is a trap.
pub fn trap_owner(sq: Square) -> Option<Side> {
    match TERRAIN.get(sq as usize) {
        Some(b'R') => Some(Side::First),
        Some(b'B') => Some(Side::Second),
        _ => None,
    }
}

/// The side whose den `sq` is (d1 Red's, d9 Blue's), if it is a den.
pub fn den_owner(sq: Square) -> Option<Side> {
    match TERRAIN.get(sq as usize) {
        Some(b'r') => Some(Side::First),
        Some(b'b') => Some(Side::Second),
        _ => None,
    }
}

/// The eight animals, weakest first (rulings §3: the seed's order, Wolf above Dog).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Strength 1; the only animal that enters water; captures the Elephant from land.
    Rat,
    /// Strength 2.
    Cat,
    /// Strength 3 (4 with the `dog-above-wolf` switch).
    Dog,
    /// Strength 4 (3 with the `dog-above-wolf` switch).
    Wolf,
    /// Strength 5.
    Leopard,
    /// Strength 6; jumps across a river.
    Tiger,
    /// Strength 7; jumps across a river.
    Lion,
    /// Strength 8; captures the Rat in the seed's game.
    Elephant,
}

/// Every kind, weakest first.
pub const KINDS: [Kind; 8] = [
    Kind::Rat,
    Kind::Cat,
    Kind::Dog,
    Kind::Wolf,
    Kind::Leopard,
    Kind::Tiger,
    Kind::Lion,
    Kind::Elephant,
];

impl Kind {
    /// 0 (Rat) to 7 (Elephant).
    pub fn index(self) -> usize {
        self as usize
    }
    /// The `FEN` letter, upper case (Red); Blue writes it in lower case. `P` is the Leopard
    /// (panther), because `L` is the Lion.
    pub fn letter(self) -> char {
        b"RCDWPTLE"[self.index()] as char
    }
    /// Reads a `FEN` or annotation letter of either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        let i = "RCDWPTLE".find(c.to_ascii_uppercase())?;
        Some(KINDS[i])
    }
    /// The English name (`Leopard`).
    pub fn name(self) -> &'static str {
        [
            "Rat", "Cat", "Dog", "Wolf", "Leopard", "Tiger", "Lion", "Elephant",
        ][self.index()]
    }
    /// True for the two river jumpers (rulings §3).
    pub fn jumps(self) -> bool {
        matches!(self, Kind::Lion | Kind::Tiger)
    }
}

/// The rule switches a `Variant` tag may turn on; all off is the seed's (jijbent) game, which is
/// the default (issue 7: "the default is the seed's game"). Each switch names one point on which
/// published Jungle rule sets disagree with seed 001.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Variant {
    /// `dog-above-wolf`: Dog 4, Wolf 3 (most English rule sets); the seed has Wolf 4, Dog 3.
    pub dog_above_wolf: bool,
    /// `elephant-spares-rat`: the Elephant cannot capture the Rat (most rule sets, and the
    /// layhenghok program); the seed lets it ("De olifant kan trouwens ook de muis slaan").
    pub elephant_spares_rat: bool,
    /// `bank-barrier`: no capture between a water square and a land square in either direction
    /// (rule sets where a Rat in water and a Rat on land cannot take each other); the seed only
    /// forbids the Rat in water to take the Elephant.
    pub bank_barrier: bool,
    /// `any-trap`: a piece on any trap, its own side's included, may be captured by any enemy
    /// piece; the seed weakens a piece only on the opponent's ("eigen 3 trap velden") traps.
    pub any_trap: bool,
}

/// The `Variant` tag value of the seed's game (no switch on).
pub const SEED_VARIANT: &str = "jijbent";

impl Variant {
    /// Reads a `Variant` tag value: [`SEED_VARIANT`], or switch names separated by spaces,
    /// commas or `+`. `Err` carries the first word that is not a switch.
    pub fn parse(text: &str) -> Result<Variant, String> {
        let mut v = Variant::default();
        for word in text
            .split(|c: char| c.is_whitespace() || c == ',' || c == '+')
            .filter(|w| !w.is_empty())
        {
            match word.to_ascii_lowercase().as_str() {
                SEED_VARIANT | "seed" => {}
                "dog-above-wolf" => v.dog_above_wolf = true,
                "elephant-spares-rat" => v.elephant_spares_rat = true,
                "bank-barrier" => v.bank_barrier = true,
                "any-trap" => v.any_trap = true,
                _ => return Err(word.to_string()),
            }
        }
        Ok(v)
    }
    /// The switch names that are on, comma-separated, or [`SEED_VARIANT`] when none is.
    pub fn name(&self) -> String {
        let on: Vec<&str> = [
            (self.dog_above_wolf, "dog-above-wolf"),
            (self.elephant_spares_rat, "elephant-spares-rat"),
            (self.bank_barrier, "bank-barrier"),
            (self.any_trap, "any-trap"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| *n)
        .collect();
        if on.is_empty() {
            SEED_VARIANT.to_string()
        } else {
            on.join(",")
        }
    }
    /// A kind's strength, 1 (Rat) to 8 (Elephant) (rulings §3; `dog_above_wolf` swaps 3 and 4).
    pub fn strength(&self, k: Kind) -> u8 {
        match k {
            Kind::Dog if self.dog_above_wolf => 4,
            Kind::Wolf if self.dog_above_wolf => 3,
            _ => k.index() as u8 + 1,
        }
    }
    /// Whether an `attacker` may capture a `defender` "under normal circumstances", judged on the
    /// two kinds alone (squares, traps and water ignored): equal or lower strength, the Rat
    /// captures the Elephant, and the Elephant captures the Rat unless `elephant_spares_rat`
    /// (rulings §3, capture rules and the repetition rule's reading).
    pub fn beats(&self, attacker: Kind, defender: Kind) -> bool {
        match (attacker, defender) {
            (Kind::Rat, Kind::Elephant) => true,
            (Kind::Elephant, Kind::Rat) => !self.elephant_spares_rat,
            _ => self.strength(attacker) >= self.strength(defender),
        }
    }
}

/// A piece on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its owner.
    pub side: Side,
    /// The animal.
    pub kind: Kind,
    /// A number unique to this piece for the whole game (start position order, square a1 on).
    pub id: u16,
}

/// The squares of a position, `rank * 7 + file`.
pub type Board = [Option<Piece>; SQUARES];

/// The Zobrist key of one piece of `side` and `kind` on `sq`.
pub fn piece_key(side: Side, kind: Kind, sq: Square) -> u64 {
    zobrist(0x4A_0000 | ((sq as u64) << 8) | ((side.index() as u64) << 4) | kind.index() as u64)
}

/// The Zobrist term for "Blue to move" (Red to move adds nothing).
pub fn side_key(side: Side) -> u64 {
    match side {
        Side::First => 0,
        Side::Second => zobrist(0x4A_FFFF_FFFF),
    }
}

/// The full key of a placement and side to move (incremental updates must agree with it).
pub fn full_key(board: &Board, to_move: Side) -> u64 {
    board
        .iter()
        .enumerate()
        .filter_map(|(s, p)| p.map(|p| piece_key(p.side, p.kind, s as Square)))
        .fold(side_key(to_move), |k, x| k ^ x)
}

/// The standard start position `l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r` (rulings §3).
pub const START_FEN: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r";

/// One problem in a `FEN` value: the byte range inside the value and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenProblem {
    /// Bytes of the value (0-based, half-open).
    pub at: std::ops::Range<usize>,
    /// What is wrong, lower case.
    pub message: String,
}

fn side_letter(side: Side) -> char {
    match side {
        Side::First => 'r',
        Side::Second => 'b',
    }
}

/// Reads a `FEN` value `<board> <side>` (docs/log-format.md, Jungle): the board rank 9 first,
/// ranks separated by `/`, each rank from file `a`, a letter per piece (upper case Red, lower
/// case Blue, [`Kind::letter`]) and a digit 1–7 per run of empty squares; the side to move is
/// `r` (Red) or `b` (Blue). Every problem is returned at once: wrong rank or file counts,
/// unknown letters, more than one piece of a kind per side, an animal other than the Rat in
/// water, a piece in a den (its own is never entered; in the opponent's the game would be
/// over). Ids are given in square order from a1.
pub fn parse_fen(value: &str) -> Result<(Board, Side), Vec<FenProblem>> {
    let mut problems = Vec::new();
    let trimmed_start = value.len() - value.trim_start().len();
    let body = value.trim();
    let (board_text, rest) = match body.find(char::is_whitespace) {
        Some(i) => (&body[..i], body[i..].trim_start()),
        None => (body, ""),
    };
    let mut placed = read_ranks(board_text, trimmed_start, &mut problems);
    placed.sort_by_key(|p| p.0);
    let board = place(placed, &mut problems);
    let rest_start = trimmed_start + (body.len() - rest.len());
    let side = match rest.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["r"] | ["R"] => Some(Side::First),
        ["b"] | ["B"] => Some(Side::Second),
        [] => {
            problems.push(FenProblem {
                at: rest_start..rest_start,
                message: "the side to move is missing (`r` or `b` after the board)".into(),
            });
            None
        }
        _ => {
            problems.push(FenProblem {
                at: rest_start..trimmed_start + body.len(),
                message: format!("`{rest}` is not a side to move (`r` or `b`)"),
            });
            None
        }
    };
    match side {
        Some(side) if problems.is_empty() => Ok((board, side)),
        _ => Err(problems),
    }
}

/// A piece a FEN names: its square, side, kind and bytes in the value.
type Placed = (Square, Side, Kind, std::ops::Range<usize>);

/// The pieces of the FEN board `text` (starting at byte `offset` of the value), rank 9 first;
/// a wrong rank count, a rank that does not cover 7 files, or an unknown letter is a problem.
fn read_ranks(text: &str, offset: usize, problems: &mut Vec<FenProblem>) -> Vec<Placed> {
    let mut placed = Vec::new();
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 9 {
        problems.push(FenProblem {
            at: offset..offset + text.len(),
            message: format!("the board has {} ranks, Jungle has 9", ranks.len()),
        });
        return placed;
    }
    let mut offset = offset;
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 8 - i as i32;
        let mut file = 0i32;
        for (j, c) in rank_text.char_indices() {
            let at = offset + j..offset + j + c.len_utf8();
            if let Some(d) = c.to_digit(10).filter(|d| (1..=7).contains(d)) {
                file += d as i32;
                continue;
            }
            match Kind::from_letter(c) {
                Some(kind) => {
                    let side = if c.is_ascii_uppercase() {
                        Side::First
                    } else {
                        Side::Second
                    };
                    if let Some(sq) = GEOMETRY.square(file, rank) {
                        placed.push((sq, side, kind, at));
                    }
                }
                None => problems.push(FenProblem {
                    at,
                    message: format!("`{}` is not a Jungle piece letter", c.escape_debug()),
                }),
            }
            file += 1;
        }
        if file != 7 {
            problems.push(FenProblem {
                at: offset..offset + rank_text.len(),
                message: format!("rank {} covers {file} files, the board has 7", rank + 1),
            });
        }
        offset += rank_text.len() + 1;
    }
    placed
}

/// Puts the pieces (in square order) on a board, ids from 0; a second piece of a kind on one
/// side, an animal other than the Rat in water and a piece in a den are problems.
fn place(placed: Vec<Placed>, problems: &mut Vec<FenProblem>) -> Board {
    let mut board: Board = [None; SQUARES];
    let mut seen = [[false; 8]; 2];
    for (id, (sq, side, kind, at)) in placed.into_iter().enumerate() {
        let name = GEOMETRY.name(sq);
        let who = if side == Side::First { "Red" } else { "Blue" };
        let mut bad = |message: String| {
            problems.push(FenProblem {
                at: at.clone(),
                message,
            })
        };
        if std::mem::replace(&mut seen[side.index()][kind.index()], true) {
            bad(format!("more than one {who} {}", kind.name()));
        }
        if is_water(sq) && kind != Kind::Rat {
            bad(format!("{who}'s {} in the water on {name}", kind.name()));
        }
        match den_owner(sq) {
            Some(owner) if owner == side => {
                bad(format!("{who}'s {} in its own den {name}", kind.name()))
            }
            Some(_) => bad(format!(
                "{who}'s {} already in the opponent's den {name}",
                kind.name()
            )),
            None => {}
        }
        board[sq as usize] = Some(Piece {
            side,
            kind,
            id: id as u16,
        });
    }
    board
}

/// Writes a position as a `FEN` value (the inverse of [`parse_fen`]).
pub fn fen(board: &Board, to_move: Side) -> String {
    let mut out = String::new();
    for rank in (0..9).rev() {
        let mut empty = 0;
        for file in 0..7 {
            let sq = rank * 7 + file;
            match board[sq] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from_digit(empty, 10).unwrap_or('?'));
                        empty = 0;
                    }
                    let c = p.kind.letter();
                    out.push(if p.side == Side::First {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    });
                }
            }
        }
        if empty > 0 {
            out.push(char::from_digit(empty, 10).unwrap_or('?'));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(side_letter(to_move));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        GEOMETRY
            .square_written(b[0] - b'a', name[1..].parse().unwrap())
            .unwrap()
    }

    #[test]
    fn terrain_matches_rulings() {
        let water: Vec<String> = (0..63u8)
            .filter(|&s| is_water(s))
            .map(|s| GEOMETRY.name(s))
            .collect();
        assert_eq!(
            water,
            ["b4", "c4", "e4", "f4", "b5", "c5", "e5", "f5", "b6", "c6", "e6", "f6"]
        );
        for t in ["c1", "e1", "d2"] {
            assert_eq!(trap_owner(sq(t)), Some(Side::First), "{t}");
        }
        for t in ["c9", "e9", "d8"] {
            assert_eq!(trap_owner(sq(t)), Some(Side::Second), "{t}");
        }
        assert_eq!(den_owner(sq("d1")), Some(Side::First));
        assert_eq!(den_owner(sq("d9")), Some(Side::Second));
        assert_eq!((0..63u8).filter(|&s| trap_owner(s).is_some()).count(), 6);
    }

    #[test]
    fn start_fen_is_the_rulings_start() {
        let (b, side) = parse_fen(START_FEN).unwrap();
        assert_eq!(side, Side::First);
        let at = |n: &str| b[sq(n) as usize].map(|p| (p.side, p.kind));
        use Kind::*;
        use Side::*;
        for (n, k) in [
            ("a1", Tiger),
            ("g1", Lion),
            ("b2", Cat),
            ("f2", Dog),
            ("a3", Elephant),
            ("c3", Wolf),
            ("e3", Leopard),
            ("g3", Rat),
        ] {
            assert_eq!(at(n), Some((First, k)), "{n}");
        }
        for (n, k) in [
            ("a9", Lion),
            ("g9", Tiger),
            ("b8", Dog),
            ("f8", Cat),
            ("a7", Rat),
            ("c7", Leopard),
            ("e7", Wolf),
            ("g7", Elephant),
        ] {
            assert_eq!(at(n), Some((Second, k)), "{n}");
        }
        assert_eq!(b.iter().flatten().count(), 16);
        assert_eq!(fen(&b, side), START_FEN);
    }

    #[test]
    fn fen_problems_are_all_reported_with_their_bytes() {
        let e = parse_fen("l5t/1d3c1/r1p1w1e/7/1L5/7/E1W1P1R/1C3D1/T2l1LL x").unwrap_err();
        let msgs: Vec<(std::ops::Range<usize>, &str)> = e
            .iter()
            .map(|p| (p.at.clone(), p.message.as_str()))
            .collect();
        assert_eq!(
            msgs,
            [
                (42..43, "Blue's Lion already in the opponent's den d1"),
                (45..46, "more than one Red Lion"),
                (21..22, "more than one Red Lion"),
                (21..22, "Red's Lion in the water on b5"),
                (0..1, "more than one Blue Lion"),
                (47..48, "`x` is not a side to move (`r` or `b`)"),
            ]
        );
        let e = parse_fen("7/7/7 r").unwrap_err();
        assert_eq!(e[0].message, "the board has 3 ranks, Jungle has 9");
        let e = parse_fen("8/7/7/7/7/7/7/7/7").unwrap_err();
        assert_eq!(e.len(), 3, "{e:?}");
        assert_eq!(e[0].message, "`8` is not a Jungle piece letter");
        assert_eq!(e[1].message, "rank 9 covers 1 files, the board has 7");
        assert_eq!(
            e[2].message,
            "the side to move is missing (`r` or `b` after the board)"
        );
    }

    #[test]
    fn strengths_and_the_seed_captures() {
        let seed = Variant::default();
        assert!(seed.beats(Kind::Wolf, Kind::Dog));
        assert!(!seed.beats(Kind::Dog, Kind::Wolf));
        assert!(seed.beats(Kind::Rat, Kind::Elephant));
        assert!(seed.beats(Kind::Elephant, Kind::Rat));
        assert!(seed.beats(Kind::Rat, Kind::Rat));
        assert!(!seed.beats(Kind::Cat, Kind::Dog));
        let other = Variant::parse("dog-above-wolf, elephant-spares-rat").unwrap();
        assert!(other.beats(Kind::Dog, Kind::Wolf));
        assert!(!other.beats(Kind::Wolf, Kind::Dog));
        assert!(!other.beats(Kind::Elephant, Kind::Rat));
        assert_eq!(other.name(), "dog-above-wolf,elephant-spares-rat");
        assert_eq!(Variant::parse("jijbent").unwrap().name(), "jijbent");
        assert_eq!(Variant::parse("any-trap+wolves"), Err("wolves".to_string()));
    }
}
