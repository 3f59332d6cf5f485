//! Spionage's claim (docs/claims.md): `no-return`, a move straight back to the square its
//! piece left in its owner's previous turn (rulings §2), which `check` reports as an illegal
//! move; and the moves the board allows, for `arbiter claim --moves`. Built on the engine's
//! public state: the no-return memory is [`State::previous`].

use super::{Spionage, State};
use crate::finding::Code;
use crate::record::MoveRecord;
use crate::rules::claims::{Answer, Claim, ClaimContext, Evidence, Standing};
use crate::rules::state_after;

const CLAIMS: &[Claim] = &[Claim::NoReturn, Claim::Result];

impl Spionage {
    /// The claims of Spionage.
    pub(super) fn claim_list(&self) -> &'static [Claim] {
        CLAIMS
    }

    /// Answers `claim` in `ctx`; `None` for a claim Spionage does not have.
    pub(super) fn answer_claim(&self, claim: Claim, ctx: &ClaimContext) -> Option<Answer> {
        (claim == Claim::NoReturn).then(|| self.no_return(ctx))
    }

    /// The squares of `mv` when it is a coordinate move on the board.
    fn squares(&self, mv: &MoveRecord) -> Option<(u8, u8)> {
        let c = mv.coord()?;
        let g = self.geometry();
        Some((
            g.square_written(c.from.0, c.from.1)?,
            g.square_written(c.to.0, c.to.1)?,
        ))
    }

    /// True when `mv` takes one of the mover's pieces straight back to the square it left in
    /// its owner's previous turn (rulings §2).
    pub(super) fn goes_back(&self, st: &State, mv: &MoveRecord) -> bool {
        let Some((from, to)) = self.squares(mv) else {
            return false;
        };
        let Some(piece) = st.board[from as usize].filter(|p| p.side == st.to_move) else {
            return false;
        };
        st.previous[piece.side.index()]
            .iter()
            .flatten()
            .any(|s| s.piece == piece.id && s.from == to && s.to == from)
    }

    /// Every move the movement rules allow in the current phase of the turn, the no-return
    /// rule left out: `e3-e4`, `e3xe4` for an attack.
    pub(super) fn board_move_texts(&self, st: &State) -> Vec<String> {
        let mut free = st.clone();
        free.previous[st.to_move.index()] = [None; 2];
        self.geometry()
            .move_texts(self.legal_moves(&free), |t| st.board[t as usize].is_some())
    }

    fn no_return(&self, ctx: &ClaimContext) -> Answer {
        let (code, source) = (Code::IllegalMove.as_str(), "rulings §2");
        let n = ctx.ply;
        let mut a = Answer::new(Standing::DoesNotHold, code, source, String::new());
        let mv = n
            .checked_sub(1)
            .and_then(|i| ctx.record.moves.get(i as usize));
        let before = (n > 0)
            .then(|| state_after(self, ctx.record, ctx.params, n - 1))
            .flatten();
        let (Some(mv), Some((st, _))) = (mv, before) else {
            a.reason = "no move has been played".into();
            return a;
        };
        if !self.goes_back(&st, mv) {
            a.reason = format!(
                "{} does not take its piece straight back to the square it left in its owner's previous turn",
                ctx.name(n)
            );
            return a;
        }
        a.standing = Standing::Holds;
        let left = self.squares(mv).and_then(|(from, _)| {
            let id = st.board[from as usize]?.id;
            ctx.replay.plies[..n as usize - 1]
                .iter()
                .rev()
                .find(|p| p.piece == id)
        });
        let message = ctx
            .finding(Code::IllegalMove, n)
            .map_or(String::new(), |f| format!(": {}", f.message));
        a.reason = format!("{} goes straight back{message}", ctx.name(n));
        if let Some(p) = left {
            let g = self.geometry();
            a.evidence = vec![
                Evidence::new(p.number, format!("the piece left {} here", g.name(p.from))),
                Evidence::new(n, "straight back"),
            ];
        }
        a
    }
}
