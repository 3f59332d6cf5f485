//! Why a Jungle move is illegal (rulings §3): [`Illegal`] (with [`Refusal`] for a capture
//! the capture rules refuse), found by [`Jungle::check_move`] and the checks of `play`, put
//! into words by [`Jungle::explain`], the one place that writes an illegal move's message,
//! label and help.

use super::{den_owner, is_water, side_name, trap_owner, Jungle, Kind, Piece, State, Variant};
use super::{GEOMETRY, RULE};
use crate::finding::{Code, Finding};
use crate::geometry::Square;
use crate::record::MoveRecord;
use crate::types::{Side, Span};

/// Why a capture is refused (rulings §3 and the `Variant` switches), in the order the rules
/// are applied ([`Jungle::capture_refusal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// `bank-barrier`: the attacker (this kind) would capture across the water's edge.
    BankBarrier(Kind),
    /// The Rat cannot capture the Elephant from the water.
    RatFromWater,
    /// `elephant-spares-rat`: the Elephant cannot capture the Rat.
    ElephantSparesRat,
    /// The defender is stronger; `own_trap` is the defender's square when it is a trap of the
    /// defender's own side (a trap weakens only the opponent's pieces).
    Stronger {
        /// The attacker and its strength under the variant.
        attacker: (Kind, u8),
        /// The defender and its strength under the variant.
        defender: (Kind, u8),
        /// The trap the defender stands on, if it is one.
        own_trap: Option<Square>,
    },
}

/// The first rule a move breaks, in the order they are checked. Each reason carries the
/// squares and pieces its explanation names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The from-square (`true`) or the to-square (`false`) is not on the board.
    OffBoard(bool),
    /// No piece stands on the from-square.
    Empty(Square),
    /// The from-square holds a piece of the side not to move (its owner).
    NotYours(Square, Side),
    /// From-square and to-square are the same.
    SameSquare,
    /// From and to are not on one file or rank.
    NotStraight(Square, Square),
    /// An animal other than the Rat stepping into the water on this square.
    Water(Kind, Square),
    /// An animal that does not jump moving more than one square (the distance).
    TooFar(Kind, u8),
    /// A jump over a square that is not water (from, to, that square).
    NotAcrossRiver(Square, Square, Square),
    /// A jump landing in the water on this square.
    LandsInWater(Kind, Square),
    /// A jump over a Rat (of this side) on this water square.
    RatInTheWay(Kind, Square, Side),
    /// The to-square is the mover's own den.
    OwnDen(Square),
    /// The to-square holds this animal of the mover's.
    OwnPiece(Square, Kind),
    /// The capture rules refuse the capture.
    CaptureRefused(Refusal),
    /// Written as a capture (`x`), but the to-square is empty (from, to).
    NothingToCapture(Square, Square),
    /// The annotation names another mover (first) or captured animal (second) than the board
    /// gives (third, fourth).
    Annotation(Kind, Option<Kind>, Kind, Option<Kind>),
}

impl Illegal {
    /// Where the finding points: the from-square, the to-square, the annotation or the whole
    /// move text.
    fn span(self, mv: &MoveRecord) -> Span {
        if let Illegal::Annotation(..) = self {
            return mv.annotation().map_or(mv.text_span(), |a| a.span);
        }
        let Some(c) = mv.coord() else {
            return mv.text_span();
        };
        match self {
            Illegal::OffBoard(true) | Illegal::Empty(_) | Illegal::NotYours(..) => c.from_span,
            Illegal::OffBoard(false)
            | Illegal::Water(..)
            | Illegal::LandsInWater(..)
            | Illegal::OwnDen(_)
            | Illegal::OwnPiece(..)
            | Illegal::CaptureRefused(_)
            | Illegal::NothingToCapture(..) => c.to_span,
            _ => mv.text_span(),
        }
    }
}

