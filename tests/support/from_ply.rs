//! A game taken up after a ply (`convert --from-ply`, docs/log-format.md, positions) against
//! the game itself, shared by `tests/properties/positions.rs` (fixtures and random games) and
//! `tests/corpus/from_ply.rs` (real records).
//!
//! The converted log must stand in the same position after ply N (pieces, what each player
//! knows of them, the lost pieces, the side to move) and give the same findings and outcome for
//! the plies after N. The exceptions are those docs/log-format.md lists, the findings that need
//! the game before ply N: when the start says it does not carry something (its notes), the
//! comparison stops at the first ply where a history rule speaks (two-squares, more-squares,
//! the Jungle repetition rules, Xiangqi repetition) or where the original ended by
//! `no-legal-move` or a repetition verdict and the copy did not; record-level findings are
//! then not compared either.
#![allow(dead_code)]

use arbiter::convert::convert_from;
use arbiter::pipeline::{check_record, parse_source, GameReport, Options, Source};
use arbiter::record::GameRecord;
use arbiter::rules::{GameId, Overrides};
use arbiter::show::board_at;
use arbiter::view::BoardView;

/// The codes whose findings may need the plies before the start.
pub const HISTORY: [&str; 6] = [
    "two-squares-rule",
    "more-squares-rule",
    "jungle-repetition",
    "threefold-repetition",
    "perpetual-check",
    "perpetual-chase",
];

/// The endings that may need the plies before the start.
const HISTORY_ENDS: [&str; 4] = [
    "no-legal-move",
    "repetition",
    "perpetual-check",
    "perpetual-chase",
];

/// What a comparison found.
#[derive(Debug, PartialEq, Eq)]
pub enum Taken {
    /// The copy agrees; `exact` when the start carried everything (no note) and every
    /// finding and the outcome were compared.
    Agrees { exact: bool },
    /// The game ended on that ply in a position that cannot start a log (a Flag or the
    /// Headquarters captured, a den entered), and convert refused it.
    Refused,
}

/// A board drawn for comparison: every square, the side to move, the turn note, the score,
/// and (`lost`) the lost pieces as a sorted list (the order they were lost is not part of a
/// position, nor is whether a Spy had unmasked a lost piece; a `FEN` does not carry them).
fn board(v: &BoardView, lost: bool) -> String {
    let square = |p: &Option<arbiter::view::PieceView>| match p {
        None => ".".to_string(),
        Some(p) => format!(
            "{:?}{}{:?}",
            p.owner,
            p.identity.map_or('?', |i| i.letter),
            p.known_to
        ),
    };
    let mut lost: Vec<String> = v
        .lost
        .iter()
        .flatten()
        .filter(|_| lost)
        .map(|p| format!("{:?}{}", p.owner, p.identity.map_or('?', |i| i.letter)))
        .collect();
    lost.sort();
    format!(
        "{} to move {:?} {:?} score {:?} lost {lost:?}",
        v.pieces.iter().map(square).collect::<Vec<_>>().join(" "),
        v.to_move,
        v.turn_note,
        v.score
    )
}

/// (code, ply, message) of the main line's findings after ply `n` (the message left out where
/// it counts Spionage turns, which the copy numbers from its own first turn; a log taken up
/// from a position leaves the variations out, and says so).
fn after(g: &GameReport, n: u32, spionage: bool) -> Vec<(String, u32, String)> {
    g.findings
        .iter()
        .filter(|f| f.line == 0)
        .filter_map(|f| {
            let p = f.ply.filter(|&p| p > n)?;
            let message = if spionage {
                String::new()
            } else {
                f.message.clone()
            };
            Some((f.code.to_string(), p, message))
        })
        .collect()
}

/// The record-level findings but move-number warnings (the copy writes its own numbers).
fn record_level(g: &GameReport) -> Vec<(String, String)> {
    g.findings
        .iter()
        .filter(|f| f.line == 0 && f.ply.is_none() && f.code.as_str() != "record-defect")
        .map(|f| (f.code.to_string(), f.message.clone()))
        .collect()
}

/// Takes `rec`, judged as `original`, up after ply `n` and compares (see the module doc).
pub fn take_up(rec: &GameRecord, original: &GameReport, n: u32) -> Result<Taken, String> {
    let overrides = Overrides::default();
    let text = match convert_from(rec, &overrides, None, n) {
        Ok(t) => t,
        Err(_) if original.outcome.as_ref().is_some_and(|o| o.ply == n) => {
            return Ok(Taken::Refused)
        }
        Err(e) => return Err(format!("ply {n}: convert refused: {e:?}")),
    };
    let src = Source::from_bytes("taken-up.arb", text.clone().into_bytes());
    let records = parse_source(&src);
    let [copy] = records.as_slice() else {
        return Err(format!("ply {n}: {} games in\n{text}", records.len()));
    };
    let judged = check_record("taken-up.arb", copy, &Options::default());
    let game = judged.game;
    let fen = matches!(game, Some(GameId::Jungle | GameId::Xiangqi | GameId::Jieqi));
    let spionage = matches!(game, Some(GameId::Spionage | GameId::SpionageSnel));
    let board = |v: &BoardView| board(v, !fen);
    let before = board_at(rec, &overrides, n).map_err(|e| e.message)?;
    let now =
        board_at(copy, &overrides, n).map_err(|e| format!("ply {n}: {}\n{text}", e.message))?;
    if board(&before) != board(&now) {
        return Err(format!(
            "ply {n}: the position differs\n{}\n{}\n{text}",
            board(&before),
            board(&now)
        ));
    }
    // Spionage has no history rule: its notes (unmaskings of lost pieces) touch no finding.
    let notes = !spionage && (text.contains("not carried") || text.contains("left out"));
    compare(original, &judged, n, notes).map_err(|e| format!("ply {n}: {e}\n{text}"))
}

/// The findings and outcomes of the original and the copy after ply `n` (see the module doc).
fn compare(original: &GameReport, copy: &GameReport, n: u32, notes: bool) -> Result<Taken, String> {
    let spionage = matches!(original.game, Some(GameId::Spionage | GameId::SpionageSnel));
    let (a, b) = (after(original, n, spionage), after(copy, n, spionage));
    let outcome = |g: &GameReport| {
        g.outcome
            .as_ref()
            .map(|o| (o.result.as_str(), o.reason.as_str(), o.ply))
    };
    let (oa, ob) = (outcome(original), outcome(copy));
    if !notes {
        if a != b || oa != ob || record_level(original) != record_level(copy) {
            return Err(format!("findings {a:?} / {b:?}, outcome {oa:?} / {ob:?}"));
        }
        return Ok(Taken::Agrees { exact: true });
    }
    let mut stop = a
        .iter()
        .chain(&b)
        .filter(|f| HISTORY.contains(&f.0.as_str()))
        .map(|f| f.1)
        .min()
        .unwrap_or(u32::MAX);
    if oa != ob {
        if let Some((_, reason, ply)) = oa.filter(|o| HISTORY_ENDS.contains(&o.1)) {
            let _ = reason;
            stop = stop.min(ply);
        }
    }
    let cut = |v: &[(String, u32, String)]| -> Vec<(String, u32, String)> {
        v.iter().filter(|f| f.1 < stop).cloned().collect()
    };
    if cut(&a) != cut(&b) {
        return Err(format!("before ply {stop}: findings {a:?} / {b:?}"));
    }
    if stop == u32::MAX && oa != ob {
        return Err(format!("outcome {oa:?} / {ob:?}, no history rule spoke"));
    }
    Ok(Taken::Agrees { exact: false })
}
