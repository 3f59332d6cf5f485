//! Veldslag's no-capture thresholds: rulings §1.6 (seed 000).
//!
//! 50 moves per side (100 plies) with no attack: an admin may declare a draw if the game shows
//! no progress (`no-capture-50`, info). 80 moves per side (160 plies) with no change in the
//! pieces on the board: a draw can be declared on a player's request (`no-capture-80`, info).
//! Every attack removes at least one piece, so both count plies since the last attack; each
//! finding stands at the ply its threshold is reached, and again after every reset.
//!
//! Game-independent: it reads only [`PlyInfo::capture`].

use crate::finding::{Code, Finding};
use crate::rulebook::Rule;
use crate::rules::PlyInfo;

/// The admin's-discretion threshold: 50 moves per side = 100 plies.
pub const DISCRETION_PLIES: u32 = 100;
/// The on-request threshold: 80 moves per side = 160 plies.
pub const REQUEST_PLIES: u32 = 160;

/// Plies played since the last attack, after ply `ply` (1-based; 0 = the start).
/// Reads `plies[..ply]`.
pub fn plies_since_capture(plies: &[PlyInfo], ply: u32) -> u32 {
    let upto = &plies[..(ply as usize).min(plies.len())];
    match upto.iter().rposition(|p| p.capture) {
        Some(i) => upto.len() as u32 - 1 - i as u32,
        None => upto.len() as u32,
    }
}

/// The last ply (1-based) that attacked, at or before `ply`; `None` when none did.
pub fn last_capture(plies: &[PlyInfo], ply: u32) -> Option<u32> {
    plies[..(ply as usize).min(plies.len())]
        .iter()
        .rposition(|p| p.capture)
        .map(|i| i as u32 + 1)
}

/// The `no-capture-50` and `no-capture-80` infos of a replay.
pub fn check(plies: &[PlyInfo]) -> Vec<Finding> {
    let mut since = 0u32;
    plies
        .iter()
        .filter_map(|p| {
            since = if p.capture { 0 } else { since + 1 };
            threshold(since, p.number, p.span)
        })
        .collect()
}

/// The info for ply `number` (written at `span`) when it is the `since`-th ply without an
/// attack and that count is a threshold (100 or 160 plies), else `None`.
pub fn threshold(since: u32, number: u32, span: crate::types::Span) -> Option<Finding> {
    let (code, moves, what) = match since {
        DISCRETION_PLIES => (
            Code::NoCapture50,
            50,
            "an admin may declare a draw if the game shows no progress",
        ),
        REQUEST_PLIES => (
            Code::NoCapture80,
            80,
            "a draw can be declared on either player's request",
        ),
        _ => return None,
    };
    Some(
        Finding::new(
            code,
            span,
            format!("{moves} moves per side ({since} plies) without an attack"),
            Rule::NoCapture,
        )
        .at_ply(number)
        .label(format!("threshold reached: {what}"))
        .help(format!("{what} (`arbiter claim FILE --ply {number} draw`)")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Side;
    use crate::types::Span;

    fn plies(captures: &[u32], n: u32) -> Vec<PlyInfo> {
        (1..=n)
            .map(|i| PlyInfo {
                number: i,
                side: if i % 2 == 1 {
                    Side::First
                } else {
                    Side::Second
                },
                span: Span::new(i as usize, i as usize + 1),
                from: 0,
                to: 1,
                piece: 0,
                capture: captures.contains(&i),
                key: i as u64,
            })
            .collect()
    }

    #[test]
    fn thresholds_at_exact_plies() {
        let f = check(&plies(&[], 160));
        assert_eq!(
            f.iter().map(|f| (f.code, f.ply)).collect::<Vec<_>>(),
            vec![
                (Code::NoCapture50, Some(100)),
                (Code::NoCapture80, Some(160))
            ]
        );
        assert!(check(&plies(&[], 99)).is_empty());
        // an attack on ply 10 restarts the count: 100 more plies reach it on ply 110
        let f = check(&plies(&[10], 110));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].ply, Some(110));
        assert_eq!(plies_since_capture(&plies(&[10], 110), 110), 100);
        assert_eq!(plies_since_capture(&plies(&[10], 110), 10), 0);
        assert_eq!(last_capture(&plies(&[10], 110), 50), Some(10));
    }
}
