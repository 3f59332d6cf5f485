//! `arbiter convert`: any record arbiter reads, written as a native log that keeps what the
//! user wrote: every tag as written, setups, comments where they stood, NAGs, variations, the
//! result tag and token as recorded (or their absence). Checking the output gives the same
//! findings, plies and outcome as checking the input (a tested property).
//!
//! What the native log cannot hold is escaped (docs/log-format.md): a tag value's `"`, `\` and
//! line breaks as `\"`, `\\` and `\n`; a comment holding `}` is written as `;` comments, one
//! per line. A game the writer cannot write faithfully is refused with a located diagnostic.
//! Parameters a source format implies (a Gravon record plays the two-squares rule with 5) are
//! written as tags; Xiangqi moves can be rewritten in ICCS, WXF or Chinese ([`write_native_in`]).

use crate::finding::{Code, Finding};
use crate::input::Chunk;
use crate::record::{Comment, GameRecord, MoveRecord, Nag};
use crate::rulebook::Rule;
use crate::rules::params::{parameter_tags, PARAMETER_TAGS};
use crate::rules::{GameId, Parameters};
use crate::types::ExitStatus;
use crate::types::{Side, Span};
use std::rc::Rc;

/// Why a game cannot be written in the notation asked for.
#[derive(Debug, Clone)]
pub enum ConvertError {
    /// The ruleset has no such notation (WXF and Chinese are Xiangqi's).
    NoSuchNotation(GameId),
    /// A ply could not be read, so neither it nor the rest can be rewritten (its finding).
    Unreadable(Box<Finding>),
}

/// What the writer needs besides the record: the ruleset, the parameters in force and the
/// ruleset's defaults, the side that moves first, and the rewritten moves of every line.
pub struct Writing<'a> {
    /// The ruleset.
    pub game: GameId,
    /// The parameters in force.
    pub params: &'a Parameters,
    /// The ruleset's defaults.
    pub defaults: &'a Parameters,
    /// Who moves first in the record's start position.
    pub first: Side,
    /// Every line's moves in another notation (index 0 the main line, `n` the variation
    /// `variations[n - 1]`) and the `Format` value naming it.
    pub rewritten: Option<(&'a [Vec<String>], &'static str)>,
    /// Comments to write between the header and the movetext, one a line (what a log taken
    /// up from a position does not carry).
    pub notes: &'a [String],
    /// Write a `Game` tag: the record does not name its ruleset by a `Game` or `Variant` tag,
    /// so the log says the one an importer, `--game` or its file's text gave (the text that
    /// showed it, another game of the file, may not go with this one).
    pub game_tag: bool,
}

/// Writes one game as a native log with its moves in `notation` (`iccs`, `wxf`, `chinese`)
/// and a `Format` tag saying so, as the game's engine rewrites them
/// ([`crate::rules::Rules::rewrite`]). ICCS is every ruleset's own coordinate notation, so a
/// game whose engine has no notations is written as it is in `iccs`
/// ([`ConvertError::NoSuchNotation`] otherwise); a ply that cannot be read stops it
/// ([`ConvertError::Unreadable`]).
pub fn write_native_in(
    record: &GameRecord,
    w: &Writing,
    notation: &str,
) -> Result<Result<String, Finding>, ConvertError> {
    match crate::games::engine(w.game).rewrite(record, w.params, notation) {
        Some(Ok((moves, format))) => {
            let w = Writing {
                rewritten: Some((&moves, format)),
                ..*w
            };
            Ok(write_native(record, &w))
        }
        Some(Err(f)) => Err(ConvertError::Unreadable(Box::new(f))),
        None if notation == "iccs" => Ok(write_native(record, w)),
        None => Err(ConvertError::NoSuchNotation(w.game)),
    }
}

