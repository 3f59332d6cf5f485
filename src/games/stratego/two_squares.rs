//! The two-squares rule (back and forth): rulings §1.4 (ISF; seed 000 "only 3 times back and
//! forth").
//!
//! A *shuttle run* is the longest sequence of one player's consecutive own moves made with the
//! same piece, each going between the same two squares A and B (A->B, B->A, A->B, ...); the
//! opponent's moves in between do not matter, and moving and attacking both count. With limit
//! `L` the (L+1)-th move of a run is forbidden. A Scout move continues a run when its from- and
//! to-squares both lie on the segment covered by the run's first move and it reverses the
//! direction of the previous move.
//!
//! The tracker is game-independent: it sees moves as (side, piece id, from, to) on a
//! [`Geometry`]; the ruleset supplies the limit. It answers "would this move break the rule?"
//! (so the rule counts when deciding whether a player has a legal move) and records the moves
//! actually played.

use crate::geometry::{Geometry, Square};
use crate::types::Side;

/// One player's current shuttle run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// The piece making the run.
    pub piece: u16,
    /// The first move's from-square and to-square: the run's segment.
    pub seg: (Square, Square),
    /// The last move's from- and to-square.
    pub last: (Square, Square),
    /// Moves in the run so far.
    pub len: u32,
    /// Ply number (1-based) of the run's first move.
    pub first_ply: u32,
}

/// Both players' runs.
#[derive(Debug, Clone, Default)]
pub struct Tracker {
    /// The limit `L` (moves per run); 0 turns the rule off.
    pub limit: u32,
    runs: [Option<Run>; 2],
    /// Ply numbers of the last `limit` moves of each side's current run, oldest first (for
    /// labels and evidence: a run that goes on breaking the rule stays cheap per move).
    plies: [std::collections::VecDeque<u32>; 2],
}

/// A forbidden move: the run it would extend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The run before the forbidden move.
    pub run: Run,
    /// Ply numbers of the run's last `limit` moves before the forbidden one.
    pub plies: Vec<u32>,
}

fn on_segment(g: &Geometry, seg: (Square, Square), s: Square) -> bool {
    let (a, b) = seg;
    let (fa, ra, fb, rb, fs, rs) = (
        g.file(a),
        g.rank(a),
        g.file(b),
        g.rank(b),
        g.file(s),
        g.rank(s),
    );
    if fa == fb {
        fs == fa && rs >= ra.min(rb) && rs <= ra.max(rb)
    } else if ra == rb {
        rs == ra && fs >= fa.min(fb) && fs <= fa.max(fb)
    } else {
        false
    }
}

impl Tracker {
    /// A tracker with limit `limit` (moves per run; 0 = off).
    pub fn new(limit: u32) -> Self {
        Tracker {
            limit,
            ..Default::default()
        }
    }

    /// True when the move continues `side`'s current run.
    fn continues(&self, g: &Geometry, side: Side, piece: u16, from: Square, to: Square) -> bool {
        let Some(run) = &self.runs[side.index()] else {
            return false;
        };
        if run.piece != piece || from != run.last.1 {
            return false;
        }
        if g.distance(run.seg.0, run.seg.1) <= 1 && g.distance(from, to) <= 1 {
            // plain two squares: exactly back
            return to == run.last.0;
        }
        // Scout: both squares on the first move's segment, direction reversed.
        let reversed = match (g.direction(run.last.0, run.last.1), g.direction(from, to)) {
            (Some((a, b)), Some((c, d))) => a == -c && b == -d,
            _ => false,
        };
        reversed && on_segment(g, run.seg, from) && on_segment(g, run.seg, to)
    }

    /// Whether `side` moving `piece` from `from` to `to` would break the rule; `None` when
    /// allowed (or the rule is off).
    pub fn check(
        &self,
        g: &Geometry,
        side: Side,
        piece: u16,
        from: Square,
        to: Square,
    ) -> Option<Violation> {
        if !self.forbids(g, side, piece, from, to) {
            return None;
        }
        Some(Violation {
            run: self.runs[side.index()]?,
            plies: self.plies[side.index()].iter().copied().collect(),
        })
    }

