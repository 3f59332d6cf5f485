//! Parse stage: bytes in, [`GameRecord`]s out, every piece keeping its byte [`Span`].
//!
//! A source file is first cut into games by [`split::split_games`] (a cheap line scan, so that a
//! broken game never hides the next one and a 100,000-game archive is parsed one game at a
//! time), then each game is parsed by the pest grammar in `grammar/log.pest`
//! ([`parse::parse_game`]). Gravon XML records are read by [`gravon`], XQF files (XQStudio's
//! binary format) by [`xqf`], DhtmlXQ records (the dpxq.com viewer's) by [`dhtmlxq`], into
//! the same record type.
//! Nothing here knows the rules of any game: a move is kept as the text the log gives, with its
//! coordinate reading when it has one ([`CoordMove`]).

mod builder;
pub mod defects;
pub mod dhtmlxq;
pub mod encoding;
pub mod fast;
pub mod gravon;
pub mod layhenghok;
pub mod parse;
pub mod sniff;
pub mod split;
pub mod ucc2012;
pub mod xqf;

use crate::finding::Finding;
pub use crate::types::{MoveRef, RecordedResult, Span, Spanned};

/// One tag pair `[Name "value"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// The tag name as written (`Game`, `Result`, ...); short texts are stored inline.
    pub name: Spanned<compact_str::CompactString>,
    /// The unescaped value (`\"` and `\\` resolved); short texts are stored inline.
    pub value: Spanned<compact_str::CompactString>,
    /// The whole `[...]`.
    pub span: Span,
}

/// One row of a setup section: `4 B4B4323222` (rank label, then one character per square from
/// the first file on). Which characters are pieces is the ruleset's letter table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupRow {
    /// The rank label as written (1-based for the Stratego family).
    pub rank: Spanned<u32>,
    /// The square characters, one per file.
    pub cells: Spanned<String>,
}

/// A setup section: `setup red` followed by its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupBlock {
    /// The side word as written (`red`, `blue`, `white`, `black`), lower-cased.
    pub side: Spanned<String>,
    /// The rows in the order written.
    pub rows: Vec<SetupRow>,
    /// The whole section.
    pub span: Span,
}

/// A move written in coordinates: `a4-a5`, `a4xa5`, `h2e2`, `H2-E2`.
///
/// Squares are kept as (file, rank-as-written): file 0 is `a`; the rank is the number written,
/// whose base (0 for ICCS, 1 elsewhere) is the ruleset's to interpret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoordMove {
    /// From-square: (file index from 0, rank number as written).
    pub from: (u8, u32),
    /// To-square, likewise.
    pub to: (u8, u32),
    /// True when the move was written with `x` (an attack the checker must confirm).
    pub capture_mark: bool,
    /// Where the from-square is written.
    pub from_span: Span,
    /// Where the to-square is written.
    pub to_span: Span,
}

/// One ply as the log writes it.
///
/// 48 bytes: the parse writes one for every ply of an archive, and a smaller record is a
/// faster parse. Its spans are kept as the ply's first byte and length; the text's span is
/// the text's bytes from there. A ply whose spans say otherwise (an importer's, a decoded
/// GB18030 move's) keeps them in [`PlyExtra`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move text without its annotation (`a4xa5`, `C2.5`, `炮二平五`); short texts are
    /// stored inline (no allocation per move). Read it through [`MoveRecord::text`].
    text: compact_str::CompactString,
    /// What most plies do not have (an annotation, an importer's coordinate reading, spans
    /// not told by the text), boxed, so a ply record is dropped with one test. Read it
    /// through [`MoveRecord::annotation`], [`MoveRecord::coord`] and the span methods.
    pub extra: Option<Box<PlyExtra>>,
    /// The ply's first byte, which is its text's first byte.
    start: usize,
    /// The ply's length in bytes, annotation included.
    len: u32,
    /// Which turn (0-based) of the movetext this ply belongs to ([`MoveRecord::turn`]).
    turn: u32,
}

/// The rarer parts of a ply ([`MoveRecord::extra`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlyExtra {
    /// The parenthesised annotation after the move, without the parentheses (`3:B`).
    pub annotation: Option<Spanned<String>>,
    /// Set by importers whose move text is written by arbiter rather than read from the
    /// source (Gravon XML): `Some(reading)`, whose squares' spans point at the attributes they
    /// came from, or `Some(None)` when the squares could not be read (the text written for
    /// them is then no move). `None` for logs, whose reading comes from the text.
    pub imported_coord: Option<Option<CoordMove>>,
    /// The text's span and the ply's, when the record's first byte and length cannot tell
    /// them: a text that is not the bytes it was read from, a ply longer than 4 GiB. Set by
    /// [`MoveRecord::new`].
    spans: Option<(Span, Span)>,
}