/// A tag value as the native log writes it: `"`, `\` and line breaks escaped.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// A comment as the native log writes it: `;text` for a `;` comment, `{text}`, or `;`
/// comments, one a line, when the text holds `}`.
fn comment_text(c: &Comment) -> String {
    let text = &c.text;
    if c.line_comment && !text.contains('\n') {
        return format!(";{text}");
    }
    if !text.contains('}') {
        return format!("{{{text}}}");
    }
    // A `;` comment ends at any line end: LF, CRLF or a lone CR.
    text.split('\n')
        .flat_map(|l| l.trim_end_matches('\r').split('\r'))
        .map(|l| format!(";{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Writes one game as a native log (see the module doc); `Err` is the finding of what cannot
/// be written faithfully.
pub fn write_native(record: &GameRecord, w: &Writing) -> Result<String, Finding> {
    refuse_unwritable(record)?;
    let mut out = String::new();
    write_header(record, w, &mut out);
    out.push('\n');
    for n in w.notes {
        out.push_str(&format!("; {}\n", n.replace(['\n', '\r'], " ")));
    }
    let mut text = Movetext::new(record, w);
    text.line(0);
    if let Some(r) = &record.result_token {
        text.push(r.value.as_str().to_string(), false);
    }
    out.push_str(&text.finish());
    out.push('\n');
    Ok(out)
}

/// The finding for what the native log cannot hold: a variation that starts after its
/// line's last move, an importer's move to a square the board does not have, a move text with
/// a delimiter in it (an importer's).
fn refuse_unwritable(record: &GameRecord) -> Result<(), Finding> {
    for v in &record.variations {
        // A variation is written after the move it replaces: one that starts past its parent
        // line's last move replaces none, and written there it would be read as the parent's
        // own continuation (another line of play, another verdict).
        let replaced = (v.start as usize).saturating_sub(record.line_start(v.parent) as usize);
        if replaced >= record.line_moves(v.parent).len() {
            return Err(unwritable(
                Code::ParseError,
                v.span,
                "a variation that starts after the last move of its line cannot be written in a native log".into(),
                "no move of its line to give an alternative to",
            ));
        }
    }
    let lines = std::iter::once(&record.moves).chain(record.variations.iter().map(|v| &v.moves));
    for m in lines.flatten() {
        let text = crate::finding::excerpt(m.text());
        // An importer writes a square it cannot name as `?`; written so (`b4-?`), the move
        // would be a `parse-error`, not the source's `illegal-move`.
        let nowhere = |e: &crate::record::PlyExtra| {
            e.imported_coord == Some(None) || (e.imported_coord.is_some() && m.text().contains('?'))
        };
        if m.extra.as_deref().is_some_and(nowhere) {
            return Err(unwritable(
                Code::IllegalMove,
                m.text_span(),
                format!("the move `{text}` goes to no square of the board: a native log cannot write it"),
                "not a square",
            ));
        }
        let bad = m
            .text()
            .chars()
            .any(|c| c.is_whitespace() || "{};()[],\"".contains(c) || c == '\u{feff}');
        if bad || m.text().is_empty() {
            return Err(unwritable(
                Code::ParseError,
                m.text_span(),
                format!("the move `{text}` cannot be written in a native log"),
                "a move in a native log has no space, brace, parenthesis, comma or quote",
            ));
        }
    }
    Ok(())
}

/// A finding of [`refuse_unwritable`]: `code` at `span` (the source's bytes), why, and what
/// the label says there.
fn unwritable(code: Code, span: Span, message: String, label: &str) -> Finding {
    Finding::new(code, span, message, Rule::LogMoves)
        .label(label.to_string())
        .help("convert writes only what reads back the same; `arbiter check` judges the record as it is")
}

/// Tags, setups and the comments before the movetext, in the order they stood; tags always
/// before setups (the grammar's order, which an importer's spans need not follow).
fn write_header(record: &GameRecord, w: &Writing, out: &mut String) {
    enum Item<'a> {
        Tag(&'a crate::record::Tag),
        Setup(&'a crate::record::SetupBlock),
        Comment(&'a Comment),
    }
    let first_move = record.moves.first().map_or(usize::MAX, |m| m.span().start);
    let first_setup = record.setups.first().map_or(usize::MAX, |b| b.span.start);
    let mut items: Vec<((bool, usize), Item)> = Vec::new();
    let skip = |name: &str| {
        name.eq_ignore_ascii_case("gravontype")
            || (w.rewritten.is_some() && name.eq_ignore_ascii_case("format"))
    };
    for t in record.tags.iter().filter(|t| !skip(&t.name.value)) {
        items.push(((false, t.span.start), Item::Tag(t)));
    }
    for b in &record.setups {
        items.push(((true, b.span.start), Item::Setup(b)));
    }
    for c in record
        .comments
        .iter()
        .filter(|c| c.line == 0 && c.after == 0)
    {
        if c.span.start < first_move {
            items.push(((c.span.start > first_setup, c.span.start), Item::Comment(c)));
        }
    }
    items.sort_by_key(|(at, _)| *at);
    if w.game_tag {
        out.push_str(&format!("[Game \"{}\"]\n", w.game.as_str()));
    }
    let (before, after): (Vec<_>, Vec<_>) = items.iter().partition(|((setup, _), _)| !setup);
    let write = |item: &Item, out: &mut String| match item {
        Item::Tag(t) => out.push_str(&format!(
            "[{} \"{}\"]\n",
            t.name.value,
            escape(&t.value.value)
        )),
        Item::Setup(b) => write_setup(b, out),
        Item::Comment(c) => {
            out.push_str(&comment_text(c));
            out.push('\n');
        }
    };
    for (_, item) in before {
        write(item, out);
    }
    if let Some((_, format)) = w.rewritten {
        out.push_str(&format!("[Format \"{format}\"]\n"));
    }
    for (k, v) in parameter_tags(w.params, w.defaults) {
        // A parameter the source format implies and the record does not say.
        if record.tag(k).is_none() && PARAMETER_TAGS.contains(&k) {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(&v)));
        }
    }
    for (_, item) in after {
        write(item, out);
    }
}

fn write_setup(block: &crate::record::SetupBlock, out: &mut String) {
    out.push_str(&format!("\nsetup {}\n", block.side.value));
    // Highest rank first, as the board is drawn (and as every native log in fixtures/ has it).
    let mut rows: Vec<_> = block.rows.iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.rank.value));
    for r in rows {
        out.push_str(&format!("{:>3} {}\n", r.rank.value, r.cells.value));
    }
}

/// The movetext being written: tokens wrapped at 90 characters.
struct Movetext<'a> {
    record: &'a GameRecord,
    w: &'a Writing<'a>,
    out: String,
    line: String,
    /// The variations that branch off each line at each of its moves (line, index).
    children: std::collections::HashMap<(usize, usize), Vec<usize>>,
    comments: std::collections::HashMap<(usize, usize), Vec<&'a Comment>>,
    nags: std::collections::HashMap<(usize, usize), Vec<&'a Nag>>,
}

