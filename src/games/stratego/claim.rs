//! The Stratego family's claims (docs/claims.md): `two-squares` (rulings §1.4), `chase`
//! (§1.5), `draw` (neither side can move, §1.1; Veldslag's no-capture thresholds, §1.6) and
//! Veldslag's `no-capture` (§1.6). Answers read the judged game; where a rule's state at the
//! ply explains a "does not hold" (the run a move belongs to, the chase running), the position
//! before the ply is reached by one replay.

use super::{State, Stratego};
use crate::checks::no_capture::{self, DISCRETION_PLIES, REQUEST_PLIES};
use crate::finding::Code;
use crate::rules::claims::{Answer, Claim, ClaimContext, Evidence, Standing};
use crate::rules::{state_after, GameId, TwoSquares};

const FAMILY: &[Claim] = &[Claim::Draw, Claim::TwoSquares, Claim::Chase, Claim::Result];
const VELDSLAG: &[Claim] = &[
    Claim::Draw,
    Claim::TwoSquares,
    Claim::Chase,
    Claim::NoCapture,
    Claim::Result,
];

impl Stratego {
    /// The claims of this ruleset.
    pub(super) fn claim_list(&self) -> &'static [Claim] {
        if self.ruleset.game == GameId::Veldslag {
            VELDSLAG
        } else {
            FAMILY
        }
    }

    /// Answers `claim` in `ctx`; `None` for a claim the ruleset does not have.
    pub(super) fn answer_claim(&self, claim: Claim, ctx: &ClaimContext) -> Option<Answer> {
        let veldslag = self.ruleset.game == GameId::Veldslag;
        match claim {
            Claim::TwoSquares => Some(self.two_squares(ctx)),
            Claim::Chase => Some(self.chase(ctx)),
            Claim::NoCapture | Claim::Draw if veldslag => {
                // A position tag's count of quiet plies before the log (`NoCapture`).
                let before = state_after(self, ctx.record, ctx.params, 0).map_or(0, |(s, _)| s.quiet_plies);
                Some(no_capture_claim(ctx, before))
            }
            Claim::Draw => Some(Answer::new(
                Standing::DoesNotHold,
                "neither-can-move",
                "rulings §1.1",
                format!(
                    "{} is drawn on the board only when neither side can move (rulings §1.1); after {} the side to move can move",
                    self.ruleset.game.as_str(),
                    ctx.name(ctx.ply)
                ),
            )),
            _ => None,
        }
    }

    /// The state after ply `ply` of the claimed game.
    fn state(&self, ctx: &ClaimContext, ply: u32) -> Option<State> {
        state_after(self, ctx.record, ctx.params, ply).map(|(s, _)| s)
    }

    fn two_squares(&self, ctx: &ClaimContext) -> Answer {
        let (code, source) = (Code::TwoSquaresRule.as_str(), "rulings §1.4");
        let limit = match ctx.params.two_squares {
            Some(TwoSquares::Limit(n)) => n.get(),
            _ => return Answer::new(
                Standing::DoesNotApply,
                code,
                source,
                "the two-squares rule is off in this game ([TwoSquares \"0\"] or --two-squares 0)"
                    .into(),
            ),
        };
        let n = ctx.ply;
        if let Some(f) = ctx.finding(Code::TwoSquaresRule, n) {
            let mut a = Answer::new(
                Standing::Holds,
                code,
                source,
                format!("{} broke the two-squares rule: {}", ctx.name(n), f.message),
            );
            a.evidence = ctx.evidence_of(f, None);
            return a;
        }
        let mut a = Answer::new(Standing::DoesNotHold, code, source, String::new());
        let run = (n > 0)
            .then(|| self.state(ctx, n))
            .flatten()
            .zip(ctx.info(n))
            .and_then(|(st, p)| {
                st.two_squares
                    .run(p.side)
                    .copied()
                    .filter(|r| r.piece == p.piece)
            });
        a.reason = match run {
            Some(r) => {
                let g = self.geometry();
                a.evidence = vec![Evidence::new(r.first_ply, "the run began")];
                format!(
                    "{} is move {} of a run between {} and {} (since ply {}); the limit is {limit} moves, so the rule is not broken",
                    ctx.name(n),
                    r.len,
                    g.name(r.seg.0),
                    g.name(r.seg.1),
                    r.first_ply
                )
            }
            None if n == 0 => "no move has been played".into(),
            None => format!("{} does not break the two-squares rule", ctx.name(n)),
        };
        a.nearest = match (ctx.nearest(Code::TwoSquaresRule), run) {
            (Some(f), _) => Some(nearest_text(ctx, f.ply.unwrap_or(0), "broke it")),
            (None, Some(r)) if r.len == limit => Some(format!(
                "the next move of this run by the same piece would break it (move {} of the run)",
                limit + 1
            )),
            _ => None,
        };
        a
    }

    fn chase(&self, ctx: &ClaimContext) -> Answer {
        let (code, source) = (Code::MoreSquaresRule.as_str(), "rulings §1.5");
        if ctx.params.more_squares != Some(true) {
            return Answer::new(
                Standing::DoesNotApply,
                code,
                source,
                "the more-squares (chase) rule is off in this game ([MoreSquares \"off\"])".into(),
            );
        }
        let n = ctx.ply;
        if let Some(f) = ctx.finding(Code::MoreSquaresRule, n) {
            let mut a = Answer::new(
                Standing::Holds,
                code,
                source,
                format!("{} broke the more-squares rule: {}", ctx.name(n), f.message),
            );
            a.evidence = ctx.evidence_of(f, Some("in the chase"));
            return a;
        }
        let mut a = Answer::new(Standing::DoesNotHold, code, source, String::new());
        a.reason = match (n > 0).then(|| self.state(ctx, n - 1)).flatten() {
            Some(st) => self.chase_context(ctx, &st, &mut a.evidence),
            None => "no move has been played".into(),
        };
        if let Some(f) = ctx.nearest(Code::MoreSquaresRule) {
            a.nearest = Some(nearest_text(ctx, f.ply.unwrap_or(0), "broke it"));
        }
        a
    }

    /// Why ply `ctx.ply`, played in `st`, does not break the chase rule.
    fn chase_context(
        &self,
        ctx: &ClaimContext,
        st: &State,
        evidence: &mut Vec<Evidence>,
    ) -> String {
        let n = ctx.ply;
        let Some(p) = ctx.info(n) else {
            return format!("ply {n} was not played");
        };
        let names = self.ruleset.game.side_names();
        let this = ctx.name(n);
        let Some(chase) = &st.chase.state else {
            return format!("no chase was running when {this} was played");
        };
        let began = chase.plies.first().copied().unwrap_or(n);
        evidence.extend(chase.plies.iter().map(|&q| {
            Evidence::new(
                q,
                if q == began {
                    "the chase began"
                } else {
                    "in the chase"
                },
            )
        }));
        let running = format!(
            "a chase by {} has run since ply {began}",
            names[chase.chaser.index()]
        );
        if chase.chaser != p.side {
            return format!(
                "{running}; {this} is {}'s, the chased side, and only the chaser is bound (rulings §1.5)",
                names[p.side.index()]
            );
        }
        let (key, threatens) = self.consequences(st, p.from, p.to);
        if threatens.is_empty() {
            return format!(
                "{running}; {this} threatens no piece, so it is no chasing move and the chase ends"
            );
        }
        let g = self.geometry();
        let two_squares = st.two_squares.forbids(&g, p.side, p.piece, p.from, p.to);
        if chase.returns(p.piece, p.to) && !two_squares {
            return format!(
                "{running}; {this} is allowed because the chasing piece returns to the square it just left (rulings §1.5, the exception)"
            );
        }
        match chase.positions.get(&key) {
            Some(_) if chase.returns(p.piece, p.to) => format!(
                "{running}; {this} repeats a position of the chase, and going straight back is no exception where the two-squares rule forbids the move (rulings §1.5: \"as long as 1.4 allows it\")"
            ),
            Some(_) => format!("{running}; {this} repeats a position of the chase"),
            None => format!(
                "{running}; the position {this} produces had not occurred since the chase began"
            ),
        }
    }
}

