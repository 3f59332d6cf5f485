//! The pest grammar (`grammar/log.pest`) applied to one game's text, and the typed
//! [`GameRecord`] built from its pairs.

use super::builder::{Builder, Ply, FORMAT_RULE};
use super::defects::{Unlisted, MAX_LISTED};
use super::{split::split_games, GameRecord, Span};
use crate::finding::{Code, Finding};
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/log.pest"]
struct LogParser;

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
    let mut r = GameRecord::default();
    parse_game_into(src, base, &mut r);
    r.shrink_moves();
    r
}

/// [`parse_game_at`] into `out`, where the record is to stay (whatever `out` held is
/// replaced; the room of its vectors is kept, and not given back after the game).
pub fn parse_game_into(src: &str, base: usize, out: &mut GameRecord) {
    if super::fast::parse_fast_into(src, base, out).is_none() {
        pest_into(src, base, out);
    }
    let unlisted = flag_duplicate_tags(out);
    super::defects::fold(&mut out.findings, unlisted);
}

/// A tag given twice (names compared without case) is a `record-defect` warning on the later
/// one, labelled at the first: arbiter reads the last value ([`GameRecord::tag`]), and a
/// writer that repeats a tag may have meant either. Past the record defects a game lists
/// ([`super::defects::MAX_LISTED`]), they are only counted: returns those.
pub fn flag_duplicate_tags(record: &mut GameRecord) -> Option<super::defects::Unlisted> {
    if record.tags.len() < 2 {
        return None;
    }
    let tags = &record.tags;
    let same_name =
        |i: usize, j: usize| tags[j].name.value.eq_ignore_ascii_case(&tags[i].name.value);
    // Nearly every game names each tag once: that is known without an allocation.
    if tags.len() <= 16 && (1..tags.len()).all(|i| (0..i).all(|j| !same_name(i, j))) {
        return None;
    }
    // The first tag of each name (case-insensitive). Games carry a handful of tags: compare
    // each with the ones before it; a long tag list goes through a map, staying linear.
    let firsts: Vec<usize> = if tags.len() <= 16 {
        (0..tags.len())
            .map(|i| (0..i).find(|&j| same_name(i, j)).unwrap_or(i))
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
    // The first repeats are the game's first defects (tags come first): at most that many
    // are made, the rest only counted.
    let (room, mut unlisted) = (MAX_LISTED, None);
    for (i, t) in tags.iter().enumerate() {
        let at = firsts[i];
        if at == i {
            continue;
        }
        if found.len() == room {
            Unlisted::add(&mut unlisted, t.span);
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
    unlisted
}

/// Parses one game with the pest grammar only (the reference for [`super::fast`]).
pub fn parse_game_pest(src: &str, base: usize) -> GameRecord {
    let mut r = GameRecord::default();
    pest_into(src, base, &mut r);
    r
}

/// [`parse_game_pest`] into `out` (whatever it held is replaced).
fn pest_into(src: &str, base: usize, out: &mut GameRecord) {
    let mut b = Builder::new(src, base, out);
    let pairs = match LogParser::parse(Rule::game, src) {
        Ok(p) => p,
        Err(e) => {
            b.record.findings.push(pest_error(src, base, &e));
            return;
        }
    };
    visit_all(&mut b, pairs);
    b.finish();
}

fn loc(p: &pest::iterators::Pair<Rule>) -> (usize, usize) {
    let s = p.as_span();
    (s.start(), s.end())
}

/// Hands the pairs of the parse, and their children in text order, to the builder. The walk
/// keeps its own stack, so a variation nested as deep as the grammar accepts costs heap,
/// never the thread's stack.
fn visit_all(b: &mut Builder, pairs: pest::iterators::Pairs<Rule>) {
    // Each entry: the pairs still to visit at one depth, and the variation they close.
    let mut stack = vec![(pairs, None)];
    while let Some((pairs, _)) = stack.last_mut() {
        let Some(pair) = pairs.next() else {
            if let Some((_, Some(whole))) = stack.pop() {
                b.close_variation(whole);
            }
            continue;
        };
        match pair.as_rule() {
            Rule::variation => {
                let whole = loc(&pair);
                b.open_variation((whole.0, whole.0 + 1));
                stack.push((pair.into_inner(), Some(whole)));
            }
            Rule::tag
            | Rule::setup
            | Rule::move_number
            | Rule::nag
            | Rule::brace_comment
            | Rule::line_comment
            | Rule::turn
            | Rule::result => leaf(b, pair),
            _ => stack.push((pair.into_inner(), None)),
        }
    }
}

/// Hands one pair that holds no variation to the builder.
fn leaf(b: &mut Builder, pair: pest::iterators::Pair<Rule>) {
    match pair.as_rule() {
        Rule::tag => {
            let mut inner = pair.clone().into_inner();
            if let (Some(name), Some(value)) = (inner.next(), inner.next()) {
                b.tag(loc(&name), loc(&value), loc(&pair));
            }
        }
        Rule::setup => setup(b, pair),
        Rule::move_number => b.move_number(loc(&pair)),
        Rule::nag => b.nag(loc(&pair)),
        Rule::turn => {
            let plies: Vec<Ply> = pair.into_inner().filter_map(ply).collect();
            b.turn(&plies);
        }
        Rule::result => b.result(loc(&pair)),
        _ => b.comment(loc(&pair)),
    }
}

/// A setup section's pair: its side, its rows, and the comments between them.
fn setup(b: &mut Builder, pair: pest::iterators::Pair<Rule>) {
    let whole = loc(&pair);
    let mut side = None;
    let mut rows = Vec::new();
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::side_word => side = Some(loc(&p)),
            Rule::setup_row => {
                let mut ri = p.into_inner();
                let (Some(label), Some(cells)) = (ri.next(), ri.next()) else {
                    continue;
                };
                let stray = ri.next().map(|s| loc(&s));
                rows.push((loc(&label), loc(&cells), stray));
            }
            Rule::COMMENT => {
                for c in p.into_inner() {
                    b.comment(loc(&c));
                }
            }
            _ => {}
        }
    }
    if let Some(side) = side {
        b.setup(side, &rows, whole);
    }
}

/// One ply's pair: the move, its annotation (after it, or after a space), the whole ply.
fn ply(p: pest::iterators::Pair<Rule>) -> Option<Ply> {
    let whole = loc(&p);
    let mut inner = p.into_inner();
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
    if let ErrorVariant::CustomError { message } = &e.variant {
        return nested_too_deep(span, message);
    }
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
            "an annotation follows its move, e.g. `d4xd5(3:B)`; a variation `( ... )` follows the move it replaces"
                .to_string(),
        ),
        Some(')') => (
            "`)` without a variation to close".to_string(),
            "a variation is written `( ... )` after the move it replaces".to_string(),
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

/// The `parse-error` for a game the grammar gave up on at `span` (pest's `message`: its stack
/// or call limit reached). The fast path reads variations at any depth; the grammar reads
/// what it refused (a syntax error, or what only the grammar reads: a spaced annotation
/// `h2e2 (R)`, stray setup squares), and follows variations only so deep.
fn nested_too_deep(span: Span, message: &str) -> Finding {
    Finding::new(
        Code::ParseError,
        span,
        "variations nested too deep to read this game",
        FORMAT_RULE,
    )
    .label(format!("the grammar stopped here ({message})"))
    .help(
        "the game holds a syntax error or a form only the full grammar reads (an annotation \
         after a space, `h2e2 (R)`; stray setup squares), and the grammar follows variations \
         only tens of thousands deep: nest fewer, or write the annotation without the space",
    )
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
        Rule::annotation
        | Rule::annotation_text
        | Rule::spaced_annotation
        | Rule::short_annotation => "an annotation",
        Rule::variation => "a variation",
        Rule::stray_cells => "the row's squares",
        Rule::EOI => "end of game",
        _ => "valid log text",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::RecordedResult;

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
        assert_eq!(g.moves[2].text(), "a5xa6");
        assert_eq!(g.moves[2].annotation().unwrap().value, "3:B");
        let s = g.moves[2].text_span();
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

    /// A skipped or repeated number is one warning: the numbers after it are checked on from
    /// it. The moves keep their names by the turns played.
    #[test]
    fn one_wrong_move_number_is_one_warning() {
        let t = "1. a2a3 a7a6 3. b2b3 b7b6 4. c2c3 c7c6 4. d2d3 d7d6 5. e2e3 5... e7e6 7. f2f3";
        let g = &parse_log(t)[0];
        let found: Vec<(&str, &str)> = g
            .findings
            .iter()
            .map(|f| (&t[f.span.start..f.span.end], f.message.as_str()))
            .collect();
        assert_eq!(
            found,
            vec![
                ("3.", "move number 3. where 2. was expected"),
                ("4.", "move number 4. where 5. was expected"),
                ("7.", "move number 7. where 6. was expected"),
            ]
        );
        assert_eq!(g.move_ref(3, None).unwrap().number, 2, "b2b3 is move 2");
        for t in ["1. a2a3 a7a6 3. b2b3", "1. a2a3 a7a6 1. b2b3 b7b6 2. c2c3"] {
            assert_eq!(parse_log(t)[0].findings.len(), 1, "{t}");
        }
    }

    /// Each line of play keeps its own count: a variation's first number may follow its
    /// parent's written numbers or the turns played; a wrong number in a variation leaves
    /// the main line alone; numbers too large to read apart are one warning.
    #[test]
    fn move_numbers_are_checked_line_by_line() {
        let one = |t: &str| {
            let g = &parse_log(t)[0];
            let found: Vec<String> = g
                .findings
                .iter()
                .map(|f| format!("{} {}", &t[f.span.start..f.span.end], f.message))
                .collect();
            found
        };
        let skip = "1. h2e2 h9g7 3. h0g2 (2. b0c2) 3... i9h9 (2... b9c7) 4. i0h0 (4. a3a4) *";
        assert_eq!(one(skip), ["3. move number 3. where 2. was expected"]);
        let in_variation = "1. h2e2 h9g7 (1... b9c7 3. h0g2) 2. h0g2 i9h9 3. i0h0 *";
        assert_eq!(
            one(in_variation),
            ["3. move number 3. where 2. was expected"]
        );
        assert_eq!(
            parse_log(in_variation)[0].findings[0].span.start,
            in_variation.find("3. h0g2").unwrap()
        );
        let huge = "99999999999999999999998. a2a3 a7a6 99999999999999999999999. b2b3 *";
        assert_eq!(parse_log(huge)[0].findings.len(), 1);
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
        let g = &parse_log("[Event \"1\\n2\\r3\\\\n C:\\dir\"]\n*")[0];
        assert_eq!(g.tag_value("Event"), Some("1\n2\r3\\n C:\\dir"));
    }
}
