//! Xiangqi moves as engine GUIs and game sites write them: SAN (`Che2`, `Hc7`, `A9e8`,
//! `Rxb2+`, `c4`, `gxg5`, `xe4`) and coordinates counted from rank 0 (ICCS, `h2e2`) or from
//! rank 1 (UCI, `h3e3`), and the rank base each game is read with ([`Dialect`]).
//!
//! SAN names the piece (WinBoard `K A E H R C`, pychess the same with `P` for Soldiers,
//! Pikafish/MoonRiver `N` for the Horse and `B` for the Elephant; a Soldier may have no letter),
//! optionally its file and rank, `x` for a capture, and the point it goes to. Ranks are 0-9
//! (WinBoard, MoonRiver, Banksia) or 1-10 (pychess, Fairy-Stockfish). A move is resolved
//! against the legal moves of the position: one legal move of that piece to that point is the
//! move; a Soldier move written without its file means the straight move when a sideways one
//! could also reach the point (WinBoard writes a sideways Soldier move with its from-file);
//! anything else is an `illegal-move` that says which pieces the move could mean, or that
//! none can move so (docs/xiangqi.md, "Engine and site PGN").

use super::notation::Unresolved;
use super::position::{Kind, Move, Position, GEOMETRY, SQUARES};
use super::side_name;
use crate::geometry::Square;
use crate::record::MoveRecord;

/// A SAN move as written, before the position resolves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct San {
    /// The piece (a Soldier when no letter is written).
    pub kind: Kind,
    /// The from-file written for disambiguation (0 = `a`).
    pub from_file: Option<u8>,
    /// The from-rank written for disambiguation, as written (base not applied).
    pub from_rank: Option<u32>,
    /// `x` was written.
    pub capture: bool,
    /// The to-point's file (0 = `a`).
    pub to_file: u8,
    /// The to-point's rank as written.
    pub to_rank: u32,
}

/// A rank written as one digit, or `10`; `None` for anything else.
fn rank_of(digits: &[u8]) -> Option<u32> {
    match digits {
        [d] if d.is_ascii_digit() => Some((d - b'0') as u32),
        [b'1', b'0'] => Some(10),
        _ => None,
    }
}

/// The file index of a file letter `a`-`i`.
fn file_of(c: u8) -> Option<u8> {
    (b'a'..=b'i').contains(&c).then(|| c - b'a')
}

/// Reads a SAN move; `None` when `text` is not one. Piece letters are upper case (lower case
/// letters are files); `+`, `#`, `!` and `?` at the end are ignored.
pub(super) fn parse(text: &str) -> Option<San> {
    let mut b = text.as_bytes();
    while let [rest @ .., b'+' | b'#' | b'!' | b'?'] = b {
        b = rest;
    }
    // The to-point: a file letter and a rank (one digit, or 10) at the end.
    let digits = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || b.len() < digits + 1 {
        return None;
    }
    let (head, rank) = b.split_at(b.len() - digits);
    let to_rank = rank_of(rank)?;
    let (&to, mut head) = head.split_last()?;
    let to_file = file_of(to)?;
    let mut capture = false;
    if let [rest @ .., b'x'] = head {
        capture = true;
        head = rest;
    }
    let mut kind = Kind::Soldier;
    if let [c, rest @ ..] = head {
        if c.is_ascii_uppercase() {
            kind = match c {
                b'K' => Kind::General,
                b'A' => Kind::Advisor,
                b'E' | b'B' => Kind::Elephant,
                b'H' | b'N' => Kind::Horse,
                b'R' => Kind::Chariot,
                b'C' => Kind::Cannon,
                b'P' => Kind::Soldier,
                _ => return None,
            };
            head = rest;
        }
    }
    let mut from_file = None;
    if let [c, rest @ ..] = head {
        if let Some(f) = file_of(*c) {
            from_file = Some(f);
            head = rest;
        }
    }
    let from_rank = match head {
        [] => None,
        d => Some(rank_of(d)?),
    };
    Some(San {
        kind,
        from_file,
        from_rank,
        capture,
        to_file,
        to_rank,
    })
}

