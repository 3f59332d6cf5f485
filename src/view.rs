//! A game-independent picture of one position: what every engine draws its state into
//! ([`crate::rules::Rules::view`]) and what `show`, `check --show` and the reports draw from.
//!
//! A [`BoardView`] holds the board's size and coordinates, the terrain of every square, every
//! piece with its identity and *which player knows that identity* ([`PieceView::known_to`]),
//! the side to move, the pieces each side has lost and (Veldslag) the captured-piece score:
//! the arbiter's view. [`BoardView::seen_by`] turns it into one player's view by removing every
//! identity that player does not know, so the rule "show only what a side knows" lives in one
//! place and the knowledge itself comes from the engine state the replay already keeps
//! (Stratego's `revealed`, Spionage's `unmasked`), never from a second simulation.
//! The drawings are in [`crate::report::board`] (text) and [`crate::report::svg`].

use crate::geometry::{Geometry, Square};
use crate::types::Side;

/// What a square is, apart from the piece on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Ordinary ground.
    Plain,
    /// A Stratego-family lake: never entered (rulings §1.1, §1.2).
    Lake,
    /// Jungle water: only the Rat enters it (rulings §3).
    Water,
    /// A Spionage volcano: never entered (rulings §2).
    Volcano,
    /// A Jungle trap of that side (rulings §3).
    Trap(Side),
    /// A Jungle den of that side (rulings §3).
    Den(Side),
    /// A Xiangqi/Jieqi palace point of that side (rulings §4.1).
    Palace(Side),
}

impl Terrain {
    /// The legend text (`lake`, `Red's trap`), with the game's side names.
    pub fn describe(self, names: [&str; 2]) -> String {
        match self {
            Terrain::Plain => "ground".into(),
            Terrain::Lake => "lake".into(),
            Terrain::Water => "water".into(),
            Terrain::Volcano => "volcano".into(),
            Terrain::Trap(s) => format!("{}'s trap", names[s.index()]),
            Terrain::Den(s) => format!("{}'s den", names[s.index()]),
            Terrain::Palace(s) => format!("{}'s palace", names[s.index()]),
        }
    }
}

/// A piece identity as a game names it: its letter in the log (`X`, `S`, `L`) and its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Identity {
    /// The letter the game's log and FEN use (upper case; digits for Stratego strengths).
    pub letter: char,
    /// The English name (`Marshal`).
    pub name: &'static str,
}

/// One piece, on the board or lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceView {
    /// The owner.
    pub owner: Side,
    /// The engine's number for this piece, fixed for the whole game (setup or start order).
    /// It says nothing about the identity.
    pub id: u16,
    /// What it is; `None` when the viewer does not know (or, in the arbiter's view, when
    /// nobody does, e.g. a Jieqi piece captured unseen).
    pub identity: Option<Identity>,
    /// Which players know the identity, indexed by [`Side::index`]: in the Stratego family
    /// the owner always, the opponent once combat revealed it; in Spionage the opponent once
    /// a Spy unmasked it; in Jungle and Xiangqi both; a covered Jieqi piece neither.
    pub known_to: [bool; 2],
}

impl PieceView {
    /// A piece both players know (games without hidden pieces).
    pub fn open(owner: Side, id: u16, identity: Identity) -> PieceView {
        PieceView {
            owner,
            id,
            identity: Some(identity),
            known_to: [true, true],
        }
    }
    /// A piece its owner knows and the opponent knows only when `opponent_knows`.
    pub fn hidden(owner: Side, id: u16, identity: Identity, opponent_knows: bool) -> PieceView {
        let mut known_to = [true, true];
        known_to[owner.other().index()] = opponent_knows;
        PieceView {
            owner,
            id,
            identity: Some(identity),
            known_to,
        }
    }
}

/// The last ply played before the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastMove {
    /// Who played it.
    pub side: Side,
    /// Its from-square.
    pub from: Square,
    /// Its to-square (where the piece went or attacked).
    pub to: Square,
    /// True when it attacked or captured (written `x` instead of `-`).
    pub capture: bool,
}