impl PlyExtra {
    /// The rarer parts of a ply: its annotation and an importer's coordinate reading.
    pub fn new(
        annotation: Option<Spanned<String>>,
        imported_coord: Option<Option<CoordMove>>,
    ) -> PlyExtra {
        PlyExtra {
            annotation,
            imported_coord,
            spans: None,
        }
    }
}

/// One game as parsed, before any rule is applied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// 0-based position of the game in its file.
    pub index: usize,
    /// The game's bytes in the file.
    pub span: Span,
    /// Tag pairs in the order written.
    pub tags: Vec<Tag>,
    /// Setup sections in the order written.
    pub setups: Vec<SetupBlock>,
    /// Plies in the order played.
    pub moves: Vec<MoveRecord>,
    /// Number of turns in the movetext (equals `moves.len()` outside Spionage).
    pub turns: usize,
    /// The result token at the end of the movetext, if any.
    pub result_token: Option<Spanned<RecordedResult>>,
    /// Problems found while reading (parse errors, move-number defects). A `parse-error` here
    /// means the game could not be read and is not judged.
    pub findings: Vec<Finding>,
    /// 1 when the movetext's numbering shows the second player moved first (`1...`), else 0.
    pub numbering_offset: u64,
    /// Set by importers: the ruleset the source format implies (Gravon's `type`).
    pub implied_game: Option<String>,
    /// Set by importers: [`GameRecord::implied_game`] is the format's default, not its
    /// statement (Gravon writes Duel as `classic`, told apart only by the file name), so
    /// `--game` wins over it.
    pub implied_is_default: bool,
    /// Set by the reader: the ruleset the source's text shows when its games name none (an
    /// xqbase file is Xiangqi: [`sniff::content_game`]).
    pub content_game: Option<crate::types::GameId>,
    /// Set by the reader: an earlier game of the same source named no ruleset either, and the
    /// source's text shows none (the file's one finding was given there).
    pub unnamed_before: bool,
    /// Set by importers: parameter values the source format plays with, as (tag name, value);
    /// the record's own tags win over them (Gravon played the two-squares rule with 5).
    pub format_defaults: Vec<(&'static str, &'static str)>,
    /// Other lines of play inside the record (PGN's `( ... )`, DhtmlXQ's `move_B_I_N`, XQF's
    /// alternatives), parents before children. Line 0 is the main line ([`GameRecord::moves`]),
    /// line `n` is `variations[n - 1]`.
    pub variations: Vec<Variation>,
    /// The record's comments in source order, each placed on its line of play.
    pub comments: Vec<Comment>,
    /// The numeric annotation glyphs (`$14`) in source order, each placed on its line of play.
    pub nags: Vec<Nag>,
}

/// A numeric annotation glyph of the movetext (`$14`), kept as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nag {
    /// The glyph as written, `$` included.
    pub text: Spanned<String>,
    /// The line of play it stands in (0 the main line, `n` the variation `variations[n - 1]`).
    pub line: usize,
    /// How many of that line's moves come before it.
    pub after: usize,
}

/// A variation: a line of play that branches off another line of the same record.
///
/// Its first move replaces the parent line's move at ply `start + 1`: the position it starts
/// from is the parent line's position after ply `start` (plies counted from the game's start,
/// 1-based, so `start` = 0 branches at the first move). Its moves are plies `start + 1`,
/// `start + 2`, ... of that line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variation {
    /// The line it branches from: 0 the main line, `n` the variation `variations[n - 1]`;
    /// always a line listed before this one.
    pub parent: usize,
    /// Plies played (from the game's start) before the variation's first move; at least the
    /// parent's own `start` and less than the parent's last ply number.
    pub start: u32,
    /// Its plies in the order played.
    pub moves: Vec<MoveRecord>,
    /// Where the variation is written (`( ... )`; an importer's branch record).
    pub span: Span,
}

/// A comment of the record: `{...}` or `; ...` in a log, an importer's annotation text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// The text without its delimiters (as written; importers: decoded to UTF-8).
    pub text: String,
    /// The comment's bytes, delimiters included (an importer's: the bytes it was read from).
    pub span: Span,
    /// The line of play it stands in (0 the main line, `n` the variation `variations[n - 1]`).
    pub line: usize,
    /// How many of that line's moves come before it (0: before its first move).
    pub after: usize,
    /// Written as a `;` comment, to the end of its line (`convert` writes it so again).
    pub line_comment: bool,
}

