//! "May I play this move?" (`arbiter claim FILE --ply N --move MOVE`) and "which moves may I
//! play?" (`--moves`): each move is played on a copy of the position after ply N, which one
//! replay reaches ([`crate::rules::Engine::try_moves`]), so the answer is what `check` would
//! report at ply N+1 were the move appended there, and the time stays linear in the game
//! whatever the number of moves tried.

use super::reply::{json, push_evidence, ClaimFormat, EvidenceOut, Named};
use super::{context, Judged, Unjudgeable};
use crate::escape;
use crate::finding::{Code, Finding};
use crate::rules::claims::{ClaimContext, Trial, Trials, Tried};
use crate::rules::Outcome;
use crate::types::ExitStatus;
use crate::types::{ending_words, GameId, Verdict};
use serde::Serialize;

/// How a game ends with a move: result, reason and the verdict's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Ends {
    /// The result.
    pub result: crate::types::RecordedResult,
    /// Why (kebab-case).
    pub reason: crate::types::EndReason,
    /// `Red wins: Blue's Flag is captured`.
    pub words: String,
}

/// The answer about one move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct MoveAnswer {
    /// The move as asked.
    #[serde(rename = "move")]
    pub text: String,
    /// True when it may be played.
    pub allowed: bool,
    /// `allowed`, `not-allowed` (a history rule forbids it), `illegal` (the movement rules
    /// refuse it, or it cannot be read) or `game-over`.
    pub answer: &'static str,
    /// The finding code that forbids it (empty when allowed).
    pub rule: &'static str,
    /// Where that rule is written.
    pub rule_source: &'static str,
    /// Why.
    pub reason: String,
    /// How the game ends with it, when it does.
    pub ends: Option<Ends>,
    /// What `check` would report at its ply besides (a repetition's verdict, a move limit).
    pub notes: Vec<String>,
    /// The plies the answer rests on, with their roles (the move itself is ply N+1).
    pub evidence: Vec<EvidenceOut>,
}

/// The reply to `--move`: the position and the answer about the move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct MoveReply {
    /// Where it is asked.
    #[serde(flatten)]
    pub asked: Asked,
    /// The answer.
    #[serde(flatten)]
    pub answer: MoveAnswer,
}

/// The reply to `--moves`: every move the board allows after the ply, split by what the
/// rules say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct MovesReply {
    /// Where it is asked.
    #[serde(flatten)]
    pub asked: Asked,
    /// How the game had ended by then, if it had: then no move may be played.
    pub game_over: Option<String>,
    /// The moves that may be played.
    pub allowed: Vec<MoveAnswer>,
    /// The moves the board allows but a history rule forbids.
    pub forbidden: Vec<MoveAnswer>,
    /// The moves the board allows that could not be tried (a Jieqi reveal the log has not
    /// given), with why.
    pub untried: Vec<MoveAnswer>,
}

/// The position after `ply` of `j` and its moves tried (`only`, or every board move).
fn tried<'a>(
    j: Judged<'a>,
    ply: u32,
    only: Option<&str>,
) -> Result<(ClaimContext<'a>, Trials), Unjudgeable> {
    let (ctx, game) = context(j, ply, false)?;
    let trials = crate::games::engine(game)
        .try_moves(j.record, ctx.params, ply, only)
        .ok_or_else(|| Unjudgeable(format!("the position after ply {ply} cannot be reached")))?;
    Ok((ctx, trials))
}

/// Where a move question is asked: the input, the game and the position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Asked {
    /// `move` or `moves`.
    pub question: &'static str,
    /// The input's name.
    pub source: String,
    /// The game's index in its input.
    pub game_index: usize,
    /// The ruleset.
    pub game: Option<GameId>,
    /// The moves are tried in the position after this ply.
    pub ply: u32,
    /// That ply's move as written (none at the start).
    pub after: Option<Named>,
}

impl Asked {
    fn new(question: &'static str, j: Judged, ctx: &ClaimContext) -> Asked {
        Asked {
            question,
            source: j.report.source.clone(),
            game_index: j.report.index,
            game: j.report.game,
            ply: ctx.ply,
            after: (ctx.ply > 0).then(|| Named::of(ctx, ctx.ply)),
        }
    }

    /// `ply 7 (4. h2-h1)` or `the start`.
    fn human(&self) -> String {
        self.after.as_ref().map_or("the start".into(), Named::human)
    }
}

