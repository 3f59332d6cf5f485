//! The claims a player or an admin can make about a game (docs/claims.md), and the answer an
//! engine gives: the vocabulary `arbiter claim` and the engines share. Which claims a ruleset
//! knows and how it answers them is the engine's ([`super::Rules::claims`],
//! [`super::Rules::answer`]); `crate::claim` checks the ply, names the moves and prints.

use super::{Parameters, PlyInfo, Replay};
use crate::finding::Finding;
use crate::record::GameRecord;
use crate::types::{Span, Verdict};

macro_rules! claims {
    ($( $(#[$doc:meta])* $variant:ident = $text:literal [$($alias:literal),*], $what:literal; )*) => {
        /// A claim, as `arbiter claim` names it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Claim {
            $( $(#[$doc])* $variant, )*
        }
        impl Claim {
            /// Every claim, in the order docs/claims.md lists them.
            pub const ALL: &'static [Claim] = &[ $(Claim::$variant,)* ];
            /// The claim's name on the command line.
            pub fn as_str(self) -> &'static str {
                match self { $( Claim::$variant => $text, )* }
            }
            /// Reads a claim's name or one of its other names.
            pub fn parse(s: &str) -> Option<Claim> {
                match s { $( $text $(| $alias)* => Some(Claim::$variant), )* _ => None }
            }
            /// What the claim says, in a few words.
            pub fn what(self) -> &'static str {
                match self { $( Claim::$variant => $what, )* }
            }
        }
    };
}

claims! {
    /// The game is drawn (by the rule each ruleset has: neither side can move, Veldslag's
    /// no-capture thresholds, Jungle's threefold repetition, Xiangqi's drawn repetition or
    /// move limit).
    Draw = "draw" [], "the position is a draw";
    /// The move at the ply broke the two-squares rule (rulings §1.4).
    TwoSquares = "two-squares" [], "the move broke the two-squares rule";
    /// The move at the ply broke the more-squares (chase) rule (rulings §1.5).
    Chase = "chase" ["more-squares"], "the move broke the more-squares (chase) rule";
    /// The position after the ply stands for the third time (Jungle: a claimable draw,
    /// rulings §3; Xiangqi and Jieqi: the game ends, rulings §4.3).
    Repetition = "repetition" ["threefold"], "the position stands for the third time";
    /// Jungle: the move repeated a position a third time while threatening the piece just
    /// moved (rulings §3).
    JungleRepetition = "jungle-repetition" [], "the move broke Jungle's repetition rule";
    /// Spionage: the move went straight back to the square the piece left in its owner's
    /// previous turn (rulings §2).
    NoReturn = "no-return" [], "the move went straight back";
    /// Xiangqi and Jieqi: the opponent checked perpetually in the repetition (rulings §4.3).
    PerpetualCheck = "perpetual-check" [], "the opponent checked perpetually";
    /// Xiangqi and Jieqi: the opponent chased perpetually in the repetition (rulings §4.3).
    PerpetualChase = "perpetual-chase" [], "the opponent chased perpetually";
    /// Veldslag: 50 or 80 moves per side without an attack (rulings §1.6).
    NoCapture = "no-capture" [], "the no-capture threshold is reached";
    /// Xiangqi and Jieqi: the no-capture move limit is reached (rulings §4.2).
    MoveLimit = "move-limit" [], "the no-capture move limit is reached";
    /// The recorded result or termination does not follow from the moves (rulings §1.3).
    Result = "result" ["wrong-result"], "the recorded result is wrong";
}

impl Claim {
    /// The claims a player who made this one may have meant instead, closest first: the
    /// answer names those the game has when this one does not apply.
    pub fn close(self) -> &'static [Claim] {
        use Claim::*;
        match self {
            Draw => &[Repetition, NoCapture, MoveLimit],
            TwoSquares => &[Chase, NoReturn, JungleRepetition],
            Chase => &[PerpetualChase, TwoSquares, JungleRepetition],
            Repetition => &[JungleRepetition, Chase, PerpetualCheck, PerpetualChase],
            JungleRepetition => &[Repetition, Chase, PerpetualChase],
            NoReturn => &[TwoSquares, Chase],
            PerpetualCheck => &[Repetition, PerpetualChase, Chase],
            PerpetualChase => &[Chase, Repetition, JungleRepetition],
            NoCapture => &[MoveLimit, Draw],
            MoveLimit => &[NoCapture, Draw],
            Result => &[],
        }
    }
}