impl MoveRecord {
    /// Ply of turn `turn` (0-based turn of the movetext) written `text` at `text_span`, the
    /// whole ply (annotation included) at `span`, with its rarer parts `extra`.
    pub fn new(
        text: compact_str::CompactString,
        text_span: Span,
        span: Span,
        turn: usize,
        extra: Option<Box<PlyExtra>>,
    ) -> MoveRecord {
        let len = span.end.wrapping_sub(span.start);
        // A log's ply (nearly every one): its spans are told by its first byte and length.
        // `extra`, from [`PlyExtra::new`], holds no spans.
        let told = span.start <= span.end
            && len <= u32::MAX as usize
            && text_span.start == span.start
            && text_span.end == span.start + text.len().min(len);
        let mut m = MoveRecord {
            text,
            extra,
            start: span.start,
            len: len as u32,
            turn: turn_number(turn),
        };
        if !told {
            m.set_spans(text_span, span);
        }
        m
    }

    /// A main-line ply of four ASCII bytes `text` at byte `start`, no annotation: what the
    /// parse builds for nearly every ply of an archive, with no test to make.
    #[inline(always)]
    pub(crate) fn short(text: compact_str::CompactString, start: usize, turn: usize) -> Self {
        MoveRecord {
            text,
            extra: None,
            start,
            len: 4,
            turn: turn_number(turn),
        }
    }

    /// Ply `turn` (0-based turn of the movetext) built from its text alone, for move
    /// generators and tests that drive an engine's `play` without a log: `text` is the move,
    /// optionally followed by its annotation in parentheses (`d4xd5(3:B)`, `h2h9(N:r)`). Every
    /// span is empty, so findings about such a ply point at no bytes.
    pub fn unlocated(text: &str, turn: usize) -> MoveRecord {
        let (mv, annotation) = match text.split_once('(') {
            Some((m, a)) => (m, Some(a.trim_end_matches(')'))),
            None => (text, None),
        };
        let extra = annotation.map(|a| {
            let a = Spanned::new(a.to_string(), Span::default());
            Box::new(PlyExtra::new(Some(a), None))
        });
        MoveRecord::new(mv.into(), Span::default(), Span::default(), turn, extra)
    }

    /// The move text without its annotation (`a4xa5`, `C2.5`, `炮二平五`).
    #[inline]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Which turn (0-based) of the movetext this ply belongs to. In every game but Spionage a
    /// turn holds exactly one ply.
    #[inline]
    pub fn turn(&self) -> usize {
        self.turn as usize
    }

    /// Moves the ply to turn `turn` (0-based), as a log taken up later numbers it.
    pub fn set_turn(&mut self, turn: usize) {
        self.turn = turn_number(turn);
    }

    /// Where the move text is written (an importer's: the bytes it was read from).
    #[inline]
    pub fn text_span(&self) -> Span {
        match self.extra.as_deref().and_then(|e| e.spans) {
            Some((text, _)) => text,
            None => Span::new(
                self.start,
                self.start + self.text.len().min(self.len as usize),
            ),
        }
    }

    /// Where the move text starts: [`MoveRecord::text_span`]'s start, without measuring the
    /// text.
    #[inline]
    fn text_start(&self) -> usize {
        match self.extra.as_deref().and_then(|e| e.spans) {
            Some((text, _)) => text.start,
            None => self.start,
        }
    }

    /// The whole ply, annotation included.
    #[inline]
    pub fn span(&self) -> Span {
        match self.extra.as_deref().and_then(|e| e.spans) {
            Some((_, span)) => span,
            None => Span::new(self.start, self.start + self.len as usize),
        }
    }

    /// Calls `f` on the ply's span, then on its text's, and keeps what it makes of them.
    pub fn map_spans(&mut self, f: &mut dyn FnMut(&mut Span)) {
        let (mut text, mut span) = (self.text_span(), self.span());
        f(&mut span);
        f(&mut text);
        self.set_spans(text, span);
    }

    /// Keeps the spans as a first byte and a length where they tell them, else in
    /// [`PlyExtra`]; one way only, so equal plies compare equal.
    fn set_spans(&mut self, text: Span, span: Span) {
        let len = span.end.checked_sub(span.start);
        let len = len.and_then(|l| u32::try_from(l).ok());
        let told = len.filter(|&l| {
            text.start == span.start && text.end == span.start + self.text.len().min(l as usize)
        });
        self.start = span.start;
        self.len = told.unwrap_or(0);
        if told.is_some() {
            if let Some(e) = self.extra.as_deref_mut() {
                e.spans = None;
                if e.annotation.is_none() && e.imported_coord.is_none() {
                    self.extra = None;
                }
            }
        } else {
            self.extra.get_or_insert_with(Box::default).spans = Some((text, span));
        }
    }
}

