//! The one builder of a [`GameRecord`] from located pieces: the pest grammar
//! ([`super::parse`]) and the fast path ([`super::fast`]) both feed it in text order, so they
//! build identical records.

use super::{
    GameRecord, MoveRecord, PlyExtra, RecordedResult, SetupBlock, SetupRow, Span, Spanned, Tag,
};
use crate::finding::{Code, Finding};
use crate::rulebook::Rule;

/// Where the native log format is defined.
pub(super) const FORMAT_RULE: Rule = Rule::LogNative;

/// A byte range `(start, end)` in the game's own text.
pub(crate) type Loc = (usize, usize);

/// One ply as located in the game's text: the move, its annotation's inner text, the whole.
pub(crate) struct Ply {
    pub text: Loc,
    pub annotation: Option<Loc>,
    pub whole: Loc,
}

/// A ply with nothing in it, filled in by [`Builder::lone_ply`].
const BLANK_PLY: MoveRecord = MoveRecord {
    text: Spanned {
        value: compact_str::CompactString::const_new(""),
        span: Span { start: 0, end: 0 },
    },
    extra: None,
    turn: 0,
    span: Span { start: 0, end: 0 },
};

/// Builds a [`GameRecord`] from located pieces; both parsers feed it in text order, so they
/// build identical records.
pub(crate) struct Builder<'a> {
    src: &'a str,
    base: usize,
    pub record: GameRecord,
}

impl<'a> Builder<'a> {
    pub fn new(src: &'a str, base: usize) -> Self {
        Builder {
            src,
            base,
            record: GameRecord {
                span: Span::new(base, base + src.len()),
                ..GameRecord::default()
            },
        }
    }
    fn span(&self, (s, e): Loc) -> Span {
        Span::new(self.base + s, self.base + e)
    }
    fn text(&self, (s, e): Loc) -> &'a str {
        &self.src[s..e]
    }
    pub fn tag(&mut self, name: Loc, value: Loc, whole: Loc) {
        let t = Tag {
            name: Spanned::new(self.text(name).into(), self.span(name)),
            value: Spanned::new(unescape(self.text(value)), self.span(value)),
            span: self.span(whole),
        };
        self.record.tags.push(t);
    }
    pub fn setup(&mut self, side: Loc, rows: &[(Loc, Loc)], whole: Loc) {
        let rows: Vec<SetupRow> = rows
            .iter()
            .map(|&(label, cells)| SetupRow {
                rank: Spanned::new(self.text(label).parse().unwrap_or(0), self.span(label)),
                cells: Spanned::new(self.text(cells).to_string(), self.span(cells)),
            })
            .collect();
        // pest's `setup_row+` keeps the white space after a lone row in the pair; the
        // section ends where its last row does.
        let mut span = self.span(whole);
        if let Some(last) = rows.last() {
            span.end = last.cells.span.end;
        }
        let b = SetupBlock {
            side: Spanned::new(self.text(side).to_ascii_lowercase(), self.span(side)),
            rows,
            span,
        };
        self.record.setups.push(b);
    }
    pub fn move_number(&mut self, at: Loc) {
        let text = self.text(at);
        let (n, dots3) = read_move_number(text);
        self.move_number_read(n, dots3, at);
    }
    /// A move number the scanner has already read: its value (`u64::MAX` when too large) and
    /// whether it ends in `...` (or `…`).
    #[inline(always)]
    pub fn move_number_read(&mut self, n: u64, dots3: bool, at: Loc) {
        if let Some(want) = misnumbered(&mut self.record, n, dots3) {
            let (text, span) = (self.text(at), self.span(at));
            self.record
                .findings
                .push(misnumbered_finding(text, span, &want));
        }
    }
    pub fn turn(&mut self, plies: &[Ply]) {
        let Some(first) = plies.first() else { return };
        let turn = self.begin_turn(first.whole.0);
        for p in plies {
            self.ply(turn, p);
        }
    }
    /// Starts the next turn, whose first ply starts at `first`; returns its 0-based index.
    pub fn begin_turn(&mut self, first: usize) -> usize {
        if self.record.moves.capacity() == 0 {
            // About one ply per 5 bytes of movetext; one allocation for most games.
            self.record.moves.reserve((self.src.len() - first) / 5 + 1);
        }
        let turn = self.record.turns;
        self.record.turns += 1;
        turn
    }
    /// Adds ply `p` of turn `turn` (from [`Builder::begin_turn`]).
    #[inline]
    pub fn ply(&mut self, turn: usize, p: &Ply) {
        let tspan = self.span(p.text);
        let text = self.text(p.text);
        let m = MoveRecord {
            text: Spanned::new(text.into(), tspan),
            extra: p.annotation.map(|a| {
                Box::new(PlyExtra {
                    annotation: Some(Spanned::new(self.text(a).to_string(), self.span(a))),
                    imported_coord: None,
                })
            }),
            turn,
            span: self.span(p.whole),
        };
        self.record.moves.push(m);
    }
    /// Adds a turn of one four-byte ply with no annotation (`h2e2`) starting at `start`: what
    /// [`Builder::turn`] builds for it, with the text's length known.
    #[inline]
    pub fn lone_ply(&mut self, start: usize) {
        let turn = self.begin_turn(start);
        let span = self.span((start, start + 4));
        let text = &self.src[start..start + 4];
        // Pushed blank, then filled in place: a record built on the stack and copied in is
        // read back before its field stores have landed, a stall that cost a third of the
        // parse.
        self.record.moves.push(BLANK_PLY);
        if let Some(m) = self.record.moves.last_mut() {
            m.text.value = text.into();
            m.text.span = span;
            m.turn = turn;
            m.span = span;
        }
    }
    pub fn result(&mut self, at: Loc) {
        if let Some(r) = RecordedResult::parse(self.text(at)) {
            self.record.result_token = Some(Spanned::new(r, self.span(at)));
        }
    }
    pub fn finish(mut self) -> GameRecord {
        let record = &mut self.record;
        if let Some(res) = &record.result_token {
            // The grammar accepts a result token anywhere in the movetext; only the last
            // position is a result, anything after it is not movetext.
            if let Some(after) = record.moves.iter().find(|m| m.span.start > res.span.start) {
                record.findings.push(
                    Finding::new(
                        Code::ParseError,
                        after.span,
                        "movetext after the result token",
                        FORMAT_RULE,
                    )
                    .label("the game's result was already given")
                    .with_label(res.span, "result token here")
                    .help(
                        "the result token ends a game's movetext; start a new game with its tags",
                    ),
                );
                record.moves.clear();
                record.turns = 0;
            }
        }
        self.record
    }
}

