//! The pest grammar (`grammar/log.pest`) applied to one game's text, and the typed
//! [`GameRecord`] built from its pairs.

use super::{
    split::split_games, GameRecord, MoveRecord, PlyExtra, RecordedResult, SetupBlock, SetupRow,
    Span, Spanned, Tag,
};
use crate::finding::{Code, Finding};
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/log.pest"]
struct LogParser;

const FORMAT_RULE: &str = "docs/log-format.md (the native game log)";

/// Parses every game of a native log. `text` is the whole file; spans are offsets into it.
/// Never fails: a game that cannot be read carries a `parse-error` finding and no moves.
pub fn parse_log(text: &str) -> Vec<GameRecord> {
    split_games(text)
        .into_iter()
        .enumerate()
        .map(|(index, span)| {
            let mut g = parse_game(text, span);
            g.index = index;
            g
        })
        .collect()
}

/// Parses the one game in `text[span]`. Spans in the result are offsets into `text`.
pub fn parse_game(text: &str, span: Span) -> GameRecord {
    parse_game_at(&text[span.start..span.end], span.start)
}

/// Parses the one game in `src`, which starts at byte `base` of its file: every span in the
/// result is `base` + the offset in `src` (so spans point into the user's file even when the
/// game was read on its own from a stream).
///
/// Well-formed games take a hand-written fast path ([`super::fast`]) that builds exactly the
/// record the grammar would; anything it does not accept is parsed by the pest grammar, which
/// stays the definition of the format and the source of every syntax error.
pub fn parse_game_at(src: &str, base: usize) -> GameRecord {
    let mut r = super::fast::parse_fast(src, base).unwrap_or_else(|| parse_game_pest(src, base));
    flag_duplicate_tags(&mut r);
    r
}

/// A tag given twice (names compared without case) is a `record-defect` warning on the later
/// one, labelled at the first: arbiter reads the last value ([`GameRecord::tag`]), and a
/// writer that repeats a tag may have meant either.
pub fn flag_duplicate_tags(record: &mut GameRecord) {
    if record.tags.len() < 2 {
        return;
    }
    // The first tag of each name (case-insensitive). Games carry a handful of tags: compare
    // each with the ones before it; a long tag list goes through a map, staying linear.
    let tags = &record.tags;
    let firsts: Vec<usize> = if tags.len() <= 16 {
        (0..tags.len())
            .map(|i| {
                let name = &tags[i].name.value;
                (0..i)
                    .find(|&j| tags[j].name.value.eq_ignore_ascii_case(name))
                    .unwrap_or(i)
            })
            .collect()
    } else {
        let mut seen = std::collections::HashMap::with_capacity(tags.len());
        (0..tags.len())
            .map(|i| {
                *seen
                    .entry(tags[i].name.value.to_ascii_lowercase())
                    .or_insert(i)
            })
            .collect()
    };
    let mut found = Vec::new();
    for (i, t) in tags.iter().enumerate() {
        let at = firsts[i];
        if at == i {
            continue;
        }
        let first = &tags[at];
        let same = first.value.value == t.value.value;
        found.push(
            Finding::new(
                Code::RecordDefect,
                t.span,
                format!("the {} tag is given twice", t.name.value),
                FORMAT_RULE,
            )
            .label(if same {
                "the same value again".to_string()
            } else {
                format!("`{}` is used", t.value.value)
            })
            .with_label(first.span, "first given here")
            .help("arbiter reads the last value of a repeated tag; keep one"),
        );
    }
    record.findings.extend(found);
}