/// The ending words of `o`.
fn ends(ctx: &ClaimContext, o: &Outcome) -> Ends {
    let sides = ctx.replay.game.map_or(["Red", "Blue"], |g| g.side_names());
    let v = Verdict {
        result: o.result,
        reason: o.reason,
    };
    Ends {
        result: o.result,
        reason: o.reason,
        words: ending_words(sides, v),
    }
}

/// The evidence of `f`, the move tried being ply `ctx.ply + 1` written as `text`.
fn evidence(ctx: &ClaimContext, f: &Finding, text: &str) -> Vec<EvidenceOut> {
    let rest = match f.code {
        Code::TwoSquaresRule => "in the run",
        Code::MoreSquaresRule => "in the chase",
        Code::PerpetualCheck | Code::PerpetualChase => "in the window",
        _ => "in the evidence",
    };
    ctx.evidence_of(f, Some(rest))
        .into_iter()
        .map(|e| EvidenceOut {
            written: if e.ply > ctx.ply {
                text.to_string()
            } else {
                Named::of(ctx, e.ply).written
            },
            ply: e.ply,
            role: e.role,
        })
        .collect()
}

/// What the rules say of one tried move.
fn answer(ctx: &ClaimContext, t: &Tried) -> MoveAnswer {
    let mut a = MoveAnswer {
        text: t.text.clone(),
        allowed: false,
        answer: "allowed",
        rule: "",
        rule_source: "",
        reason: String::new(),
        ends: None,
        notes: Vec::new(),
        evidence: Vec::new(),
    };
    match &t.trial {
        Trial::Allowed {
            ends: end,
            findings,
        } => {
            a.allowed = true;
            a.ends = end.as_ref().map(|o| ends(ctx, o));
            a.notes = findings
                .iter()
                .map(|f| format!("{}: {}", f.code, f.message))
                .collect();
            a.reason = match &a.ends {
                Some(e) => format!("allowed, and the game ends: {} ({})", e.words, e.reason),
                None => "allowed".into(),
            };
        }
        Trial::Forbidden(f) | Trial::Refused(f) => {
            a.answer = if matches!(t.trial, Trial::Forbidden(_)) {
                "not-allowed"
            } else {
                "illegal"
            };
            a.rule = f.code.as_str();
            a.rule_source = f.rule.citation();
            a.reason = f.message.clone();
            a.evidence = evidence(ctx, f, &t.text);
        }
    }
    a
}

/// `--move MOVE`: may `text` be played after ply `ply` of `j`?
pub fn one(j: Judged, ply: u32, text: &str) -> Result<MoveReply, Unjudgeable> {
    let (ctx, trials) = tried(j, ply, Some(text))?;
    let answer = match (&trials.ended, trials.moves.first()) {
        (Some(o), _) => MoveAnswer {
            text: text.to_string(),
            allowed: false,
            answer: "game-over",
            rule: Code::MovesAfterEnd.as_str(),
            rule_source: "rulings §1.3",
            reason: format!(
                "the game ended on ply {}: {} ({})",
                o.ply,
                ends(&ctx, o).words,
                o.reason
            ),
            ends: None,
            notes: Vec::new(),
            evidence: Vec::new(),
        },
        (None, Some(t)) => match &t.trial {
            Trial::Refused(f) if f.code == Code::ParseError => return Err(unreadable(text, f)),
            _ => answer(&ctx, t),
        },
        (None, None) => return Err(Unjudgeable("the move could not be tried".into())),
    };
    Ok(MoveReply {
        asked: Asked::new("move", j, &ctx),
        answer,
    })
}

/// A `--move` text the game's notation cannot read: the question cannot be judged (exit 2),
/// it is not a move the rules refuse. `f` is the replay's parse-error finding.
fn unreadable(text: &str, f: &Finding) -> Unjudgeable {
    let expected = if f.label.is_empty() {
        String::new()
    } else {
        format!(" ({})", f.label)
    };
    Unjudgeable(format!(
        "`{}` cannot be read as a move: {}{expected}",
        crate::escape::visible(text),
        f.message
    ))
}

