//! Xiangqi's and Jieqi's claims (docs/claims.md): `repetition` (the position stands for the
//! third time, rulings §4.3), `perpetual-check` and `perpetual-chase` (that repetition's
//! verdict), `draw` (a drawn repetition or the move limit) and `move-limit` (rulings §4.2).
//! Answers read the judged game: the position keys for the occurrences, the repetition
//! finding for its window and verdict (in `Repetition "claim"` mode a repetition that goes on
//! is reported once per window, and a later occurrence carries the verdict reported last).

use super::{State, Xiangqi};
use crate::finding::{Code, Finding};
use crate::rules::claims::{Answer, Claim, ClaimContext, Evidence, Standing};
use crate::rules::state_after;
use crate::types::{ending_words, ordinal, EndReason, GameId, RecordedResult, Verdict};

const CLAIMS: &[Claim] = &[
    Claim::Draw,
    Claim::Repetition,
    Claim::PerpetualCheck,
    Claim::PerpetualChase,
    Claim::MoveLimit,
    Claim::Result,
];

/// `occurrence 1 (the start)`, `occurrence 2`, ...
fn numbered(occ: &[u32]) -> Vec<Evidence> {
    occ.iter()
        .enumerate()
        .map(|(i, &p)| Evidence::new(p, format!("occurrence {}", i + 1)))
        .collect()
}

/// The occurrences, with the window's plies a repetition finding labels (`check`, `attacks
/// the Cannon`) merged in: one entry a ply, in ply order; the finding's own occurrence labels
/// give way to the numbered ones.
fn merged(occ: Vec<Evidence>, labelled: Vec<Evidence>) -> Vec<Evidence> {
    let mut out = occ;
    for e in labelled {
        let parts: Vec<&str> = e
            .role
            .split("; ")
            .filter(|r| !r.contains("occurrence"))
            .collect();
        if parts.is_empty() {
            continue;
        }
        let role = parts.join("; ");
        match out.iter_mut().find(|o| o.ply == e.ply) {
            Some(o) => o.role = format!("{}; {role}", o.role),
            None => out.push(Evidence::new(e.ply, role)),
        }
    }
    out.sort_by_key(|e| e.ply);
    out
}