/// An explanation: message, primary label, help.
type Words = (String, &'static str, String);

/// The help of a move that is no river jump.
const JUMP_HELP: &str = "the Lion and the Tiger jump from a bank straight across the water to the first land square beyond";

impl Jungle {
    /// Why `attacker` on `from` may not capture `defender` on `to` (`None`: it may), by the
    /// capture rules of rulings §3 and the switches of `variant`. Order: the bank barrier
    /// (switch), the trap rule (a piece on the attacker's own trap is taken by anything), the Rat
    /// in water against the Elephant, then [`Variant::beats`].
    pub fn capture_refusal(
        variant: &Variant,
        attacker: Piece,
        from: Square,
        defender: Piece,
        to: Square,
    ) -> Option<Refusal> {
        if variant.bank_barrier && is_water(from) != is_water(to) {
            return Some(Refusal::BankBarrier(attacker.kind));
        }
        let trap = trap_owner(to);
        if trap == Some(attacker.side) || (variant.any_trap && trap.is_some()) {
            return None;
        }
        if attacker.kind == Kind::Rat && defender.kind == Kind::Elephant && is_water(from) {
            return Some(Refusal::RatFromWater);
        }
        if variant.beats(attacker.kind, defender.kind) {
            return None;
        }
        if attacker.kind == Kind::Elephant && defender.kind == Kind::Rat {
            return Some(Refusal::ElephantSparesRat);
        }
        Some(Refusal::Stronger {
            attacker: (attacker.kind, variant.strength(attacker.kind)),
            defender: (defender.kind, variant.strength(defender.kind)),
            own_trap: trap.map(|_| to),
        })
    }

    /// Checks `from`-`to` for the side to move against the movement and capture rules; the
    /// first broken rule is returned, else the moving piece. Agrees with
    /// [`Jungle::legal_moves`] (a tested property).
    pub fn check_move(&self, st: &State, from: Square, to: Square) -> Result<Piece, Illegal> {
        let g = GEOMETRY;
        let side = st.to_move;
        let piece = st.board[from as usize].ok_or(Illegal::Empty(from))?;
        if piece.side != side {
            return Err(Illegal::NotYours(from, piece.side));
        }
        if from == to {
            return Err(Illegal::SameSquare);
        }
        let dir = g
            .direction(from, to)
            .ok_or(Illegal::NotStraight(from, to))?;
        let dist = g.distance(from, to);
        if dist == 1 {
            if is_water(to) && piece.kind != Kind::Rat {
                return Err(Illegal::Water(piece.kind, to));
            }
        } else {
            self.check_jump(st, piece.kind, from, to, dir)?;
        }
        if den_owner(to) == Some(side) {
            return Err(Illegal::OwnDen(to));
        }
        match st.board[to as usize] {
            Some(t) if t.side == side => Err(Illegal::OwnPiece(to, t.kind)),
            Some(t) => match Self::capture_refusal(&st.variant, piece, from, t, to) {
                Some(why) => Err(Illegal::CaptureRefused(why)),
                None => Ok(piece),
            },
            None => Ok(piece),
        }
    }

    /// Checks a move of more than one square in direction `dir`: only the Lion and the Tiger
    /// move so, straight across water to land, and no Rat may be on a crossed water square.
    fn check_jump(
        &self,
        st: &State,
        kind: Kind,
        from: Square,
        to: Square,
        dir: (i8, i8),
    ) -> Result<(), Illegal> {
        let g = GEOMETRY;
        let dist = g.distance(from, to);
        if !kind.jumps() {
            return Err(Illegal::TooFar(kind, dist));
        }
        let crossed = || {
            (1..dist).scan(from, move |s, _| {
                *s = g
                    .step(*s, dir)
                    .expect("squares between two in-line squares");
                Some(*s)
            })
        };
        if let Some(land) = crossed().find(|&s| !is_water(s)) {
            return Err(Illegal::NotAcrossRiver(from, to, land));
        }
        if is_water(to) {
            return Err(Illegal::LandsInWater(kind, to));
        }
        match crossed().find_map(|s| st.board[s as usize].map(|rat| (s, rat.side))) {
            Some((s, rat_side)) => Err(Illegal::RatInTheWay(kind, s, rat_side)),
            None => Ok(()),
        }
    }

    /// The `illegal-move` finding of ply `number` (1-based), written `mv`, for `why`, in the
    /// position `st` the move was tried in. The one place that words a reason.
    pub fn explain(&self, st: &State, mv: &MoveRecord, number: u32, why: Illegal) -> Finding {
        let (message, label, help) = match why {
            Illegal::OffBoard(_)
            | Illegal::Empty(_)
            | Illegal::NotYours(..)
            | Illegal::SameSquare
            | Illegal::NotStraight(..)
            | Illegal::NothingToCapture(..)
            | Illegal::Annotation(..) => self.move_words(st, why),
            _ => self.path_words(st, why),
        };
        Finding::new(Code::IllegalMove, why.span(mv), message, RULE)
            .at_ply(number)
            .label(label.to_string())
            .help(help)
    }

    /// Words for a move that fails on its squares or its text.
    fn move_words(&self, st: &State, why: Illegal) -> Words {
        let g = GEOMETRY;
        let name = side_name(st.to_move);
        match why {
            Illegal::OffBoard(_) => (
                "square is off the board".into(),
                "not a square",
                "the Jungle board has files a-g and ranks 1-9".into(),
            ),
            Illegal::Empty(s) => (
                format!("no piece on {}", g.name(s)),
                "empty square",
                format!("it is {name}'s move; the move must start on one of {name}'s pieces"),
            ),
            Illegal::NotYours(s, owner) => (
                format!(
                    "{} holds a {} piece but it is {name}'s move",
                    g.name(s),
                    side_name(owner)
                ),
                "opponent's piece",
                "the sides move in turn".into(),
            ),
            Illegal::SameSquare => (
                "a move must change square".into(),
                "same square",
                "a piece moves one square along a file or a rank".into(),
            ),
            Illegal::NotStraight(f, t) => (
                format!("{}-{} is not a straight line", g.name(f), g.name(t)),
                "not orthogonal",
                "pieces move along a file or a rank, never diagonally".into(),
            ),
            Illegal::NothingToCapture(f, t) => (
                format!("marked as a capture but {} is empty", g.name(t)),
                "nothing to capture",
                format!(
                    "write {}-{} for a move to an empty square",
                    g.name(f),
                    g.name(t)
                ),
            ),
            Illegal::Annotation(named, named_captured, mover, captured) => (
                annotation_message(named, named_captured, mover, captured),
                "does not match the board",
                "correct the move or its annotation".into(),
            ),
            _ => self.path_words(st, why),
        }
    }

    /// Words for a move that breaks the rules of water, jumps, dens and captures.
    fn path_words(&self, st: &State, why: Illegal) -> Words {
        let g = GEOMETRY;
        let name = side_name(st.to_move);
        match why {
            Illegal::Water(kind, s) => (
                format!("the {} cannot enter the water on {}", kind.name(), g.name(s)),
                "water",
                "only the Rat enters water; the Lion and the Tiger jump across a river".into(),
            ),
            Illegal::TooFar(kind, dist) => (
                format!("the {} moves one square, not {dist}", kind.name()),
                "too far",
                "only the Lion and the Tiger move further, by jumping across a river".into(),
            ),
            Illegal::NotAcrossRiver(f, t, land) => (
                format!(
                    "{}-{} is not a river jump: {} is not water",
                    g.name(f),
                    g.name(t),
                    g.name(land)
                ),
                "not across a river",
                JUMP_HELP.into(),
            ),
            Illegal::LandsInWater(kind, s) => (
                format!("the {} cannot land in the water on {}", kind.name(), g.name(s)),
                "water",
                JUMP_HELP.into(),
            ),
            Illegal::RatInTheWay(kind, s, rat_side) => (
                format!(
                    "the {}'s jump is blocked by {} Rat on {}",
                    kind.name(),
                    if rat_side == st.to_move {
                        "its own".to_string()
                    } else {
                        format!("the {}", side_name(rat_side))
                    },
                    g.name(s)
                ),
                "Rat in the way",
                "no jump while a Rat of either colour is on a crossed water square".into(),
            ),
            Illegal::OwnDen(s) => (
                format!("{name} may not enter its own den {}", g.name(s)),
                "own den",
                "a piece never enters its own den; entering the opponent's den wins".into(),
            ),
            Illegal::OwnPiece(s, kind) => (
                format!("{} holds {name}'s own {}", g.name(s), kind.name()),
                "own piece",
                "a piece moves to an empty square or captures an enemy piece".into(),
            ),
            Illegal::CaptureRefused(why) => (
                refusal_message(why),
                "capture not allowed",
                "a piece captures an equal or weaker one; the Rat captures the Elephant from land; any piece captures an enemy standing on one of the capturer's own traps".into(),
            ),
            _ => self.move_words(st, why),
        }
    }
}

/// The message of a refused capture.
fn refusal_message(why: Refusal) -> String {
    match why {
        Refusal::BankBarrier(kind) => format!(
            "the {} cannot capture across the water's edge (Variant bank-barrier)",
            kind.name()
        ),
        Refusal::RatFromWater => "the Rat cannot capture the Elephant from the water".into(),
        Refusal::ElephantSparesRat => {
            "the Elephant cannot capture the Rat (Variant elephant-spares-rat)".into()
        }
        Refusal::Stronger {
            attacker: (a, sa),
            defender: (d, sd),
            own_trap,
        } => format!(
            "the {} (strength {sa}) cannot capture the {} (strength {sd}){}",
            a.name(),
            d.name(),
            own_trap.map_or(String::new(), |t| format!(
                " on its own side's trap {} (a trap weakens only the opponent's pieces)",
                GEOMETRY.name(t)
            ))
        ),
    }
}

/// The message of an annotation that names other animals than the board gives.
fn annotation_message(
    named: Kind,
    named_captured: Option<Kind>,
    mover: Kind,
    captured: Option<Kind>,
) -> String {
    let shown = |k: Option<Kind>| k.map_or("nothing", Kind::name);
    format!(
        "the annotation names {}{} but the move is made by the {}{}",
        named.name(),
        named_captured.map_or(String::new(), |d| format!(" taking {}", d.name())),
        mover.name(),
        named_captured.map_or(String::new(), |_| format!(" taking {}", shown(captured)))
    )
}