/// How a claim stands (the exit code of `arbiter claim`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// It holds (exit 0).
    Holds,
    /// It does not hold (exit 1).
    DoesNotHold,
    /// The rule leaves it to the admin (Veldslag's 50 to 80 moves, rulings §1.6): exit 1.
    Discretionary,
    /// The claim does not exist in this game, or its rule is off (exit 2).
    DoesNotApply,
}

impl Standing {
    /// `holds`, `does-not-hold`, `discretionary`, `does-not-apply`.
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Holds => "holds",
            Standing::DoesNotHold => "does-not-hold",
            Standing::Discretionary => "discretionary",
            Standing::DoesNotApply => "does-not-apply",
        }
    }
}

/// One ply an answer rests on, and what it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    /// The ply (1-based; 0 is the start position).
    pub ply: u32,
    /// What it shows (`occurrence 2`, `move 3 of the run`, `the chase began`).
    pub role: String,
}

impl Evidence {
    /// Ply `ply` showing `role`.
    pub fn new(ply: u32, role: impl Into<String>) -> Evidence {
        Evidence {
            ply,
            role: role.into(),
        }
    }
}

/// An engine's answer to a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// How it stands.
    pub standing: Standing,
    /// The rule that decides: a finding code (`two-squares-rule`) or an end reason
    /// (`neither-can-move`).
    pub rule: &'static str,
    /// Where the rule is written (`rulings §1.4`).
    pub source: &'static str,
    /// Why, in a sentence or two.
    pub reason: String,
    /// The plies it rests on, in order; for a repetition every occurrence, numbered.
    pub evidence: Vec<Evidence>,
    /// The repetition window (first and last ply) where the verdict reads one.
    pub window: Option<(u32, u32)>,
    /// What is nearest when it does not hold: the ply where it did or will hold, or the rule
    /// the position breaks instead.
    pub nearest: Option<String>,
    /// The result and reason the rule gives (a Xiangqi repetition, a drawn end).
    pub verdict: Option<Verdict>,
}

impl Answer {
    /// An answer with no evidence, window, nearest or verdict.
    pub fn new(
        standing: Standing,
        rule: &'static str,
        source: &'static str,
        reason: String,
    ) -> Self {
        Answer {
            standing,
            rule,
            source,
            reason,
            evidence: Vec::new(),
            window: None,
            nearest: None,
            verdict: None,
        }
    }
    /// Sets the evidence.
    pub fn with_evidence(mut self, evidence: Vec<Evidence>) -> Self {
        self.evidence = evidence;
        self
    }
    /// Sets what is nearest.
    pub fn nearest(mut self, text: impl Into<String>) -> Self {
        self.nearest = Some(text.into());
        self
    }
}

/// What an engine answers a claim from: the record, the parameters in force, the finished
/// replay and every finding of the judged game, and the ply (its position is after it; 0 is
/// the start). `crate::claim` has checked that the replay reached the ply and that the game
/// had not ended before it.
#[derive(Debug, Clone, Copy)]
pub struct ClaimContext<'a> {
    /// The record.
    pub record: &'a GameRecord,
    /// The parameters in force.
    pub params: &'a Parameters,
    /// The whole replay.
    pub replay: &'a Replay,
    /// Every finding of the game, in ply order.
    pub findings: &'a [Finding],
    /// The claim is made in the position after this ply.
    pub ply: u32,
}

