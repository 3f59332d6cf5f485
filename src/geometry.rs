//! Boards of any size up to 10x10: squares as small integers, files and ranks, directions.
//!
//! A square is `rank * width + file`, both 0-based from the first player's left-hand corner.
//! How a ruleset *names* a rank (1-based for the Stratego family and Jungle, 0-based ICCS for
//! Xiangqi) is the ruleset's choice, passed as `rank_base`.

/// Largest board side (Stratego and Spionage are 10x10; Xiangqi 9x10).
pub const MAX_SIDE: usize = 10;
/// Largest number of squares.
pub const MAX_SQUARES: usize = MAX_SIDE * MAX_SIDE;

/// A square index `rank * width + file` (0-based).
pub type Square = u8;

/// The four orthogonal steps as (file delta, rank delta).
pub const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// A board's dimensions and the naming of its coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Number of files (columns).
    pub width: u8,
    /// Number of ranks (rows).
    pub height: u8,
    /// The number written for the first rank: 1 (Stratego, Jungle) or 0 (ICCS).
    pub rank_base: u8,
}

impl Geometry {
    /// Number of squares.
    pub fn squares(&self) -> usize {
        self.width as usize * self.height as usize
    }
    /// The square at 0-based `file`, `rank`, or `None` off the board.
    pub fn square(&self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.width as i32 || rank >= self.height as i32 {
            None
        } else {
            Some((rank * self.width as i32 + file) as Square)
        }
    }
    /// The square a log names: file index from `a` = 0, rank number as written.
    pub fn square_written(&self, file: u8, rank_written: u32) -> Option<Square> {
        let rank = rank_written.checked_sub(self.rank_base as u32)?;
        if rank > i32::MAX as u32 {
            return None;
        }
        self.square(file as i32, rank as i32)
    }
    /// 0-based file of a square.
    pub fn file(&self, sq: Square) -> u8 {
        sq % self.width
    }
    /// 0-based rank of a square.
    pub fn rank(&self, sq: Square) -> u8 {
        sq / self.width
    }
    /// The neighbour one step away, or `None` off the board.
    pub fn step(&self, sq: Square, (df, dr): (i8, i8)) -> Option<Square> {
        self.square(
            self.file(sq) as i32 + df as i32,
            self.rank(sq) as i32 + dr as i32,
        )
    }
    /// The square's name as the log writes it (`a4`, `j10`, ICCS `h2`).
    pub fn name(&self, sq: Square) -> String {
        format!(
            "{}{}",
            (b'a' + self.file(sq)) as char,
            self.rank(sq) as u32 + self.rank_base as u32
        )
    }
    /// Moves as a coordinate log writes them: `a4-a5`, `a4xa5` when `occupied(to)` (an attack
    /// or capture), in the order given.
    pub fn move_texts(
        &self,
        moves: impl IntoIterator<Item = (Square, Square)>,
        occupied: impl Fn(Square) -> bool,
    ) -> Vec<String> {
        moves
            .into_iter()
            .map(|(f, t)| {
                let sep = if occupied(t) { 'x' } else { '-' };
                format!("{}{sep}{}", self.name(f), self.name(t))
            })
            .collect()
    }
    /// True when the two squares share a file or a rank (and differ).
    pub fn in_line(&self, a: Square, b: Square) -> bool {
        a != b && (self.file(a) == self.file(b) || self.rank(a) == self.rank(b))
    }
    /// Unit step from `a` towards `b` when they are in line.
    pub fn direction(&self, a: Square, b: Square) -> Option<(i8, i8)> {
        if !self.in_line(a, b) {
            return None;
        }
        let df = (self.file(b) as i8 - self.file(a) as i8).signum();
        let dr = (self.rank(b) as i8 - self.rank(a) as i8).signum();
        Some((df, dr))
    }
    /// Manhattan distance between two squares.
    pub fn distance(&self, a: Square, b: Square) -> u8 {
        self.file(a).abs_diff(self.file(b)) + self.rank(a).abs_diff(self.rank(b))
    }
}

/// Deterministic 64-bit keys for incremental (Zobrist) position hashing: the same on every run
/// and machine, so keys in reports are reproducible. `const`: engines tabulate their keys at
/// compile time.
pub const fn zobrist(n: u64) -> u64 {
    // splitmix64
    let mut z = n.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hashes a [`zobrist`] position key to itself: the keys are already uniformly random, so a
/// map of positions needs no SipHash. Every repetition and chase memory uses it.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map from position keys ([`zobrist`] sums) hashed by [`KeyHasher`].
pub type KeyMap<V> = std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_steps() {
        let g = Geometry {
            width: 10,
            height: 10,
            rank_base: 1,
        };
        let a1 = g.square_written(0, 1).unwrap();
        assert_eq!(a1, 0);
        assert_eq!(g.name(99), "j10");
        assert_eq!(g.step(a1, (-1, 0)), None);
        assert_eq!(g.step(a1, (0, 1)), Some(10));
        assert_eq!(g.square_written(0, 0), None);
        assert_eq!(g.square_written(0, 11), None);
        let x = Geometry {
            width: 9,
            height: 10,
            rank_base: 0,
        };
        assert_eq!(x.name(x.square_written(7, 2).unwrap()), "h2");
        assert_eq!(g.direction(0, 30), Some((0, 1)));
        assert_eq!(g.direction(0, 11), None);
    }
}
