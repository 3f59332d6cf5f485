//! Sets of points: one bit per point of the 9x10 board (90 of the 128 bits are used), for the
//! repetition rule's chase sets and the Fairy-Stockfish reading of a chase.

use crate::geometry::Square;

/// A set of points, one bit per point (90 of the 128 bits are used).
pub type Points = u128;

/// The set holding `sq` alone.
pub fn bit(sq: Square) -> Points {
    1u128 << sq
}

/// The points of a set, lowest first.
pub fn points(mut set: Points) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let sq = set.trailing_zeros() as Square;
        set &= set - 1;
        Some(sq)
    })
}