impl ClaimContext<'_> {
    /// The replay's facts of ply `ply` (1-based).
    pub fn info(&self, ply: u32) -> Option<&PlyInfo> {
        let i = (ply as usize).checked_sub(1)?;
        self.replay.plies.get(i)
    }

    /// The position key after ply `ply` (0: the start).
    pub fn key(&self, ply: u32) -> u64 {
        self.info(ply).map_or(self.replay.start_key, |p| p.key)
    }

    /// The first finding of `code` at ply `ply`.
    pub fn finding(&self, code: crate::finding::Code, ply: u32) -> Option<&Finding> {
        self.findings
            .iter()
            .find(|f| f.code == code && f.ply == Some(ply))
    }

    /// The finding of `code` nearest to the claimed ply (ties: the earlier one).
    pub fn nearest(&self, code: crate::finding::Code) -> Option<&Finding> {
        self.findings
            .iter()
            .filter(|f| f.code == code && f.ply.is_some())
            .min_by_key(|f| f.ply.unwrap_or(0).abs_diff(self.ply))
    }

    /// Every ply at or before the claimed one after which the claimed position stood
    /// (0: the start position), in order: linear in the ply.
    pub fn occurrences(&self) -> Vec<u32> {
        let key = self.key(self.ply);
        (0..=self.ply).filter(|&p| self.key(p) == key).collect()
    }

    /// The evidence a finding gives: its own ply (with its label), each secondary label that
    /// points at a ply of the replay (with the label's text, a leading `ply N: ` cut; a label
    /// before the first move is the start position, ply 0) and, with `rest`, the finding's
    /// other evidence plies in that role; in ply order.
    pub fn evidence_of(&self, f: &Finding, rest: Option<&str>) -> Vec<Evidence> {
        let mut out: Vec<Evidence> = f
            .labels
            .iter()
            .filter_map(|l| Some(Evidence::new(self.ply_at(l.span)?, role(&l.text))))
            .collect();
        if let Some(p) = f.ply {
            let text = if f.label.is_empty() {
                &f.message
            } else {
                &f.label
            };
            out.push(Evidence::new(p, role(text)));
        }
        if let Some(r) = rest {
            let named: Vec<u32> = out.iter().map(|e| e.ply).collect();
            let more = f.evidence.iter().filter(|p| !named.contains(p));
            out.extend(more.map(|&p| Evidence::new(p, r)));
        }
        out.sort_by_key(|e| e.ply);
        out
    }

    /// The ply whose move is written at `span`; 0 for a span before the first move.
    fn ply_at(&self, span: Span) -> Option<u32> {
        let plies = &self.replay.plies;
        if plies.first().is_none_or(|p| span.end <= p.span.start) {
            return Some(0);
        }
        let i = plies.partition_point(|p| p.span.start < span.start);
        plies
            .get(i)
            .filter(|p| p.span.start == span.start)
            .map(|p| p.number)
    }
}

/// A label's text as an evidence role: a leading `ply N: ` cut.
fn role(text: &str) -> String {
    match text.strip_prefix("ply ").and_then(|r| r.split_once(": ")) {
        Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => rest.to_string(),
        _ => text.to_string(),
    }
}

impl ClaimContext<'_> {
    /// Who played (or was to play) ply `ply` of the record: the replay's mover, else, for the
    /// ply the replay stopped at, the one after the last ply played (the same player within a
    /// Spionage turn).
    pub fn side(&self, ply: u32) -> Option<crate::types::Side> {
        if let Some(p) = self.info(ply) {
            return Some(p.side);
        }
        let before = self.info(ply.checked_sub(1)?)?;
        let moves = &self.record.moves;
        let i = ply as usize - 1;
        let same_turn = i > 0
            && moves
                .get(i)
                .is_some_and(|m| m.turn() == moves[i - 1].turn());
        Some(if same_turn {
            before.side
        } else {
            before.side.other()
        })
    }

    /// Ply `ply` of the record as a [`MoveRef`](crate::types::MoveRef), with its player.
    pub fn move_ref(&self, ply: u32) -> Option<crate::types::MoveRef> {
        self.record.move_ref(ply, self.side(ply))
    }

    /// `ply 7 (4. h2-h1)`: ply `ply` named as the record writes it (`the start` for 0).
    /// The move is the log's text: escape it before it reaches a terminal.
    pub fn name(&self, ply: u32) -> String {
        let sides = self.replay.game.map_or(["Red", "Blue"], |g| g.side_names());
        match self.move_ref(ply) {
            Some(m) => m.named(sides),
            None if ply == 0 => "the start".to_string(),
            None => format!("ply {ply}"),
        }
    }
}

/// What playing one move in the position after a ply would do (`arbiter claim --move`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trial {
    /// Allowed. `ends`: the game ends with it (how); `findings`: what check would report at
    /// that ply (a repetition's verdict, a move limit), none of them forbidding the move.
    Allowed {
        /// How the game ends with it, if it does.
        ends: Option<super::Outcome>,
        /// The findings the move raises.
        findings: Vec<Finding>,
    },
    /// The board allows it, but a history rule forbids it: the finding check reports when it
    /// is played (`two-squares-rule`, `more-squares-rule`, `jungle-repetition`, Spionage's
    /// no-return `illegal-move`).
    Forbidden(Finding),
    /// The movement rules refuse it, or it cannot be read: the finding.
    Refused(Finding),
}

/// One move tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tried {
    /// The move as written.
    pub text: String,
    /// What playing it would do.
    pub trial: Trial,
}

/// The moves tried in the position after ply `after`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trials {
    /// The ply after which they are tried (0: the start).
    pub after: u32,
    /// The game had ended on the board by then: no move may be played.
    pub ended: Option<super::Outcome>,
    /// The turn the moves belong to ([`crate::record::MoveRecord::turn`], 0-based): a log
    /// that appends one joins it to that turn.
    pub turn: usize,
    /// Every move tried, in the engine's order.
    pub moves: Vec<Tried>,
}
