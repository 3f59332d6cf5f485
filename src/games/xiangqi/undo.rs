//! Taking plies back, for the tree replay of a record's variations (`rules::tree`): before
//! each ply played with [`Rules::play_undoable`] the state keeps a [`Saved`] of what the ply
//! changes (the repetition history keeps its own journal), so that walking a tree of any
//! shape costs time and memory linear in its plies.
//!
//! [`Rules::play_undoable`]: crate::rules::Rules::play_undoable

use super::position::Position;
use super::{jieqi, End, State, SQUARES};

/// The parts of a [`State`] one ply changes, as they were before it.
#[derive(Debug, Clone)]
pub(super) struct Saved {
    position: Position,
    ids: [u8; SQUARES],
    quiet_plies: u32,
    fullmove: u32,
    lost: [usize; 2],
    in_check: bool,
    end: Option<End>,
    searched: bool,
    /// Jieqi's pools and captured identities (a few dozen bytes: copied whole).
    jieqi: Option<jieqi::Layer>,
}

impl Saved {
    /// What `st` holds now.
    pub(super) fn of(st: &State) -> Saved {
        Saved {
            position: st.position,
            ids: st.ids,
            quiet_plies: st.quiet_plies,
            fullmove: st.fullmove,
            lost: [st.lost[0].len(), st.lost[1].len()],
            in_check: st.in_check,
            end: st.end,
            searched: st.searched,
            jieqi: st.jieqi.clone(),
        }
    }

    /// Puts it back into `st` (the history is taken back apart, by its journal).
    pub(super) fn restore(self, st: &mut State) {
        st.position = self.position;
        st.ids = self.ids;
        st.quiet_plies = self.quiet_plies;
        st.fullmove = self.fullmove;
        for (lost, len) in st.lost.iter_mut().zip(self.lost) {
            lost.truncate(len);
        }
        st.in_check = self.in_check;
        st.end = self.end;
        st.searched = self.searched;
        st.jieqi = self.jieqi;
    }
}
