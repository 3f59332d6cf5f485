//! Cuts a source text into games, in one linear pass, before any grammar runs.
//!
//! The rule is the grammar's own (`grammar/log.pest`: `game = tag* setup* movetext`): a game
//! is its tag pairs, then everything else; a `[` outside comments can only stand in a tag
//! pair before anything else of the game, so the first `[` after anything else starts the
//! next game. Tag pairs are read here exactly as the grammar reads them ([`tag_len`]); a
//! line that starts like a tag but is not one counts as "anything else" (its game gets the
//! grammar's parse-error, the next tag line starts the next game). A second `Game` tag ends a
//! game of tags only: the game it names is the next one. Brace comments are
//! skipped, also across lines, so a `[` inside a comment never starts a game; a `;` comment
//! runs to the end of its line. A line ends at LF, CRLF or a lone CR (old Mac files).
//!
//! Because the cut and the grammar agree, every chunk is exactly one game for the grammar:
//! nothing of one game is read as part of another, and one broken game does not hide the next.

use super::Span;

/// The line-by-line state machine behind [`split_games`], usable on a stream: feed every
/// line (with its line end; a line ends at `\n` or at a `\r`) and its byte offset, in order.
#[derive(Debug, Clone, Default)]
pub struct Splitter {
    start: Option<usize>,
    /// Something other than tag pairs and comments (setup rows, movetext, a broken tag) has
    /// been seen in the current game.
    seen_body: bool,
    /// The current game has a `Game` tag.
    seen_game_tag: bool,
    in_comment: bool,
    /// Offset of the line that opened the current multi-line comment.
    comment_line: usize,
    /// `seen_body` and `seen_game_tag` when that comment opened: where a cut after a comment
    /// that never closes takes the game up ([`Splitter::resumed`]).
    before_comment: (bool, bool),
    /// Brace comments end at the end of their line: how the text after a comment that never
    /// closes is cut (no `}` follows it, so none of the later comments close either).
    single_line: bool,
}

/// True for the grammar's WHITESPACE bytes (the BOM is three bytes, see [`ws_len`]).
fn ws_len(b: &[u8]) -> usize {
    match b.first() {
        Some(b' ' | b'\t' | b'\r' | b'\n') => 1,
        Some(0xEF) if b.starts_with(super::encoding::BOM) => 3,
        _ => 0,
    }
}

/// The length of the tag pair `b` starts with, read as the grammar's `tag` rule reads it:
/// `[`, spaces, a name of letters, digits, `_` and `-`, at least one space, a quoted value
/// (`\\` and `\"` escapes, no line break), spaces, `]`. `None` when `b` does not start with
/// one.
pub fn tag_len(b: &[u8]) -> Option<usize> {
    let hspace = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    if b.first() != Some(&b'[') {
        return None;
    }
    let name = hspace(1);
    let i = name + b[name..].iter().take_while(|&&c| NAME[c as usize]).count();
    let gap = i;
    let mut i = hspace(i);
    if gap == name || i == gap || b.get(i) != Some(&b'"') {
        return None;
    }
    let close = value_end(b, i + 1)?;
    i = hspace(close + 1);
    (b.get(i) == Some(&b']')).then_some(i + 1)
}

/// The bytes of a tag's name: ASCII letters, digits, `_` and `-`.
const NAME: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = (c as u8).is_ascii_alphanumeric() || c == b'_' as usize || c == b'-' as usize;
        c += 1;
    }
    t
};

/// The bytes a quoted tag value stops at: its closing quote, a backslash (an escape, or
/// itself) and the line ends a value cannot hold.
const VALUE_STOP: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t
};

/// Reads the quoted tag value that starts at `b[i]` (just after its opening quote) as the
/// grammar does: `\\` and `\"` are escapes, any other backslash is itself, no line break.
/// Returns the index of its closing quote; `None` when a line end or the end of `b` comes
/// first. One table lookup a byte.
fn value_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        i += b.get(i..)?.iter().position(|&c| VALUE_STOP[c as usize])?;
        match b[i] {
            b'\\' => {
                i += if matches!(b.get(i + 1), Some(b'\\' | b'"')) {
                    2
                } else {
                    1
                };
            }
            b'"' => return Some(i),
            _ => return None,
        }
    }
}

