//! Jungle's claims (docs/claims.md, rulings §3): `repetition` (and `draw`, Jungle's only
//! on-board draw), the threefold draw claim: is the position after the ply a third (or later)
//! occurrence with the same side to move and the same legal moves?; and `jungle-repetition`,
//! the forbidden move that creates a position for the third time while able to capture the
//! piece just moved.
//!
//! "The same legal moves": in Jungle the placement and the side to move decide every move the
//! movement and capture rules allow (no piece is hidden, nothing like castling rights exists),
//! so equal position keys are equal positions in the seed's sense. The repetition rule's
//! forbidden moves depend on the history and are not part of that comparison (choice,
//! docs/rules.md). Answers read the judged game's position keys: linear in the ply.

use super::{history, Jungle, State};
use crate::finding::Code;
use crate::rules::claims::{Answer, Claim, ClaimContext, Evidence, Standing};
use crate::rules::{state_after, GameId};

const CLAIMS: &[Claim] = &[
    Claim::Draw,
    Claim::Repetition,
    Claim::JungleRepetition,
    Claim::Result,
];

impl Jungle {
    /// The claims of Jungle.
    pub(super) fn claim_list(&self) -> &'static [Claim] {
        CLAIMS
    }

    /// Answers `claim` in `ctx`; `None` for a claim Jungle does not have.
    pub(super) fn answer_claim(&self, claim: Claim, ctx: &ClaimContext) -> Option<Answer> {
        match claim {
            Claim::Draw | Claim::Repetition => Some(threefold(ctx)),
            Claim::JungleRepetition => Some(self.forbidden_repetition(ctx)),
            _ => None,
        }
    }

    /// Every move the movement and capture rules allow (the repetition rule left out): `a3-a4`,
    /// `a3xa4` for a capture, `b3-b7` for a jump.
    pub(super) fn board_move_texts(&self, st: &State) -> Vec<String> {
        super::GEOMETRY.move_texts(self.legal_moves(st), |t| st.board[t as usize].is_some())
    }

    fn forbidden_repetition(&self, ctx: &ClaimContext) -> Answer {
        let (code, source) = (Code::JungleRepetition.as_str(), "rulings §3");
        let n = ctx.ply;
        let occ = ctx.occurrences();
        if let Some(f) = ctx.finding(Code::JungleRepetition, n) {
            let mut a = Answer::new(
                Standing::Holds,
                code,
                source,
                format!("{} is forbidden: {}", ctx.name(n), f.message),
            );
            a.evidence = numbered(&occ);
            return a;
        }
        let mut a = Answer::new(Standing::DoesNotHold, code, source, String::new());
        a.evidence = numbered(&occ);
        let this = ctx.name(n);
        a.reason = match (n, occ.len()) {
            (0, _) => "no move has been played".into(),
            (_, k) if k < 3 => format!(
                "{this} creates a position for the {} time; the rule forbids only a third or later occurrence",
                history::ordinal(k)
            ),
            (_, k) => {
                let why = (self.state_before(ctx))
                    .and_then(|st| {
                        let (last, mover) = (st.last_moved?, st.board[ctx.info(n)?.from as usize]?);
                        Some(format!(
                            "the {} could not capture the {} that just moved",
                            mover.kind.name(),
                            last.name()
                        ))
                    })
                    .unwrap_or_else(|| "no piece had just moved".into());
                format!(
                    "{this} creates a position for the {} time, but {why} (rulings §3), so it is allowed",
                    history::ordinal(k)
                )
            }
        };
        if let Some(f) = ctx.nearest(Code::JungleRepetition) {
            a.nearest = Some(format!("{} broke it", ctx.name(f.ply.unwrap_or(0))));
        }
        a
    }

    /// The state before the claimed ply.
    fn state_before(&self, ctx: &ClaimContext) -> Option<State> {
        let n = ctx.ply.checked_sub(1)?;
        state_after(self, ctx.record, ctx.params, n).map(|(s, _)| s)
    }
}

/// `occurrence 1 (the start)`, `occurrence 2`, ...: every occurrence of the claimed position.
pub(crate) fn numbered(occ: &[u32]) -> Vec<Evidence> {
    occ.iter()
        .enumerate()
        .map(|(i, &p)| Evidence::new(p, format!("occurrence {}", i + 1)))
        .collect()
}

/// The threefold claim (rulings §3).
fn threefold(ctx: &ClaimContext) -> Answer {
    let n = ctx.ply;
    let occ = ctx.occurrences();
    let to_move = match (ctx.info(n + 1), ctx.info(n)) {
        (Some(next), _) => Some(next.side),
        (None, Some(last)) => Some(last.side.other()),
        (None, None) => None,
    };
    let this = match to_move {
        Some(s) => format!(
            "the position after {}, {} to move,",
            ctx.name(n),
            GameId::Jungle.side_names()[s.index()]
        ),
        None => format!("the position after {}", ctx.name(n)),
    };
    let k = occ.len();
    let (standing, reason) = match k {
        1 => (
            Standing::DoesNotHold,
            format!("{this} has not stood before"),
        ),
        2 => (
            Standing::DoesNotHold,
            format!(
                "{this} stands for the second time only; a third occurrence is needed (rulings §3)"
            ),
        ),
        _ => (
            Standing::Holds,
            format!(
                "{this} stands for the {} time: a draw may be claimed (rulings §3)",
                history::ordinal(k)
            ),
        ),
    };
    let mut a = Answer::new(
        standing,
        Code::ThreefoldRepetition.as_str(),
        "rulings §3",
        reason,
    )
    .with_evidence(numbered(&occ));
    if standing != Standing::Holds {
        if let Some(f) = ctx.nearest(Code::ThreefoldRepetition) {
            a.nearest = Some(format!(
                "a position stands for the third time after {}",
                ctx.name(f.ply.unwrap_or(0))
            ));
        }
    }
    a
}