impl<'a> Movetext<'a> {
    fn new(record: &'a GameRecord, w: &'a Writing<'a>) -> Self {
        let mut children: std::collections::HashMap<(usize, usize), Vec<usize>> =
            Default::default();
        for (i, v) in record.variations.iter().enumerate() {
            let parent_start = record.line_start(v.parent) as usize;
            let mut at = (v.start as usize).saturating_sub(parent_start);
            // A variation replaces a whole turn: it is written after the turn's last ply (a
            // Spionage turn has two, `a3-a4,b3-b4`).
            let moves = record.line_moves(v.parent);
            while moves
                .get(at + 1)
                .is_some_and(|m| Some(m.turn()) == moves.get(at).map(|p| p.turn()))
            {
                at += 1;
            }
            children.entry((v.parent, at)).or_default().push(i + 1);
        }
        let first_move = record.moves.first().map_or(usize::MAX, |m| m.span().start);
        let mut comments: std::collections::HashMap<(usize, usize), Vec<&Comment>> =
            Default::default();
        for c in &record.comments {
            if c.line == 0 && c.after == 0 && c.span.start < first_move {
                continue; // written with the header
            }
            comments.entry((c.line, c.after)).or_default().push(c);
        }
        let mut nags: std::collections::HashMap<(usize, usize), Vec<&Nag>> = Default::default();
        for n in &record.nags {
            nags.entry((n.line, n.after)).or_default().push(n);
        }
        Movetext {
            record,
            w,
            out: String::new(),
            line: String::new(),
            children,
            comments,
            nags,
        }
    }

    /// Adds a token; `glued` joins it to the previous one without a space (a Spionage turn's
    /// second move after its comma).
    fn push(&mut self, tok: String, glued: bool) {
        if !glued
            && self.line.chars().count() + 1 + tok.chars().count() > 90
            && !self.line.is_empty()
        {
            self.out.push_str(self.line.trim_end());
            self.out.push('\n');
            self.line.clear();
        }
        if !glued && !self.line.is_empty() && !self.line.ends_with('(') {
            self.line.push(' ');
        }
        self.line.push_str(&tok);
    }