/// True when `b` is only the grammar's white space.
fn blank(b: &[u8]) -> bool {
    let mut i = 0;
    while i < b.len() {
        match ws_len(&b[i..]) {
            0 => return false,
            n => i += n,
        }
    }
    true
}

/// True when the tag pair `tag` (as [`tag_len`] measured it) is named `Game`, in any case.
fn is_game_tag(tag: &[u8]) -> bool {
    let name = tag[1..].trim_ascii_start();
    name.len() > 4 && name[..4].eq_ignore_ascii_case(b"game") && matches!(name[4], b' ' | b'\t')
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

    /// A splitter for the game that began at `start`, taken up after the end of the line
    /// whose brace comment never closed, in the state that game was in when the comment
    /// opened (after a body the next tag starts a new game; in the tag section it does not).
    /// No `}` follows, so every later brace comment is taken to end with its line.
    pub fn resumed(&self, start: usize) -> Self {
        let (seen_body, seen_game_tag) = self.before_comment;
        Splitter {
            start: Some(start),
            seen_body,
            seen_game_tag,
            single_line: true,
            ..Splitter::default()
        }
    }

    /// The offset of the line that opened a brace comment still open, if one is.
    pub fn open_comment(&self) -> Option<usize> {
        self.in_comment.then_some(self.comment_line)
    }

    /// Feeds one line starting at byte `offset` (its line end included; a line ends at `\n`
    /// or `\r`). Returns the span of the game that ended when a new game starts in this line
    /// (its `end` is where the new game starts): the caller then feeds the rest of the line,
    /// `line[end - offset..]` at `end`, again ([`feed`]). Works on bytes: only ASCII characters matter, so
    /// invalid UTF-8 cannot confuse it. Linear: each byte is looked at once.
    pub fn line(&mut self, line: &[u8], offset: usize) -> Option<Span> {
        let mut i = 0;
        loop {
            if self.in_comment {
                match memchr::memchr(b'}', &line[i..]) {
                    Some(k) => {
                        i += k + 1;
                        self.in_comment = false;
                    }
                    None => {
                        self.in_comment = !self.single_line;
                        return None;
                    }
                }
            }
            let next = if self.seen_body {
                memchr::memchr3(b'{', b';', b'[', &line[i..]).map(|k| i + k)
            } else {
                self.tag_section(line, offset, i)
            };
            let at = next?;
            i = at + 1;
            match line[at] {
                b'{' => {
                    self.in_comment = true;
                    self.comment_line = offset;
                    self.before_comment = (self.seen_body, self.seen_game_tag);
                    self.note_start(offset);
                }
                b'[' => {
                    // The next game starts with its line when only white space (the grammar's,
                    // as [`ws_len`] reads it) precedes it.
                    let cut = if blank(&line[..at]) {
                        offset
                    } else {
                        offset + at
                    };
                    let start = self.start.unwrap_or(offset);
                    if cut <= start {
                        // Nothing of this game before it: no game ends here (a guard; the
                        // rules above never get here).
                        continue;
                    }
                    let ended = Span::new(start, cut);
                    self.start = Some(cut);
                    self.seen_body = false;
                    self.seen_game_tag = false;
                    return Some(ended);
                }
                // `;`: a comment to the end of the line.
                _ => return None,
            }
        }
    }

    /// Reads tag pairs, white space and the body's first byte from `line[i..]`; returns the
    /// position of the next byte the caller acts on (a `{` or `;` comment, or the `[` of a
    /// second `Game` tag, which starts the next game), with the body noted, or `None` at the
    /// end of the line.
    fn tag_section(&mut self, line: &[u8], offset: usize, mut i: usize) -> Option<usize> {
        loop {
            let w = ws_len(&line[i..]);
            if w > 0 {
                i += w;
                continue;
            }
            let c = *line.get(i)?;
            self.note_start(offset);
            match c {
                b'{' | b';' => return Some(i),
                b'[' => match tag_len(&line[i..]) {
                    Some(n) => {
                        if is_game_tag(&line[i..i + n]) {
                            if self.seen_game_tag {
                                return Some(i);
                            }
                            self.seen_game_tag = true;
                        }
                        i += n;
                    }
                    None => {
                        // Not a tag pair: the game's body (a parse-error for the grammar);
                        // the rest of the line is part of it, whatever it holds.
                        self.seen_body = true;
                        return None;
                    }
                },
                _ => {
                    self.seen_body = true;
                    return memchr::memchr3(b'{', b';', b'[', &line[i..]).map(|k| i + k);
                }
            }
        }
    }

    fn note_start(&mut self, line_offset: usize) {
        if self.start.is_none() {
            self.start = Some(line_offset);
        }
    }
}

