//! Cuts a source text into games, in one linear pass, before any grammar runs.
//!
//! A new game starts at a line whose first non-blank character is `[` (a tag line) when
//! something other than tags (setup rows or movetext) has been seen since the previous tag.
//! Brace comments that span lines are skipped, so a `[` inside a comment never starts a game.
//! This is what lets a 100,000-game archive be parsed one game at a time, and what keeps one
//! broken game from hiding the others.

use super::Span;

/// The line-by-line state machine behind [`split_games`], usable on a stream: feed every line
/// (with its newline) and its byte offset, in order.
#[derive(Debug, Clone, Default)]
pub struct Splitter {
    start: Option<usize>,
    seen_body: bool, // movetext or setup seen since the last tag line
    in_comment: bool,
    /// Offset of the line that opened the current multi-line comment.
    comment_line: usize,
    /// Brace comments end at the end of their line: how the text after a comment that never
    /// closes is cut (no `}` follows it, so none of the later comments close either).
    single_line: bool,
}

impl Splitter {
    /// A splitter at the start of a text.
    pub fn new() -> Self {
        Self::default()
    }

    /// The offset where the current game started, once a non-blank line was seen.
    pub fn current_start(&self) -> Option<usize> {
        self.start
    }

    /// A splitter inside a game that began at `start` and has a body: the next tag line
    /// starts a new game. Used to cut again after a comment that never closed: no `}` follows
    /// it, so every later brace comment is taken to end with its line.
    pub fn resumed(start: usize) -> Self {
        Splitter {
            start: Some(start),
            seen_body: true,
            in_comment: false,
            comment_line: 0,
            single_line: true,
        }
    }

    /// The offset of the line that opened a brace comment still open, if one is.
    pub fn open_comment(&self) -> Option<usize> {
        self.in_comment.then_some(self.comment_line)
    }

    /// Feeds one line starting at byte `offset`. Returns `Some(offset)` when this line starts
    /// a new game and a previous game ended just before it. Works on bytes: only ASCII
    /// characters (`[`, `{`, `}`, `;`, white space) matter, so invalid UTF-8 cannot confuse it.
    pub fn line(&mut self, line: &[u8], offset: usize) -> Option<usize> {
        let trimmed = trim_start(line);
        if self.in_comment {
            if let Some(close) = line.iter().position(|&b| b == b'}') {
                self.in_comment = false;
                if !is_blank(&line[close + 1..]) {
                    self.seen_body = true;
                }
            }
            return None;
        }
        if is_blank(trimmed) {
            return None;
        }
        let mut boundary = None;
        let is_tag = trimmed[0] == b'[';
        if is_tag {
            if self.seen_body {
                if self.start.is_some() {
                    boundary = Some(offset);
                }
                self.start = Some(offset);
                self.seen_body = false;
            } else if self.start.is_none() {
                self.start = Some(offset);
            }
        } else {
            if self.start.is_none() {
                self.start = Some(offset);
            }
            if trimmed[0] != b';' && trimmed[0] != b'{' {
                self.seen_body = true;
            }
            // Track an unclosed brace comment so its lines are skipped (most lines have no
            // brace or semicolon at all: one vectorised search says so).
            if memchr::memchr3(b'{', b'}', b';', trimmed).is_none() {
                return boundary;
            }
            let mut open = false;
            let mut open_at = 0;
            for (i, &c) in trimmed.iter().enumerate() {
                match c {
                    b'{' if !open => {
                        open = true;
                        open_at = i;
                    }
                    b'}' if open => open = false,
                    b';' if !open => break,
                    _ => {}
                }
            }
            if open && !self.single_line {
                self.in_comment = true;
                self.comment_line = offset;
                if !is_blank(&trimmed[..open_at]) {
                    self.seen_body = true;
                }
            }
        }
        boundary
    }
}

fn is_blank(b: &[u8]) -> bool {
    trim_start(b).is_empty()
}

fn trim_start(b: &[u8]) -> &[u8] {
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            // UTF-8 byte order mark
            0xEF if b[i..].starts_with(&[0xEF, 0xBB, 0xBF]) => i += 3,
            _ => break,
        }
    }
    &b[i..]
}

/// Returns the byte spans of the games in `text`, in order. Leading blank lines belong to no
/// game. A text with no non-blank content yields no game.
pub fn split_games(text: &str) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut sp = Splitter::new();
    let mut offset = 0;
    let mut start = None;
    for line in text.split_inclusive('\n') {
        if let Some(b) = sp.line(line.as_bytes(), offset) {
            spans.push(Span::new(start.unwrap_or(0), b));
        }
        start = sp.current_start();
        offset += line.len();
    }
    if let Some(s) = start {
        spans.push(Span::new(s, text.len()));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<&str> {
        split_games(text)
            .into_iter()
            .map(|s| &text[s.start..s.end])
            .collect()
    }

    #[test]
    fn splits_at_tags_after_movetext() {
        let t = "[A \"1\"]\n[B \"2\"]\n\n1. a2a3\n\n[A \"3\"]\n1. b2b3 *\n";
        assert_eq!(
            pieces(t),
            vec![
                "[A \"1\"]\n[B \"2\"]\n\n1. a2a3\n\n",
                "[A \"3\"]\n1. b2b3 *\n"
            ]
        );
    }

    #[test]
    fn tag_inside_multiline_comment_does_not_split() {
        let t = "[A \"1\"]\n1. a2a3 {note\n[not a tag]\n} b2b3\n[A \"2\"]\n1. c2c3\n";
        assert_eq!(pieces(t).len(), 2);
        assert!(pieces(t)[0].contains("[not a tag]"));
    }

    #[test]
    fn blank_text_has_no_game() {
        assert!(split_games("").is_empty());
        assert!(split_games("\n\n  \n").is_empty());
    }

    #[test]
    fn tags_only_is_one_game() {
        assert_eq!(pieces("[A \"1\"]\n[B \"2\"]\n").len(), 1);
    }
}