/// `ply 7 (4. h2-h1), just before, broke it`: where the nearest finding stands, from the
/// claimed ply.
fn nearest_text(ctx: &ClaimContext, ply: u32, what: &str) -> String {
    let when = match ply.cmp(&ctx.ply) {
        std::cmp::Ordering::Less if ply + 1 == ctx.ply => "just before",
        std::cmp::Ordering::Less => "earlier",
        std::cmp::Ordering::Equal => "here",
        std::cmp::Ordering::Greater if ply == ctx.ply + 1 => "just after",
        std::cmp::Ordering::Greater => "later",
    };
    format!("{}, {when}, {what}", ctx.name(ply))
}

/// Veldslag's draw on the no-capture thresholds (rulings §1.6): holds from 80 moves per side
/// without an attack, at the admin's discretion from 50, otherwise not. `before`: the quiet
/// plies the log's start position already counts (its `NoCapture` tag), which count on until
/// the log's first attack, as the check counts them.
fn no_capture_claim(ctx: &ClaimContext, before: u32) -> Answer {
    let plies = &ctx.replay.plies;
    let n = ctx.ply;
    let last = no_capture::last_capture(plies, n);
    let carried = if last.is_none() { before } else { 0 };
    let since = no_capture::plies_since_capture(plies, n).saturating_add(carried);
    // The ply after which the count was 0: before the log's first ply when the tag carries it.
    let from = i64::from(n) - i64::from(since);
    let since_text = match last {
        Some(c) => format!("since the attack on {}", ctx.name(c)),
        None if carried > 0 => {
            format!("since before the log's start (its NoCapture tag counts {carried})")
        }
        None => "since the start".to_string(),
    };
    // A threshold reached on a ply of the log is evidence; one reached before it is not.
    let at = |plies: u32| {
        u32::try_from(from + i64::from(plies))
            .ok()
            .filter(|&p| p > 0)
    };
    let moves = since / 2;
    let counted = format!("{since} plies ({moves} moves per side) without an attack {since_text}");
    let mut evidence: Vec<Evidence> = last
        .map(|c| Evidence::new(c, "the last attack"))
        .into_iter()
        .collect();
    let (standing, code, reason) = if since >= REQUEST_PLIES {
        evidence.extend(at(REQUEST_PLIES).map(|p| Evidence::new(p, "80 moves per side")));
        (
            Standing::Holds,
            Code::NoCapture80,
            format!("{counted}: at 80 moves per side a draw is declared on request"),
        )
    } else if since >= DISCRETION_PLIES {
        evidence.extend(at(DISCRETION_PLIES).map(|p| Evidence::new(p, "50 moves per side")));
        (
            Standing::Discretionary,
            Code::NoCapture50,
            format!("{counted}: between 50 and 80 moves per side a draw is at the admin's discretion (no progress)"),
        )
    } else {
        (
            Standing::DoesNotHold,
            Code::NoCapture50,
            format!("only {counted}; the admin's threshold is 50 moves per side"),
        )
    };
    let mut a =
        Answer::new(standing, code.as_str(), "rulings §1.6", reason).with_evidence(evidence);
    a.nearest = match standing {
        Standing::Holds => None,
        Standing::Discretionary => Some(format!(
            "on request from ply {} (80 moves per side), if no attack comes first",
            from + i64::from(REQUEST_PLIES)
        )),
        _ => Some(format!(
            "at the admin's discretion from ply {} (50 moves per side), on request from ply {} (80), if no attack comes first",
            from + i64::from(DISCRETION_PLIES),
            from + i64::from(REQUEST_PLIES)
        )),
    };
    a
}

impl Stratego {
    /// Every move §1.1 allows the side to move (history rules not applied), written as a log
    /// writes it: `a4-a5`, `a4xa5` for an attack.
    pub(super) fn board_move_texts(&self, st: &State) -> Vec<String> {
        self.geometry()
            .move_texts(self.legal_moves(st), |t| st.board[t as usize].is_some())
    }
}
