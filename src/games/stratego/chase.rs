//! The more-squares rule (continuous chase): rulings §1.5 (ISF via Gravon's rule page; seed 000,
//! second rule).
//!
//! *Threaten*: a move that leaves the moved piece orthogonally next to one or more enemy
//! pieces. *Evade*: the opponent's very next ply moves one of those pieces away (an attack is
//! not an evasion). A *continuous chase* runs while the same player keeps threatening and the
//! opponent keeps evading; it ends when the opponent makes any other move or the chaser makes a
//! non-threatening move. Only the chaser is bound: a chasing move may not produce a position
//! (placement with identities, plus side to move) that already occurred since the chase began,
//! except that the chasing piece may go straight back to the square it left on the chaser's
//! previous move (the two-squares rule still applies to that).
//!
//! The tracker is game-independent: moves arrive as (side, piece id, from, to), with the
//! enemy pieces the move threatens and the position key after it, computed by the engine.

use crate::geometry::{KeyMap, Square};
use crate::types::Side;

/// The enemy pieces (ids) one move threatens: at most the four orthogonal neighbours of its
/// to-square, in a fixed array (no allocation per move). Reads as a slice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Threats {
    ids: [u16; 4],
    len: u8,
}

impl Threats {
    /// Adds a threatened piece (at most four: one per neighbour).
    pub fn push(&mut self, id: u16) {
        self.ids[self.len as usize] = id;
        self.len += 1;
    }
}

impl std::ops::Deref for Threats {
    type Target = [u16];
    fn deref(&self) -> &[u16] {
        &self.ids[..self.len as usize]
    }
}

/// A chase in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChaseState {
    /// The chasing player.
    pub chaser: Side,
    /// Enemy pieces threatened by the chaser's last move.
    pub threatened: Threats,
    /// Every enemy piece chased so far (ids, first-chased first).
    pub chased: Vec<u16>,
    /// True after a chasing move, until the opponent answers.
    pub awaiting_evasion: bool,
    /// Keys of the positions the chaser's moves produced, with the plies (1-based) of their
    /// first and latest occurrence: a hash map keyed by the Zobrist key itself, so a chase
    /// of any length costs constant time per move.
    pub positions: KeyMap<(u32, u32)>,
    /// The chaser's last move: piece, from, to.
    pub last: (u16, Square, Square),
    /// Plies of the chase so far (both sides), oldest first.
    pub plies: Vec<u32>,
}

impl ChaseState {
    /// True when moving `piece` to `to` takes the chasing piece straight back to the square
    /// it just left: the exception of rulings §1.5, which holds only where the two-squares
    /// rule (§1.4) allows the move.
    pub fn returns(&self, piece: u16, to: Square) -> bool {
        self.last.0 == piece && to == self.last.1
    }
}

/// A forbidden chasing move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The ply where the repeated position first occurred.
    pub first_ply: u32,
    /// The ply where it occurred last before the forbidden move.
    pub last_ply: u32,
    /// The ply the chase began on.
    pub began: u32,
    /// The chase's plies from the repeated position's latest occurrence up to the forbidden
    /// move (not included): the cycle that repeats it, so the evidence of a chase running lap
    /// after lap stays one lap long.
    pub plies: Vec<u32>,
    /// The chased pieces (ids).
    pub chased: Vec<u16>,
}

/// The more-squares tracker.
#[derive(Debug, Clone, Default)]
pub struct Chase {
    /// False turns the rule off (the `MoreSquares` parameter).
    pub enabled: bool,
    /// The current chase, if any.
    pub state: Option<ChaseState>,
    /// The last chase that ended, kept for its buffers: the next chase reuses them, so a
    /// threatening move allocates nothing.
    spare: Option<ChaseState>,
}

impl Chase {
    /// A tracker; `enabled` false turns the rule off.
    pub fn new(enabled: bool) -> Self {
        Chase {
            enabled,
            state: None,
            spare: None,
        }
    }