    /// A comment on its own line of output (a `;` comment must end its line).
    fn comment(&mut self, c: &Comment) {
        let text = comment_text(c);
        if text.starts_with(';') {
            self.push(text, false);
            self.out.push_str(self.line.trim_end());
            self.out.push('\n');
            self.line.clear();
        } else {
            self.push(text, false);
        }
    }

    /// Writes line `n` of the record and, after each of its moves, the variations that
    /// replace that move; nested variations go on an explicit stack, never by recursion. A
    /// variation that branches off after its line's last move (an archive's continuation,
    /// which `( ... )` cannot say) is written as the line's continuation, its siblings as
    /// variations of its first move.
    fn line(&mut self, n: usize) {
        let mut stack = vec![Frame {
            line: n,
            next: 0,
            again: false,
            parens: Parens::None,
        }];
        while let Some(top) = stack.last_mut() {
            let (line, idx) = (top.line, top.next);
            let moves = self.record.line_moves(line);
            let repeat = std::mem::take(&mut top.again);
            if idx == 0 && top.parens == Parens::Due {
                // A variation opens: each sibling in parentheses of its own.
                top.parens = Parens::Open;
                self.push("(".into(), false);
            }
            self.notes(line, idx);
            if idx == moves.len() {
                // No variation starts past a line's last move (`refuse_unwritable`).
                let closes = top.parens == Parens::Open;
                stack.pop();
                if closes {
                    self.push(")".into(), true);
                    if let Some(t) = stack.last_mut() {
                        t.again = true;
                    }
                }
                continue;
            }
            top.next += 1;
            self.write_move(&moves[idx], idx, line, repeat);
            if let Some(kids) = self.children.get(&(line, idx)) {
                stack.extend(kids.iter().rev().map(|&k| Frame {
                    line: k,
                    next: 0,
                    again: false,
                    parens: Parens::Due,
                }));
            }
        }
    }

    /// The comments and NAGs that stand after `after` moves of line `line`.
    fn notes(&mut self, line: usize, after: usize) {
        if let Some(ns) = self.nags.remove(&(line, after)) {
            for n in ns {
                self.push(n.text.value.clone(), false);
            }
        }
        if let Some(cs) = self.comments.remove(&(line, after)) {
            for c in cs {
                self.comment(c);
            }
        }
    }

    /// One move: its number where one is due (the first player's turns, a line's first move,
    /// after a variation), the move, its annotation.
    fn write_move(&mut self, m: &MoveRecord, idx: usize, line: usize, repeat: bool) {
        let moves = self.record.line_moves(line);
        let same_turn = idx > 0 && moves[idx - 1].turn() == m.turn();
        let shifted = m.turn() + usize::from(self.w.first == Side::Second);
        let rewritten = self.w.rewritten.and_then(|(rw, _)| rw.get(line)?.get(idx));
        let text = rewritten.map_or_else(|| m.text().to_string(), String::clone);
        let mut tok = String::new();
        if same_turn {
            tok.push(',');
        } else if shifted.is_multiple_of(2) {
            tok.push_str(&format!("{}. ", shifted / 2 + 1));
        } else if idx == 0 || repeat {
            tok.push_str(&format!("{}... ", shifted / 2 + 1));
        }
        tok.push_str(&text);
        if let Some(a) = m.annotation() {
            tok.push_str(&format!("({})", a.value));
        }
        self.push(tok, same_turn);
    }

    fn finish(mut self) -> String {
        if !self.line.trim().is_empty() {
            self.out.push_str(self.line.trim_end());
        } else if self.out.ends_with('\n') {
            self.out.pop();
        }
        self.out
    }
}

/// One line being written: the line, its next move, whether its next move repeats its number
/// (a variation was just closed), and its parentheses.
struct Frame {
    line: usize,
    next: usize,
    again: bool,
    parens: Parens,
}

/// The parentheses of a line being written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parens {
    /// The line written: none of its own.
    None,
    /// A variation whose `(` is still to be written.
    Due,
    /// A variation whose `(` is written; its `)` follows its last move.
    Open,
}