/// A turn index as a ply record keeps it: a game of more than 4 billion turns cannot be held
/// in memory (48 bytes a ply), so the saturation is never reached.
#[inline(always)]
fn turn_number(turn: usize) -> u32 {
    u32::try_from(turn).unwrap_or(u32::MAX)
}

impl MoveRecord {
    /// The coordinate reading of the move text, when it is a coordinate move (its spans in
    /// the source). Read from the text when asked: the parse keeps only what the log says
    /// (an importer's reading is [`PlyExtra::imported_coord`]).
    #[inline]
    pub fn coord(&self) -> Option<CoordMove> {
        match self.extra.as_deref().and_then(|e| e.imported_coord) {
            Some(imported) => imported,
            None => parse_coord_move(&self.text, self.text_start()),
        }
    }

    /// The parenthesised annotation after the move, without the parentheses (`3:B`).
    pub fn annotation(&self) -> Option<&Spanned<String>> {
        self.extra.as_deref().and_then(|e| e.annotation.as_ref())
    }
}

impl GameRecord {
    /// The last tag named `name` (case-insensitive), if any.
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags
            .iter()
            .rev()
            .find(|t| t.name.value.eq_ignore_ascii_case(name))
    }
    /// The value of the last tag named `name` (case-insensitive).
    pub fn tag_value(&self, name: &str) -> Option<&str> {
        self.tag(name).map(|t| t.value.value.as_str())
    }
    /// Ply `ply` (1-based) of the main line named as the record writes it ([`MoveRef`]), with
    /// `side` the player the replay found moving; `None` when there is no such ply. The move
    /// within its turn is given when some turn of the record holds several plies (Spionage).
    pub fn move_ref(&self, ply: u32, side: Option<crate::types::Side>) -> Option<MoveRef> {
        self.move_ref_after(0, ply, side)
    }
    /// [`GameRecord::move_ref`] of a log that starts after ply `start` (a `FromPly` tag): its
    /// first move is ply `start + 1`.
    pub fn move_ref_after(
        &self,
        start: u32,
        ply: u32,
        side: Option<crate::types::Side>,
    ) -> Option<MoveRef> {
        let i = (ply as usize).checked_sub(1 + start as usize)?;
        let m = self.moves.get(i)?;
        let shifted = m.turn() as u64 + self.numbering_offset;
        let multi = self.turns != self.moves.len();
        let first_of_turn = self.moves[..i]
            .iter()
            .rev()
            .take_while(|p| p.turn == m.turn)
            .count();
        let mut text = m.text().to_string();
        if let Some(a) = m.annotation() {
            text.push_str(&format!("({})", a.value));
        }
        Some(MoveRef {
            ply,
            turn: m.turn(),
            number: shifted / 2 + 1,
            second: shifted % 2 == 1,
            move_in_turn: multi.then_some(first_of_turn + 1),
            side,
            text,
        })
    }
    /// The record cut after its first `plies` plies of the main line: the same tags and
    /// setups, no variations, comments, result or findings (what an engine replays to reach a
    /// position).
    pub fn head(&self, plies: usize) -> GameRecord {
        let moves = self.moves[..plies.min(self.moves.len())].to_vec();
        GameRecord {
            index: self.index,
            span: self.span,
            tags: self.tags.clone(),
            setups: self.setups.clone(),
            turns: moves.last().map_or(0, |m| m.turn() + 1),
            moves,
            numbering_offset: self.numbering_offset,
            implied_game: self.implied_game.clone(),
            format_defaults: self.format_defaults.clone(),
            ..GameRecord::default()
        }
    }
    /// Line `n`'s own moves (0 the main line, `n` the variation `variations[n - 1]`); empty
    /// when there is no line `n`.
    pub fn line_moves(&self, n: usize) -> &[MoveRecord] {
        match n {
            0 => &self.moves,
            n => self.variations.get(n - 1).map_or(&[], |v| &v.moves),
        }
    }

    /// Plies of the game before line `n`'s first move (0 for the main line and for no line).
    pub fn line_start(&self, n: usize) -> u32 {
        match n {
            0 => 0,
            n => self.variations.get(n - 1).map_or(0, |v| v.start),
        }
    }

    /// Where each variation branches off: (parent line, index of the parent's own move it
    /// replaces, the variation's line), sorted (by parent, then branch point, then the record's
    /// order). A variation whose parent is not listed before it, or whose branch point lies
    /// past its parent's moves, is left out: no replay reaches it.
    pub fn branches(&self) -> Vec<(usize, usize, usize)> {
        let mut kids = Vec::with_capacity(self.variations.len());
        for (i, v) in self.variations.iter().enumerate() {
            let line = i + 1;
            if v.parent >= line {
                continue;
            }
            let (start, len) = (self.line_start(v.parent), self.line_moves(v.parent).len());
            match v.start.checked_sub(start) {
                Some(at) if at as usize <= len => kids.push((v.parent, at as usize, line)),
                _ => {}
            }
        }
        kids.sort_unstable();
        kids
    }

    /// Line `n`'s plies from the game's start (0 the main line, `n` the variation
    /// `variations[n - 1]`): each ancestor's plies up to where the next line branches off,
    /// then the line's own, in the order played. Empty when there is no line `n`. Time and
    /// memory: the plies returned plus the depth of the line's ancestry.
    pub fn line_plies(&self, n: usize) -> Vec<&MoveRecord> {
        if n > self.variations.len() {
            return Vec::new();
        }
        // (line, absolute plies taken from it), from `n` up to the main line.
        let mut chain = vec![(n, usize::MAX)];
        let mut line = n;
        while line > 0 {
            let v = &self.variations[line - 1];
            if v.parent >= line {
                break; // a parent is always listed first; stop on a record that breaks this
            }
            chain.push((v.parent, v.start as usize));
            line = v.parent;
        }
        let mut out = Vec::new();
        for &(line, upto) in chain.iter().rev() {
            let (start, own) = match line {
                0 => (0, &self.moves),
                l => (
                    self.variations[l - 1].start as usize,
                    &self.variations[l - 1].moves,
                ),
            };
            let take = upto.saturating_sub(start).min(own.len());
            out.extend(own[..take].iter());
        }
        out
    }
    /// Line `n` as a game of its own: the record with line `n`'s plies from the game's start
    /// as its moves ([`GameRecord::line_plies`]), no variations, and the comments, NAGs and
    /// findings of line `n` and of the record as a whole. A variation (`n` > 0) has no result
    /// of its own: the game's `Result` tag and result token are left out. `None` when there is
    /// no line `n`. For `show --line` and `claim --line`.
    pub fn line_record(&self, n: usize) -> Option<GameRecord> {
        if n > self.variations.len() {
            return None;
        }
        let keep = |line: usize| line == 0 || line == n;
        let mut tags = self.tags.clone();
        if n > 0 {
            tags.retain(|t| !t.name.value.eq_ignore_ascii_case("Result"));
        }
        let moves: Vec<MoveRecord> = self.line_plies(n).into_iter().cloned().collect();
        Some(GameRecord {
            tags,
            turns: moves.last().map_or(0, |m| m.turn() + 1),
            moves,
            variations: Vec::new(),
            comments: Vec::new(),
            nags: Vec::new(),
            result_token: if n > 0 {
                None
            } else {
                self.result_token.clone()
            },
            findings: self
                .findings
                .iter()
                .filter(|f| keep(f.line))
                .cloned()
                .collect(),
            ..self.clone_header()
        })
    }

    /// The record without its lines of play (moves, variations, comments, NAGs): the part
    /// every line shares.
    fn clone_header(&self) -> GameRecord {
        GameRecord {
            index: self.index,
            span: self.span,
            tags: Vec::new(),
            setups: self.setups.clone(),
            moves: Vec::new(),
            turns: 0,
            result_token: None,
            findings: Vec::new(),
            numbering_offset: self.numbering_offset,
            implied_game: self.implied_game.clone(),
            implied_is_default: self.implied_is_default,
            content_game: self.content_game,
            unnamed_before: self.unnamed_before,
            format_defaults: self.format_defaults.clone(),
            variations: Vec::new(),
            comments: Vec::new(),
            nags: Vec::new(),
        }
    }

    /// Every span the record holds (its own, tags, setups, moves with their coordinate
    /// readings and annotations, variations, comments, findings and their labels), for tests
    /// that check every span lies inside the input.
    pub fn spans(&self) -> Vec<Span> {
        let mut out = Vec::new();
        let mut copy = self.clone();
        copy.for_each_span_mut(&mut |s| out.push(*s));
        // A log's coordinate reading is read from its text on demand: list it too.
        let lines = std::iter::once(&self.moves).chain(self.variations.iter().map(|v| &v.moves));
        for m in lines.flatten() {
            out.extend(m.coord().into_iter().flat_map(|c| [c.from_span, c.to_span]));
        }
        out
    }

    /// Calls `f` on every span the record holds (see [`GameRecord::spans`]), to move them.
    pub fn for_each_span_mut(&mut self, f: &mut dyn FnMut(&mut Span)) {
        f(&mut self.span);
        for t in &mut self.tags {
            f(&mut t.span);
            f(&mut t.name.span);
            f(&mut t.value.span);
        }
        for b in &mut self.setups {
            f(&mut b.span);
            f(&mut b.side.span);
            for r in &mut b.rows {
                f(&mut r.rank.span);
                f(&mut r.cells.span);
            }
        }
        let lines = std::iter::once(&mut self.moves)
            .chain(self.variations.iter_mut().map(|v| &mut v.moves));
        for m in lines.flatten() {
            m.map_spans(f);
            if let Some(e) = m.extra.as_deref_mut() {
                if let Some(a) = &mut e.annotation {
                    f(&mut a.span);
                }
                if let Some(Some(c)) = &mut e.imported_coord {
                    f(&mut c.from_span);
                    f(&mut c.to_span);
                }
            }
        }
        for v in &mut self.variations {
            f(&mut v.span);
        }
        for c in &mut self.comments {
            f(&mut c.span);
        }
        for n in &mut self.nags {
            f(&mut n.text.span);
        }
        for fi in &mut self.findings {
            f(&mut fi.span);
            for l in &mut fi.labels {
                f(&mut l.span);
            }
        }
        if let Some(r) = &mut self.result_token {
            f(&mut r.span);
        }
    }

    /// Empties the record for the game at `span`, as [`GameRecord::default`] with that span,
    /// but keeping its vectors' room for the next game read into it.
    pub fn reset(&mut self, span: Span) {
        // Every field, by name: a field added to the record is not forgotten here.
        let GameRecord {
            index,
            span: own_span,
            tags,
            setups,
            moves,
            turns,
            result_token,
            findings,
            numbering_offset,
            implied_game,
            implied_is_default,
            content_game,
            unnamed_before,
            format_defaults,
            variations,
            comments,
            nags,
        } = self;
        (*index, *own_span, *turns, *numbering_offset) = (0, span, 0, 0);
        (*result_token, *implied_game, *content_game) = (None, None, None);
        (*implied_is_default, *unnamed_before) = (false, false);
        tags.clear();
        setups.clear();
        moves.clear();
        findings.clear();
        format_defaults.clear();
        variations.clear();
        comments.clear();
        nags.clear();
    }

    /// The items the record's vectors have room for, all together ([`GameRecord::reset`]
    /// keeps that room).
    pub fn room(&self) -> usize {
        self.tags.capacity()
            + self.setups.capacity()
            + self.moves.capacity()
            + self.findings.capacity()
            + self.format_defaults.capacity()
            + self.variations.capacity()
            + self.comments.capacity()
            + self.nags.capacity()
    }

    /// Gives back the room reserved past the main line's plies when it is far beyond them:
    /// it was reserved by the movetext's length, which variations and comments inflate. For
    /// a record that is kept, not read into again.
    pub fn shrink_moves(&mut self) {
        if self.moves.capacity() > 2 * self.moves.len() + 64 {
            self.moves.shrink_to_fit();
        }
    }

    /// Moves every span `delta` bytes on: a record read from a piece of a source that starts
    /// at byte `delta` of it.
    pub fn shift_spans(&mut self, delta: usize) {
        if delta == 0 {
            return;
        }
        self.for_each_span_mut(&mut |s| {
            s.start += delta;
            s.end += delta;
        });
    }

    /// True when the game could not be read (it carries a `parse-error` finding).
    pub fn unreadable(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.code == crate::finding::Code::ParseError)
    }
}

