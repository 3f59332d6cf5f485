//! The Xiangqi and Jieqi position as a [`BoardView`] (`arbiter show`): the palaces and the
//! river (rulings §4.1), the pieces and the pieces each side has lost. In Xiangqi nothing is
//! hidden. In Jieqi (rulings §4.2) a covered piece is known to nobody (the arbiter's view
//! shows its identity only when the log gave the shuffle), a revealed piece to both, and a
//! piece captured covered to its capturer only.

use super::jieqi::Lost;
use super::position::{in_palace, Kind, GEOMETRY, SQUARES};
use super::{State, Xiangqi};
use crate::rules::Rules;
use crate::types::Side;
use crate::view::{BoardView, Identity, PieceView, Terrain};

fn identity(k: Kind) -> Identity {
    Identity {
        letter: k.letter(),
        name: k.name(),
    }
}

impl Xiangqi {
    /// The arbiter's view of `st`; in Xiangqi also both players'.
    pub(crate) fn board_view(&self, st: &State) -> BoardView {
        let mut v = BoardView::empty(
            Rules::game(self).as_str(),
            Rules::game(self).side_names(),
            GEOMETRY,
        );
        v.kinds = Kind::ALL.iter().map(|k| identity(*k)).collect();
        v.river = Some(4);
        v.hidden_pieces = st.jieqi.is_some();
        let shuffle = st.jieqi.as_ref().is_some_and(|l| l.shuffle);
        for s in 0..SQUARES {
            let sq = s as u8;
            for side in [Side::First, Side::Second] {
                if in_palace(side, sq) {
                    v.terrain[s] = Terrain::Palace(side);
                }
            }
            v.pieces[s] = st.position.piece(sq).map(|p| {
                let mut view = PieceView::open(p.side(), st.ids[s] as u16, identity(p.kind()));
                if p.is_covered() {
                    view.known_to = [false, false];
                    if !shuffle {
                        view.identity = None;
                    }
                }
                view
            });
        }
        v.to_move = st.position.to_move();
        for side in [Side::First, Side::Second] {
            let how = st.jieqi.as_ref().map(|l| &l.lost[side.index()]);
            v.lost[side.index()] = st.lost[side.index()]
                .iter()
                .enumerate()
                .map(|(i, (p, id))| {
                    let mut view = PieceView::open(p.side(), *id as u16, identity(p.kind()));
                    if let Some(Lost::Covered(known)) = how.and_then(|h| h.get(i)) {
                        // Only the capturer learns what a covered piece was.
                        view.known_to = [false, false];
                        view.known_to[side.other().index()] = known.is_some();
                        view.identity = known.map(identity);
                    }
                    view
                })
                .collect();
        }
        v
    }
}