    /// Whether the move would break the rule, without gathering the evidence (the legal-move
    /// test asks it of every candidate move).
    pub fn forbids(&self, g: &Geometry, side: Side, piece: u16, from: Square, to: Square) -> bool {
        // The run's length first: most runs are short, and `continues` is the dearer test.
        self.limit > 0
            && self.runs[side.index()].is_some_and(|run| run.len >= self.limit)
            && self.continues(g, side, piece, from, to)
    }

    /// Records a move actually played at ply `ply` (1-based).
    pub fn record(
        &mut self,
        g: &Geometry,
        side: Side,
        piece: u16,
        from: Square,
        to: Square,
        ply: u32,
    ) {
        let i = side.index();
        if self.continues(g, side, piece, from, to) {
            if let Some(run) = &mut self.runs[i] {
                run.len += 1;
                run.last = (from, to);
            }
            self.plies[i].push_back(ply);
            while self.plies[i].len() > self.limit as usize {
                self.plies[i].pop_front();
            }
        } else {
            self.runs[i] = Some(Run {
                piece,
                seg: (from, to),
                last: (from, to),
                len: 1,
                first_ply: ply,
            });
            self.plies[i].clear();
            self.plies[i].push_back(ply);
        }
    }

    /// The current run of `side`, if any.
    pub fn run(&self, side: Side) -> Option<&Run> {
        self.runs[side.index()].as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Geometry = Geometry {
        width: 10,
        height: 10,
        rank_base: 1,
    };

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        G.square_written(b[0] - b'a', name[1..].parse().unwrap())
            .unwrap()
    }

    #[test]
    fn fourth_move_is_forbidden_with_limit_three() {
        let mut t = Tracker::new(3);
        let (a, b) = (sq("a4"), sq("a5"));
        let moves = [(a, b), (b, a), (a, b)];
        for (i, &(f, to)) in moves.iter().enumerate() {
            assert!(t.check(&G, Side::First, 7, f, to).is_none(), "move {i}");
            t.record(&G, Side::First, 7, f, to, 1 + 2 * i as u32);
        }
        let v = t
            .check(&G, Side::First, 7, b, a)
            .expect("4th move forbidden");
        assert_eq!(v.plies, vec![1, 3, 5]);
        // another piece, or another square, is fine
        assert!(t.check(&G, Side::First, 8, b, a).is_none());
        assert!(t.check(&G, Side::First, 7, b, sq("b5")).is_none());
        // the opponent is not bound by Red's run
        assert!(t.check(&G, Side::Second, 7, b, a).is_none());
    }

    #[test]
    fn limit_zero_is_off() {
        let mut t = Tracker::new(0);
        let (a, b) = (sq("a4"), sq("a5"));
        for i in 0..10 {
            let (f, to) = if i % 2 == 0 { (a, b) } else { (b, a) };
            assert!(t.check(&G, Side::First, 1, f, to).is_none());
            t.record(&G, Side::First, 1, f, to, i);
        }
    }

    #[test]
    fn scout_inside_one_segment() {
        let mut t = Tracker::new(3);
        // a4-a8 covers a4..a8; a8-a5 and a5-a7 stay inside and reverse.
        t.record(&G, Side::First, 2, sq("a4"), sq("a8"), 1);
        assert!(t.check(&G, Side::First, 2, sq("a8"), sq("a5")).is_none());
        t.record(&G, Side::First, 2, sq("a8"), sq("a5"), 3);
        t.record(&G, Side::First, 2, sq("a5"), sq("a7"), 5);
        assert!(t.check(&G, Side::First, 2, sq("a7"), sq("a4")).is_some());
        // leaving the segment starts a new run
        assert!(t.check(&G, Side::First, 2, sq("a7"), sq("a3")).is_none());
        // not reversing (same direction again) is not part of the run
        assert!(t.check(&G, Side::First, 2, sq("a7"), sq("a8")).is_none());
    }
}