/// True when `text` is SAN with a piece letter (`A9e8`, `H8e7`): read as SAN even where it
/// also reads as a coordinate move (coordinates write both points in one case, `h2e2`,
/// `H2-E2`).
pub(super) fn lettered(text: &str) -> bool {
    text.as_bytes().first().is_some_and(u8::is_ascii_uppercase) && parse(text).is_some()
}

/// The point a file and a rank written with rank base `base` name, if on the board.
pub(super) fn point(file: u8, rank_written: u32, base: u8) -> Option<Square> {
    let rank = rank_written.checked_sub(base as u32)?;
    GEOMETRY.square(file as i32, i32::try_from(rank).ok()?)
}

/// The from-points of the side to move's pieces that `san` names (kind, file, rank).
fn named(pos: &Position, san: &San, base: u8) -> Vec<Square> {
    let side = pos.to_move();
    (0..SQUARES as Square)
        .filter(|&s| {
            pos.piece(s)
                .is_some_and(|p| p.side() == side && p.kind() == san.kind)
                && san.from_file.is_none_or(|f| GEOMETRY.file(s) == f)
                && san
                    .from_rank
                    .is_none_or(|r| point(GEOMETRY.file(s), r, base) == Some(s))
        })
        .collect()
}

fn list(moves: &[Move]) -> String {
    let names: Vec<String> = moves
        .iter()
        .map(|m| format!("{} ({})", GEOMETRY.name(m.from), m.iccs()))
        .collect();
    names.join(" or ")
}

/// Resolves `san` in `pos` with rank base `base`: the one legal move it names (several: a
/// Soldier move written without its file is the straight one, else ambiguous); without a legal
/// one, the one move of the pieces it names whose shape reaches the point (the engine then says
/// what makes it illegal: a block, a pin); else why it names no move.
pub(super) fn resolve(pos: &Position, san: &San, base: u8) -> Result<Move, Unresolved> {
    let piece = san.kind.name();
    let Some(to) = point(san.to_file, san.to_rank, base) else {
        return Err(Unresolved {
            message: format!("names no point: rank {} is off the board", san.to_rank),
            label: "no such point".into(),
            help: rank_help(base),
        });
    };
    let shaped: Vec<Move> = named(pos, san, base)
        .into_iter()
        .map(|from| Move { from, to })
        .filter(|&m| super::notation::fits(pos, m))
        .collect();
    let mut legal: Vec<Move> = shaped
        .iter()
        .copied()
        .filter(|&m| pos.is_legal(m))
        .collect();
    if legal.len() > 1 && san.kind == Kind::Soldier && san.from_file.is_none() {
        // A Soldier move without its file is the straight one (WinBoard).
        legal.retain(|m| GEOMETRY.file(m.from) == san.to_file);
    }
    match (&legal[..], &shaped[..]) {
        ([m], _) | ([], [m]) => Ok(*m),
        ([], []) => Err(Unresolved {
            message: format!(
                "fits no piece: no {} {piece} can move to {}",
                side_name(pos.to_move()),
                GEOMETRY.name(to)
            ),
            label: format!("no {piece} moves there"),
            help: "a SAN move names the piece (K A E/B H/N R C, P or no letter for a Soldier), \
                   optionally its file or rank, and the point it goes to"
                .into(),
        }),
        ([], several) => Err(Unresolved {
            message: format!(
                "fits no legal move: the {piece}s on {} could go to {} but none may",
                list(several),
                GEOMETRY.name(to)
            ),
            label: "no legal move".into(),
            help: "each is blocked on its way, or would leave its General attacked".into(),
        }),
        (several, _) => Err(Unresolved {
            message: format!("is ambiguous: it could be the {piece} on {}", list(several)),
            label: format!("{} {piece}s could make this move", several.len()),
            help: "SAN names the from-file or the from-rank when several pieces of a kind can \
                   reach the point (e.g. Raxb2, R9d7)"
                .into(),
        }),
    }
}

fn rank_help(base: u8) -> String {
    if base == 0 {
        "this game's ranks count 0-9 from Red's side (WinBoard, ICCS)".into()
    } else {
        "this game's ranks count 1-10 from Red's side (pychess, UCI)".into()
    }
}

