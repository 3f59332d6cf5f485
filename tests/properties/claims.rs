//! "May I play this move?" agrees with `check` (issue 27): in random games of every ruleset,
//! at a random ply N, every move the board allows is tried after N
//! ([`arbiter::rules::Engine::try_moves`]) and then appended to the log's first N plies and
//! judged by `check`:
//! - a move answered "allowed" gives at ply N+1 exactly the findings the answer names (none
//!   that forbids it) and the ending the answer names, or none;
//! - a move answered "not allowed" by a history rule gives that finding at ply N+1 (the move
//!   is still applied, or, Spionage's no-return, the replay stops there);
//! - a move the movement rules refuse stops the replay at ply N+1 with that finding.
//!
//! The games: random setups of the Stratego family with the two-squares and chase rules on,
//! the standard Jungle, Xiangqi, Jieqi (revealed pieces) and Spionage starts; moves drawn from
//! the allowed ones, half of them going straight back to where the mover's last move came
//! from, so shuttles, chases and repetitions are common.

use crate::stratego::{setup_section, Rng};
use arbiter::finding::Severity;
use arbiter::games::{self, stratego::Stratego};
use arbiter::pipeline::{check_record, parse_source, GameReport, Options, Source};
use arbiter::record::GameRecord;
use arbiter::rules::{GameId, Side, Trial, Trials};
use proptest::prelude::*;

const SPIONAGE_SETUPS: &str = "[Volcanoes \"c5 d6 g5 h6\"]\nsetup white\n  3 12345S1234\n  \
    2 5SSSS1MMMM\n  1 11223BBBBH\nsetup black\n 10 11223BBBB5\n  9 5SSSS1MMMM\n  8 1234HS1234\n";
const JIEQI_REVEALED: &str =
    "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - 0 1\"]\n";

/// The tags and setups of a game of `game`, drawn from `seed`.
fn head(game: GameId, seed: u64) -> String {
    let mut head = format!("[Game \"{}\"]\n", game.as_str());
    match game {
        GameId::Spionage | GameId::SpionageSnel => head.push_str(SPIONAGE_SETUPS),
        GameId::Jieqi => head.push_str(JIEQI_REVEALED),
        GameId::Jungle | GameId::Xiangqi => {}
        _ => {
            let engine = Stratego::new(game).expect("a Stratego-family game");
            let mut rng = Rng(seed);
            head.push_str(&setup_section(&engine, Side::Second, &mut rng));
            head.push_str(&setup_section(&engine, Side::First, &mut rng));
        }
    }
    head
}

/// The log of `head` and `plies` (move text, turn): the plies of one turn joined by commas.
fn log(head: &str, plies: &[(String, usize)]) -> String {
    let mut text = format!("{head}\n");
    for (i, (m, turn)) in plies.iter().enumerate() {
        let joined = i > 0 && plies[i - 1].1 == *turn;
        text.push_str(if joined {
            ","
        } else if i > 0 {
            " "
        } else {
            ""
        });
        text.push_str(m);
    }
    text.push_str(" *\n");
    text
}

/// The record and judgement of `text`.
fn judge(text: &str) -> (GameRecord, GameReport) {
    let src = Source::from_bytes("game.arb", text.as_bytes().to_vec());
    let rec = parse_source(&src).swap_remove(0);
    let g = check_record("game.arb", &rec, &Options::default());
    (rec, g)
}

/// Every board move tried after the last ply of `text`.
fn trials(text: &str) -> Option<Trials> {
    let (rec, g) = judge(text);
    let engine = games::engine(g.game?);
    engine.try_moves(&rec, &g.parameters, g.plies as u32, None)
}

/// `a4-a5` back as `a5-a4` (`h2e2` as `e2h2`).
fn reversed(m: &str) -> String {
    let (a, b) = m.split_at(m.len() / 2);
    match (a.strip_suffix(['-', 'x']), b.strip_prefix(['-', 'x'])) {
        _ if m.len() == 4 => format!("{b}{a}"),
        (Some(from), _) => format!("{}-{from}", b.trim_start_matches(['-', 'x'])),
        (None, Some(to)) => format!("{to}-{a}"),
        (None, None) => String::new(),
    }
}

