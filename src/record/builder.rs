//! The one builder of a [`GameRecord`] from located pieces: the pest grammar
//! ([`super::parse`]) and the fast path ([`super::fast`]) both feed it in text order, so they
//! build identical records.

use super::{
    Comment, GameRecord, MoveRecord, Nag, PlyExtra, RecordedResult, SetupBlock, SetupRow, Span,
    Spanned, Tag, Variation,
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

/// A line of play being read: the main line or an open variation.
#[derive(Debug, Clone, Copy)]
struct Open {
    /// Its number (0 the main line, `n` the variation `variations[n - 1]`).
    line: usize,
    /// Turns of the game before its first turn.
    turn0: usize,
    /// Turns read in it so far.
    turns: usize,
    /// It opened before any move of its own parent line (reported then): the variations
    /// nested in it before its first move are that same fault and are not reported again.
    orphan: bool,
    /// Moves by which its written numbers run ahead of the turn count (behind when
    /// negative), as its last wrong number set it (a variation starts with its parent's):
    /// later numbers are checked from it on, so one skipped or repeated number is one
    /// warning, not one at every number after it.
    shift: i128,
}

/// Builds a [`GameRecord`] from located pieces; both parsers feed it in text order, so they
/// build identical records. It fills the record where it will stay (a game's vector): a
/// 288-byte record moved out of a builder, an `Option` and two returns cost more than a
/// game's tags.
pub(crate) struct Builder<'a> {
    src: &'a str,
    base: usize,
    pub record: &'a mut GameRecord,
    /// The main line.
    main: Open,
    /// The variations being read, innermost last (none: the main line is read). Empty for
    /// most games, so a game allocates nothing for it.
    open: Vec<Open>,
    /// The first token after the result token, which ends the movetext.
    after_result: Option<Span>,
}