/// A line format read whole by an importer, known by its first bytes ([`Importer::sniff`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Importer {
    /// The layhenghok Jungle program's saved games ([`layhenghok`]).
    Layhenghok,
    /// The UCC 2012 Stratego judge's logs ([`ucc2012`]).
    Ucc2012,
}

impl Importer {
    /// The importer whose format `head` (a source's first bytes) starts like, if any.
    pub fn sniff(head: &[u8]) -> Option<Importer> {
        if layhenghok::looks_like(head) {
            Some(Importer::Layhenghok)
        } else if ucc2012::looks_like(head) {
            Some(Importer::Ucc2012)
        } else {
            None
        }
    }

    /// Where the games of a source that starts in this format start, and the format of
    /// each: 0, and each later line where a game of an importer's format starts
    /// ([`Importer::sniff`] there), so that judge logs or saved games concatenated into one
    /// file, in either format, are each one game. Linear: a line is looked at further only
    /// when it may open a game (`RED SETUP`; a player word).
    pub fn game_starts(self, bytes: &[u8]) -> Vec<(usize, Importer)> {
        let mut starts = vec![(0, self)];
        for nl in memchr::memchr_iter(b'\n', bytes) {
            let rest = &bytes[nl + 1..];
            let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
            let line = line.strip_prefix(encoding::BOM).unwrap_or(line);
            let opens = line.starts_with(b"hu")
                || line.starts_with(b"ai")
                || line.trim_ascii_end().ends_with(b" RED SETUP");
            if let Some(importer) = Importer::sniff(rest).filter(|_| opens) {
                starts.push((nl + 1, importer));
            }
        }
        starts
    }

