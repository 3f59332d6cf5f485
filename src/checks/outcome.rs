//! Does the recorded result follow from the moves? (rulings §1.3, used by every game.)
//!
//! The record's `Result` tag (and result token) and its claims about how the game ended (the
//! `Termination` tag, and a WinBoard adjudication comment after the last move,
//! `{Xboard adjudication: perpetual chasing}`) are compared with the replay's [`Outcome`]: an
//! on-board end must agree with the recorded result and with any on-board end a claim names;
//! a game the moves leave unfinished may carry a decisive or drawn result only when a claim
//! names an off-board end (`resignation`, `agreement`, `time`, `forfeit`, `admin`) or a third
//! party's decision (`adjudication`). A word arbiter does not know is a `record-defect`
//! warning and says nothing about the end.

use crate::finding::{Code, Finding};
use crate::record::GameRecord;
use crate::rulebook::Rule;
use crate::rules::{Outcome, Replay};
use crate::types::EndReason;
use crate::types::{RecordedResult, Span, Spanned};

/// Off-board terminations a log may record (`log-format.md`).
pub const OFF_BOARD: [&str; 5] = ["resignation", "agreement", "time", "forfeit", "admin"];

const RULE: Rule = Rule::ResultFollows;

/// What a `Termination` word (or an adjudication comment) says about how a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// An end on the board, which the moves must show.
    OnBoard(EndReason),
    /// An end off the board: one of [`OFF_BOARD`].
    OffBoard(&'static str),
    /// PGN's `normal`: the game ended by the rules, so the moves show how.
    Normal,
    /// PGN's `adjudication`: a third party decided, on what the board shows or off it.
    Adjudication,
    /// PGN's `unterminated`: the game did not end.
    Unterminated,
}

/// The words engine GUIs, game sites and the PGN standard write, beyond arbiter's own
/// (the [`EndReason`] words and [`OFF_BOARD`]), each with what it says; keys are lower case
/// with runs of spaces, `_` and `-` written as one `-`.
const WORDS: &[(&str, Termination)] = &[
    ("mate", Termination::OnBoard(EndReason::Checkmate)),
    (
        "perpetual-chasing",
        Termination::OnBoard(EndReason::PerpetualChase),
    ),
    (
        "perpetual-checking",
        Termination::OnBoard(EndReason::PerpetualCheck),
    ),
    (
        "3-fold-repetition",
        Termination::OnBoard(EndReason::Repetition),
    ),
    (
        "threefold-repetition",
        Termination::OnBoard(EndReason::Repetition),
    ),
    (
        "repetition-draw",
        Termination::OnBoard(EndReason::Repetition),
    ),
    (
        "draw-by-repetition",
        Termination::OnBoard(EndReason::Repetition),
    ),
    ("time-forfeit", Termination::OffBoard("time")),
    ("abandoned", Termination::OffBoard("forfeit")),
    ("rules-infraction", Termination::OffBoard("forfeit")),
    ("emergency", Termination::OffBoard("admin")),
    ("death", Termination::OffBoard("admin")),
    ("normal", Termination::Normal),
    ("adjudication", Termination::Adjudication),
    ("unterminated", Termination::Unterminated),
];

/// Reads a termination word (any case; spaces, `_` and `-` alike): arbiter's end reasons and
/// off-board words, and the words of `WORDS`. `None` for a word arbiter does not know.
pub fn read_termination(word: &str) -> Option<Termination> {
    let mut key = String::with_capacity(word.len());
    for part in word
        .split(|c: char| c.is_whitespace() || c == '_' || c == '-')
        .filter(|p| !p.is_empty())
    {
        if !key.is_empty() {
            key.push('-');
        }
        key.push_str(&part.to_lowercase());
    }
    if let Some(r) = EndReason::parse(&key) {
        return Some(Termination::OnBoard(r));
    }
    if let Some(w) = OFF_BOARD.iter().find(|w| **w == key) {
        return Some(Termination::OffBoard(w));
    }
    WORDS.iter().find(|(w, _)| *w == key).map(|(_, t)| *t)
}