    /// True when a chase binds `side` now: a move of it may be forbidden (the chaser, the
    /// opponent having evaded). Cheap: the legal-move test asks it before computing what a
    /// move threatens.
    pub fn binds(&self, side: Side) -> bool {
        self.enabled
            && self
                .state
                .as_ref()
                .is_some_and(|st| st.chaser == side && !st.awaiting_evasion)
    }

    /// Whether a move by `side` (moving `piece` to `to`, threatening the pieces in
    /// `threatens`, producing the position `key_after`) breaks the rule. `two_squares_allows`:
    /// the two-squares rule allows the move, without which going straight back is no
    /// exception (rulings §1.5: "as long as 1.4 allows it").
    pub fn check(
        &self,
        side: Side,
        piece: u16,
        to: Square,
        threatens: &[u16],
        key_after: u64,
        two_squares_allows: bool,
    ) -> Option<Violation> {
        let (first_ply, last_ply) =
            self.repeated(side, piece, to, threatens, key_after, two_squares_allows)?;
        let st = self.state.as_ref()?;
        // The evidence is the cycle from the latest occurrence on (binary search: the chase's
        // plies are in order).
        let from = st.plies.partition_point(|&p| p < last_ply);
        Some(Violation {
            first_ply,
            last_ply,
            began: st.plies.first().copied().unwrap_or(first_ply),
            plies: st.plies[from..].to_vec(),
            chased: st.chased.clone(),
        })
    }

    /// Whether the move breaks the rule, without gathering the evidence (constant time: the
    /// legal-move test asks it of every candidate move).
    pub fn forbids(
        &self,
        side: Side,
        piece: u16,
        to: Square,
        threatens: &[u16],
        key_after: u64,
    ) -> bool {
        // The legal-move test asks only of moves the two-squares rule allows.
        self.repeated(side, piece, to, threatens, key_after, true)
            .is_some()
    }

    /// The first and latest occurrence of the position a chasing move would repeat.
    fn repeated(
        &self,
        side: Side,
        piece: u16,
        to: Square,
        threatens: &[u16],
        key_after: u64,
        two_squares_allows: bool,
    ) -> Option<(u32, u32)> {
        if !self.binds(side) || threatens.is_empty() {
            return None;
        }
        let st = self.state.as_ref()?;
        if two_squares_allows && st.returns(piece, to) {
            return None;
        }
        st.positions.get(&key_after).copied()
    }

    /// Records a move actually played at ply `ply`: `attack` when it attacked a piece.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        side: Side,
        piece: u16,
        from: Square,
        to: Square,
        threatens: &[u16],
        attack: bool,
        key_after: u64,
        ply: u32,
    ) {
        if let Some(st) = &mut self.state {
            if st.chaser == side {
                if !st.awaiting_evasion && !threatens.is_empty() {
                    st.threatened = threats_of(threatens);
                    for &t in threatens {
                        if !st.chased.contains(&t) {
                            st.chased.push(t);
                        }
                    }
                    st.positions
                        .entry(key_after)
                        .and_modify(|e| e.1 = ply)
                        .or_insert((ply, ply));
                    st.last = (piece, from, to);
                    st.plies.push(ply);
                    st.awaiting_evasion = true;
                    return;
                }
                self.end();
            } else if st.awaiting_evasion && !attack && st.threatened.contains(&piece) {
                st.awaiting_evasion = false;
                st.plies.push(ply);
                return;
            } else {
                self.end();
            }
        }
        if !threatens.is_empty() {
            self.begin(side, (piece, from, to), threatens, key_after, ply);
        }
    }

    /// The chase in progress ends; its buffers wait for the next one.
    fn end(&mut self) {
        if let Some(old) = self.state.take() {
            self.spare = Some(old);
        }
    }

    /// A chase begins with `last` (piece, from, to) threatening `threatens` at ply `ply`.
    fn begin(
        &mut self,
        chaser: Side,
        last: (u16, Square, Square),
        threatens: &[u16],
        key_after: u64,
        ply: u32,
    ) {
        let mut st = self.spare.take().unwrap_or_else(|| ChaseState {
            chaser,
            threatened: Threats::default(),
            chased: Vec::new(),
            awaiting_evasion: true,
            positions: KeyMap::default(),
            last,
            plies: Vec::new(),
        });
        st.chaser = chaser;
        st.threatened = threats_of(threatens);
        st.chased.clear();
        st.chased.extend_from_slice(threatens);
        st.awaiting_evasion = true;
        if st.positions.capacity() > SPARE_POSITIONS {
            st.positions = KeyMap::default();
        }
        st.positions.clear();
        st.positions.insert(key_after, (ply, ply));
        st.last = last;
        st.plies.clear();
        st.plies.push(ply);
        self.state = Some(st);
    }
}

