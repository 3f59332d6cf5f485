//! The Xiangqi position as a [`BoardView`] (`arbiter show`): the palaces and the river
//! (rulings §4.1), the pieces (nothing is hidden in Xiangqi) and the pieces each side has lost.
//! Jieqi's covered pieces will set [`PieceView::known_to`] per player here.

use super::position::{in_palace, Kind, GEOMETRY, SQUARES};
use super::{State, Xiangqi};
use crate::report::board::{BoardView, Identity, PieceView, Terrain};
use crate::rules::{GameId, Side};

fn identity(k: Kind) -> Identity {
    Identity {
        letter: k.letter(),
        name: k.name(),
    }
}

impl Xiangqi {
    /// The view of `st`, the same for the arbiter and both players.
    pub(crate) fn board_view(&self, st: &State) -> BoardView {
        let mut v = BoardView::empty(GameId::Xiangqi, GEOMETRY);
        v.kinds = Kind::ALL.iter().map(|k| identity(*k)).collect();
        v.river = Some(4);
        for s in 0..SQUARES {
            let sq = s as u8;
            for side in [Side::First, Side::Second] {
                if in_palace(side, sq) {
                    v.terrain[s] = Terrain::Palace(side);
                }
            }
            v.pieces[s] = st
                .position
                .piece(sq)
                .map(|p| PieceView::open(p.side(), st.ids[s] as u16, identity(p.kind())));
        }
        v.to_move = st.position.to_move();
        for side in [Side::First, Side::Second] {
            v.lost[side.index()] = st.lost[side.index()]
                .iter()
                .map(|(p, id)| PieceView::open(p.side(), *id as u16, identity(p.kind())))
                .collect();
        }
        v
    }
}