/// One claim of the record about how the game ended.
#[derive(Debug, Clone)]
struct Claim {
    /// What it says; `None` for a word arbiter does not know (it explains a result, but
    /// nothing in it can be checked).
    term: Option<Termination>,
    /// The words as written.
    word: String,
    /// Where.
    span: Span,
    /// True for an adjudication comment, false for the `Termination` tag.
    comment: bool,
}

impl Claim {
    /// How messages name it: "termination `time`", "the adjudication `Checkmate`".
    fn what(&self) -> String {
        if self.comment {
            format!("the adjudication `{}`", self.word)
        } else {
            format!("termination `{}`", self.word)
        }
    }
}

/// The `record-defect` warning for a termination word arbiter does not know, at `span`.
fn unknown_word(word: &str, span: Span, comment: bool) -> Finding {
    let what = if comment {
        "adjudication reason"
    } else {
        "termination"
    };
    Finding::new(
        Code::RecordDefect,
        span,
        format!(
            "unknown {what} `{}`: it says nothing arbiter can check",
            crate::finding::excerpt(word)
        ),
        Rule::LogTerminations,
    )
    .label(format!("expected one of {}, or an end reason", OFF_BOARD.join(", ")))
    .help("the game is judged from its moves; write a Termination word arbiter knows (docs/log-format.md)")
}

/// The text after `adjudication:` in a comment (`Xboard adjudication: perpetual chasing`).
fn adjudication_reason(text: &str) -> Option<(usize, &str)> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find("adjudication:")? + "adjudication:".len();
    let rest = &text[at..];
    let lead = rest.len() - rest.trim_start().len();
    Some((at + lead, rest.trim()))
}

/// The record's claims about its end: the `Termination` tag, then each adjudication comment
/// after the last move of the main line. Words arbiter does not know are warnings in
/// `findings`.
fn claims(record: &GameRecord, findings: &mut Vec<Finding>) -> Vec<Claim> {
    let mut out = Vec::new();
    let mut add = |word: &str, span: Span, comment: bool| {
        let term = read_termination(word);
        if term.is_none() {
            findings.push(unknown_word(word, span, comment));
        }
        out.push(Claim {
            term,
            word: word.trim().to_string(),
            span,
            comment,
        });
    };
    if let Some(t) = record.tag("Termination") {
        add(&t.value.value, t.value.span, false);
    }
    let last = record.moves.len();
    for c in record
        .comments
        .iter()
        .filter(|c| c.line == 0 && c.after == last)
    {
        if let Some((at, reason)) = adjudication_reason(&c.text) {
            // The comment's text starts after its `{`; an importer's may not.
            let open = usize::from(!c.line_comment && c.span.len() > c.text.len());
            let start = (c.span.start + open + at).min(c.span.end);
            let span = Span::new(start, (start + reason.len()).min(c.span.end));
            add(reason, span, true);
        }
    }
    out
}

/// What the record claims about its end, in order (the `Termination` tag, then adjudication
/// comments after the last move), each as written and as read (`None`: a word arbiter does not
/// know). For the cross-check, which compares a WinBoard adjudication with arbiter's verdict.
pub fn claimed_ends(record: &GameRecord) -> Vec<(String, Option<Termination>)> {
    claims(record, &mut Vec::new())
        .into_iter()
        .map(|c| (c.word, c.term))
        .collect()
}

/// The recorded result: the `Result` tag, else the result token. Findings for an unreadable
/// `Result` value or a tag and token that disagree are pushed to `findings`.
pub fn recorded_result(
    record: &GameRecord,
    findings: &mut Vec<Finding>,
) -> Option<Spanned<RecordedResult>> {
    let tag = record
        .tag("Result")
        .and_then(|t| match RecordedResult::parse(&t.value.value) {
            Some(r) => Some(Spanned::new(r, t.value.span)),
            None => {
                findings.push(
                    Finding::new(
                        Code::ParseError,
                        t.value.span,
                        format!("`{}` is not a result", t.value.value),
                        Rule::LogTags,
                    )
                    .label("expected 1-0, 0-1, 1/2-1/2 or *")
                    .help("write the result as in PGN: 1-0, 0-1, 1/2-1/2, or * when unknown"),
                );
                None
            }
        });
    if let (Some(t), Some(k)) = (&tag, &record.result_token) {
        if t.value != k.value {
            findings.push(
                Finding::new(
                    Code::ResultMismatch,
                    k.span,
                    format!(
                        "the result token {} contradicts the Result tag {}",
                        k.value.as_str(),
                        t.value.as_str()
                    ),
                    Rule::LogResultToken,
                )
                .label("result token")
                .with_label(t.span, "Result tag")
                .help("make the tag and the token agree"),
            );
        }
    }
    tag.or_else(|| record.result_token.clone())
}