/// The most positions a reused map may hold room for: clearing costs its capacity, so the map
/// of a long chase is dropped rather than cleared at every new chase.
const SPARE_POSITIONS: usize = 256;

/// The ids of `ids` (at most four) as [`Threats`].
fn threats_of(ids: &[u16]) -> Threats {
    let mut t = Threats::default();
    for &id in ids {
        t.push(id);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_position_in_a_chase_is_forbidden() {
        let mut c = Chase::new(true);
        // Red piece 1 threatens Blue piece 9 (position A), Blue evades, Red threatens (B),
        // Blue evades, Red threatens producing A again: forbidden.
        c.record(Side::First, 1, 10, 11, &[9], false, 0xA, 1);
        c.record(Side::Second, 9, 21, 22, &[], false, 0xA2, 2);
        assert!(c.check(Side::First, 1, 12, &[9], 0xB, true).is_none());
        c.record(Side::First, 1, 11, 12, &[9], false, 0xB, 3);
        c.record(Side::Second, 9, 22, 21, &[], false, 0xB2, 4);
        let v = c
            .check(Side::First, 1, 13, &[9], 0xA, true)
            .expect("repeats A");
        assert_eq!(v.first_ply, 1);
        assert_eq!(v.plies, vec![1, 2, 3, 4]);
        assert_eq!(v.chased, vec![9]);
        // straight back to the square it left (12 -> 11) is the exception
        assert!(c.check(Side::First, 1, 11, &[9], 0xA, true).is_none());
        // ... only where the two-squares rule allows it (rulings §1.5)
        assert!(c.check(Side::First, 1, 11, &[9], 0xA, false).is_some());
        // a non-threatening move is never a chasing move
        assert!(c.check(Side::First, 1, 13, &[], 0xA, true).is_none());
        // the chased side is not bound
        assert!(c.check(Side::Second, 9, 22, &[1], 0xA, true).is_none());
    }

    #[test]
    fn chase_ends_when_the_opponent_does_something_else() {
        let mut c = Chase::new(true);
        c.record(Side::First, 1, 10, 11, &[9], false, 0xA, 1);
        c.record(Side::Second, 5, 40, 41, &[], false, 0xC, 2); // not the threatened piece
        assert!(c.state.is_none());
        c.record(Side::First, 1, 11, 12, &[9], false, 0xB, 3);
        c.record(Side::Second, 9, 22, 21, &[], true, 0xB2, 4); // an attack, not an evasion
        assert!(c.state.is_none());
        assert!(c.check(Side::First, 1, 13, &[9], 0xA, true).is_none());
    }

    #[test]
    fn disabled_is_off() {
        let mut c = Chase::new(false);
        c.record(Side::First, 1, 10, 11, &[9], false, 0xA, 1);
        c.record(Side::Second, 9, 21, 22, &[], false, 0xA2, 2);
        assert!(c.check(Side::First, 1, 13, &[9], 0xA, true).is_none());
    }
}
