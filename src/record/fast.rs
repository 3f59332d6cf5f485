//! A hand-written fast path for well-formed games, byte for byte the grammar of
//! `grammar/log.pest`.
//!
//! [`parse_fast`] accepts exactly what the grammar accepts along the common paths and builds the
//! record through the same builder as the pest parser, so both give identical records (a
//! property tested on every fixture, every corpus game and random token soups). Whenever it
//! meets anything it does not handle, including every syntax error, it returns `None` and the
//! pest parser takes over: the grammar stays the definition of the format and the author of
//! every syntax error message. This path is what lets archives parse at hundreds of MB/s.

use super::builder::{Builder, Loc, MainRun, Ply};
use super::encoding::BOM;
use super::GameRecord;

/// Parses one game of `src` (starting at byte `base` of its file), or `None` when the pest
/// parser must decide.
pub fn parse_fast(src: &str, base: usize) -> Option<GameRecord> {
    let mut out = GameRecord::default();
    parse_fast_into(src, base, &mut out).map(|()| out)
}

/// [`parse_fast`] into `out`, where the record is to stay; `None` when the pest parser must
/// decide (`out` is then partly built).
pub fn parse_fast_into(src: &str, base: usize, out: &mut GameRecord) -> Option<()> {
    let mut p = Scanner {
        b: src.as_bytes(),
        i: 0,
        stray: false,
        short_plies: true,
    };
    let mut builder = Builder::new(src, base, out);
    // tags
    p.skip_trivia(&mut builder)?;
    while p.peek() == Some(b'[') {
        let (name, value, whole, escaped) = p.tag()?;
        if escaped {
            builder.tag(name, value, whole);
        } else {
            builder.plain_tag(name, value, whole);
        }
        p.skip_trivia(&mut builder)?;
    }
    while p.at_keyword_setup() {
        p.setup_section(&mut builder)?;
    }
    // movetext (the builder keeps the open variations: a variation nested 100,000 deep costs
    // no call stack)
    loop {
        p.skip_trivia(&mut builder)?;
        p.plain_run(&mut builder);
        let Some(c) = p.peek() else { break };
        if let Some(start) = p.lone_short_ply() {
            builder.lone_ply(start);
            continue;
        }
        if c.is_ascii_digit() {
            if let Some((n, dots3, at)) = p.move_number() {
                builder.move_number_read(n, dots3, at);
                continue;
            }
        }
        if c == b'$' {
            if let Some(nag) = p.nag() {
                builder.nag(nag);
                continue;
            }
        }
        if let Some(r) = p.result() {
            builder.result(r);
            continue;
        }
        if matches!(c, b'(' | b')' | b'{' | b';') {
            // a comment after a run of plain moves is read by the loop's first step
            p.variation_or_comment(&mut builder)?;
            continue;
        }
        p.turn(&mut builder)?;
    }
    // an open variation is a syntax error: the grammar reports it
    if builder.in_variation() {
        return None;
    }
    builder.finish();
    Some(())
}

/// What [`Scanner::plain_run`] hands its plies and move numbers to: the builder, or a run of
/// its main line ([`MainRun`]), which takes them the same way, faster.
trait PlainSink {
    /// A move number `N.` of value `n` at `at`.
    fn number(&mut self, n: u64, at: Loc);
    /// A lone four-byte ply at `start`.
    fn ply(&mut self, start: usize);
}

impl PlainSink for Builder<'_> {
    #[inline(always)]
    fn number(&mut self, n: u64, at: Loc) {
        self.move_number_read(n, false, at);
    }
    #[inline(always)]
    fn ply(&mut self, start: usize) {
        self.lone_ply(start);
    }
}

impl PlainSink for MainRun<'_, '_> {
    #[inline(always)]
    fn number(&mut self, n: u64, at: Loc) {
        MainRun::number(self, n, at);
    }
    #[inline(always)]
    fn ply(&mut self, start: usize) {
        MainRun::ply(self, start);
    }
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    /// A setup row went on after a space: the grammar reports that row.
    stray: bool,
    /// The game's plies are written in four bytes (`h2e2`), so [`Scanner::plain_run`] reads
    /// them through a [`MainRun`]; false once a run found a move number but no such ply.
    short_plies: bool,
}

/// Bytes that end a move text (the grammar's `delimiter`); 0xEF only when it starts a BOM.
const DELIMITER: [bool; 256] = {
    let mut t = [false; 256];
    let d = b" \t\r\n{};()[],\"";
    let mut i = 0;
    while i < d.len() {
        t[d[i] as usize] = true;
        i += 1;
    }
    t[0xEF] = true;
    t
};