/// The lines of `text` with their offsets: each ends after a `\n`, or after a `\r` not
/// followed by `\n`, or at the end of the text.
pub fn lines(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let end = line_end(&text[at..]).map_or(text.len(), |k| at + k);
        let line = (at, &text[at..end]);
        at = end;
        Some(line)
    })
}

/// The length of the first line of `b`, line end included (`None` when `b` holds no line
/// end): a line ends at `\n`, or at a `\r` that no `\n` follows.
pub fn line_end(b: &[u8]) -> Option<usize> {
    let k = memchr::memchr2(b'\n', b'\r', b)?;
    if b[k] == b'\r' && b.get(k + 1) == Some(&b'\n') {
        return Some(k + 2);
    }
    if b[k] == b'\r' && k + 1 == b.len() {
        // A CR at the end of what is there: the LF may follow in the next piece.
        return None;
    }
    Some(k + 1)
}

/// Where a native log starts in `bytes` after another format's game (from byte `from`, a
/// line start or inside a line): the first line that opens with a tag pair (`[Game
/// "barrage"]`, which no importer's format holds), taken back over the blank and `;`
/// comment lines just before it, which open that log. `None` when no line opens with a tag
/// pair. Linear.
pub fn native_log_start(bytes: &[u8], from: usize) -> Option<usize> {
    let starts = || memchr::memchr_iter(b'\n', &bytes[from..]).map(|nl| from + nl + 1);
    let line = |ls: usize| {
        let rest = &bytes[ls..];
        rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())].trim_ascii()
    };
    let tag_line = starts().find(|&ls| tag_len(line(ls)).is_some())?;
    let mut start = tag_line;
    while let Some(prev) = bytes[from..start.saturating_sub(1)]
        .iter()
        .rposition(|&b| b == b'\n')
        .map(|p| from + p + 1)
    {
        let l = line(prev);
        if !(l.is_empty() || l.starts_with(b";")) {
            break;
        }
        start = prev;
    }
    Some(start)
}

/// [`native_log_start`], also when the log begins on the line of `from`, after spaces only:
/// a file that ends without a line break (as Gravon's do) with a log appended to it, whose
/// first tag pair, or the first of the `;` comment lines that open it, follows at once; and
/// when only white space (any line ends: a lone CR too) comes before its first tag pair.
pub fn native_log_after(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    // Only white space before a tag pair: the log starts there, whatever the line ends.
    let tag = from + rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
    if tag_len(&bytes[tag..]).is_some() {
        return Some(tag);
    }
    let after = from
        + rest
            .iter()
            .take_while(|&&b| matches!(b, b' ' | b'\t'))
            .count();
    if tag_len(&bytes[after..]).is_some() {
        return Some(after);
    }
    let t = native_log_start(bytes, from)?;
    // A `;` comment here opens the log when only comment lines lie between it and the log.
    let next_line = line_end(&bytes[after..]).map_or(bytes.len(), |k| after + k);
    Some(if bytes.get(after) == Some(&b';') && t == next_line {
        after
    } else {
        t
    })
}

/// Feeds one whole line at `offset` to `sp` ([`Splitter::line`], the rest of the line fed
/// again after each cut), calling `ended` with the span of every game that ends in it.
pub fn feed(sp: &mut Splitter, line: &[u8], offset: usize, mut ended: impl FnMut(Span)) {
    let mut at = offset;
    while let Some(game) = sp.line(&line[at - offset..], at) {
        ended(game);
        at = game.end;
    }
}

