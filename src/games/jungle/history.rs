//! Where each position of a Jungle game occurred: the memory behind the jijbent repetition rule,
//! the threefold-repetition draw and `arbiter claim` (rulings §3).

use crate::types::Span;
use std::collections::HashMap;

/// The occurrences of every position of one game, by Zobrist key (placement + side to move),
/// and the log bytes of every ply. Ply 0 is the start position, which counts as an occurrence
/// (rulings §3). Memory and time are linear in the number of plies.
#[derive(Debug, Clone, Default)]
pub struct History {
    occurrences: HashMap<u64, Vec<u32>>,
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
        h.occurrences.insert(key, vec![start]);
        h.spans.push(span);
        h.start = start;
        h
    }

    /// The ply after which the start position stands (0, or a `FromPly` tag's value).
    pub fn start(&self) -> u32 {
        self.start
    }

    /// The plies after which the position `key` stood on the board, in order (0 = the start).
    pub fn occurrences(&self, key: u64) -> &[u32] {
        self.occurrences.get(&key).map_or(&[], Vec::as_slice)
    }

    /// Records that ply `ply` (the next one, 1-based) was played at `span` and left position
    /// `key`; returns the position's occurrences, this one included.
    pub fn push(&mut self, ply: u32, key: u64, span: Span) -> &[u32] {
        self.spans.push(span);
        let v = self.occurrences.entry(key).or_default();
        v.push(ply);
        v
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
        assert_eq!(h.occurrences(7), [0]);
        assert_eq!(h.push(1, 9, Span::new(10, 15)), [1]);
        assert_eq!(h.push(2, 7, Span::new(16, 21)), [0, 2]);
        assert_eq!(h.occurrences(9), [1]);
        assert_eq!(h.occurrences(8), [] as [u32; 0]);
        assert_eq!(h.span(0), Some(Span::new(0, 3)));
        assert_eq!(h.span(2), Some(Span::new(16, 21)));
        assert_eq!(h.span(3), None);
        assert_eq!(h.plies(), 2);
        assert_eq!(ordinal(3), "third");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(21), "21st");
        assert_eq!(ordinal(112), "112th");
        assert_eq!(ordinal(23), "23rd");
    }
}