/// What `arbiter convert` is asked: the moves' notation, the ply after which the log is taken
/// up, and the one game to convert.
#[derive(Debug, Clone, Copy, Default)]
pub struct ConvertRequest<'a> {
    /// Write Xiangqi moves in this notation (`iccs`, `wxf`, `chinese`); `None`: as written.
    pub notation: Option<&'a str>,
    /// Start the log from the position after this ply ([`convert_from`]).
    pub from_ply: Option<u32>,
    /// Convert only this game of the input (from 0).
    pub game_index: Option<usize>,
    /// The log goes to a terminal: text from the record is drawn with visible stand-ins
    /// ([`crate::escape::log_text`]); into a file or a pipe it is written byte for byte.
    pub terminal: bool,
}

/// `arbiter convert`: writes every game of `input` (or only its game `game_index`, counting
/// from 0, cut out without parsing the games before it) as a native log on `out` (moves in
/// `notation` when given), games separated by a blank line. A game that cannot be written is
/// reported on `err` with its error findings and makes the status [`ExitStatus::Unusable`];
/// the other games are still written. A `game_index` past the last game is reported on `err`
/// (status unusable).
pub fn run(
    input: &crate::input::Input,
    overrides: &crate::rules::Overrides,
    req: &ConvertRequest,
    color: bool,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> ExitStatus {
    if let crate::input::Input::File(p) = input {
        if p.is_dir() {
            let _ = writeln!(
                err,
                "arbiter: {} is a directory; name one file (convert writes the games of one file)",
                crate::escape::visible_line(&input.name())
            );
            return ExitStatus::Unusable;
        }
    }
    // Each game with the chunk it was read from (shared: a Gravon chunk may hold several).
    let games: Box<dyn Iterator<Item = (Rc<Chunk>, GameRecord)>> = match req.game_index {
        Some(n) => match crate::pipeline::game_or_say(input, n, err) {
            Some((chunk, rec)) => Box::new(std::iter::once((Rc::new(chunk), rec))),
            None => return ExitStatus::Unusable,
        },
        None => Box::new(crate::input::chunks(input).flat_map(|chunk| {
            let records = crate::pipeline::parse_chunk(&chunk);
            let chunk = Rc::new(chunk);
            records.into_iter().map(move |r| (Rc::clone(&chunk), r))
        })),
    };
    let mut status = ExitStatus::Clean;
    let mut first = true;
    for (chunk, rec) in games {
        let converted = match req.from_ply {
            None => convert_one(&rec, overrides, req.notation),
            Some(ply) => convert_from(&rec, overrides, req.notation, ply),
        };
        let problem = match converted {
            Ok(text) => {
                let sep = if first { "" } else { "\n" };
                first = false;
                let text = crate::escape::log_text(&text, req.terminal);
                if let Err(e) = write!(out, "{sep}{text}") {
                    let _ = writeln!(err, "arbiter: cannot write to standard output: {e}");
                    return ExitStatus::Unusable;
                }
                continue;
            }
            Err(Problem::Findings(fs)) => fs,
            Err(Problem::Notation(game)) => {
                let _ = writeln!(
                    err,
                    "arbiter: {} game {}: --notation {} is for xiangqi games, this one is {}",
                    crate::escape::visible_line(&chunk.source),
                    rec.index.saturating_add(1),
                    req.notation.unwrap_or_default(),
                    game.as_str()
                );
                Vec::new()
            }
        };
        let errors: Vec<Finding> = problem
            .into_iter()
            .filter(|f| f.severity() == crate::finding::Severity::Error)
            .collect();
        crate::report::human::print_findings(&chunk, &errors, rec.index, color, err);
        status = ExitStatus::Unusable;
    }
    if out.flush().is_err() {
        return ExitStatus::Unusable;
    }
    status
}

/// Why one game was not written.
#[derive(Debug)]
pub enum Problem {
    /// The findings that keep it from being read, judged or written.
    Findings(Vec<Finding>),
    /// Its ruleset has no such notation.
    Notation(GameId),
}

/// One game as a native log, its moves as written or in `notation` (`iccs`, `wxf`,
/// `chinese`). An unreadable record is refused ([`Problem::Findings`]); a game whose ruleset
/// cannot be judged is written as it stands when it names its game (convert keeps what the
/// user wrote; check says what is wrong with it).
pub fn convert_one(
    rec: &GameRecord,
    overrides: &crate::rules::Overrides,
    notation: Option<&str>,
) -> Result<String, Problem> {
    if rec.unreadable() {
        return Err(Problem::Findings(rec.findings.clone()));
    }
    let text = written(rec, overrides, notation, &[])?;
    // What was written is judged again: it must be judged as the record is.
    let opts = crate::pipeline::Options {
        overrides: overrides.clone(),
    };
    let judged = judgement(&crate::pipeline::check_record("", rec, &opts));
    let Some(differs) = judged_otherwise(&judged, &text, &opts) else {
        return Ok(text);
    };
    // As written, moves may read otherwise under the Game tag convert adds (a Game tag makes
    // coordinates ICCS, where the source's were read with ranks from 1): each written anew.
    if notation.is_none() {
        if let Ok(iccs) = written(rec, overrides, Some("iccs"), &[]) {
            if judged_otherwise(&judged, &iccs, &opts).is_none() {
                return Ok(iccs);
            }
        }
    }
    let at = Span::new(rec.span.start, rec.span.start);
    Err(Problem::Findings(vec![Finding::new(
        Code::ParseError,
        at,
        format!("written as a native log, this game would be judged otherwise ({differs})"),
        Rule::LogFormat,
    )
    .label("convert writes only what is judged the same")
    .help("`arbiter check` judges the record as it is; please report the record, so that convert learns to write it")]))
}

/// What convert must keep of a game's judgement: its plies, its outcome, and the finding codes
/// at their plies, each as often as found (on whichever line: an archive's lines are numbered
/// in the order the log writes them, which may differ from the archive's). A `record-defect`
/// is left out: it names a defect of the source that was repaired on reading, which the log
/// convert writes no longer has.
type Judgement = (
    usize,
    Option<crate::rules::Outcome>,
    Vec<(Option<u32>, Code)>,
);

/// The [`Judgement`] of a checked game `r` (its codes sorted, to compare in one pass).
fn judgement(r: &crate::pipeline::GameReport) -> Judgement {
    let mut codes: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.code != Code::RecordDefect)
        .map(|f| (f.ply, f.code))
        .collect();
    codes.sort_unstable();
    (r.plies, r.outcome.clone(), codes)
}

