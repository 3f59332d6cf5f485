//! What `arbiter claim` prints: a [`Reply`] to a claim, for people or as one JSON object
//! (docs/claims.md gives its fields), and the JSON error object of exit 2. Every text from the
//! log (moves, names) is escaped for the terminal in the human form.

use super::{ClaimRequest, Judged, Question};
use crate::escape;
use crate::rules::claims::{Answer, Claim, ClaimContext, Standing};
use crate::types::ExitStatus;
use crate::types::{GameId, MoveRef, Verdict};
use serde::Serialize;
use std::io::Write;

/// How `arbiter claim` prints its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimFormat {
    /// A few lines for people.
    Human,
    /// One JSON object.
    Json,
}

/// A ply named as the record writes it, for JSON: `{"ply": 7, "written": "4. h2-h1",
/// "text": "h2-h1"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Named {
    /// The ply (0: the start position).
    pub ply: u32,
    /// `4. h2-h1` (`the start` for ply 0).
    pub written: String,
    /// The move as written (empty for the start).
    pub text: String,
}

impl Named {
    /// Ply `ply` of the judged game, named.
    pub fn of(ctx: &ClaimContext, ply: u32) -> Named {
        let sides = ctx.replay.game.map_or(["Red", "Blue"], |g| g.side_names());
        let m: Option<MoveRef> = ctx.move_ref(ply);
        Named {
            ply,
            written: m
                .as_ref()
                .map_or_else(|| "the start".to_string(), |m| m.written(sides)),
            text: m.map_or(String::new(), |m| m.text),
        }
    }

    /// `ply 7 (4. h2-h1)`, or `the start`.
    pub fn human(&self) -> String {
        if self.ply == 0 && self.text.is_empty() {
            "the start".into()
        } else {
            format!("ply {} ({})", self.ply, self.written)
        }
    }
}

/// One ply of the evidence, named, with its role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct EvidenceOut {
    /// The ply (0: the start position).
    pub ply: u32,
    /// What it shows.
    pub role: String,
    /// The move as written there (`4. h2-h1`; `the start` for ply 0).
    #[serde(rename = "move")]
    pub written: String,
}

/// The repetition window (plies, both included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Window {
    /// The window's first ply.
    pub first: u32,
    /// Its last ply.
    pub last: u32,
}

/// The answer to a claim, as `arbiter claim --format json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Reply {
    /// The claim as the CLI names it.
    pub claim: &'static str,
    /// The input's name.
    pub source: String,
    /// The game's index in its input (from 0).
    pub game_index: usize,
    /// The ruleset.
    pub game: Option<GameId>,
    /// The claim is made in the position after this ply (0: the start).
    pub ply: u32,
    /// That ply's move as written (none at the start).
    #[serde(rename = "move")]
    pub at: Option<Named>,
    /// False when the game has no such claim, or its rule is off (exit 2).
    pub applies: bool,
    /// True when the claim holds (exit 0).
    pub holds: bool,
    /// True when the rule leaves the decision to the admin (Veldslag's 50 to 80 moves without
    /// an attack); `holds` is then false.
    pub discretionary: bool,
    /// `holds`, `does-not-hold`, `discretionary` or `does-not-apply`.
    pub answer: &'static str,
    /// Why, in a sentence or two.
    pub reason: String,
    /// The rule that decides: a finding code or an end reason (empty when the claim does not
    /// apply).
    pub rule: &'static str,
    /// Where that rule is written (`rulings §1.4`).
    pub rule_source: &'static str,
    /// The result and reason the rule gives, when it gives one (a repetition, an end).
    pub verdict: Option<Verdict>,
    /// The repetition window the verdict reads.
    pub window: Option<Window>,
    /// What is nearest: where it did or will hold, or the claims that do apply.
    pub nearest: Option<String>,
    /// The plies the answer rests on, with their roles, in order.
    pub evidence: Vec<EvidenceOut>,
    /// The same plies, numbers only.
    pub evidence_plies: Vec<u32>,
}

