//! `arbiter claim`: does a player's claim hold in the position after a ply, and may a move be
//! played there? docs/claims.md lists every claim of every ruleset.
//!
//! The game is judged once ([`crate::pipeline::check_record`]); this module checks that the
//! ply exists, answers the claims every game has (`result`; a `draw` on a drawn end) and asks
//! the game's engine for the rest ([`crate::rules::Rules::answer`]): it names no game. A
//! claim the game does not have does not apply (exit 2), with the close claims it does have.
//! Move questions (`--move`, `--moves`) are [`moves`].

pub mod moves;
pub mod reply;

use crate::finding::{Code, Finding};
use crate::games;
use crate::pipeline::GameReport;
use crate::record::GameRecord;
use crate::report::verdict::{GameVerdict, RecordCheck};
pub use crate::rules::claims::{Answer, Claim, ClaimContext, Evidence, Standing};
use crate::types::ExitStatus;
use crate::types::{ending_words, GameId, RecordedResult, Verdict};
pub use reply::{ClaimFormat, Reply};
use std::io::Write;

/// Why a claim or a move cannot be judged (exit code 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unjudgeable(pub String);

/// What one `arbiter claim` asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Question {
    /// Does this claim hold?
    Claim(Claim),
    /// May this move (the game's notation) be played after the ply?
    Move(String),
    /// Which moves may be played after the ply, and which does a history rule forbid?
    Moves,
}

/// What one `arbiter claim` asks: the question, the ply after which it is asked (`None`: the
/// last ply, for `result`), the game of the input and the parameters it is judged under.
#[derive(Debug, Clone)]
pub struct ClaimRequest {
    /// The question.
    pub question: Question,
    /// The position after this ply (0: the start).
    pub ply: Option<u32>,
    /// Which game of the input (from 0).
    pub game_index: usize,
    /// Which line of play of the game (0 the main line, `n` its variation `n`).
    pub line: usize,
    /// Parameter overrides.
    pub overrides: crate::rules::Overrides,
    /// How to print the answer.
    pub format: ClaimFormat,
    /// Colours in the findings printed on failure.
    pub color: bool,
}

/// The claimed game: its record and its judgement (with its replay).
#[derive(Debug, Clone, Copy)]
pub struct Judged<'a> {
    /// The record.
    pub record: &'a GameRecord,
    /// The judged game.
    pub report: &'a GameReport,
}

/// Checks that the position after ply `ply` of `g` exists: the game was judged, the replay
/// reached the ply, and the game had not ended on the board before it. `refused_too`: the
/// ply may also be the one the replay stopped at (a claim about a refused move).
fn reach(g: &GameReport, ply: u32, refused_too: bool) -> Result<(), Unjudgeable> {
    let Some(replay) = &g.replay else {
        let why = g.findings.iter().find(|f| f.code.is_unusable());
        return Err(Unjudgeable(match why {
            Some(f) => format!("the game could not be judged: {} ({})", f.message, f.code),
            None => "the game could not be judged (see `arbiter check`)".into(),
        }));
    };
    if replay.start_ply > 0 {
        // The findings count plies from the game's start, the claim's position from the log's:
        // rather than an answer that mixes the two, none.
        return Err(Unjudgeable(format!(
            "the log takes the game up after ply {} (its FromPly tag): claims are answered only \
             on logs that start at the game's start position (`arbiter check` and `show` judge \
             this one, numbering its plies from {})",
            replay.start_ply,
            replay.start_ply.saturating_add(1)
        )));
    }
    let played = replay.plies.len() as u32;
    let start_error = |f: &&Finding| f.ply.is_none() && f.severity() == crate::Severity::Error;
    if replay.stopped && played == 0 {
        if let Some(f) = g.findings.iter().find(start_error) {
            return Err(Unjudgeable(format!(
                "the game cannot start: {} ({}; see `arbiter check`)",
                f.message, f.code
            )));
        }
    }
    if ply <= played || (refused_too && replay.stopped && ply == played + 1) {
        return Ok(());
    }
    Err(Unjudgeable(match &replay.outcome {
        Some(o) => {
            let goes_on = g.findings.iter().any(|f| f.code == Code::MovesAfterEnd);
            let record = if goes_on {
                "the record goes on, but the game does not"
            } else {
                "its last ply"
            };
            format!(
                "the game ended on ply {} ({}; {record}): there is no position after ply {ply} to claim in",
                o.ply, o.reason
            )
        }
        None if replay.stopped => format!(
            "the replay stopped after ply {played} (see `arbiter check`); ply {ply} cannot be judged"
        ),
        None => format!("the game has {played} plies; there is no ply {ply}"),
    }))
}

/// The position after ply `ply` of `j` ([`reach`]) as an engine reads it, and the ruleset.
fn context<'a>(
    j: Judged<'a>,
    ply: u32,
    refused_too: bool,
) -> Result<(ClaimContext<'a>, GameId), Unjudgeable> {
    let g = j.report;
    reach(g, ply, refused_too)?;
    let (Some(replay), Some(game)) = (&g.replay, g.game) else {
        return Err(Unjudgeable("the game could not be judged".into()));
    };
    let ctx = ClaimContext {
        record: j.record,
        params: &g.parameters,
        replay,
        findings: &g.findings,
        ply,
    };
    Ok((ctx, game))
}