    /// Reads the one game of a whole source; spans are offsets into `text`.
    pub fn read(self, text: &str) -> GameRecord {
        match self {
            Importer::Layhenghok => layhenghok::read(text),
            Importer::Ucc2012 => ucc2012::read(text),
        }
    }
}

/// The lines of `text` with the byte offset each starts at, without their line ends (`\n`,
/// `\r\n`), for importers of line formats.
pub(crate) fn located_lines(text: &str) -> Vec<(usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n')
        .map(|l| {
            let start = at;
            at += l.len();
            (start, l.trim_end_matches('\n').trim_end_matches('\r'))
        })
        .collect()
}

/// The white-space separated words of `line`, which starts at byte `base` of its source, each
/// with its span.
pub(crate) fn located_words(line: &str, base: usize) -> Vec<Spanned<&str>> {
    let mut out = Vec::new();
    let mut at = 0;
    for w in line.split_whitespace() {
        let start = at + line[at..].find(w).unwrap_or(0);
        at = start + w.len();
        out.push(Spanned::new(w, Span::new(base + start, base + at)));
    }
    out
}

/// A tag an importer reads from its format: its name and value both located at `span`.
pub(crate) fn imported_tag(name: &str, value: &str, span: Span) -> Tag {
    Tag {
        name: Spanned::new(name.into(), span),
        value: Spanned::new(value.into(), span),
        span,
    }
}

