//! Report stage: findings out, for people (miette, [`human`]) and machines ([`json`]).

pub mod board;
pub mod human;
pub mod json;
pub mod sarif;
pub mod svg;

/// Line (1-based) and column (1-based, in characters) of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let mut off = offset;
    while off > 0 && !text.is_char_boundary(off) {
        off -= 1;
    }
    let before = &text[..off];
    let line = memchr::memchr_iter(b'\n', before.as_bytes()).count() + 1;
    let line_start = memchr::memrchr(b'\n', before.as_bytes()).map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_col() {
        let t = "ab\ncé d";
        assert_eq!(super::line_col(t, 0), (1, 1));
        assert_eq!(super::line_col(t, 3), (2, 1));
        assert_eq!(super::line_col(t, 6), (2, 3));
        assert_eq!(super::line_col(t, 99), (2, 5));
    }
}