/// Checks a move number `N.` / `N...` (value `n`, `dots3` for three dots) against the turn it
/// precedes: turn `t` (0-based) is move `t/2 + 1`, `N.` for the first player and `N...` for the
/// second. A log may start with the second player (`1...`), which shifts the count. Returns the
/// number that was expected (`12.` or `12...`) when they differ.
#[inline(always)]
fn misnumbered(record: &mut GameRecord, n: u64, dots3: bool) -> Option<String> {
    let turn = record.turns as u64;
    if turn == 0 && dots3 {
        // The log starts with the second player's move (`1...`).
        record.numbering_offset = 1;
    }
    let shifted = turn + record.numbering_offset;
    let expected = shifted / 2 + 1;
    let expected_second = shifted % 2 == 1;
    // `N...` before the first player's turn is wrong, and so is a wrong number.
    if n == expected && (!dots3 || expected_second) {
        return None;
    }
    Some(if expected_second {
        format!("{expected}...")
    } else {
        format!("{expected}.")
    })
}

/// The `record-defect` warning for the move number `text` at `span` where `want` was expected.
#[cold]
fn misnumbered_finding(text: &str, span: Span, want: &str) -> Finding {
    Finding::new(
        Code::RecordDefect,
        span,
        format!(
            "move number {} where {want} was expected",
            crate::finding::excerpt(text)
        ),
        FORMAT_RULE,
    )
    .label(format!("expected {want}"))
    .help("move numbers are optional; when written they must count the turns played")
}

/// The value of a move number `N.` / `N...` / `N…` (`u64::MAX` when it is too large for u64:
/// a wrong number like any other) and whether it ends in three dots.
fn read_move_number(text: &str) -> (u64, bool) {
    let digits = text.bytes().take_while(|c| c.is_ascii_digit()).count();
    let dots3 = text.ends_with("...") || text.ends_with('\u{2026}');
    (text[..digits].parse::<u64>().unwrap_or(u64::MAX), dots3)
}

fn unescape(s: &str) -> compact_str::CompactString {
    if !s.contains('\\') {
        return s.into();
    }
    let mut out = compact_str::CompactString::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(n) => out.push(n),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}