/// Parses one game with the pest grammar only (the reference for [`super::fast`]).
pub fn parse_game_pest(src: &str, base: usize) -> GameRecord {
    let mut b = Builder::new(src, base);
    let pairs = match LogParser::parse(Rule::game, src) {
        Ok(p) => p,
        Err(e) => {
            b.record.findings.push(pest_error(src, base, &e));
            return b.record;
        }
    };
    let loc = |p: &pest::iterators::Pair<Rule>| {
        let s = p.as_span();
        (s.start(), s.end())
    };
    for pair in pairs.flatten() {
        match pair.as_rule() {
            Rule::tag => {
                let mut inner = pair.clone().into_inner();
                let (Some(name), Some(value)) = (inner.next(), inner.next()) else {
                    continue;
                };
                b.tag(loc(&name), loc(&value), loc(&pair));
            }
            Rule::setup => {
                let mut inner = pair.clone().into_inner();
                let Some(side) = inner.next() else { continue };
                let mut rows = Vec::new();
                for row in inner {
                    let mut ri = row.into_inner();
                    let (Some(label), Some(cells)) = (ri.next(), ri.next()) else {
                        continue;
                    };
                    rows.push((loc(&label), loc(&cells)));
                }
                b.setup(loc(&side), &rows, loc(&pair));
            }
            Rule::move_number => b.move_number(loc(&pair)),
            Rule::turn => {
                let plies: Vec<Ply> = pair
                    .into_inner()
                    .filter_map(|ply| {
                        let whole = loc(&ply);
                        let mut inner = ply.into_inner();
                        let text = loc(&inner.next()?);
                        let annotation = inner
                            .next()
                            .and_then(|a| a.into_inner().next())
                            .map(|a| loc(&a));
                        Some(Ply {
                            text,
                            annotation,
                            whole,
                        })
                    })
                    .collect();
                b.turn(&plies);
            }
            Rule::result => b.result(loc(&pair)),
            _ => {}
        }
    }
    b.finish()
}

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

/// Turns a pest error into a `parse-error` finding in the user's words: never a grammar rule
/// name, always what was expected at that place.
fn pest_error(src: &str, base: usize, e: &pest::error::Error<Rule>) -> Finding {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let pos = pos.min(src.len());
    let rest = &src[pos..];
    let ch = rest.chars().next();
    // Point at the offending token (up to the next white space), or at the end.
    let tok_len = rest
        .char_indices()
        .find(|&(_, c)| c.is_whitespace())
        .map(|(i, _)| i)
        .unwrap_or(rest.len())
        .max(ch.map(|c| c.len_utf8()).unwrap_or(0));
    let span = Span::new(
        base + pos,
        base + pos + tok_len.min(64).max(ch.map_or(0, |c| c.len_utf8())),
    );
    let span = Span::new(span.start, span.end.min(base + src.len()));
    let expected: Vec<&str> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut v: Vec<&str> = positives.iter().map(describe).collect();
            v.sort();
            v.dedup();
            v
        }
        ErrorVariant::CustomError { .. } => vec![],
    };
    let line_start = src[..pos].rfind('\n').map_or(0, |i| i + 1);
    let at_line_start = src[line_start..pos].trim().is_empty();
    let (message, help) = match ch {
        None => (
            "unexpected end of the game text".to_string(),
            "a tag, setup row or move is incomplete".to_string(),
        ),
        Some('{') => (
            "unterminated comment".to_string(),
            "close the comment with `}`; comments do not nest".to_string(),
        ),
        Some('[') if at_line_start => (
            "malformed tag pair".to_string(),
            "write tags as [Name \"value\"], one per line, before the setup and the moves"
                .to_string(),
        ),
        Some('[') => (
            "`[` in the movetext".to_string(),
            "tags go at the top of a game, each on its own line".to_string(),
        ),
        Some('(') => (
            "variation or annotation in the wrong place".to_string(),
            "annotations follow a move with no space, e.g. `d4xd5(3:B)`; variations are not supported"
                .to_string(),
        ),
        Some('\0') => (
            "NUL byte in the log".to_string(),
            "the file looks binary or corrupted; game logs are UTF-8 text".to_string(),
        ),
        Some(c) => (
            format!("unexpected `{}`", c.escape_debug()),
            "see docs/log-format.md for the syntax of tags, setups and moves".to_string(),
        ),
    };
    let label = if expected.is_empty() {
        "not valid here".to_string()
    } else {
        format!("expected {}", expected.join(", "))
    };
    Finding::new(Code::ParseError, span, message, FORMAT_RULE)
        .label(label)
        .help(help)
}