impl Xiangqi {
    /// The claims of Xiangqi and Jieqi.
    pub(super) fn claim_list(&self) -> &'static [Claim] {
        CLAIMS
    }

    fn ruleset(&self) -> GameId {
        if self.jieqi {
            GameId::Jieqi
        } else {
            GameId::Xiangqi
        }
    }

    /// Answers `claim` in `ctx`; `None` for a claim these games do not have.
    pub(super) fn answer_claim(&self, claim: Claim, ctx: &ClaimContext) -> Option<Answer> {
        match claim {
            Claim::Repetition | Claim::PerpetualCheck | Claim::PerpetualChase => {
                Some(self.repetition(claim, ctx))
            }
            Claim::Draw => Some(self.draw(ctx)),
            Claim::MoveLimit => Some(self.move_limit(ctx)),
            _ => None,
        }
    }

    /// Every legal move of the side to move, in ICCS (`h2e2`); a covered piece's move
    /// carries no reveal (the engine knows it only from a shuffle).
    pub(super) fn board_move_texts(&self, st: &State) -> Vec<String> {
        let mut list = super::MoveList::new();
        st.position.legal_moves(&mut list);
        list.iter().map(|m| m.iccs()).collect()
    }

    /// The repetition finding that judges the position after the claimed ply: the one at the
    /// ply, or (a later occurrence in `Repetition "claim"` mode) the last one reported before.
    fn judging<'a>(&self, ctx: &'a ClaimContext, count: usize) -> Option<&'a Finding> {
        let at = ctx
            .findings
            .iter()
            .find(|f| f.ply == Some(ctx.ply) && f.verdict.is_some());
        at.or_else(|| {
            (count >= 3).then(|| {
                ctx.findings
                    .iter()
                    .rev()
                    .find(|f| f.verdict.is_some() && f.ply.is_some_and(|p| p < ctx.ply))
            })?
        })
    }

    fn repetition(&self, claim: Claim, ctx: &ClaimContext) -> Answer {
        let (code, source) = match claim {
            Claim::PerpetualCheck => (Code::PerpetualCheck, "rulings §4.3"),
            Claim::PerpetualChase => (Code::PerpetualChase, "rulings §4.3"),
            _ => (Code::ThreefoldRepetition, "rulings §4.3"),
        };
        let occ = ctx.occurrences();
        let this = format!("the position after {}", ctx.name(ctx.ply));
        let mut a = Answer::new(Standing::DoesNotHold, code.as_str(), source, String::new())
            .with_evidence(numbered(&occ));
        let Some(f) = self.judging(ctx, occ.len()).filter(|_| occ.len() >= 3) else {
            a.reason = match (ctx.ply, occ.len()) {
                (0, _) => "no move has been played".into(),
                (_, k) => format!(
                    "{this} stands for the {} time only; a third occurrence is needed",
                    ordinal(k)
                ),
            };
            if let Some(f) = ctx
                .findings
                .iter()
                .filter(|f| f.verdict.is_some())
                .min_by_key(|f| f.ply.unwrap_or(0).abs_diff(ctx.ply))
            {
                a.nearest = Some(format!(
                    "a position stands for the third time after {}",
                    ctx.name(f.ply.unwrap_or(0))
                ));
            }
            return a;
        };
        let v = f.verdict.unwrap_or(Verdict {
            result: RecordedResult::Draw,
            reason: EndReason::Repetition,
        });
        let reported = f.ply.unwrap_or(ctx.ply);
        let window = (f.evidence.first().copied().unwrap_or(1), reported);
        a.window = Some(window);
        a.verdict = Some(v);
        let words = ending_words(self.ruleset().side_names(), v);
        let wanted = match claim {
            Claim::PerpetualCheck => Some(EndReason::PerpetualCheck),
            Claim::PerpetualChase => Some(EndReason::PerpetualChase),
            _ => None,
        };
        let whose = if reported == ctx.ply {
            "the window".to_string()
        } else {
            format!(
                "it goes on the repetition reported at {}, whose window",
                ctx.name(reported)
            )
        };
        let why = f
            .message
            .split_once(": ")
            .map_or(f.message.as_str(), |(_, w)| w);
        let judged = format!(
            "{this} stands for the {} time; {whose} (plies {} to {}) reads: {words} ({}): {why}",
            ordinal(occ.len()),
            window.0,
            window.1,
            v.reason
        );
        a.evidence = merged(numbered(&occ), ctx.evidence_of(f, None));
        if wanted.is_none_or(|w| w == v.reason) {
            a.standing = Standing::Holds;
            a.reason = judged;
        } else {
            a.reason = format!("{judged}, not {}", claim.as_str());
            a.nearest = Some(format!("the verdict of this repetition is {}", v.reason));
        }
        a
    }

    fn draw(&self, ctx: &ClaimContext) -> Answer {
        let occ = ctx.occurrences();
        if occ.len() >= 3 && self.judging(ctx, occ.len()).is_some() {
            let mut a = self.repetition(Claim::Repetition, ctx);
            if a.verdict.is_some_and(|v| v.result != RecordedResult::Draw) {
                a.standing = Standing::DoesNotHold;
                a.reason = format!("{}: not a draw", a.reason);
            }
            return a;
        }
        let mut a = self.move_limit(ctx);
        a.reason = format!(
            "no position stands for the third time after {}; {}",
            ctx.name(ctx.ply),
            a.reason
        );
        if a.standing == Standing::DoesNotApply {
            a.standing = Standing::DoesNotHold;
        }
        a
    }

    fn move_limit(&self, ctx: &ClaimContext) -> Answer {
        let (code, source) = (Code::MoveLimit.as_str(), "rulings §4.2");
        let limit = ctx.params.no_capture_limit.unwrap_or(0);
        if limit == 0 {
            return Answer::new(
                Standing::DoesNotApply,
                code,
                source,
                format!(
                    "{} has no move limit unless a NoCaptureLimit tag sets one (rulings §4.2)",
                    self.ruleset().as_str()
                ),
            );
        }
        let quiet =
            state_after(self, ctx.record, ctx.params, ctx.ply).map_or(0, |(s, _)| s.quiet_plies);
        let need = limit.saturating_mul(2);
        let counted = format!(
            "{quiet} plies without a capture after {} (from the last capture, or the start position and its FEN's halfmove count); the {limit}-move limit is {need} plies",
            ctx.name(ctx.ply)
        );
        if quiet >= need {
            // A mate, stalemate or repetition on the limit's ply takes precedence (§4.2).
            let other = ctx
                .replay
                .outcome
                .as_ref()
                .filter(|o| o.ply == ctx.ply && o.reason != EndReason::MoveLimit);
            if let Some(o) = other {
                let mut a = Answer::new(
                    Standing::DoesNotHold,
                    code,
                    source,
                    format!(
                        "{counted}: reached, but the game ends on the same ply by {}, which takes precedence (rulings §4.2)",
                        o.reason.as_str()
                    ),
                );
                a.evidence = vec![Evidence::new(o.ply, "the game ends")];
                return a;
            }
            return Answer::new(Standing::Holds, code, source, format!("{counted}: reached"));
        }
        let mut a = Answer::new(Standing::DoesNotHold, code, source, counted);
        a.nearest = Some(format!(
            "the limit is reached after ply {} if no capture comes first",
            ctx.ply + (need - quiet)
        ));
        a
    }
}