/// Returns the byte spans of the games in `text`, in order. Leading blank lines belong to no
/// game. A text with no non-blank content yields no game.
pub fn split_games(text: &str) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut sp = Splitter::new();
    for (offset, line) in lines(text.as_bytes()) {
        feed(&mut sp, line, offset, |game| spans.push(game));
    }
    if let Some(s) = sp.current_start() {
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

    #[test]
    fn a_one_line_game_ends_where_the_next_tag_starts() {
        let one = "[Game \"jungle\"] [Result \"*\"] 1. g3-g4 a7-a6 *\n";
        let next = "[Game \"jungle\"]\n[Result \"*\"]\n1. g3-g4 *\n";
        let t = format!("{one}{next}{one}");
        assert_eq!(pieces(&t), vec![one, next, one]);
        // and a game that starts after the result token, on the same line
        let t = "[A \"1\"] 1. a2a3 * [A \"2\"] 1. b2b3 *";
        assert_eq!(
            pieces(t),
            vec!["[A \"1\"] 1. a2a3 * ", "[A \"2\"] 1. b2b3 *"]
        );
    }

    #[test]
    fn a_broken_tag_line_is_a_game_of_its_own() {
        let good = "[Game \"jungle\"]\n1. g3-g4 *\n";
        let t = format!("{good}[garbage\n{good}");
        assert_eq!(pieces(&t), vec![good, "[garbage\n", good]);
        // a broken tag inside a header: the tags after it start the next game
        let t = "[A \"1\"]\n[B \"x\"y\"]\n[C \"2\"]\n1. a2a3\n";
        assert_eq!(
            pieces(t),
            vec!["[A \"1\"]\n[B \"x\"y\"]\n", "[C \"2\"]\n1. a2a3\n"]
        );
    }

    #[test]
    fn a_second_game_tag_ends_a_game_of_tags_only() {
        let tags = "[Game \"jungle\"]\n[Result \"*\"]\n";
        let game = "[GAME  \"jungle\"] [Result \"*\"] 1. g3-g4 *\n";
        let t = format!("{tags}{tags}{game}");
        assert_eq!(pieces(&t), vec![tags, tags, game]);
        // other repeated tags stay in their game (the last counts, with a warning)
        assert_eq!(
            pieces("[Result \"*\"]\n[Result \"1-0\"]\n[Gamer \"x\"]\n").len(),
            1
        );
    }

    #[test]
    fn comments_in_the_header_and_in_tag_values() {
        // a comment on a tag line that runs over lines holding tag-like text
        let t = "[A \"{;[\"] {c\n[B \"2\"]\n} [C \"3\"]\n1. a2a3\n[D \"4\"]\n";
        assert_eq!(pieces(t).len(), 2);
        assert!(pieces(t)[1].starts_with("[D"));
        // a line starting with a comment, then movetext: the body
        let t = "[A \"1\"]\n{c} 1. a2a3\n[B \"2\"]\n";
        assert_eq!(pieces(t).len(), 2);
        // ; comments end at their line
        let t = "[A \"1\"] ; [x\n[B \"2\"]\n1. a2a3 ; {\n[C \"3\"]\n";
        assert_eq!(
            pieces(t),
            vec!["[A \"1\"] ; [x\n[B \"2\"]\n1. a2a3 ; {\n", "[C \"3\"]\n"]
        );
    }

    #[test]
    fn every_line_end() {
        for nl in ["\n", "\r\n", "\r"] {
            let g = format!("[A \"1\"]{nl}; c{nl}1. a2a3 *{nl}");
            let t = g.repeat(3);
            assert_eq!(pieces(&t), vec![g.as_str(); 3], "{nl:?}");
        }
    }

    #[test]
    fn bytes_of_a_bom_alone_are_no_white_space() {
        // A lone 0xEF is body: the `[` after it starts the next game after it, not at the
        // line's start, where the game it ends starts too (this looped).
        let mut sp = Splitter::new();
        assert_eq!(sp.line(b"\xEF[x\n", 0), Some(Span::new(0, 1)));
        assert_eq!(sp.line(b"[x\n", 1), None);
        assert_eq!(
            sp.line(b"\xEF\xBB\xBF[A \"1\"]\n", 4),
            Some(Span::new(1, 4))
        );
    }

    #[test]
    fn tag_len_is_the_grammar_tag() {
        assert_eq!(tag_len(b"[A \"1\"] x"), Some(7));
        let t = b"[ A_-9 \t\"a\\\"b\\\\\" ]";
        assert_eq!(tag_len(t), Some(t.len()));
        for bad in [
            "[A\"1\"]",
            "[ \"1\"]",
            "[A \"1\"",
            "[A \"1\n\"]",
            "[A \"1\" x]",
            "[A 1]",
        ] {
            assert_eq!(tag_len(bad.as_bytes()), None, "{bad}");
        }
    }
}