fn describe(r: &Rule) -> &'static str {
    match r {
        Rule::tag => "a tag pair",
        Rule::tag_name => "a tag name",
        Rule::tag_value => "a quoted tag value",
        Rule::setup => "a setup section",
        Rule::side_word => "a side (red, blue, white, black)",
        Rule::setup_row => "a setup row (rank number, then one character per square)",
        Rule::rank_label => "a rank number",
        Rule::cells => "the row's squares",
        Rule::movetext | Rule::turn | Rule::ply | Rule::move_text => "a move",
        Rule::move_number => "a move number",
        Rule::nag => "an annotation glyph",
        Rule::result => "a result (1-0, 0-1, 1/2-1/2, *)",
        Rule::annotation | Rule::annotation_text => "an annotation",
        Rule::EOI => "end of game",
        _ => "valid log text",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tags_setup_moves_result() {
        let t = "[Game \"stratego\"]\n[Result \"1-0\"]\nsetup red\n 4 B4B4323222\n\n1. a4-a5 j7-j6 2. a5xa6(3:B) *\n";
        let g = &parse_log(t)[0];
        assert!(g.findings.is_empty(), "{:?}", g.findings);
        assert_eq!(g.tag_value("game"), Some("stratego"));
        assert_eq!(g.setups.len(), 1);
        assert_eq!(g.setups[0].side.value, "red");
        assert_eq!(g.setups[0].rows[0].rank.value, 4);
        assert_eq!(g.setups[0].rows[0].cells.value, "B4B4323222");
        let s = g.setups[0].span;
        assert_eq!(
            &t[s.start..s.end],
            "setup red\n 4 B4B4323222",
            "no trailing blank line"
        );
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[2].text.value, "a5xa6");
        assert_eq!(g.moves[2].annotation().unwrap().value, "3:B");
        let s = g.moves[2].text.span;
        assert_eq!(&t[s.start..s.end], "a5xa6");
        assert_eq!(
            g.result_token.as_ref().unwrap().value,
            RecordedResult::Unknown
        );
    }

    #[test]
    fn spionage_turns() {
        let t = "1. a3-a4,b3-b4 c8-c7, d8-d7 2. e3-e4";
        let g = &parse_log(t)[0];
        assert_eq!(g.moves.len(), 5);
        assert_eq!(g.turns, 3);
        assert_eq!(
            g.moves.iter().map(|m| m.turn).collect::<Vec<_>>(),
            vec![0, 0, 1, 1, 2]
        );
    }

    #[test]
    fn wrong_move_number_is_a_record_defect() {
        let g = &parse_log("1. a2a3 a7a6 3. b2b3")[0];
        assert_eq!(g.findings.len(), 1);
        assert_eq!(g.findings[0].code, Code::RecordDefect);
        let g = &parse_log("1... a7a6 2. a2a3 b7b6")[0];
        assert!(g.findings.is_empty(), "{:?}", g.findings);
    }

    #[test]
    fn unterminated_comment() {
        let t = "[Game \"x\"]\n1. a2a3 {never closed";
        let g = &parse_log(t)[0];
        assert!(g.unreadable());
        assert_eq!(g.findings[0].message, "unterminated comment");
        assert_eq!(g.findings[0].span.start, t.find('{').unwrap());
    }

    #[test]
    fn escaped_tag_value() {
        let g = &parse_log("[Event \"a \\\"b\\\" c\"]\n*")[0];
        assert_eq!(g.tag_value("Event"), Some("a \"b\" c"));
    }
}