/// How the moves of a game without a `Format` tag are written: the notation of its first move
/// that is not a coordinate move, and the rank base of its coordinates and SAN moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    /// SAN moves are read (the game's first non-coordinate move is SAN).
    pub san: bool,
    /// 0: ranks 0-9 (ICCS, WinBoard); 1: ranks 1-10 (UCI, pychess).
    pub base: u8,
    /// How the base was decided.
    pub decided: Decided,
}

/// How a game's rank base was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// A move writes rank 0 (or 10): the ply of the first such move.
    Written(u32),
    /// No move writes rank 0 or 10; replaying the moves read with ranks from 0 and from 1,
    /// one reading went further: how many plies each reading replays.
    Replayed([u32; 2]),
    /// Neither the ranks written nor a replay tells the readings apart (each replays this
    /// many plies); ranks are read from 0.
    Undecided(u32),
    /// The game has no coordinate or SAN move (the base does not matter), or is a native
    /// record with no SAN move writing rank 0 or 10 (its coordinates are ICCS).
    Moot,
}

impl Default for Dialect {
    fn default() -> Self {
        Dialect {
            san: false,
            base: 0,
            decided: Decided::Moot,
        }
    }
}

/// The lowest and highest rank a move text writes, if it is a coordinate or SAN move, and
/// whether it is SAN.
fn ranks_written(mv: &MoveRecord) -> Option<(u32, u32, bool)> {
    if let Some(ranks) = plain_iccs_ranks(mv) {
        return Some((ranks.0.min(ranks.1), ranks.0.max(ranks.1), false));
    }
    if let Some(c) = mv.coord().filter(|_| !lettered(mv.text())) {
        let (lo, hi) = (c.from.1.min(c.to.1), c.from.1.max(c.to.1));
        return Some((lo, hi, false));
    }
    let s = parse(mv.text())?;
    let r = s.from_rank.unwrap_or(s.to_rank);
    Some((r.min(s.to_rank), r.max(s.to_rank), true))
}

/// The two ranks of a move written `h2e2` (lowercase files, one-digit ranks) and not read by
/// an importer: the archives' common case, told without building its coordinates. `None`
/// for every other text (then [`MoveRecord::coord`] and SAN decide).
#[inline]
fn plain_iccs_ranks(mv: &MoveRecord) -> Option<(u32, u32)> {
    let &[f0, r0, f1, r1] = mv.text().as_bytes() else {
        return None;
    };
    let file = |f: u8| f.is_ascii_lowercase() && f != b'x';
    (mv.extra.is_none() && file(f0) && file(f1) && r0.is_ascii_digit() && r1.is_ascii_digit())
        .then(|| ((r0 - b'0') as u32, (r1 - b'0') as u32))
}

/// A move written `h2e2` on the board's files (a-i, one-digit ranks) and not read by an
/// importer: a coordinate move, never SAN nor another notation ([`ranks_written`] says the
/// same, at more cost).
#[inline]
fn is_plain(mv: &MoveRecord) -> bool {
    let &[f0, r0, f1, r1] = mv.text().as_bytes() else {
        return false;
    };
    let class = |c: u8| PLAIN_CLASS[c as usize];
    mv.extra.is_none() && class(f0) & class(f1) & FILE != 0 && class(r0) & class(r1) & RANK != 0
}

/// [`is_plain`]'s classes of a byte: a file letter `a`-`i`, a rank digit.
const FILE: u8 = 1;
const RANK: u8 = 2;
const PLAIN_CLASS: [u8; 256] = {
    let mut t = [0; 256];
    let mut c = 0;
    while c < 9 {
        t[(b'a' + c) as usize] = FILE;
        t[(b'0' + c) as usize] = RANK;
        c += 1;
    }
    t[b'9' as usize] = RANK;
    t
};

/// Whether a move text is read in a notation other than coordinates and SAN (WXF, Chinese,
/// full-width text).
fn other_notation(text: &str) -> bool {
    !text.is_ascii()
        || text.bytes().any(|c| matches!(c, b'.' | b'=' | b'+' | b'-')) && parse(text).is_none()
}