/// One position as a picture. The engine fills the board part ([`crate::rules::Rules::view`]);
/// [`crate::games::replay_game`]'s caller fills `ply`, `last_move` and `ended`;
/// [`BoardView::seen_by`] sets `viewer`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// The ruleset's name (`stratego`, `xiangqi`), for captions.
    pub game: &'static str,
    /// The players' names in this ruleset, first player first (`Red`, `Blue`).
    pub sides: [&'static str; 2],
    /// Size and coordinate naming (files from `a`, ranks from `rank_base`).
    pub geometry: Geometry,
    /// Terrain of every square (`rank * width + file`).
    pub terrain: Vec<Terrain>,
    /// The piece on every square.
    pub pieces: Vec<Option<PieceView>>,
    /// Xiangqi: the river runs between this 0-based rank and the next.
    pub river: Option<u8>,
    /// Whose move it is.
    pub to_move: Side,
    /// A note on the turn (`second move of the turn` in Spionage).
    pub turn_note: Option<&'static str>,
    /// The pieces each side has lost (index [`Side::index`]), in the order lost.
    pub lost: [Vec<PieceView>; 2],
    /// Veldslag's captured-piece score (rulings §1.2, shown, never judged): points each side
    /// has won by capturing (index [`Side::index`]).
    pub score: Option<[u32; 2]>,
    /// True when the game hides identities (Stratego family, Spionage, Jieqi): the drawing
    /// then marks which pieces the opponent knows.
    pub hidden_pieces: bool,
    /// Every identity of the game, in the order a legend lists them (the ruleset's own order).
    pub kinds: Vec<Identity>,
    /// The position is after this ply (0: the start position).
    pub ply: u32,
    /// The ply that led to the position.
    pub last_move: Option<LastMove>,
    /// How the game ended on the board at this position: result and reason (`1-0`,
    /// `flag-captured`).
    pub ended: Option<crate::types::Verdict>,
    /// `None`: the arbiter's view (everything); `Some(side)`: what that side knows.
    pub viewer: Option<Side>,
}

impl BoardView {
    /// An empty board of `geometry` for the ruleset `game` whose players are `sides` (first
    /// player first): plain squares, no pieces, first player to move; the engine fills it in.
    pub fn empty(game: &'static str, sides: [&'static str; 2], geometry: Geometry) -> BoardView {
        let n = geometry.squares();
        BoardView {
            game,
            sides,
            geometry,
            terrain: vec![Terrain::Plain; n],
            pieces: vec![None; n],
            river: None,
            to_move: Side::First,
            turn_note: None,
            lost: [Vec::new(), Vec::new()],
            score: None,
            hidden_pieces: false,
            kinds: Vec::new(),
            ply: 0,
            last_move: None,
            ended: None,
            viewer: None,
        }
    }

    /// What `viewer` knows: every identity `viewer` does not know (on the board and among the
    /// lost pieces) is removed, not just hidden by the drawing. The score is dropped if it
    /// would tell more than the lost pieces shown.
    pub fn seen_by(&self, viewer: Side) -> BoardView {
        let mut v = self.clone();
        let mut stripped_lost = false;
        let strip = |p: &mut PieceView| {
            if !p.known_to[viewer.index()] {
                p.identity = None;
                true
            } else {
                false
            }
        };
        for p in v.pieces.iter_mut().flatten() {
            strip(p);
        }
        for p in v.lost.iter_mut().flatten() {
            stripped_lost |= strip(p);
        }
        if stripped_lost {
            v.score = None;
        }
        v.viewer = Some(viewer);
        v
    }

    /// The players' names, first player first (`Red`, `Blue`).
    pub fn side_names(&self) -> [&'static str; 2] {
        self.sides
    }

    /// The owner's initial as the drawing writes it (`r`, `b`, `w`).
    pub fn initial(&self, side: Side) -> char {
        self.side_names()[side.index()]
            .chars()
            .next()
            .unwrap_or('?')
            .to_ascii_lowercase()
    }

    /// The mark after a piece's letter: `*` when its owner's opponent knows it (games with
    /// hidden pieces), `!` when neither player does (a covered Jieqi piece in the arbiter's
    /// view).
    pub(crate) fn knowledge_mark(&self, p: &PieceView) -> Option<char> {
        if !self.hidden_pieces || p.identity.is_none() {
            return None;
        }
        match (
            p.known_to[p.owner.index()],
            p.known_to[p.owner.other().index()],
        ) {
            (_, true) => Some('*'),
            (false, false) => Some('!'),
            (true, false) => None,
        }
    }

    /// `e4-e5`, or `e4xe5` for an attack or capture.
    pub fn move_text(&self, m: LastMove) -> String {
        let sep = if m.capture { 'x' } else { '-' };
        format!(
            "{}{sep}{}",
            self.geometry.name(m.from),
            self.geometry.name(m.to)
        )
    }

    /// The distinct terrains of the board other than plain ground, in legend order.
    pub fn terrains(&self) -> Vec<Terrain> {
        let mut seen: Vec<Terrain> = Vec::new();
        for t in &self.terrain {
            if *t != Terrain::Plain && !seen.contains(t) {
                seen.push(*t);
            }
        }
        seen.sort_by_key(|t| match t {
            Terrain::Plain => 0,
            Terrain::Lake => 1,
            Terrain::Water => 2,
            Terrain::Volcano => 3,
            Terrain::Trap(s) => 4 + s.index(),
            Terrain::Den(s) => 6 + s.index(),
            Terrain::Palace(s) => 8 + s.index(),
        });
        seen
    }
}