/// Byte classes of the tight movetext loop ([`Scanner::plain_run`]): one lookup a byte.
const ALPHA: u8 = 1;
const DIGIT: u8 = 2;
/// Space and tab.
const HSPACE: u8 = 4;
/// LF and CR.
const NEWLINE: u8 = 8;
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = if b.is_ascii_alphabetic() {
            ALPHA
        } else if b.is_ascii_digit() {
            DIGIT
        } else if b == b' ' || b == b'\t' {
            HSPACE
        } else if b == b'\n' || b == b'\r' {
            NEWLINE
        } else {
            0
        };
        c += 1;
    }
    t
};

/// The class bits of byte `c` ([`CLASS`]).
#[inline(always)]
fn class(c: u8) -> u8 {
    CLASS[c as usize]
}

/// Where the lone four-byte ply at `s` of `b` ends, its trailing white space included (see
/// [`Scanner::lone_short_ply`]); `None` when none starts there.
#[inline(always)]
fn short_ply_end(b: &[u8], s: usize) -> Option<usize> {
    // Range tests, not table lookups: no load waits on the byte's load.
    let short = |f0: u8, r0: u8, f1: u8, r1: u8| {
        f0.is_ascii_alphabetic()
            & f1.is_ascii_alphabetic()
            & r0.is_ascii_digit()
            & r1.is_ascii_digit()
    };
    // The commonest, read with one bounds check: the move, one space, then a byte that is
    // neither white space to skip nor a `,`.
    if let Some(&[f0, r0, f1, r1, b' ', next, ..]) = b.get(s..) {
        if short(f0, r0, f1, r1) && class(next) != HSPACE && next != b',' {
            return Some(s + 5);
        }
    }
    let Some(&[f0, r0, f1, r1, ..]) = b.get(s..) else {
        return None;
    };
    if !short(f0, r0, f1, r1) {
        return None;
    }
    let mut j = s + 4;
    match b.get(j).map(|&c| class(c)) {
        None | Some(NEWLINE) => {}
        Some(HSPACE) => {
            j += 1;
            while b.get(j).is_some_and(|&c| class(c) == HSPACE) {
                j += 1;
            }
            if b.get(j) == Some(&b',') {
                return None;
            }
        }
        _ => return None,
    }
    Some(j)
}