/// Compares what the record says with what the moves show. `replay` must be finished; when
/// its replay stopped early (an illegal move) only the record's own consistency is checked.
pub fn check_result(record: &GameRecord, replay: &Replay) -> Vec<Finding> {
    let mut out = Vec::new();
    let recorded = recorded_result(record, &mut out);
    let claims = claims(record, &mut out);
    if replay.stopped {
        return out;
    }
    let Some(rec) = recorded else {
        out.push(no_result(record, replay, &claims));
        return out;
    };
    match &replay.outcome {
        // `*` says the result is unknown, which contradicts nothing the moves show.
        Some(_) if rec.value == RecordedResult::Unknown => {}
        Some(o) => ended(&rec, o, &claims, &mut out),
        None => unfinished(&rec, replay, &claims, &mut out),
    }
    out
}

/// The `no-result` finding: where a result belongs (after the last move, else at the last
/// tag, never at a comment before the game), and what the moves show.
fn no_result(record: &GameRecord, replay: &Replay, claims: &[Claim]) -> Finding {
    let at = claims
        .iter()
        .find(|c| !c.comment)
        .map(|c| c.span)
        .or(record
            .moves
            .last()
            .map(|m| Span::new(m.span().end, m.span().end)))
        .or(record.tags.last().map(|t| t.span))
        .unwrap_or(Span::new(record.span.start, record.span.start));
    Finding::new(
        Code::NoResult,
        at,
        "the log records no result",
        Rule::LogResultTag,
    )
    .label("no Result tag and no result token")
    .help(match &replay.outcome {
        Some(o) => format!(
            "the moves end the game {} ({})",
            o.result.as_str(),
            o.reason
        ),
        None => "add [Result \"...\"] when the result is known".to_string(),
    })
}

/// The game ended on the board (`o`): the recorded result must be `o`'s, and every claim must
/// name that end (or leave the end to the moves: `normal`, `adjudication`); each is its own
/// finding.
fn ended(rec: &Spanned<RecordedResult>, o: &Outcome, claims: &[Claim], out: &mut Vec<Finding>) {
    if rec.value != o.result {
        out.push(
            Finding::new(
                Code::ResultMismatch,
                rec.span,
                format!(
                    "the record says {} but the moves end the game {} ({}, ply {})",
                    rec.value.as_str(),
                    o.result.as_str(),
                    o.reason,
                    o.ply
                ),
                RULE,
            )
            .at_ply(o.ply)
            .label(format!("the moves give {}", o.result.as_str()))
            .help("correct the Result, or the moves that led to this end"),
        );
    }
    for c in claims {
        let Some(term) = c.term else { continue };
        let f = match term {
            Termination::OnBoard(r) if r == o.reason => continue,
            Termination::Normal | Termination::Adjudication => continue,
            Termination::OnBoard(_) => Finding::new(
                Code::ResultMismatch,
                c.span,
                format!("{} but the moves end the game by {}", c.what(), o.reason),
                RULE,
            )
            .label(format!("the moves show {}", o.reason))
            .help("the record names an end the moves do not show; correct it, or the moves"),
            Termination::OffBoard(_) | Termination::Unterminated => Finding::new(
                Code::ResultMismatch,
                c.span,
                format!(
                    "{} but the game ended on the board ({}, ply {})",
                    c.what(),
                    o.reason,
                    o.ply
                ),
                RULE,
            )
            .label("the moves show a different end")
            .help("drop the Termination tag; on-board endings follow from the moves"),
        };
        out.push(f.at_ply(o.ply));
    }
}