/// How the log `text` is judged otherwise than `judged`, in words; `None` when alike.
fn judged_otherwise(
    judged: &Judgement,
    text: &str,
    opts: &crate::pipeline::Options,
) -> Option<String> {
    let src = crate::pipeline::Source::from_bytes("converted", text.as_bytes().to_vec());
    let after = crate::pipeline::check_source(&src, opts);
    let [one] = after.as_slice() else {
        return Some(format!("{} games instead of one", after.len()));
    };
    let again = judgement(one);
    if again.0 != judged.0 {
        return Some(format!("{} plies instead of {}", again.0, judged.0));
    }
    if again.1 != judged.1 {
        return Some("another outcome".into());
    }
    if again.2 == judged.2 {
        return None;
    }
    // Both sorted: the first place they part says what one has that the other lacks.
    let (a, b) = (&judged.2, &again.2);
    let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let say = |what: &str, (ply, code): (Option<u32>, Code)| match ply {
        Some(p) => format!("{what} {code} at ply {p}"),
        None => format!("{what} {code} on the record"),
    };
    Some(match (a.get(at), b.get(at)) {
        (Some(&x), Some(&y)) if x < y => say("no", x),
        (Some(&x), None) => say("no", x),
        (_, Some(&y)) => say("a", y),
        (None, None) => "the same findings".into(),
    })
}

