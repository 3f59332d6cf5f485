//! The Stratego-family position as a [`BoardView`] (`arbiter show`): lakes, pieces with what
//! each player knows of them (rulings §1.1: combat reveals both pieces to both players for the
//! rest of the game, kept in [`Piece::revealed`]), lost pieces and Veldslag's captured-piece
//! score (rulings §1.2).

use super::{Kind, Piece, State, Stratego, KINDS};
use crate::types::Side;
use crate::view::{BoardView, Identity, PieceView, Terrain};

fn identity(k: Kind) -> Identity {
    Identity {
        letter: k.letter(),
        name: k.name(),
    }
}

fn piece_view(p: &Piece) -> PieceView {
    PieceView::hidden(p.side, p.id, identity(p.kind), p.revealed)
}

impl Stratego {
    /// The arbiter's view of `st`: every identity, the opponent knowing only revealed pieces;
    /// every lost piece was revealed by the combat that removed it.
    pub(crate) fn board_view(&self, st: &State) -> BoardView {
        let r = &self.ruleset;
        let g = r.geometry;
        let mut v = BoardView::empty(r.game.as_str(), r.game.side_names(), g);
        v.hidden_pieces = true;
        v.kinds = KINDS
            .iter()
            .filter(|k| r.has(**k))
            .map(|k| identity(*k))
            .collect();
        for &s in &r.lakes {
            v.terrain[s as usize] = Terrain::Lake;
        }
        for (slot, p) in v.pieces.iter_mut().zip(st.board.iter()) {
            *slot = p.as_ref().map(piece_view);
        }
        v.to_move = st.to_move;
        for side in [Side::First, Side::Second] {
            v.lost[side.index()] = st.lost[side.index()].iter().map(piece_view).collect();
        }
        if r.game == crate::rules::GameId::Veldslag {
            let won = |side: Side| {
                st.lost[side.other().index()]
                    .iter()
                    .map(|p| r.capture_score(p.kind))
                    .sum()
            };
            v.score = Some([won(Side::First), won(Side::Second)]);
        }
        v
    }
}
