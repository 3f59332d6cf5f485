//! The Spionage position as a [`BoardView`] (`arbiter show`): volcanoes, pieces with what each
//! player knows of them, lost pieces. Seed 002: a player sees where the enemy pieces stand but
//! not their ranks "until they are discovered by the Spy"; a piece a Spy unmasked stays known
//! to the Spy's owner for the rest of the game ([`State::unmasked`], rulings §2). Combat
//! reveals nothing (the seed gives no such rule), so an enemy piece captured or met in combat
//! without having been unmasked stays unknown.

use super::{Kind, Piece, Spionage, State, KINDS};
use crate::types::Side;
use crate::view::{BoardView, Identity, PieceView, Terrain};

fn identity(k: Kind) -> Identity {
    Identity {
        letter: k.letter(),
        name: k.name(),
    }
}

impl Spionage {
    /// The arbiter's view of `st`: every identity; the opponent knows a piece once a Spy
    /// unmasked it, on the board and among the lost pieces alike.
    pub(crate) fn board_view(&self, st: &State) -> BoardView {
        let g = self.geometry();
        let mut v = BoardView::empty(self.game.as_str(), self.game.side_names(), g);
        v.hidden_pieces = true;
        v.kinds = KINDS.iter().map(|k| identity(*k)).collect();
        let piece_view = |p: &Piece| {
            let unmasked = st.unmasked[p.side.other().index()]
                .get(p.id as usize)
                .is_some_and(|u| u.is_some());
            PieceView::hidden(p.side, p.id, identity(p.kind), unmasked)
        };
        for s in 0..g.squares() {
            if st.volcano[s] {
                v.terrain[s] = Terrain::Volcano;
            }
            v.pieces[s] = st.board[s].as_ref().map(piece_view);
        }
        v.to_move = st.to_move;
        if self.moves_per_turn() == 2 && st.moves_in_turn() == 1 {
            v.turn_note = Some("second move of the turn");
        }
        for side in [Side::First, Side::Second] {
            v.lost[side.index()] = st.lost[side.index()].iter().map(piece_view).collect();
        }
        v
    }
}