/// Reads a coordinate move: `a4-a5`, `a4xa5`, `a4a5`, `h2e2`, `H2-E2`, with an optional
/// trailing `+`, `#`, `!` or `?`. Files are one ASCII letter, ranks one or two digits.
/// `base` is the byte offset of `text` in the source, for the spans.
/// Returns `None` when `text` is not of that form.
#[inline]
pub fn parse_coord_move(text: &str, base: usize) -> Option<CoordMove> {
    let b = text.as_bytes();
    // The common form first, inline: `h2e2` (one-digit ranks, no separator, no suffix).
    if let &[f0, r0, f1, r1] = b {
        if let Some(m) = short_coord_move([f0, r0, f1, r1], base) {
            return Some(m);
        }
    }
    parse_coord_move_other(b, base)
}

/// [`parse_coord_move`] of the four bytes `h2e2`: two squares of an ASCII letter and one digit.
/// `None` when they are not of that form (`x` is never a file here: `a4xa5` is a capture, so
/// `a1x2` is no move).
#[inline]
pub fn short_coord_move(b: [u8; 4], base: usize) -> Option<CoordMove> {
    let [f0, r0, f1, r1] = b;
    let (f0, f1) = (
        (f0 | 0x20).wrapping_sub(b'a'),
        (f1 | 0x20).wrapping_sub(b'a'),
    );
    let (r0, r1) = (r0.wrapping_sub(b'0'), r1.wrapping_sub(b'0'));
    (f0 < 26 && f1 < 26 && r0 < 10 && r1 < 10 && f1 != b'x' - b'a').then_some(CoordMove {
        from: (f0, r0 as u32),
        to: (f1, r1 as u32),
        capture_mark: false,
        from_span: Span::new(base, base + 2),
        to_span: Span::new(base + 2, base + 4),
    })
}