/// `--moves`: every move the board allows after ply `ply` of `j`, split into the allowed ones,
/// the ones a history rule forbids and the ones that could not be tried.
pub fn all(j: Judged, ply: u32) -> Result<MovesReply, Unjudgeable> {
    let (ctx, trials) = tried(j, ply, None)?;
    let mut r = MovesReply {
        asked: Asked::new("moves", j, &ctx),
        game_over: trials.ended.as_ref().map(|o| {
            format!(
                "the game ended on ply {}: {} ({})",
                o.ply,
                ends(&ctx, o).words,
                o.reason
            )
        }),
        allowed: Vec::new(),
        forbidden: Vec::new(),
        untried: Vec::new(),
    };
    for t in &trials.moves {
        let a = answer(&ctx, t);
        match t.trial {
            Trial::Allowed { .. } => r.allowed.push(a),
            Trial::Forbidden(_) => r.forbidden.push(a),
            Trial::Refused(_) => r.untried.push(a),
        }
    }
    Ok(r)
}

impl MoveReply {
    /// Exit 0 when the move may be played, else 1.
    pub fn status(&self) -> ExitStatus {
        if self.answer.allowed {
            ExitStatus::Clean
        } else {
            ExitStatus::Findings
        }
    }

    /// The reply as printed in `format`.
    pub fn render(&self, format: ClaimFormat) -> String {
        if format == ClaimFormat::Json {
            return json(self);
        }
        let a = &self.answer;
        let at = self.asked.human();
        let verdict = match a.answer {
            "allowed" if a.ends.is_some() => "allowed, and it ends the game",
            "allowed" => "allowed",
            "game-over" => "not allowed: the game is over",
            "not-allowed" => "not allowed",
            _ => "not allowed: the movement rules refuse it",
        };
        let mut t = format!("move `{}` after {at}: {verdict}\n", a.text);
        if !a.rule.is_empty() {
            t.push_str(&format!("  rule: {} ({})\n", a.rule, a.rule_source));
        }
        t.push_str(&format!("  reason: {}\n", a.reason));
        for n in &a.notes {
            t.push_str(&format!("  note: {n}\n"));
        }
        push_evidence(&mut t, &a.evidence);
        escape::visible(&t).into_owned()
    }
}

impl MovesReply {
    /// Exit 0 when some move may be played, else 1.
    pub fn status(&self) -> ExitStatus {
        if self.allowed.is_empty() {
            ExitStatus::Findings
        } else {
            ExitStatus::Clean
        }
    }

    /// The reply as printed in `format`.
    pub fn render(&self, format: ClaimFormat) -> String {
        if format == ClaimFormat::Json {
            return json(self);
        }
        let at = self.asked.human();
        let mut t = format!(
            "moves after {at}: {} allowed, {} forbidden by a history rule\n",
            self.allowed.len(),
            self.forbidden.len()
        );
        if let Some(over) = &self.game_over {
            t.push_str(&format!("  no move: {over}\n"));
        }
        let (ending, plain): (Vec<&MoveAnswer>, Vec<&MoveAnswer>) =
            self.allowed.iter().partition(|a| a.ends.is_some());
        push_wrapped(&mut t, "  allowed:", plain.iter().map(|a| a.text.as_str()));
        for a in ending {
            let e = a.ends.as_ref().expect("partitioned on ends");
            t.push_str(&format!(
                "  allowed, ending the game: {} ({}, {})\n",
                a.text, e.words, e.reason
            ));
        }
        if !self.forbidden.is_empty() {
            t.push_str("  forbidden:\n");
            for a in &self.forbidden {
                t.push_str(&format!(
                    "    {}: {} ({}): {}\n",
                    a.text, a.rule, a.rule_source, a.reason
                ));
            }
        }
        // Grouped by why (a Jieqi reveal the log does not give is one reason for many moves).
        let mut whys: Vec<&str> = self.untried.iter().map(|a| a.reason.as_str()).collect();
        whys.dedup();
        for why in whys {
            let moves = self.untried.iter().filter(|a| a.reason == why);
            push_wrapped(
                &mut t,
                &format!("  not tried ({why}):"),
                moves.map(|a| a.text.as_str()),
            );
        }
        escape::visible(&t).into_owned()
    }
}

/// `head` and the words, wrapped at 100 columns with a deeper indent.
fn push_wrapped<'a>(t: &mut String, head: &str, words: impl Iterator<Item = &'a str>) {
    let mut line = head.to_string();
    let mut any = false;
    for w in words {
        any = true;
        if line.len() + 1 + w.len() > 100 {
            t.push_str(&line);
            t.push('\n');
            line = "   ".to_string();
        }
        line.push(' ');
        line.push_str(w);
    }
    if any {
        t.push_str(&line);
        t.push('\n');
    }
}
