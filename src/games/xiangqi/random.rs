//! Random legal Xiangqi games from a seed, for the Fairy-Stockfish cross-check
//! (`scripts/crosscheck-xiangqi.sh`) and for property tests.
//!
//! The same seed gives the same game on every machine (the generator is splitmix64 through
//! [`crate::geometry::zobrist`]). Half of the plies that have a capture available play one, so
//! material comes off and games reach the endings (checkmate, stalemate, bare Generals) that
//! uniformly random play rarely sees.

use super::position::{Kind, Move, MoveList, Piece, Position, SQUARES};
use super::repetition::chased;
use crate::geometry::zobrist;

/// A deterministic pseudo-random number stream.
#[derive(Debug, Clone)]
pub struct Rng {
    seed: u64,
    n: u64,
}

impl Rng {
    /// A stream for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng {
            seed: zobrist(seed ^ 0x0058_4951),
            n: 0,
        }
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.n += 1;
        zobrist(self.seed.wrapping_add(self.n))
    }
    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Plays a random legal game of at most `max_plies` plies from `start`; it stops earlier when
/// the side to move has no legal move (checkmate or stalemate). Returns the moves in order.
///
/// From a Jieqi shuffle (covered pieces carrying their identities, e.g. [`jieqi_shuffle`])
/// each covered piece that moves is turned over as what it is, so this plays Jieqi too.
pub fn random_game(start: &Position, seed: u64, max_plies: usize) -> Vec<Move> {
    let mut rng = Rng::new(seed);
    let mut pos = *start;
    let mut moves = Vec::new();
    let mut legal = MoveList::new();
    while moves.len() < max_plies {
        pos.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let captures = legal.iter().filter(|m| pos.piece(m.to).is_some()).count();
        let m = if captures > 0 && rng.below(2) == 0 {
            let k = rng.below(captures);
            *legal
                .iter()
                .filter(|m| pos.piece(m.to).is_some())
                .nth(k)
                .unwrap_or(&legal[0])
        } else {
            legal[rng.below(legal.len())]
        };
        pos.make(m);
        if let Some(p) = pos.piece(m.to).filter(|p| p.is_covered()) {
            pos.uncover(m.to, p.kind());
        }
        moves.push(m);
    }
    moves
}

/// Plays a random legal game of at most `max_plies` plies from `start` that is driven into
/// repetitions (the repetition part of the Fairy-Stockfish cross-check): after 10 to 59
/// ordinary random plies, each side mostly shuttles, moving the piece it moved last straight
/// back, and otherwise picks a new move, preferring one that gives check or chases
/// ([`chased`]) so that perpetual checks and chases arise as well as plain repetitions. The
/// game stops early when the side to move has no legal move.
pub fn repetition_game(start: &Position, seed: u64, max_plies: usize) -> Vec<Move> {
    let mut rng = Rng::new(seed ^ 0x5245_5045_4154);
    let warmup = 10 + rng.below(50);
    let mut moves = random_game(start, seed, warmup.min(max_plies));
    let mut pos = *start;
    for &m in &moves {
        pos.make(m);
    }
    let mut legal = MoveList::new();
    while moves.len() < max_plies {
        pos.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let own_last = moves.len().checked_sub(2).map(|i| moves[i]);
        let back = own_last
            .map(|m| Move {
                from: m.to,
                to: m.from,
            })
            .filter(|b| legal.contains(b) && pos.piece(b.to).is_none());
        let m = match back {
            Some(b) if rng.below(5) != 0 => b,
            _ => {
                let quiet: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| pos.piece(m.to).is_none())
                    .collect();
                let pool = if quiet.is_empty() {
                    legal.to_vec()
                } else {
                    quiet
                };
                let wanted: Vec<Move> = match rng.below(3) {
                    0 => pool
                        .iter()
                        .copied()
                        .filter(|&m| pos.gives_check(m))
                        .collect(),
                    1 => pool
                        .iter()
                        .copied()
                        .filter(|&m| {
                            let mut after = pos;
                            after.make(m);
                            chased(&pos, m, &after) != 0
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                let from = if wanted.is_empty() { &pool } else { &wanted };
                from[rng.below(from.len())]
            }
        };
        pos.make(m);
        moves.push(m);
    }
    moves
}

/// The two setup sections of a Jieqi log that give every covered piece of `shuffle` its
/// identity (rulings §4.2, a full shuffle), Red's first: each side's covered start points by
/// rank, `.` elsewhere.
pub fn shuffle_setups(shuffle: &Position) -> String {
    let mut out = String::new();
    for (side, word, ranks) in [
        (crate::types::Side::First, "red", [3u8, 2, 0]),
        (crate::types::Side::Second, "black", [9, 7, 6]),
    ] {
        out.push_str(&format!("setup {word}\n"));
        for rank in ranks {
            let cells: String = (0..9u8)
                .map(|file| match shuffle.piece(rank * 9 + file) {
                    Some(p) if p.side() == side && p.is_covered() => p.kind().letter(),
                    _ => '.',
                })
                .collect();
            out.push_str(&format!("  {rank} {cells}\n"));
        }
    }
    out
}

/// A random Jieqi shuffle (rulings §4.2): the Jieqi start with every covered piece carrying
/// a random identity from its side's 15 (a seeded Fisher-Yates shuffle per side), and free
/// diagonals on.
pub fn jieqi_shuffle(seed: u64) -> Position {
    let mut rng = Rng::new(seed ^ 0x4A49_4551);
    let mut pos = Position::start();
    pos.set_free_diagonals(true);
    for side in [crate::types::Side::First, crate::types::Side::Second] {
        let points: Vec<u8> = (0..SQUARES as u8)
            .filter(|&sq| {
                pos.piece(sq)
                    .is_some_and(|p| p.side() == side && p.kind() != Kind::General)
            })
            .collect();
        let mut kinds: Vec<Kind> = points
            .iter()
            .filter_map(|&sq| pos.piece(sq).map(|p| p.kind()))
            .collect();
        for i in (1..kinds.len()).rev() {
            kinds.swap(i, rng.below(i + 1));
        }
        for (&sq, &k) in points.iter().zip(&kinds) {
            pos.set(sq, Some(Piece::covered(side, k)));
        }
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproducible_and_legal() {
        let start = Position::start();
        let a = random_game(&start, 7, 300);
        assert_eq!(a, random_game(&start, 7, 300));
        assert_ne!(a, random_game(&start, 8, 300));
        let mut p = start;
        for m in &a {
            assert!(p.is_legal(*m), "{} in {:?}", m.iccs(), p);
            p.make(*m);
        }
        assert!(a.len() == 300 || !p.has_legal_move());
    }
}