/// Decides how the main line of a game without a `Format` tag is read (docs/xiangqi.md,
/// "Engine and site PGN"): SAN or not from its first move that is not a coordinate move; the
/// rank base from the first move that writes rank 0 or 10, else by replaying the moves both
/// ways from `start` (the reading that replays more plies wins; a tie reads ranks from 0 and
/// is [`Decided::Undecided`]).
///
/// A `native` record (arbiter's own log or an importer's, which name their ruleset by a `Game`
/// tag or by their format) writes coordinates in ICCS (docs/log-format.md): only its SAN
/// moves are evidence, and nothing is replayed (ranks count from 0 unless a SAN move writes
/// rank 10).
pub fn decide(start: &Position, moves: &[MoveRecord], native: bool) -> Dialect {
    let mut san = None;
    let mut written = None;
    let mut any = false;
    let mut i = 0;
    while let Some(mv) = moves.get(i) {
        if san.is_none() && written.is_some() {
            // Only a SAN or other move can still decide something: skip the plain ones.
            let plain = moves[i..].iter().take_while(|m| is_plain(m)).count();
            if plain > 0 {
                i += plain;
                continue;
            }
        }
        i += 1;
        match ranks_written(mv) {
            Some((lo, hi, is_san)) => {
                any |= is_san || !native;
                if is_san && san.is_none() {
                    san = Some(true);
                }
                if written.is_none() && (is_san || !native) && (lo == 0 || hi >= 10) {
                    written = Some((u8::from(lo != 0), i as u32));
                }
            }
            None if san.is_none() && other_notation(mv.text()) => san = Some(false),
            None => {}
        }
        if san.is_some() && written.is_some() {
            break;
        }
    }
    let san = san.unwrap_or(false);
    let (base, decided) = match written {
        Some((base, ply)) => (base, Decided::Written(ply)),
        None if !any || native => (0, Decided::Moot),
        None => {
            let counts = [replays(start, moves, 0), replays(start, moves, 1)];
            if counts[1] > counts[0] {
                (1, Decided::Replayed(counts))
            } else if counts[0] > counts[1] {
                (0, Decided::Replayed(counts))
            } else {
                (0, Decided::Undecided(counts[0]))
            }
        }
    };
    Dialect { san, base, decided }
}