/// [`convert_one`] of a readable record, with `notes` after the header.
fn written(
    rec: &GameRecord,
    overrides: &crate::rules::Overrides,
    notation: Option<&str>,
    notes: &[String],
) -> Result<String, Problem> {
    use crate::pipeline::NamedBy;
    let (game, named) =
        crate::pipeline::named_game(rec, overrides).map_err(|f| Problem::Findings(vec![f]))?;
    let (params, defaults, _) =
        crate::pipeline::parameters_for(rec, game, overrides).map_err(Problem::Findings)?;
    let first = first_mover(rec, game, &params);
    let w = Writing {
        game,
        params: &params,
        defaults: &defaults,
        first,
        rewritten: None,
        notes,
        game_tag: matches!(named, NamedBy::Importer | NamedBy::Cli | NamedBy::Content),
    };
    let written = match notation {
        None => write_native(rec, &w),
        Some(n) => write_native_in(rec, &w, n).map_err(|e| match e {
            ConvertError::NoSuchNotation(g) => Problem::Notation(g),
            ConvertError::Unreadable(f) => Problem::Findings(vec![*f]),
        })?,
    };
    written.map_err(|f| Problem::Findings(vec![f]))
}

/// One game taken up after ply `ply` (`convert --from-ply`): a native log that starts from the
/// position after that ply, as its engine writes it ([`crate::rules::StartText`]: a `FEN` tag,
/// or the position start of the Stratego family and Spionage) with a `FromPly` tag, and the
/// moves after it, which keep their ply numbers. The tags that gave the old start (`FEN`,
/// `Position`, `FirstMove`, ...) are replaced; comments and NAGs before the ply and every
/// variation are left out; what the position cannot carry (a two-squares run, a repetition in
/// progress) is said in comments after the header. A ply the replay never reaches is refused
/// with the findings that explain it.
pub fn convert_from(
    rec: &GameRecord,
    overrides: &crate::rules::Overrides,
    notation: Option<&str>,
    ply: u32,
) -> Result<String, Problem> {
    if rec.unreadable() {
        return Err(Problem::Findings(rec.findings.clone()));
    }
    let game = crate::pipeline::game_of(rec, overrides).map_err(|f| Problem::Findings(vec![f]))?;
    let (params, _, _) =
        crate::pipeline::parameters_for(rec, game, overrides).map_err(Problem::Findings)?;
    let engine = crate::games::engine(game);
    let Some(start) = engine.start_after(rec, &params, ply) else {
        return Err(Problem::Findings(vec![unreached(rec, game, &params, ply)]));
    };
    let (cut, mut notes) = cut_record(rec, &start, ply);
    notes.splice(0..0, start.notes.iter().cloned());
    written(&cut, overrides, notation, &notes)
}

/// The position after ply `ply` of `rec` as the start of a native log (`show --log`): what
/// [`convert_from`] writes before the moves, with the record's tags but no result.
pub fn position_log(
    rec: &GameRecord,
    overrides: &crate::rules::Overrides,
    ply: u32,
) -> Result<String, Problem> {
    let base = crate::rules::start_ply(rec).unwrap_or(0);
    let mut head = rec.clone();
    head.moves.truncate(ply.saturating_sub(base) as usize);
    head.turns = head.moves.last().map_or(0, |m| m.turn() + 1);
    head.result_token = None;
    head.tags
        .retain(|t| !t.name.value.eq_ignore_ascii_case("Result"));
    convert_from(&head, overrides, None, ply)
}

/// The finding for a `--from-ply` the replay never reaches.
fn unreached(rec: &GameRecord, game: GameId, params: &Parameters, ply: u32) -> Finding {
    let replay = crate::games::engine(game).replay(rec, params, &mut |_, _| {});
    let (first, last) = (
        replay.start_ply,
        replay.start_ply + replay.plies.len() as u32,
    );
    let ended = replay.outcome.as_ref().filter(|o| o.ply == ply);
    let why = if let Some(o) = ended.filter(|_| (first..=last).contains(&ply)) {
        format!(
            "the game ended on the board after it ({}), and that position cannot start a log (a Flag or the Headquarters is gone, or a den is taken)",
            o.reason
        )
    } else if let Some(f) = replay.findings.iter().find(|f| f.ply == Some(last + 1)) {
        format!("the replay stopped at ply {} ({})", last + 1, f.code)
    } else if replay.stopped && replay.plies.is_empty() {
        "the game could not start".to_string()
    } else {
        format!("the game's positions are those after plies {first} to {last}")
    };
    Finding::new(
        Code::ParseError,
        at_start(rec),
        format!("cannot take the game up after ply {ply}: {why}"),
        Rule::LogPositions,
    )
    .label("--from-ply")
    .help("choose a ply the replay reaches; `arbiter check` shows where it stops")
}

