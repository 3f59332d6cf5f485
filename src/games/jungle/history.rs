//! Where each position of a Jungle game occurred: the memory behind the jijbent repetition rule,
//! the threefold-repetition draw and `arbiter claim` (rulings §3).

use crate::geometry::KeyMap;
use crate::types::Span;

/// What the history keeps of one position: how many times it stood, and the plies after
/// which it stood first, second and latest (0 = the start). Findings cite no more (all
/// occurrences up to three, else the first two and the latest), so a position shuttled to a
/// thousand times costs no more than one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    /// How many times the position stood.
    pub count: usize,
    /// The plies of its first two occurrences (the second only once `count` >= 2).
    pub first: [u32; 2],
    /// The ply of its latest occurrence.
    pub latest: u32,
}

impl Seen {
    /// The occurrences as findings cite them, each with its 1-based number: all of them up
    /// to three, else the first two and the latest.
    pub fn cited(&self) -> Vec<(usize, u32)> {
        match self.count {
            0 => Vec::new(),
            1 => vec![(1, self.first[0])],
            2 => vec![(1, self.first[0]), (2, self.first[1])],
            n => vec![(1, self.first[0]), (2, self.first[1]), (n, self.latest)],
        }
    }

    fn add(&mut self, ply: u32) {
        if self.count < 2 {
            self.first[self.count] = ply;
        }
        self.latest = ply;
        self.count += 1;
    }
}

/// The occurrences of every position of one game, by Zobrist key (placement + side to move),
/// and the log bytes of every ply. Ply 0 is the start position, which counts as an occurrence
/// (rulings §3). Memory and time are linear in the number of plies; no allocation per ply
/// beyond the map's and the span list's growth.
#[derive(Debug, Clone, Default)]
pub struct History {
    occurrences: KeyMap<Seen>,
    spans: Vec<Span>,
    start: u32,
}

impl History {
    /// A history holding the start position `key` (ply 0); `span` is what labels point at for
    /// it (the `FEN` tag, else the `Game` tag).
    pub fn new(key: u64, span: Span) -> Self {
        History::new_at(key, span, 0)
    }

    /// A history holding the start position `key` as the position after ply `start` (a log
    /// taken up from a position, `FromPly`; the positions before it are not known).
    pub fn new_at(key: u64, span: Span, start: u32) -> Self {
        let mut h = History::default();
        h.occurrences.entry(key).or_default().add(start);
        h.spans.push(span);
        h.start = start;
        h
    }

    /// The ply after which the start position stands (0, or a `FromPly` tag's value).
    pub fn start(&self) -> u32 {
        self.start
    }

    /// How the position `key` stood on the board so far (a count of 0 when never).
    pub fn occurrences(&self, key: u64) -> Seen {
        self.occurrences.get(&key).copied().unwrap_or_default()
    }

    /// Records that ply `ply` (the next one, 1-based) was played at `span` and left position
    /// `key`; returns how the position stood before this occurrence.
    pub fn push(&mut self, ply: u32, key: u64, span: Span) -> Seen {
        self.spans.push(span);
        let seen = self.occurrences.entry(key).or_default();
        let before = *seen;
        seen.add(ply);
        before
    }

    /// The log bytes of ply `ply` ([`History::start`]: the start position's label), if
    /// recorded.
    pub fn span(&self, ply: u32) -> Option<Span> {
        self.spans
            .get(ply.checked_sub(self.start)? as usize)
            .copied()
    }

    /// Number of plies recorded.
    pub fn plies(&self) -> u32 {
        self.spans.len().saturating_sub(1) as u32
    }
}

pub use crate::rules::ordinal;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occurrences_count_the_start() {
        let mut h = History::new(7, Span::new(0, 3));
        assert_eq!(h.occurrences(7).cited(), [(1, 0)]);
        assert_eq!(h.push(1, 9, Span::new(10, 15)).count, 0);
        assert_eq!(h.push(2, 7, Span::new(16, 21)).cited(), [(1, 0)]);
        assert_eq!(h.occurrences(7).cited(), [(1, 0), (2, 2)]);
        assert_eq!(h.occurrences(9).cited(), [(1, 1)]);
        assert_eq!(h.occurrences(8).count, 0);
        for ply in [4, 6, 8] {
            h.push(ply - 1, 5, Span::new(30, 35));
            h.push(ply, 7, Span::new(36, 41));
        }
        assert_eq!(h.occurrences(7).cited(), [(1, 0), (2, 2), (5, 8)]);
        assert_eq!(h.span(0), Some(Span::new(0, 3)));
        assert_eq!(h.span(2), Some(Span::new(16, 21)));
        assert_eq!(h.span(9), None);
        assert_eq!(h.plies(), 8);
        assert_eq!(ordinal(3), "third");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(21), "21st");
        assert_eq!(ordinal(112), "112th");
        assert_eq!(ordinal(23), "23rd");
    }
}