/// How many plies of `moves` replay legally from `start` when coordinates and SAN moves are
/// read with rank base `base` (WXF and Chinese moves as they read).
fn replays(start: &Position, moves: &[MoveRecord], base: u8) -> u32 {
    let mut pos = *start;
    let mut n = 0;
    for mv in moves {
        let m = match mv.coord().filter(|_| !lettered(mv.text())) {
            Some(c) => match (point(c.from.0, c.from.1, base), point(c.to.0, c.to.1, base)) {
                (Some(from), Some(to)) => Move { from, to },
                _ => break,
            },
            None => match parse(mv.text()).map(|s| resolve(&pos, &s, base)) {
                Some(Ok(m)) => m,
                Some(Err(_)) => break,
                None => match super::notation::read_written(&pos, mv.text()) {
                    Some(m) => m,
                    None => break,
                },
            },
        };
        if !pos.is_legal(m) {
            break;
        }
        pos.make(m);
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::xiangqi::fen;

    fn at(fen_text: &str) -> Position {
        fen::parse(fen_text).expect("valid FEN").position
    }

    fn read_in(pos: &Position, text: &str, base: u8) -> Result<String, String> {
        let s = parse(text).ok_or_else(|| format!("unreadable {text}"))?;
        resolve(pos, &s, base)
            .map(|m| m.iccs())
            .map_err(|u| u.message)
    }

    #[test]
    fn tokens() {
        let s = parse("A10e9").unwrap();
        assert_eq!(
            (s.kind, s.from_file, s.from_rank, s.to_file, s.to_rank),
            (Kind::Advisor, None, Some(10), 4, 9)
        );
        let s = parse("R9xd7+").unwrap();
        assert_eq!(
            (s.kind, s.from_rank, s.capture, s.to_file),
            (Kind::Chariot, Some(9), true, 3)
        );
        let s = parse("Cii2").unwrap();
        assert_eq!((s.from_file, s.to_file, s.to_rank), (Some(8), 8, 2));
        let s = parse("xe4").unwrap();
        assert_eq!(
            (s.kind, s.capture, s.from_file),
            (Kind::Soldier, true, None)
        );
        let s = parse("gf5").unwrap();
        assert_eq!(
            (s.kind, s.from_file, s.to_file),
            (Kind::Soldier, Some(6), 5)
        );
        assert_eq!(parse("Pfg6").unwrap().from_file, Some(5));
        assert_eq!(parse("Nc7").unwrap().kind, Kind::Horse);
        assert_eq!(parse("Bce7").unwrap().kind, Kind::Elephant);
        for bad in [
            "C2.5", "H8+7", "R+.3", "Zc4", "c11", "j4", "Rb", "", "x", "c4c", "Rb01",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn opening_moves_in_every_dialect() {
        let p = Position::start();
        assert_eq!(read_in(&p, "Che2", 0), Ok("h2e2".into()));
        assert_eq!(read_in(&p, "Che3", 1), Ok("h2e2".into()));
        assert_eq!(read_in(&p, "Hc2", 0), Ok("b0c2".into()));
        assert_eq!(read_in(&p, "Nc2", 0), Ok("b0c2".into()));
        assert_eq!(read_in(&p, "Ece2", 0), Ok("c0e2".into()));
        assert_eq!(read_in(&p, "Bce2", 0), Ok("c0e2".into()));
        assert_eq!(read_in(&p, "c4", 0), Ok("c3c4".into()));
        assert_eq!(read_in(&p, "Pc5", 1), Ok("c3c4".into()));
        assert_eq!(read_in(&p, "Afe1", 0), Ok("f0e1".into()));
        // Two Horses, two Elephants, two Advisors could each go: the file tells them apart.
        assert!(read_in(&p, "Ae1", 0).unwrap_err().contains("ambiguous"));
        assert!(read_in(&p, "Ee2", 0).unwrap_err().contains("ambiguous"));
        assert!(read_in(&p, "Rc5", 0).unwrap_err().contains("fits no piece"));
        assert!(read_in(&p, "Che10", 0)
            .unwrap_err()
            .contains("off the board"));
    }

    #[test]
    fn a_soldier_move_without_its_file_is_the_straight_one() {
        // Red Soldiers on e5 and f6; e6 is reachable straight from e5 and sideways from f6.
        let p = at("4k4/9/9/5P3/4P4/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(read_in(&p, "e6", 0), Ok("e5e6".into()));
        assert_eq!(read_in(&p, "fe6", 0), Ok("f6e6".into()));
        assert_eq!(read_in(&p, "Pe7", 1), Ok("e5e6".into()));
    }

    #[test]
    fn an_illegal_move_of_one_piece_is_left_to_the_engine() {
        // The Red Chariot on e3 is pinned by the Black Chariot on e9 (General on e0).
        let p = at("3kr4/9/9/9/9/9/4R4/9/9/4K4 w - - 0 1");
        assert_eq!(read_in(&p, "Ra3", 0), Ok("e3a3".into()));
    }

    fn moves(texts: &[&str]) -> Vec<MoveRecord> {
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| MoveRecord::unlocated(t, i))
            .collect()
    }

    #[test]
    fn the_rank_base_of_a_game() {
        let p = Position::start();
        let d = decide(&p, &moves(&["h2e2", "h9g7", "h0g2"]), false);
        assert_eq!((d.san, d.base, d.decided), (false, 0, Decided::Written(3)));
        let d = decide(&p, &moves(&["Cbe3", "Hc8", "Pc5", "Rb10"]), false);
        assert_eq!((d.san, d.base, d.decided), (true, 1, Decided::Written(4)));
        // UCI without rank 1 or 10 written: only the reading from 1 is legal.
        let d = decide(&p, &moves(&["h3e3", "h8e8"]), false);
        assert_eq!((d.base, d.decided), (1, Decided::Replayed([0, 2])));
        let d = decide(&p, &moves(&["C2.5", "H8+7"]), false);
        assert_eq!((d.san, d.decided), (false, Decided::Moot));
    }
}
