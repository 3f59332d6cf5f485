//! The Jungle position as a [`BoardView`] (`arbiter show`): water, traps and dens (rulings §3),
//! the animals (nothing is hidden in Jungle) and the animals each side has lost.

use super::board::{den_owner, is_water, trap_owner, Kind, Piece, GEOMETRY, KINDS, SQUARES};
use super::{Jungle, State};
use crate::rules::GameId;
use crate::types::Side;
use crate::view::{BoardView, Identity, PieceView, Terrain};

fn identity(k: Kind) -> Identity {
    Identity {
        letter: k.letter(),
        name: k.name(),
    }
}

fn piece_view(p: &Piece) -> PieceView {
    PieceView::open(p.side, p.id, identity(p.kind))
}

impl Jungle {
    /// The view of `st`, the same for the arbiter and both players.
    pub(crate) fn board_view(&self, st: &State) -> BoardView {
        let mut v = BoardView::empty(
            GameId::Jungle.as_str(),
            GameId::Jungle.side_names(),
            GEOMETRY,
        );
        v.kinds = KINDS.iter().map(|k| identity(*k)).collect();
        for s in 0..SQUARES {
            let sq = s as u8;
            v.terrain[s] = if is_water(sq) {
                Terrain::Water
            } else if let Some(side) = trap_owner(sq) {
                Terrain::Trap(side)
            } else if let Some(side) = den_owner(sq) {
                Terrain::Den(side)
            } else {
                Terrain::Plain
            };
            v.pieces[s] = st.board[s].as_ref().map(piece_view);
        }
        v.to_move = st.to_move;
        for side in [Side::First, Side::Second] {
            v.lost[side.index()] = st.lost[side.index()].iter().map(piece_view).collect();
        }
        v
    }
}