/// Answers `claim` in the position after ply `ply` of the judged game `j`.
pub fn judge(j: Judged, claim: Claim, ply: u32) -> Result<Reply, Unjudgeable> {
    let g = j.report;
    let (ctx, game) = context(j, ply, claim == Claim::NoReturn)?;
    let replay = ctx.replay;
    let engine = games::engine(game);
    let answer = match claim {
        Claim::Result => result_claim(g),
        Claim::Draw if replay.outcome.as_ref().is_some_and(|o| o.ply == ply) => drawn_end(&ctx),
        _ => engine.answer(claim, &ctx).unwrap_or_else(|| {
            let has = engine.claims();
            let close: Vec<&str> = claim
                .close()
                .iter()
                .filter(|c| has.contains(c))
                .map(|c| c.as_str())
                .collect();
            let mut a = Answer::new(
                Standing::DoesNotApply,
                "",
                game.info().rules,
                format!(
                    "{} has no `{}` claim (docs/claims.md lists each game's claims)",
                    game.as_str(),
                    claim.as_str()
                ),
            );
            if !close.is_empty() {
                a.nearest = Some(format!(
                    "the close claims {} has: {}",
                    game.as_str(),
                    close.join(", ")
                ));
            }
            a
        }),
    };
    Ok(Reply::new(j, &ctx, claim, answer))
}

/// A `draw` claimed in the position where the game ended on the board: it holds when that end
/// is a draw.
fn drawn_end(ctx: &ClaimContext) -> Answer {
    let o = ctx
        .replay
        .outcome
        .as_ref()
        .expect("the game ended at the claimed ply");
    let v = Verdict {
        result: o.result,
        reason: o.reason,
    };
    let sides = ctx.replay.game.map_or(["Red", "Blue"], |g| g.side_names());
    let words = ending_words(sides, v);
    let standing = if o.result == RecordedResult::Draw {
        Standing::Holds
    } else {
        Standing::DoesNotHold
    };
    let mut a = Answer::new(
        standing,
        o.reason.as_str(),
        ctx.replay.game.map_or("rulings", |g| g.info().rules),
        format!("the game ends on {}: {words}", ctx.name(o.ply)),
    )
    .with_evidence(vec![Evidence::new(o.ply, "the game ends")]);
    a.verdict = Some(v);
    a
}

/// The `result` claim (rulings §1.3): the recorded result or termination does not follow from
/// the moves. Judged over the whole game, in the verdict's words.
fn result_claim(g: &GameReport) -> Answer {
    let v = GameVerdict::of(g);
    let standing = match v.record {
        RecordCheck::Disagrees(_) => Standing::Holds,
        _ => Standing::DoesNotHold,
    };
    let mut a = Answer::new(
        standing,
        Code::ResultMismatch.as_str(),
        "rulings §1.3",
        v.record_text(),
    );
    if let Some(o) = &g.outcome {
        a.evidence = vec![Evidence::new(o.ply, "the game ends")];
        a.verdict = Some(Verdict {
            result: o.result,
            reason: o.reason,
        });
    }
    if matches!(v.record, RecordCheck::NotChecked) {
        a.nearest = Some(v.ending_text());
    }
    a
}

/// `arbiter claim`: judges the game `req.game_index` of `input` and answers the question on
/// `out`: a claim exits [`ExitStatus::Clean`] when it holds, [`ExitStatus::Findings`] when it
/// does not (or the admin decides), [`ExitStatus::Unusable`] when it does not apply or cannot
/// be judged; a move exits 0 when allowed, 1 when not. Why a question cannot be judged goes to
/// `err` (and, with `--format json`, an error object to `out`).
pub fn run(
    input: &crate::input::Input,
    req: &ClaimRequest,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitStatus {
    let Some((chunk, rec)) = crate::pipeline::line_or_say(input, req.game_index, req.line, err)
    else {
        return reply::error(req, &input.name(), "the game could not be read", out);
    };
    let opts = crate::pipeline::Options {
        overrides: req.overrides.clone(),
    };
    let g = crate::pipeline::check_record(&chunk.source, &rec, &opts);
    let j = Judged {
        record: &rec,
        report: &g,
    };
    let ply = req.ply.unwrap_or(g.plies as u32);
    let answered = match &req.question {
        Question::Claim(c) => judge(j, *c, ply).map(|r| (r.render(req.format), r.status())),
        Question::Move(m) => moves::one(j, ply, m).map(|r| (r.render(req.format), r.status())),
        Question::Moves => moves::all(j, ply).map(|r| (r.render(req.format), r.status())),
    };
    match answered {
        Err(e) => {
            let shown: Vec<_> = g
                .findings
                .iter()
                .filter(|f| f.code.is_unusable() || f.code == Code::IllegalMove)
                .cloned()
                .collect();
            crate::report::human::print_findings(&chunk, &shown, g.index, req.color, err);
            let _ = writeln!(
                err,
                "arbiter: cannot judge the claim: {}",
                crate::escape::visible(&e.0)
            );
            reply::error(req, &g.source, &e.0, out)
        }
        Ok((text, status)) => {
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                let _ = writeln!(err, "arbiter: cannot write to standard output: {e}");
                return ExitStatus::Unusable;
            }
            status
        }
    }
}
