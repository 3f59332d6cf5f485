//! Answers a Jungle draw or repetition claim (`arbiter claim FILE --ply N draw|repetition`,
//! rulings §3): is the position after ply N a third (or later) occurrence of a position with the
//! same side to move and the same legal moves?
//!
//! "The same legal moves": in Jungle the placement and the side to move decide every move the
//! movement and capture rules allow (no piece is hidden, nothing like castling rights exists),
//! so equal position keys are equal positions in the seed's sense. The jijbent repetition rule,
//! which forbids some moves depending on the history, is not part of that comparison: it would
//! make a third occurrence differ from the first exactly when the repeating side threatens, and
//! so void the draw rule where the seed means it to apply (choice, documented in docs/rules.md).
//!
//! Jungle's only on-board draw is this repetition, so a `draw` and a `repetition` claim get the
//! same answer. [`answer`] works on a judged game's [`Replay`] (its position keys; no
//! re-parsing, as `crate::claim` does for the other games); [`claim_repetition`] judges a record
//! first.

use super::{history, Jungle};
use crate::finding::{Code, Finding};
use crate::record::GameRecord;
use crate::rules::{self, params, GameId, Overrides, Replay, Rules};

/// The answer to a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimAnswer {
    /// True when the claim holds (the position after the ply is at least its third occurrence).
    pub holds: bool,
    /// One sentence for the claimant: what was found.
    pub reason: String,
    /// The finding code of the rule applied (`threefold-repetition`, rulings §3).
    pub rule: &'static str,
    /// The plies after which the claimed position stood, oldest first, the claimed ply last;
    /// 0 stands for the start position. Empty when the position was never reached.
    pub evidence_plies: Vec<u32>,
}

fn no(reason: String) -> ClaimAnswer {
    ClaimAnswer {
        holds: false,
        reason,
        rule: Code::ThreefoldRepetition.as_str(),
        evidence_plies: Vec::new(),
    }
}

/// Answers the claim for the position after ply `ply` (1-based; 0 asks about the start) of a
/// judged Jungle game. It does not hold when the replay never reached that ply (the reason names
/// the illegal or unreadable ply, or the broken start), when the game ended on the board
/// before it, or when the position stood fewer than three times. A move the jijbent repetition
/// rule forbids was still applied and counts. Linear in `ply`.
pub fn answer(replay: &Replay, findings: &[Finding], ply: u32) -> ClaimAnswer {
    if let Some(end) = replay.outcome.as_ref().filter(|o| o.ply < ply) {
        return no(format!(
            "the game ended on the board after ply {} ({}); ply {ply} was never part of it",
            end.ply, end.reason
        ));
    }
    if replay.stopped {
        let why = findings.iter().rev().find(|f| {
            matches!(
                f.code,
                Code::IllegalMove | Code::ParseError | Code::SetupInvalid
            )
        });
        match why {
            Some(f) if f.ply.is_none() => {
                return no(format!("the start position is invalid: {}", f.message))
            }
            Some(f) if f.ply.is_some_and(|n| ply >= n) => {
                return no(format!(
                    "ply {} {} ({}); the position after ply {ply} was never reached",
                    f.ply.unwrap_or(0),
                    if f.code == Code::ParseError {
                        "cannot be read"
                    } else {
                        "is illegal"
                    },
                    f.message
                ))
            }
            _ => {}
        }
    }
    let played = replay.plies.len() as u32;
    if ply > played {
        return no(format!(
            "the game has {played} plies; there is no ply {ply}"
        ));
    }
    let key_after = |p: u32| {
        if p == 0 {
            replay.start_key
        } else {
            replay.plies[p as usize - 1].key
        }
    };
    let key = key_after(ply);
    let occ: Vec<u32> = (0..=ply).filter(|&p| key_after(p) == key).collect();
    let to_move = match replay.plies.get(ply as usize) {
        Some(next) => Some(next.side),
        None if ply > 0 => Some(replay.plies[ply as usize - 1].side.other()),
        None => None,
    };
    let this = match to_move {
        Some(s) => format!(
            "the position after ply {ply}, {} to move,",
            GameId::Jungle.side_names()[s.index()]
        ),
        None => format!("the position after ply {ply}"),
    };
    let list = occ
        .iter()
        .map(|p| match p {
            0 => "the start".to_string(),
            p => format!("ply {p}"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let n = occ.len();
    let reason = match n {
        1 => format!("{this} has not stood before"),
        2 => format!(
            "{this} stands for the second time only (after {list}); a third occurrence is needed (rulings §3)"
        ),
        _ => format!(
            "{this} stands for the {} time (after {list}): a draw may be claimed (rulings §3)",
            history::ordinal(n)
        ),
    };
    ClaimAnswer {
        holds: n >= 3,
        reason,
        rule: Code::ThreefoldRepetition.as_str(),
        evidence_plies: occ,
    }
}

/// Judges `record` as a Jungle game with its own parameter tags and answers the claim for the
/// position after ply `ply` (see [`answer`]). A record whose `Game` tag names another ruleset,
/// or that cannot be read, gets a claim that does not hold.
pub fn claim_repetition(record: &GameRecord, ply: u32) -> ClaimAnswer {
    if let Some(t) = record.tag("Game") {
        if GameId::parse(&t.value.value) != Some(GameId::Jungle) {
            return no(format!(
                "this is not a Jungle game (Game \"{}\")",
                t.value.value
            ));
        }
    }
    if record.unreadable() {
        return no("the game could not be read".into());
    }
    let mut findings = Vec::new();
    let params = params::resolve(
        record,
        GameId::Jungle,
        &Jungle::new().default_parameters(),
        &Overrides::default(),
        &mut findings,
    );
    if let Some(f) = findings.iter().find(|f| f.code == Code::ParseError) {
        return no(format!("the game cannot be judged: {}", f.message));
    }
    let replay = rules::replay(&Jungle::new(), record, &params);
    answer(&replay, &replay.findings, ply)
}