impl Scanner<'_> {
    /// One setup section (`setup SIDE` and its rows), at its keyword: given to the builder.
    fn setup_section(&mut self, builder: &mut Builder) -> Option<()> {
        let start = self.i;
        self.i += 5;
        self.skip_trivia(builder)?;
        let side_start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.i += 1;
        }
        if self.i == side_start {
            return None;
        }
        let side = (side_start, self.i);
        // pest expands `setup_row+` to `row ~ skip ~ (row ~ (skip ~ row)*)?`: the trivia after
        // the first row stays consumed (the section's span ends after it when that row is the
        // only one); before a later row it is given back when no row follows.
        self.skip_trivia(builder)?;
        let mut rows = vec![self.setup_row()?];
        if self.stray {
            return None;
        }
        self.skip_trivia(builder)?;
        loop {
            // Given back, the trivia's comments are read again after the section.
            let (save, comments) = (self.i, builder.comments_read());
            if rows.len() > 1 {
                self.skip_trivia(builder)?;
            }
            match self.setup_row() {
                Some(row) => rows.push(row),
                None if self.stray => return None,
                None => {
                    self.i = save;
                    builder.unread_comments(comments);
                    break;
                }
            }
        }
        builder.setup(side, &rows, (start, self.i));
        self.skip_trivia(builder)?;
        Some(())
    }

    /// A variation's `(` or `)` at `self.i`, given to the builder as the grammar's
    /// `variation` rule gives it (opened at its `(`, closed with all of it); at a comment,
    /// nothing (the movetext loop reads it). `None` for a `)` that closes nothing, and for a
    /// `(` that may be a spaced annotation (`h2e2 (R)`: a letter or two in brackets), which
    /// the grammar reads by what comes before it.
    #[cold]
    fn variation_or_comment(&mut self, builder: &mut Builder) -> Option<()> {
        let at = self.i;
        match self.b[at] {
            b'(' => {}
            b')' => {
                self.i += 1;
                return builder.close_variation_at(at).then_some(());
            }
            _ => return Some(()),
        }
        self.i += 1;
        // The grammar's `short_annotation` and its `)`: `R)`, `3:B)`, `:B)`.
        let letter = |c: u8| c.is_ascii_alphanumeric() || c == b'?';
        let short_annotation = match self.b[self.i..] {
            [l, b')', ..] => letter(l),
            [l, b':', m, b')', ..] => letter(l) && letter(m),
            [b':', m, b')', ..] => letter(m),
            _ => false,
        };
        if short_annotation {
            return None;
        }
        builder.open_variation((at, self.i));
        Some(())
    }

    /// A NAG (`$` and digits) at `self.i`: its span, or `None` (nothing consumed).
    fn nag(&mut self) -> Option<Loc> {
        let s = self.i;
        self.i += 1;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if self.i > s + 1 {
            return Some((s, self.i));
        }
        self.i = s;
        None
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn at_bom(&self) -> bool {
        self.b[self.i..].starts_with(BOM)
    }

    /// The grammar's WHITESPACE (space, tab, CR, LF, BOM) and COMMENT (`{...}`, `;` to end of
    /// line). `None` for an unterminated brace comment (a syntax error: pest reports it).
    fn skip_trivia(&mut self, builder: &mut Builder) -> Option<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r' | b'\n') => self.i += 1,
                Some(0xEF) if self.at_bom() => self.i += 3,
                Some(b'{') => {
                    let close = memchr::memchr(b'}', &self.b[self.i..])?;
                    builder.comment((self.i, self.i + close + 1));
                    self.i += close + 1;
                }
                Some(b';') => {
                    let end = match memchr::memchr2(b'\n', b'\r', &self.b[self.i..]) {
                        Some(n) => self.i + n, // the line end is whitespace
                        None => self.b.len(),
                    };
                    builder.comment((self.i, end));
                    self.i = end;
                }
                _ => return Some(()),
            }
        }
    }

    fn hspace(&mut self) -> usize {
        let s = self.i;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
        self.i - s
    }

    /// `[` hspace* name hspace+ `"` value `"` hspace* `]`: the name, the value, all of it,
    /// and whether the value holds a backslash (an escape to read).
    fn tag(&mut self) -> Option<(Loc, Loc, Loc, bool)> {
        let start = self.i;
        self.i += 1;
        self.hspace();
        let ns = self.i;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
        {
            self.i += 1;
        }
        let name = (ns, self.i);
        if name.0 == name.1 || self.hspace() == 0 || self.peek() != Some(b'"') {
            return None;
        }
        self.i += 1;
        let vs = self.i;
        let mut escaped = false;
        loop {
            match self.peek()? {
                b'\\' => {
                    escaped = true;
                    let pair = matches!(self.b.get(self.i + 1), Some(b'\\' | b'"'));
                    self.i += if pair { 2 } else { 1 };
                }
                b'"' => break,
                b'\n' | b'\r' => return None,
                _ => self.i += 1,
            }
        }
        let value = (vs, self.i);
        self.i += 1;
        self.hspace();
        if self.peek() != Some(b']') {
            return None;
        }
        self.i += 1;
        Some((name, value, (start, self.i), escaped))
    }

    fn at_keyword_setup(&self) -> bool {
        self.b[self.i..]
            .get(..5)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"setup"))
    }

    /// rank_label (1-2 digits) hspace+ cells, followed by hspace* and a newline, the end, `;`
    /// or `{`. Leaves the position unchanged on `None`.
    fn setup_row(&mut self) -> Option<(Loc, Loc, Option<Loc>)> {
        let s = self.i;
        let r = (|| {
            let ls = self.i;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) && self.i - ls < 2 {
                self.i += 1;
            }
            if self.i == ls {
                return None;
            }
            let label = (ls, self.i);
            if self.hspace() == 0 {
                return None;
            }
            let cs = self.i;
            while self
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'?')
            {
                self.i += 1;
            }
            if self.i == cs {
                return None;
            }
            let cells = (cs, self.i);
            let mut j = self.i;
            while matches!(self.b.get(j), Some(b' ' | b'\t')) {
                j += 1;
            }
            match self.b.get(j) {
                // the grammar's NEWLINE: LF, CRLF or a lone CR
                None | Some(b'\n' | b'\r' | b';' | b'{') => Some((label, cells, None)),
                Some(&c) => {
                    self.stray =
                        j > self.i && (c.is_ascii_alphanumeric() || c == b'.' || c == b'?');
                    None
                }
            }
        })();
        if r.is_none() {
            self.i = s;
        }
        r
    }

    /// digits then `...`, `.` or `…`, not followed by a digit: its value (`u64::MAX` when too
    /// large), whether it ends in three dots, and where it stands.
    fn move_number(&mut self) -> Option<(u64, bool, Loc)> {
        let s = self.i;
        let mut n: u64 = 0;
        // Saturating: a number too large for u64 reads as u64::MAX (a wrong number like any
        // other), exactly what `str::parse` then `unwrap_or(u64::MAX)` gives, leading zeros
        // and all.
        while let Some(c) = self.peek().filter(u8::is_ascii_digit) {
            n = n.saturating_mul(10).saturating_add(u64::from(c - b'0'));
            self.i += 1;
        }
        if self.i == s {
            return None;
        }
        let rest = &self.b[self.i..];
        let (len, dots3) = match rest.first() {
            Some(b'.') if rest.starts_with(b"...") => (3, true),
            Some(b'.') => (1, false),
            Some(0xE2) if rest.starts_with("\u{2026}".as_bytes()) => (3, true),
            _ => {
                self.i = s;
                return None;
            }
        };
        // `33.4` is a WXF move, not move number 33 and a move `4`.
        if rest.get(len).is_some_and(|c| c.is_ascii_digit()) {
            self.i = s;
            return None;
        }
        self.i += len;
        Some((n, dots3, (s, self.i)))
    }

    /// A result token followed by white space, `{`, `;` or the end.
    fn result(&mut self) -> Option<Loc> {
        let rest = &self.b[self.i..];
        // Every result token starts with `1`, `0`, `*` or the first byte of `½`.
        if !matches!(rest.first(), Some(b'1' | b'0' | b'*' | 0xC2)) {
            return None;
        }
        let len = ["1-0", "0-1", "1/2-1/2", "\u{bd}-\u{bd}", "*"]
            .iter()
            .find(|t| rest.starts_with(t.as_bytes()))?
            .len();
        let after = &rest[len..];
        let ok = match after.first() {
            None => true,
            Some(b' ' | b'\t' | b'\r' | b'\n' | b'{' | b';' | b')') => true,
            Some(0xEF) => after.starts_with(BOM),
            _ => false,
        };
        if !ok {
            return None;
        }
        let s = self.i;
        self.i += len;
        Some((s, self.i))
    }

    /// The commonest movetext, read in one tight loop: move numbers `12.` followed by a space
    /// or newline, and lone four-byte moves ([`Scanner::lone_short_ply`]), separated by white
    /// space. Stops (leaving the position at the token it does not take) at anything else,
    /// which the general loop reads; what it takes it hands to `builder` exactly as the
    /// general loop would.
    fn plain_run(&mut self, builder: &mut Builder) {
        let run = if self.short_plies {
            builder.main_run()
        } else {
            None
        };
        match run {
            Some(mut run) => {
                let from = self.i;
                self.plain_run_into(&mut run);
                // A run that read a move number and then stopped at a ply writes its plies
                // otherwise (`a4-a5`, `C2.5`): the rest of the game reads straight into the
                // builder, without taking the line's plies out for each run.
                self.short_plies = self.i == from || run.plies() > 0;
                run.end();
            }
            None => self.plain_run_into(builder),
        }
    }

    /// [`Scanner::plain_run`] handing what it reads to `sink`.
    #[inline(always)]
    fn plain_run_into<S: PlainSink>(&mut self, sink: &mut S) {
        let b = self.b;
        let mut i = self.i;
        loop {
            while b
                .get(i)
                .is_some_and(|&c| class(c) & (HSPACE | NEWLINE) != 0)
            {
                i += 1;
            }
            let Some(&c) = b.get(i) else { break };
            if class(c) == DIGIT {
                // `12.` then a space or newline: a move number, nothing else. One or two
                // digits (nearly all) are read with one bounds check.
                let two = |d: u8, e: u8| u64::from(d - b'0') * 10 + u64::from(e - b'0');
                match b.get(i..) {
                    Some(&[d, b'.', b' ' | b'\n', _, ..]) if class(d) == DIGIT => {
                        sink.number(u64::from(d - b'0'), (i, i + 2));
                        i += 2;
                        continue;
                    }
                    Some(&[d, e, b'.', b' ' | b'\n', ..]) if class(d) & class(e) == DIGIT => {
                        sink.number(two(d, e), (i, i + 3));
                        i += 3;
                        continue;
                    }
                    _ => {}
                }
                let s = i;
                let mut n: u64 = 0;
                while let Some(&d) = b.get(i).filter(|&&d| class(d) == DIGIT) {
                    n = n.saturating_mul(10).saturating_add(u64::from(d - b'0'));
                    i += 1;
                }
                if b.get(i) != Some(&b'.') || !matches!(b.get(i + 1), Some(b' ' | b'\n')) {
                    i = s;
                    break;
                }
                i += 1;
                sink.number(n, (s, i));
                continue;
            }
            match short_ply_end(b, i) {
                Some(end) => {
                    sink.ply(i);
                    i = end;
                    // The other side's ply usually follows at once: read it without going
                    // round the loop (white space was skipped, and it is no number).
                    if let Some(end) = short_ply_end(b, i) {
                        sink.ply(i);
                        i = end;
                    }
                }
                None => break,
            }
        }
        self.i = i;
    }

    /// The commonest turn, taken in one step: a four-byte move of a letter, digit, letter and
    /// digit (`h2e2`) followed by white space or the end, with no `,` after it (the grammar
    /// reads it as a one-ply turn without annotation). Returns where it starts and moves past
    /// it and the white space after it; leaves the position alone otherwise.
    #[inline]
    fn lone_short_ply(&mut self) -> Option<usize> {
        let s = self.i;
        self.i = short_ply_end(self.b, s)?;
        Some(s)
    }

    /// ply (hspace* `,` hspace* ply)*, each ply handed to `builder` as it is read.
    fn turn(&mut self, builder: &mut Builder) -> Option<()> {
        let first = self.ply()?;
        let turn = builder.begin_turn(first.whole.0);
        builder.ply(turn, &first);
        loop {
            let save = self.i;
            self.hspace();
            if self.peek() != Some(b',') {
                self.i = save;
                break;
            }
            self.i += 1;
            self.hspace();
            let next = self.ply()?;
            builder.ply(turn, &next);
        }
        Some(())
    }

    /// move_text annotation?
    fn ply(&mut self) -> Option<Ply> {
        let s = self.i;
        loop {
            match self.b[self.i..].iter().position(|&c| DELIMITER[c as usize]) {
                None => self.i = self.b.len(),
                Some(k) => {
                    self.i += k;
                    // 0xEF ends a move only when it starts a BOM.
                    if self.b[self.i] == 0xEF && !self.at_bom() {
                        self.i += 1;
                        continue;
                    }
                }
            }
            break;
        }
        if self.i == s {
            return None;
        }
        let text = (s, self.i);
        let mut annotation = None;
        if self.peek() == Some(b'(') {
            let a = self.i + 1;
            let mut j = a;
            while let Some(&c) = self.b.get(j) {
                if matches!(
                    c,
                    b')' | b'(' | b'\n' | b'\r' | b'{' | b'}' | b'[' | b']' | b';'
                ) {
                    break;
                }
                j += 1;
            }
            if self.b.get(j) != Some(&b')') {
                return None;
            }
            annotation = Some((a, j));
            self.i = j + 1;
        }
        Some(Ply {
            text,
            annotation,
            whole: (s, self.i),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse::parse_game_pest;

    fn same(src: &str) {
        let fast = parse_fast(src, 7);
        let pest = parse_game_pest(src, 7);
        if let Some(f) = fast {
            assert_eq!(f, pest, "{src:?}");
        }
    }

    #[test]
    fn agrees_with_the_grammar() {
        for src in [
            "[Game \"x\"]\n[Result \"1-0\"]\nsetup red\n 4 B4B4323222 ; c\n 3 ..........\n\n1. a4-a5 j7-j6 2. a5xa6(3:B) 1-0\n",
            "1. a3-a4,b3-b4 c8-c7, d8-d7 2. e3-e4 {c} $1 *",
            "\u{feff}[A \"\\\"q\\\"\"]\r\n1... h2e2 2. 炮二平五 ＋Ｐ＋１ *\r\n",
            "1-0 a4",
            "12.a4 1/2-1/2",
            "1. h2e2 ( {c} 1. b2e2 h9g7 (h7e7 *) ) h9g7 ( ; x\n 1... h7h0 $2 ) 1-0",
            "1. a4 ( b4 ( c4 ( d4 ) ) )\n( e4 )",
            // a comment after a setup's later rows, once; a row ended by a lone CR
            "setup red\n 4 B4B4323222\n 3 ..........\n{c}\n1. a4-a5 *",
            "setup red\n 4 B4B4323222\r 3 ..........\r1. a4-a5 *",
        ] {
            same(src);
            assert!(parse_fast(src, 0).is_some(), "{src:?} takes the fast path");
        }
        for bad in [
            "[Game x]",
            "1. a4 {open",
            "1. a4(3:B",
            "a4,",
            "setup red\n1. a4",
            "[A \"x\"] [B",
            "1. a4 )",
            "1. a4 ( b4",
            "1. a4 ( b4 ) )",
            "1. a4 (R)",
            "1. a4 (3:B) b4",
            "1. a4 (:B)",
        ] {
            assert!(parse_fast(bad, 0).is_none(), "{bad:?} goes to pest");
            same(bad);
        }
    }
}