/// [`parse_coord_move`] for every form but `h2e2`.
fn parse_coord_move_other(b: &[u8], base: usize) -> Option<CoordMove> {
    let sq = |f: u8, r: u8| (f | 0x20).wrapping_sub(b'a') < 26 && r.is_ascii_digit();
    if b.len() == 5 && sq(b[0], b[1]) && sq(b[3], b[4]) && matches!(b[2], b'-' | b'x' | b'X' | b':')
    {
        return Some(CoordMove {
            from: ((b[0] | 0x20) - b'a', (b[1] - b'0') as u32),
            to: ((b[3] | 0x20) - b'a', (b[4] - b'0') as u32),
            capture_mark: b[2] != b'-',
            from_span: Span::new(base, base + 2),
            to_span: Span::new(base + 3, base + 5),
        });
    }
    let mut end = b.len();
    while end > 0 && matches!(b[end - 1], b'+' | b'#' | b'!' | b'?') {
        end -= 1;
    }
    let b = &b[..end];
    // One square at `i`: an ASCII letter and one or two digits.
    let square = |i: usize| -> Option<(u8, u32, usize)> {
        let f = *b.get(i)?;
        if !f.is_ascii_alphabetic() {
            return None;
        }
        let d1 = *b.get(i + 1)?;
        if !d1.is_ascii_digit() {
            return None;
        }
        let mut rank = (d1 - b'0') as u32;
        let mut j = i + 2;
        if let Some(&d2) = b.get(j) {
            if d2.is_ascii_digit() {
                rank = rank * 10 + (d2 - b'0') as u32;
                j += 1;
            }
        }
        Some((f.to_ascii_lowercase() - b'a', rank, j))
    };
    let (ff, fr, mut i) = square(0)?;
    let from_span = Span::new(base, base + i);
    let mut capture_mark = false;
    match b.get(i) {
        Some(b'-') => i += 1,
        // `x` (or `:`) is a capture mark only when a square follows (`a4xa5`); files never
        // use x in any ruleset here (Stratego's files stop at j).
        Some(b'x' | b'X' | b':') => {
            capture_mark = true;
            i += 1;
        }
        _ => {}
    }
    let (tf, tr, j) = square(i)?;
    if j != b.len() {
        return None;
    }
    Some(CoordMove {
        from: (ff, fr),
        to: (tf, tr),
        capture_mark,
        from_span,
        to_span: Span::new(base + i, base + j),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ply_record_keeps_its_spans_in_48_bytes() {
        assert_eq!(std::mem::size_of::<MoveRecord>(), 48);
        // A log's ply: its spans are its first byte and length, nothing boxed.
        let m = MoveRecord::new("a5xa6".into(), Span::new(9, 14), Span::new(9, 19), 3, None);
        assert_eq!(
            (m.text_span(), m.span(), m.turn()),
            (Span::new(9, 14), Span::new(9, 19), 3)
        );
        assert!(m.extra.is_none());
        // An importer's (Gravon: text written, span of an element), and a ply longer than
        // 4 GiB: kept apart, given back as they were.
        let whole = Span::new(7, 7 + (1 << 33));
        for (text, span) in [
            (Span::new(20, 60), Span::new(20, 60)),
            (Span::new(7, 12), whole),
        ] {
            let m = MoveRecord::new("a5xa6".into(), text, span, 0, None);
            assert_eq!((m.text_span(), m.span()), (text, span));
            assert!(m.extra.is_some());
        }
        // Spans moved so that the first byte and length tell them again: nothing kept apart,
        // equal to the record built so.
        let mut m = MoveRecord::new("h2e2".into(), Span::new(0, 4), Span::new(3, 9), 0, None);
        m.map_spans(&mut |s| *s = Span::new(5, s.end - s.start + 5));
        let same = MoveRecord::new("h2e2".into(), Span::new(5, 9), Span::new(5, 11), 0, None);
        assert_eq!(m.extra, None);
        assert_eq!(m, same);
    }

    #[test]
    fn coordinate_moves() {
        let m = parse_coord_move("a4-a5", 10).unwrap();
        assert_eq!(m.from, (0, 4));
        assert_eq!(m.to, (0, 5));
        assert!(!m.capture_mark);
        assert_eq!(m.from_span, Span::new(10, 12));
        assert_eq!(m.to_span, Span::new(13, 15));
        let m = parse_coord_move("j10xj9", 0).unwrap();
        assert_eq!((m.from, m.to, m.capture_mark), ((9, 10), (9, 9), true));
        let m = parse_coord_move("h2e2", 0).unwrap();
        assert_eq!((m.from, m.to), ((7, 2), (4, 2)));
        let m = parse_coord_move("H2-E2+", 0).unwrap();
        assert_eq!((m.from, m.to), ((7, 2), (4, 2)));
        assert!(parse_coord_move("C2.5", 0).is_none());
        assert!(parse_coord_move("a4-", 0).is_none());
        assert!(parse_coord_move("a4-a5z", 0).is_none());
        assert!(parse_coord_move("a123-a4", 0).is_none());
        // `x` after a square is the capture mark, never a file
        assert!(parse_coord_move("x1x2", 0).is_none());
        assert_eq!(parse_coord_move("a4xa5", 0).unwrap().to, (0, 5));
        assert_eq!(
            parse_coord_move("A0B1", 3).unwrap().to_span,
            Span::new(5, 7)
        );
    }
}