/// The tags that give a start position; a log taken up from a position gets its own.
const START_TAGS: [&str; 10] = [
    "FEN",
    "Position",
    "FirstMove",
    "Revealed",
    "Unmasked",
    "NoReturn",
    "TurnMove",
    "NoCapture",
    "FromPly",
    "Volcanoes",
];

/// `rec` cut after ply `ply`, starting from `start` (see [`convert_from`]), and the notes on
/// what was left out.
fn cut_record(
    rec: &GameRecord,
    start: &crate::rules::StartText,
    ply: u32,
) -> (GameRecord, Vec<String>) {
    let base = crate::rules::start_ply(rec).unwrap_or(0);
    let skip = (ply - base) as usize;
    let mut cut = rec.clone();
    let starts = |name: &str| START_TAGS.iter().any(|n| name.eq_ignore_ascii_case(n));
    cut.tags.retain(|t| !starts(&t.name.value));
    // An importer's start tags (the layhenghok saves' FirstMove) go too.
    cut.format_defaults.retain(|(name, _)| !starts(name));
    // After the record's own tags (the header is written in the order of the spans).
    let at = rec.tags.last().map_or(rec.span.start, |t| t.span.start);
    for (name, value) in &start.tags {
        cut.tags.push(crate::record::Tag {
            name: crate::types::Spanned::new(name.as_str().into(), Span::default()),
            value: crate::types::Spanned::new(value.as_str().into(), Span::default()),
            span: Span::new(at, at),
        });
    }
    if !start.setups.is_empty() {
        // A section has at least one row (a side without pieces has none).
        let sections = start.setups.iter().filter(|(_, rows)| !rows.is_empty());
        cut.setups = sections.map(setup_block).collect();
    }
    cut.moves = rec.moves[skip..].to_vec();
    let first_turn = cut.moves.first().map_or(0, |m| m.turn());
    for m in &mut cut.moves {
        m.set_turn(m.turn() - first_turn);
    }
    cut.turns = cut.moves.last().map_or(0, |m| m.turn() + 1);
    let header_end = rec.moves.first().map_or(usize::MAX, |m| m.span().start);
    let kept = |line: usize, after: usize, at: usize| {
        (line == 0 && after >= skip)
            .then(|| after - skip)
            .or_else(|| (line == 0 && after == 0 && at < header_end).then_some(0))
    };
    cut.comments.retain_mut(|c| {
        kept(c.line, c.after, c.span.start)
            .map(|a| c.after = a)
            .is_some()
    });
    cut.nags.retain_mut(|n| {
        kept(n.line, n.after, n.text.span.start)
            .map(|a| n.after = a)
            .is_some()
    });
    let mut notes = Vec::new();
    if !cut.variations.is_empty() {
        notes.push(format!(
            "the record's {} variations are left out",
            cut.variations.len()
        ));
        cut.variations.clear();
    }
    (cut, notes)
}

/// A setup section of a [`crate::rules::StartText`], without spans.
fn setup_block((side, rows): &(String, Vec<(u32, String)>)) -> crate::record::SetupBlock {
    use crate::types::Spanned;
    crate::record::SetupBlock {
        side: Spanned::new(side.clone(), Span::default()),
        rows: rows
            .iter()
            .map(|(rank, cells)| crate::record::SetupRow {
                rank: Spanned::new(*rank, Span::default()),
                cells: Spanned::new(cells.clone(), Span::default()),
            })
            .collect(),
        span: Span::default(),
    }
}

/// Who moves first in `rec`'s start position, as its engine reads it (a FEN may give the
/// second player the move).
fn first_mover(rec: &GameRecord, game: GameId, params: &Parameters) -> Side {
    let mut first = params.first_move.unwrap_or(Side::First);
    let mut probe = rec.clone();
    probe.moves.clear();
    probe.variations.clear();
    crate::games::engine(game).replay(&probe, params, &mut |info, draw| {
        if info.is_none() {
            first = draw().to_move;
        }
    });
    first
}

/// A span for findings about the record as a whole.
#[allow(dead_code)]
fn at_start(record: &GameRecord) -> Span {
    Span::new(record.span.start, record.span.start)
}