impl<'a> Builder<'a> {
    /// A builder of the game `src` (at byte `base` of its source) into `record`, which it
    /// empties first (keeping its vectors' room: a record read game after game allocates
    /// nothing once it has held the largest).
    pub fn new(src: &'a str, base: usize, record: &'a mut GameRecord) -> Self {
        record.reset(Span::new(base, base + src.len()));
        Builder {
            src,
            base,
            record,
            main: Open {
                line: 0,
                turn0: 0,
                turns: 0,
                orphan: false,
                shift: 0,
            },
            open: Vec::new(),
            after_result: None,
        }
    }
    /// The line being read.
    fn current(&self) -> Open {
        self.open.last().copied().unwrap_or(self.main)
    }
    /// The moves of line `line`.
    fn moves_of(&mut self, line: usize) -> &mut Vec<MoveRecord> {
        match line {
            0 => &mut self.record.moves,
            n => &mut self.record.variations[n - 1].moves,
        }
    }
    /// Notes a movetext token at `at`: the first one after the result token is remembered.
    #[inline]
    fn token(&mut self, at: Loc) {
        if self.record.result_token.is_some() && self.after_result.is_none() {
            self.after_result = Some(self.span(at));
        }
    }
    /// A `{...}` or `; ...` comment at `at`, placed after the moves of its line read so far.
    pub fn comment(&mut self, at: Loc) {
        let raw = self.text(at);
        let line_comment = !raw.starts_with('{');
        let text = match raw.strip_prefix('{') {
            Some(t) => t.strip_suffix('}').unwrap_or(t),
            None => raw.strip_prefix(';').unwrap_or(raw).trim_end_matches('\r'),
        };
        let Open { line, .. } = self.current();
        let after = self.moves_of(line).len();
        self.record.comments.push(Comment {
            text: text.to_string(),
            span: self.span(at),
            line,
            after,
            line_comment,
        });
    }
    /// How many comments have been read: what [`Builder::unread_comments`] goes back to.
    pub fn comments_read(&self) -> usize {
        self.record.comments.len()
    }
    /// Forgets the comments read after the first `n`: the scanner gave their text back, to
    /// be read again where the grammar reads it.
    pub fn unread_comments(&mut self, n: usize) {
        self.record.comments.truncate(n);
    }
    /// A numeric annotation glyph (`$14`) at `at`.
    pub fn nag(&mut self, at: Loc) {
        self.token(at);
        let Open { line, .. } = self.current();
        let after = self.moves_of(line).len();
        self.record.nags.push(Nag {
            text: Spanned::new(self.text(at).to_string(), self.span(at)),
            line,
            after,
        });
    }
    /// A variation opens at `at` (its `(`): moves in place of the current line's last turn.
    pub fn open_variation(&mut self, at: Loc) {
        self.token(at);
        let cur = self.current();
        let plies_before_last_turn = {
            let moves = self.moves_of(cur.line);
            let last_turn = moves.last().map(|m| m.turn);
            let own = moves
                .iter()
                .rev()
                .take_while(|m| Some(m.turn) == last_turn)
                .count();
            moves.len() - own
        };
        let start = match cur.line {
            0 => 0,
            n => self.record.variations[n - 1].start as usize,
        } + plies_before_last_turn;
        let orphan = cur.turns == 0;
        // `((((`: one finding for the outermost, not one a level.
        if orphan && !cur.orphan {
            self.record.findings.push(
                Finding::new(
                    Code::ParseError,
                    self.span(at),
                    "a variation before any move of its line",
                    FORMAT_RULE,
                )
                .label("no move to give an alternative to")
                .help("a variation follows the move it replaces: `1. h2e2 (1. b2e2) h9g7`"),
            );
        }
        self.record.variations.push(Variation {
            parent: cur.line,
            start: start as u32,
            moves: Vec::new(),
            span: self.span(at),
        });
        self.open.push(Open {
            line: self.record.variations.len(),
            turn0: cur.turn0 + cur.turns.saturating_sub(1),
            turns: 0,
            orphan,
            shift: cur.shift,
        });
    }
    /// The variation opened last closes at `at` (its `)`); `whole` is all of it.
    pub fn close_variation(&mut self, whole: Loc) {
        if let Some(o) = self.open.pop() {
            let span = self.span(whole);
            if let Some(v) = self.record.variations.get_mut(o.line - 1) {
                v.span = span;
                // Most variations are a move or two: no spare room kept for each of them.
                v.moves.shrink_to_fit();
            }
        }
    }
    /// The `)` at `close` closes the variation opened last (its span runs from its `(`);
    /// `false` when none is open.
    pub fn close_variation_at(&mut self, close: usize) -> bool {
        let Some(o) = self.open.last() else {
            return false;
        };
        let open = self.record.variations[o.line - 1].span.start - self.base;
        self.close_variation((open, close + 1));
        true
    }
    /// Whether a variation is open (its `)` not read yet).
    pub fn in_variation(&self) -> bool {
        !self.open.is_empty()
    }
    fn span(&self, (s, e): Loc) -> Span {
        Span::new(self.base + s, self.base + e)
    }
    fn text(&self, (s, e): Loc) -> &'a str {
        &self.src[s..e]
    }
    /// A tag pair: its name, its value between the quotes (escapes read), all of it.
    pub fn tag(&mut self, name: Loc, value: Loc, whole: Loc) {
        let v = unescape(self.text(value));
        self.push_tag(name, (v, value), whole);
    }
    /// [`Builder::tag`] for a value the scanner saw hold no backslash: taken as written.
    pub fn plain_tag(&mut self, name: Loc, value: Loc, whole: Loc) {
        let v = self.text(value).into();
        self.push_tag(name, (v, value), whole);
    }
    fn push_tag(&mut self, name: Loc, value: (compact_str::CompactString, Loc), whole: Loc) {
        let tags = &mut self.record.tags;
        if tags.len() == tags.capacity() {
            tags.reserve(8);
        }
        let t = Tag {
            name: Spanned::new(self.text(name).into(), self.span(name)),
            value: Spanned::new(value.0, self.span(value.1)),
            span: self.span(whole),
        };
        push_in_room(&mut self.record.tags, t);
    }
    /// A setup section: its side word, its rows (rank label, squares, and the runs of squares
    /// after a space, which make the row a `parse-error` at that row), all of it.
    pub fn setup(&mut self, side: Loc, rows: &[(Loc, Loc, Option<Loc>)], whole: Loc) {
        for &(label, cells, stray) in rows {
            if let Some(stray) = stray {
                let f = stray_cells_finding(self.text(label), self.span(cells), self.span(stray));
                self.record.findings.push(f);
            }
        }
        let rows: Vec<SetupRow> = rows
            .iter()
            .map(|&(label, cells, _)| SetupRow {
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
        self.token(at);
        let text = self.text(at);
        let (n, dots3) = read_move_number(text);
        self.move_number_read(n, dots3, at);
    }
    /// A move number the scanner has already read: its value (`u64::MAX` when too large) and
    /// whether it ends in `...` (or `…`).
    #[inline(always)]
    pub fn move_number_read(&mut self, n: u64, dots3: bool, at: Loc) {
        self.token(at);
        let cur = self.current();
        let turn = cur.turn0 + cur.turns;
        let first = cur.turns == 0 && cur.line == 0;
        // A variation's first number may run as its parent line's written numbers do (the
        // shift it starts with) or count the turns played: either is right.
        if cur.line != 0 && cur.turns == 0 && cur.shift != 0 {
            let mut no_shift = 0;
            let by_turns = misnumbered(self.record, &mut no_shift, (turn, false), n, dots3);
            if by_turns.is_none() {
                self.open.last_mut().unwrap_or(&mut self.main).shift = 0;
                return;
            }
        }
        let shift = &mut self.open.last_mut().unwrap_or(&mut self.main).shift;
        if let Some(want) = misnumbered(self.record, shift, (turn, first), n, dots3) {
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
    /// Starts the next turn of the current line, whose first ply starts at `first`; returns
    /// its 0-based index in the game.
    pub fn begin_turn(&mut self, first: usize) -> usize {
        self.token((first, first + 1));
        if let Some(o) = self.open.last_mut() {
            let turn = o.turn0 + o.turns;
            o.turns += 1;
            return turn;
        }
        if self.record.moves.capacity() == 0 {
            // About one ply per 5 bytes of movetext; one allocation for most games.
            self.record.moves.reserve((self.src.len() - first) / 5 + 1);
        }
        let turn = self.record.turns;
        self.record.turns += 1;
        self.main.turns += 1;
        turn
    }
    /// Adds ply `p` of turn `turn` (from [`Builder::begin_turn`]).
    #[inline]
    pub fn ply(&mut self, turn: usize, p: &Ply) {
        let tspan = self.span(p.text);
        let text = self.text(p.text);
        if text.eq_ignore_ascii_case("setup") {
            // No move is written `setup`: a setup section whose rows the grammar could not
            // read is taken as moves, and would be judged as a game with no setup.
            self.record.findings.push(setup_among_moves_finding(tspan));
        }
        if let Some(a) = p.annotation.filter(|a| a.0 > p.text.1 + 1) {
            let f = spaced_annotation_finding(self.span((p.text.1, a.0 - 1)), self.span(a));
            self.record.findings.push(f);
        }
        let extra = p.annotation.map(|a| {
            let a = Spanned::new(self.text(a).to_string(), self.span(a));
            Box::new(PlyExtra::new(Some(a), None))
        });
        let m = MoveRecord::new(text.into(), tspan, self.span(p.whole), turn, extra);
        let line = self.current().line;
        let moves = self.moves_of(line);
        if moves.capacity() == 0 && line > 0 {
            // A variation's first ply: room for it alone (most are a move or two), not the
            // four a first push makes room for.
            moves.reserve_exact(1);
        }
        moves.push(m);
    }
    /// Adds a turn of one four-byte ply with no annotation (`h2e2`) starting at `start`: what
    /// [`Builder::turn`] builds for it, with the text's length known. On the main line before
    /// any result (nearly every ply of an archive) that is a counter and one push, inlined into
    /// the scanner's loop.
    #[inline(always)]
    pub fn lone_ply(&mut self, start: usize) {
        if !self.open.is_empty() || self.record.result_token.is_some() {
            return self.lone_ply_general(start);
        }
        // What `begin_turn` does on the main line: the line's turn count is the game's.
        let turn = self.record.turns;
        self.record.turns += 1;
        self.main.turns += 1;
        self.push_short(start, turn);
    }

    /// Pushes the four-byte main-line ply at `start` as the `turn`th ply ([`push_short`]).
    #[inline(always)]
    fn push_short(&mut self, start: usize, turn: usize) {
        push_short(&mut self.record.moves, (self.src, self.base), start, turn);
    }
    /// A run of plain main-line movetext ([`MainRun`]), or `None` inside a variation or after
    /// the result token, where plies and move numbers take the general path.
    #[inline(always)]
    pub fn main_run(&mut self) -> Option<MainRun<'_, 'a>> {
        if !self.open.is_empty() || self.record.result_token.is_some() {
            return None;
        }
        let turn = self.record.turns;
        let moves = std::mem::take(&mut self.record.moves);
        Some(MainRun {
            first: moves.len(),
            src: (self.src, self.base),
            builder: self,
            moves,
            turn,
            added: 0,
        })
    }
    /// [`Builder::lone_ply`] inside a variation or after the result: the general turn.
    #[cold]
    fn lone_ply_general(&mut self, start: usize) {
        let p = Ply {
            text: (start, start + 4),
            annotation: None,
            whole: (start, start + 4),
        };
        let turn = self.begin_turn(start);
        self.ply(turn, &p);
    }
    /// A result token: the first one of the main line ends the movetext (anything after it
    /// is reported); one inside a variation ends that variation's line, as PGN writes it.
    pub fn result(&mut self, at: Loc) {
        if !self.open.is_empty() {
            return;
        }
        self.token(at);
        if self.record.result_token.is_some() {
            return;
        }
        if let Some(r) = RecordedResult::parse(self.text(at)) {
            self.record.result_token = Some(Spanned::new(r, self.span(at)));
        }
    }
    /// Ends the record: reports movetext after the result token.
    pub fn finish(self) {
        let record = self.record;
        if let (Some(res), Some(after)) = (&record.result_token, self.after_result) {
            // The result token ends a game's movetext (docs/log-format.md): what follows is
            // not part of the game.
            record.findings.push(
                Finding::new(
                    Code::ParseError,
                    after,
                    "movetext after the result token",
                    FORMAT_RULE,
                )
                .label("the game's result was already given")
                .with_label(res.span, "result token here")
                .help("the result token ends a game's movetext; start a new game with its tags"),
            );
        }
    }
}

/// Pushes `x` onto `v`, which the caller has just given room. Testing the room here lets the
/// compiler drop `push`'s growth call from the path taken, so `x` is written straight into
/// the vector. Otherwise it is built on the stack, and its 8-byte stores are read back by
/// 16-byte loads: a store-forwarding stall that took a quarter of the parse's time.
#[inline(always)]
fn push_in_room<T>(v: &mut Vec<T>, x: T) {
    if v.len() < v.capacity() {
        v.push(x);
    } else {
        // Not taken while the caller keeps its word; still right if it does not.
        v.push(x);
    }
}

/// Pushes the four-byte main-line ply at `start` of `src` (its text, at byte `base` of the
/// source; four ASCII bytes, checked by the scanner) onto `moves` as the `turn`th ply,
/// growing them by the movetext's likely ply count.
#[inline(always)]
fn push_short(moves: &mut Vec<MoveRecord>, src: (&str, usize), start: usize, turn: usize) {
    let (src, base) = src;
    if moves.len() == moves.capacity() {
        // About one ply per 5 bytes of movetext; one allocation for most games.
        moves.reserve(moves.capacity().max((src.len() - start) / 5 + 1));
    }
    // Four ASCII bytes: in bounds and on character boundaries (no fallback to compile).
    let text = compact_str::CompactString::new(&src[start..start + 4]);
    push_in_room(moves, MoveRecord::short(text, base + start, turn));
}

/// The main line before its result, read by the fast scanner's tight loop: lone four-byte
/// plies and `N.` move numbers, handed over exactly as [`Builder::lone_ply`] and
/// [`Builder::move_number_read`] take them. The run holds the line's plies and turn count
/// until it ends: kept out of the record, the loop keeps the vector's length in a register
/// instead of storing and loading it again at every ply. Neither the line nor the result
/// token can change in such a run.
pub(crate) struct MainRun<'b, 'a> {
    builder: &'b mut Builder<'a>,
    /// The game's text and where it starts in its source.
    src: (&'a str, usize),
    /// The main line's plies, taken from the record until the run ends (or reads a move
    /// number the general way).
    moves: Vec<MoveRecord>,
    /// How many plies the line held when the run began.
    first: usize,
    /// The game's turn count when the run began.
    turn: usize,
    /// Turns read in the run.
    added: usize,
}

impl MainRun<'_, '_> {
    /// A lone four-byte ply at `start` (what [`Builder::lone_ply`] does on the main line);
    /// the scanner has read four ASCII letters and digits there.
    #[inline(always)]
    pub fn ply(&mut self, start: usize) {
        let turn = self.turn + self.added;
        self.added += 1;
        push_short(&mut self.moves, self.src, start, turn);
    }
    /// A move number `N.` of value `n` at `at` (what [`Builder::move_number_read`] does with
    /// it): a number that does not count the turns goes the general way, to its finding.
    #[inline(always)]
    pub fn number(&mut self, n: u64, at: Loc) {
        let turn = (self.turn + self.added) as u64;
        // `misnumbered` without three dots: right when it is the expected number.
        let counted = (turn + self.builder.record.numbering_offset) / 2 + 1;
        // Nearly every game's numbers are unshifted: that is one comparison on the hot path.
        let shift = self.builder.main.shift;
        if (shift == 0 && counted == n) || (shift != 0 && expected_number(counted, shift) == n) {
            return;
        }
        self.general_number(n, at);
    }
    /// A move number that does not count the turns, given to the builder with the record as
    /// the run has it so far.
    #[cold]
    #[inline(never)]
    fn general_number(&mut self, n: u64, at: Loc) {
        self.sync();
        std::mem::swap(&mut self.builder.record.moves, &mut self.moves);
        self.builder.move_number_read(n, false, at);
        std::mem::swap(&mut self.builder.record.moves, &mut self.moves);
    }
    /// The plies the run has read so far.
    pub fn plies(&self) -> usize {
        self.moves.len() - self.first
    }
    /// Writes the turns read so far back to the builder.
    fn sync(&mut self) {
        self.builder.record.turns += self.added;
        self.builder.main.turns += self.added;
        self.turn += self.added;
        self.added = 0;
    }
    /// Ends the run: the builder takes back the plies and counts the turns.
    #[inline(always)]
    pub fn end(mut self) {
        self.sync();
        self.builder.record.moves = std::mem::take(&mut self.moves);
    }
}

/// The `parse-error` for a setup row of rank `label` whose squares `cells` go on after a
/// space (`stray`): a row is one run of squares.
#[cold]
fn stray_cells_finding(label: &str, cells: Span, stray: Span) -> Finding {
    Finding::new(
        Code::ParseError,
        stray,
        format!("the row of rank {label} has a space among its squares"),
        FORMAT_RULE,
    )
    .label("more squares after a space")
    .with_label(cells, "the row's squares start here")
    .help("write a setup row as its rank, a space, then one character per square with no space between them, e.g. `10 FBS2239X..`")
}

/// The `parse-error` for the word `setup` (at `span`) among the moves.
#[cold]
fn setup_among_moves_finding(span: Span) -> Finding {
    Finding::new(
        Code::ParseError,
        span,
        "a setup section whose rows cannot be read, taken as moves",
        FORMAT_RULE,
    )
    .label("this setup section's rows are not setup rows")
    .help("a setup row is its rank (one or two digits), a space, then one character a square, e.g. `10 FBS2239X..`; setup sections come after the tags and before the moves")
}

/// The `record-defect` warning for an annotation written after a space (`gap`).
#[cold]
fn spaced_annotation_finding(gap: Span, annotation: Span) -> Finding {
    Finding::new(
        Code::RecordDefect,
        gap,
        "a space between a move and its annotation",
        FORMAT_RULE,
    )
    .label("read as the annotation of the move before it")
    .with_label(annotation, "the annotation")
    .help("write the annotation right after the move, e.g. `a0a2(R)`")
}

/// The number expected for the turn counted `counted`, `shift` moves on: written numbers
/// are read up to `u64::MAX` (larger ones saturate), so an expected number past it is it,
/// and a run of numbers too large to tell apart is one warning. Below 0 it is 0.
#[inline(always)]
fn expected_number(counted: u64, shift: i128) -> u64 {
    (i128::from(counted) + shift).clamp(0, u64::MAX.into()) as u64
}

/// Checks a move number `N.` / `N...` (value `n`, `dots3` for three dots) against the turn it
/// precedes (`turn`, 0-based; `first`: the first turn of the main line): turn `t` is move
/// `t/2 + 1`, `N.` for the first player and `N...` for the second, plus `shift` moves. A log
/// may start with the second player (`1...`), which shifts the count. Returns the number that
/// was expected (`12.` or `12...`) when they differ; a wrong number then sets `shift`, so
/// that the numbers after it are checked against it.
#[inline(always)]
fn misnumbered(
    record: &mut GameRecord,
    shift: &mut i128,
    (turn, first): (usize, bool),
    n: u64,
    dots3: bool,
) -> Option<String> {
    let turn = turn as u64;
    if first && turn == 0 && dots3 {
        // The log starts with the second player's move (`1...`).
        record.numbering_offset = 1;
    }
    let shifted = turn + record.numbering_offset;
    let counted = shifted / 2 + 1;
    let expected_second = shifted % 2 == 1;
    let expected = expected_number(counted, *shift);
    // `N...` before the first player's turn is wrong, and so is a wrong number.
    if n == expected && (!dots3 || expected_second) {
        return None;
    }
    let want = if expected_second {
        format!("{expected}...")
    } else {
        format!("{expected}.")
    };
    *shift = i128::from(n) - i128::from(counted);
    Some(want)
}
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
    .help("move numbers are optional; when written they must count the turns played (later numbers are checked on from this one)")
}

/// The value of a move number `N.` / `N...` / `N…` (`u64::MAX` when it is too large for u64:
/// a wrong number like any other) and whether it ends in three dots.
fn read_move_number(text: &str) -> (u64, bool) {
    let digits = text.bytes().take_while(|c| c.is_ascii_digit()).count();
    let dots3 = text.ends_with("...") || text.ends_with('\u{2026}');
    (text[..digits].parse::<u64>().unwrap_or(u64::MAX), dots3)
}

/// A tag value as the log writes it, read: `\"` is a quote, `\\` a backslash, `\n` and `\r`
/// a line feed and a carriage return (how `convert` writes a value that holds one); any
/// other backslash is itself (`C:\dir` stays as written).
fn unescape(s: &str) -> compact_str::CompactString {
    if !s.contains('\\') {
        return s.into();
    }
    let mut out = compact_str::CompactString::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let escaped = match (c, chars.peek()) {
            ('\\', Some('"' | '\\')) => chars.next(),
            ('\\', Some('n')) => chars.next().map(|_| '\n'),
            ('\\', Some('r')) => chars.next().map(|_| '\r'),
            _ => None,
        };
        out.push(escaped.unwrap_or(c));
    }
    out
}