/// The verdict of a third occurrence reported on the last ply (Xiangqi `Repetition "claim"`,
/// rulings §4.3) whose result is `rec`: the arbiter's ruling the record stops on.
fn ruling(replay: &Replay, rec: RecordedResult) -> Option<EndReason> {
    let last = replay.plies.last().map(|p| p.number);
    replay
        .findings
        .iter()
        .filter(|f| f.ply.is_some() && f.ply == last)
        .find_map(|f| f.verdict.filter(|v| v.result == rec))
        .map(|v| v.reason)
}

/// The moves leave the game unfinished: a decisive or drawn result needs a claim of an end off
/// the board (or a third party's decision), or a repetition ruling on the last ply; a claim of
/// an end on the board is a mismatch unless that ruling is it.
fn unfinished(
    rec: &Spanned<RecordedResult>,
    replay: &Replay,
    claims: &[Claim],
    out: &mut Vec<Finding>,
) {
    if rec.value == RecordedResult::Unknown {
        return;
    }
    let ruled = ruling(replay, rec.value);
    let mut explained = ruled.is_some();
    for c in claims {
        let Some(term) = c.term else {
            explained = true;
            continue;
        };
        let bad = match (term, ruled) {
            (Termination::OnBoard(r), Some(v)) if r == v => None,
            (Termination::OnBoard(_), Some(v)) => Some((
                c.span,
                format!(
                    "{} but the repetition on the last ply is ruled {v}",
                    c.what()
                ),
            )),
            (Termination::OnBoard(_) | Termination::Normal, None) => Some((
                c.span,
                format!("{} but the moves do not end the game", c.what()),
            )),
            (Termination::OffBoard(w), _) => off_board(w, rec.value).map(|m| (rec.span, m)),
            (Termination::Adjudication | Termination::Unterminated | Termination::Normal, _) => {
                None
            }
        };
        explained |= matches!(term, Termination::OffBoard(_) | Termination::Adjudication);
        if let Some((span, msg)) = bad {
            explained = true;
            out.push(mismatch(span, msg));
        }
    }
    if !explained {
        let msg = match claims.first() {
            Some(c) => format!("{} but the moves do not end the game", c.what()),
            None => format!(
                "the record says {} but the moves do not end the game, and no Termination tag says how it ended",
                rec.value.as_str()
            ),
        };
        out.push(mismatch(rec.span, msg));
    }
}

/// What is wrong with the off-board end `word` and the result `rec`, if anything.
fn off_board(word: &str, rec: RecordedResult) -> Option<String> {
    match word {
        "resignation" if rec == RecordedResult::Draw => {
            Some("a resignation cannot end in a draw".to_string())
        }
        "agreement" if rec != RecordedResult::Draw => Some(format!(
            "an agreed end must be a draw, not {}",
            rec.as_str()
        )),
        _ => None,
    }
}

/// A `result-mismatch` for an unfinished game at `span`.
fn mismatch(span: Span, msg: String) -> Finding {
    Finding::new(Code::ResultMismatch, span, msg, RULE)
        .label("not shown by the moves")
        .help(format!(
            "record an off-board end with [Termination \"...\"] ({}), or correct the result",
            OFF_BOARD.join(", ")
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn termination_words() {
        use Termination::*;
        assert_eq!(
            read_termination("perpetual chase"),
            Some(OnBoard(EndReason::PerpetualChase))
        );
        assert_eq!(
            read_termination(" Perpetual  Chasing "),
            Some(OnBoard(EndReason::PerpetualChase))
        );
        assert_eq!(
            read_termination("Checkmate"),
            Some(OnBoard(EndReason::Checkmate))
        );
        assert_eq!(
            read_termination("3-fold repetition"),
            Some(OnBoard(EndReason::Repetition))
        );
        assert_eq!(read_termination("time forfeit"), Some(OffBoard("time")));
        assert_eq!(
            read_termination("resignation"),
            Some(OffBoard("resignation"))
        );
        assert_eq!(read_termination("adjudication"), Some(Adjudication));
        assert_eq!(read_termination("resigned"), None);
        assert_eq!(read_termination(""), None);
    }

    #[test]
    fn adjudication_comments() {
        assert_eq!(
            adjudication_reason("Xboard adjudication: perpetual chasing"),
            Some((21, "perpetual chasing"))
        );
        assert_eq!(adjudication_reason("+0.01/1 2.7"), None);
    }
}