impl Reply {
    /// The reply to `claim` in `ctx` of the judged game `j`.
    pub fn new(j: Judged, ctx: &ClaimContext, claim: Claim, a: Answer) -> Reply {
        let evidence: Vec<EvidenceOut> = a
            .evidence
            .iter()
            .map(|e| EvidenceOut {
                ply: e.ply,
                role: e.role.clone(),
                written: Named::of(ctx, e.ply).written,
            })
            .collect();
        Reply {
            claim: claim.as_str(),
            source: j.report.source.clone(),
            game_index: j.report.index,
            game: j.report.game,
            ply: ctx.ply,
            at: (ctx.ply > 0).then(|| Named::of(ctx, ctx.ply)),
            applies: a.standing != Standing::DoesNotApply,
            holds: a.standing == Standing::Holds,
            discretionary: a.standing == Standing::Discretionary,
            answer: a.standing.as_str(),
            reason: a.reason,
            rule: a.rule,
            rule_source: a.source,
            verdict: a.verdict,
            window: a.window.map(|(first, last)| Window { first, last }),
            nearest: a.nearest,
            evidence_plies: evidence.iter().map(|e| e.ply).collect(),
            evidence,
        }
    }

    /// The exit status: 0 holds, 1 does not (or the admin decides), 2 does not apply.
    pub fn status(&self) -> ExitStatus {
        match (self.applies, self.holds) {
            (false, _) => ExitStatus::Unusable,
            (true, true) => ExitStatus::Clean,
            (true, false) => ExitStatus::Findings,
        }
    }

    /// The answer as printed in `format`.
    pub fn render(&self, format: ClaimFormat) -> String {
        match format {
            ClaimFormat::Json => json(self),
            ClaimFormat::Human => escape::visible(&self.human()).into_owned(),
        }
    }

    /// The answer for people (not yet escaped).
    fn human(&self) -> String {
        let standing = match (self.applies, self.holds, self.discretionary) {
            (false, _, _) => format!(
                "does not apply to {}",
                self.game.map_or("this game", |g| g.as_str())
            ),
            (_, true, _) => "holds".into(),
            (_, _, true) => "is at the admin's discretion (it does not hold on request)".into(),
            _ => "does not hold".into(),
        };
        let at = self.at.as_ref().map_or("the start".into(), Named::human);
        let mut t = format!("claim `{}` after {at}: {standing}\n", self.claim);
        if !self.rule.is_empty() {
            t.push_str(&format!("  rule: {} ({})\n", self.rule, self.rule_source));
        }
        t.push_str(&format!("  reason: {}\n", self.reason));
        if let Some(w) = self.window {
            t.push_str(&format!("  window: plies {} to {}\n", w.first, w.last));
        }
        push_evidence(&mut t, &self.evidence);
        if let Some(n) = &self.nearest {
            t.push_str(&format!("  nearest: {n}\n"));
        }
        t
    }
}

/// Appends the evidence lines (`    ply 3 (2. a5-a6): part of the run`).
pub fn push_evidence(t: &mut String, evidence: &[EvidenceOut]) {
    if evidence.is_empty() {
        return;
    }
    t.push_str("  evidence:\n");
    for e in evidence {
        let at = if e.ply == 0 {
            "the start".to_string()
        } else {
            format!("ply {} ({})", e.ply, e.written)
        };
        t.push_str(&format!("    {at}: {}\n", e.role));
    }
}

/// Pretty JSON and a line end.
pub fn json<T: Serialize>(v: &T) -> String {
    format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default())
}

/// The question's name in JSON: the claim, `move` or `moves`.
fn question_name(q: &Question) -> &'static str {
    match q {
        Question::Claim(c) => c.as_str(),
        Question::Move(_) => "move",
        Question::Moves => "moves",
    }
}

/// The error object of exit 2 (its schema; [`error`] writes it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ErrorReply {
    /// What is wrong with the question or the input.
    pub error: String,
    /// The claim as the CLI names it, `move` or `moves` (absent when the usage is wrong).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<&'static str>,
    /// The input's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The game's index in its input, when one was named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_index: Option<usize>,
    /// The ply asked about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
}

/// Exit 2: with `--format json`, the error object `{"error", "claim", "source",
/// "game_index", "ply"}` on `out`.
pub fn error(req: &ClaimRequest, source: &str, why: &str, out: &mut dyn Write) -> ExitStatus {
    if req.format == ClaimFormat::Json {
        let v = ErrorReply {
            error: why.to_string(),
            claim: Some(question_name(&req.question)),
            source: Some(source.to_string()),
            game_index: Some(req.game_index),
            ply: req.ply,
        };
        let _ = out.write_all(json(&v).as_bytes());
    }
    ExitStatus::Unusable
}
