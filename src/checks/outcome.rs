//! Does the recorded result follow from the moves? (rulings §1.3, used by every game.)
//!
//! The record's `Result` tag (and result token) and `Termination` tag are compared with the
//! replay's [`Outcome`](crate::rules::Outcome): an on-board end must agree with the recorded result; a game the
//! moves leave unfinished may carry a decisive or drawn result only when `Termination` names
//! an off-board end (`resignation`, `agreement`, `time`, `forfeit`, `admin`).

use crate::finding::{Code, Finding};
use crate::record::GameRecord;
use crate::rulebook::Rule;
use crate::rules::Replay;
use crate::types::EndReason;
use crate::types::{RecordedResult, Span, Spanned};

/// Off-board terminations a log may record (`log-format.md`).
pub const OFF_BOARD: [&str; 5] = ["resignation", "agreement", "time", "forfeit", "admin"];

const RULE: Rule = Rule::ResultFollows;

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
    let term = record.tag("Termination");
    let term_word = term.map(|t| t.value.value.trim().to_ascii_lowercase());
    if let (Some(t), Some(w)) = (term, &term_word) {
        let on_board = EndReason::parse(w).is_some() || w == "normal";
        if !OFF_BOARD.contains(&w.as_str()) && !on_board {
            out.push(
                Finding::new(
                    Code::ParseError,
                    t.value.span,
                    format!("unknown termination `{}`", t.value.value),
                    Rule::LogTerminations,
                )
                .label(format!("expected one of {}", OFF_BOARD.join(", ")))
                .help("on-board endings are derived from the moves and need no Termination tag"),
            );
            return out;
        }
    }
    if replay.stopped {
        return out;
    }
    // Without a result, point where one belongs: after the last move (the result token),
    // else at the last tag (a Result tag), never at a comment before the game.
    let at = recorded
        .as_ref()
        .map(|r| r.span)
        .or(term.map(|t| t.value.span))
        .or(record
            .moves
            .last()
            .map(|m| Span::new(m.span.end, m.span.end)))
        .or(record.tags.last().map(|t| t.span))
        .unwrap_or(Span::new(record.span.start, record.span.start));
    let Some(rec) = recorded else {
        out.push(
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
            }),
        );
        return out;
    };
    let off_board = term_word.as_deref().filter(|w| OFF_BOARD.contains(w));
    match &replay.outcome {
        // `*` says the result is unknown, which contradicts nothing the moves show.
        Some(_) if rec.value == RecordedResult::Unknown => {}
        Some(o) => {
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
            } else if let (Some(w), Some(t)) = (off_board, term) {
                out.push(
                    Finding::new(
                        Code::ResultMismatch,
                        t.value.span,
                        format!(
                            "termination `{w}` but the game ended on the board ({}, ply {})",
                            o.reason, o.ply
                        ),
                        RULE,
                    )
                    .at_ply(o.ply)
                    .label("the moves show a different end")
                    .help("drop the Termination tag; on-board endings follow from the moves"),
                );
            } else if let (Some(w), Some(t)) = (&term_word, term) {
                if w != o.reason.as_str() && w != "normal" {
                    out.push(
                        Finding::new(
                            Code::ResultMismatch,
                            t.value.span,
                            format!(
                                "termination `{w}` but the moves end the game by {}",
                                o.reason
                            ),
                            RULE,
                        )
                        .at_ply(o.ply)
                        .label(format!("the moves show {}", o.reason)),
                    );
                }
            }
        }
        None => {
            if rec.value == RecordedResult::Unknown {
                return out;
            }
            // Repetition "claim" (Xiangqi, rulings §4.3): a record that stops on a reported
            // third occurrence with that repetition's verdict records the arbiter's ruling.
            let last = replay.plies.last().map(|p| p.number);
            let ruled = replay.findings.iter().any(|f| {
                f.ply.is_some() && f.ply == last && f.verdict.is_some_and(|v| v.result == rec.value)
            });
            if ruled && term_word.is_none() {
                return out;
            }
            let bad = match off_board {
                None => Some(match &term_word {
                    Some(w) => format!("termination `{w}` but the moves do not end the game"),
                    None => format!(
                        "the record says {} but the moves do not end the game, and no Termination tag says how it ended",
                        rec.value.as_str()
                    ),
                }),
                Some("resignation") if rec.value == RecordedResult::Draw => {
                    Some("a resignation cannot end in a draw".to_string())
                }
                Some("agreement") if rec.value != RecordedResult::Draw => {
                    Some(format!("an agreed end must be a draw, not {}", rec.value.as_str()))
                }
                Some(_) => None,
            };
            if let Some(msg) = bad {
                out.push(
                    Finding::new(Code::ResultMismatch, rec.span, msg, RULE)
                        .label("not shown by the moves")
                        .help(format!(
                            "record an off-board end with [Termination \"...\"] ({}), or correct the result",
                            OFF_BOARD.join(", ")
                        )),
                );
            }
        }
    }
    out
}