/// A random game of up to `plies` plies: each ply an allowed move, the mover's last move
/// reversed when allowed and `rng` says so.
fn random_game(head: &str, plies: usize, rng: &mut Rng) -> Vec<(String, usize)> {
    let mut moves: Vec<(String, usize)> = Vec::new();
    let mut last: [Option<String>; 2] = [None, None];
    for _ in 0..plies {
        let Some(t) = trials(&log(head, &moves)) else {
            break;
        };
        let allowed: Vec<&str> = t
            .moves
            .iter()
            .filter(|m| matches!(m.trial, Trial::Allowed { ends: None, .. }))
            .map(|m| m.text.as_str())
            .collect();
        if t.ended.is_some() || allowed.is_empty() {
            break;
        }
        let side = t.turn % 2;
        let back = last[side].as_deref().map(reversed);
        let pick = match back {
            Some(b) if rng.below(2) == 0 && allowed.contains(&b.as_str()) => b,
            _ => allowed[rng.below(allowed.len())].to_string(),
        };
        last[side] = Some(pick.clone());
        moves.push((pick, t.turn));
    }
    moves
}

/// (code, message) of every finding at `ply`.
fn at(g: &GameReport, ply: u32) -> Vec<(String, String)> {
    g.findings
        .iter()
        .filter(|f| f.ply == Some(ply))
        .map(|f| (f.code.to_string(), f.message.clone()))
        .collect()
}

/// Tries every board move after the first `n` plies of `moves` and holds each answer to what
/// `check` reports of the log with that move appended.
fn agrees(head: &str, moves: &[(String, usize)], n: usize) -> Result<(), TestCaseError> {
    let Some(t) = trials(&log(head, &moves[..n])) else {
        return Ok(());
    };
    let ply = n as u32 + 1;
    for tried in &t.moves {
        let mut plies = moves[..n].to_vec();
        plies.push((tried.text.clone(), t.turn));
        let text = log(head, &plies);
        let (_, g) = judge(&text);
        let found = at(&g, ply);
        match &tried.trial {
            Trial::Allowed { ends, findings } => {
                let want: Vec<(String, String)> = findings
                    .iter()
                    .map(|f| (f.code.to_string(), f.message.clone()))
                    .collect();
                prop_assert_eq!(
                    &found,
                    &want,
                    "allowed {} after ply {}:\n{}",
                    tried.text,
                    n,
                    text
                );
                prop_assert!(findings
                    .iter()
                    .all(|f| f.severity() < Severity::Error || f.verdict.is_some()));
                prop_assert_eq!(g.plies, n + 1, "{}", text);
                prop_assert_eq!(g.outcome.as_ref(), ends.as_ref(), "{}", text);
            }
            Trial::Forbidden(f) => {
                let want = (f.code.to_string(), f.message.clone());
                prop_assert!(
                    found.contains(&want),
                    "forbidden {} after ply {}: {:?} not in {:?}\n{}",
                    tried.text,
                    n,
                    want,
                    found,
                    text
                );
            }
            Trial::Refused(f) => {
                prop_assert_eq!(
                    g.plies,
                    n,
                    "refused {}: the replay stops\n{}",
                    tried.text,
                    text
                );
                prop_assert!(
                    found.contains(&(f.code.to_string(), f.message.clone())),
                    "{:?}\n{}",
                    found,
                    text
                );
            }
        }
    }
    Ok(())
}

const GAMES: [GameId; 9] = [
    GameId::Stratego,
    GameId::Barrage,
    GameId::Duel,
    GameId::Veldslag,
    GameId::Spionage,
    GameId::SpionageSnel,
    GameId::Jungle,
    GameId::Xiangqi,
    GameId::Jieqi,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(36))]

    #[test]
    fn may_i_play_agrees_with_check(which in 0..GAMES.len(), seed in any::<u64>(), plies in 4usize..36, pick in any::<u64>()) {
        let game = GAMES[which];
        let head = head(game, seed);
        let mut rng = Rng(seed ^ 0x5eed);
        let moves = random_game(&head, plies, &mut rng);
        let n = (pick % (moves.len() as u64 + 1)) as usize;
        agrees(&head, &moves, n)?;
    }
}

#[test]
fn forbidden_moves_occur_in_such_games() {
    // The generator shuttles enough that some answer is "not allowed" by a history rule in the
    // Stratego family, Spionage and Jungle (so the property above is not only about allowed
    // moves): counted over a few fixed seeds.
    for game in [GameId::Barrage, GameId::Spionage, GameId::Jungle] {
        let mut forbidden = 0;
        for seed in 0..6u64 {
            let head = head(game, seed);
            let moves = random_game(&head, 24, &mut Rng(seed));
            for n in 0..=moves.len() {
                if let Some(t) = trials(&log(&head, &moves[..n])) {
                    forbidden += t
                        .moves
                        .iter()
                        .filter(|m| matches!(m.trial, Trial::Forbidden(_)))
                        .count();
                }
            }
        }
        assert!(forbidden > 0, "{game:?}: no forbidden move in the sample");
    }
}
