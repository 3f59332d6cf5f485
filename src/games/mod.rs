//! The games: one folder per engine, and the registry that picks a ruleset's engine. This is
//! the one `match` over rulesets: a new game is its folder, its row in [`crate::types::GAMES`]
//! and its arm here (docs/adding-a-game.md).

pub mod jungle;
pub mod spionage;
pub mod stratego;
pub mod xiangqi;

use crate::finding::Finding;
use crate::record::{GameRecord, Tag};
use crate::rules::{Engine, Parameters, Replay, ViewObserver};
use crate::types::GameId;

/// The engine that judges `game`.
pub fn engine(game: GameId) -> Box<dyn Engine> {
    match game {
        GameId::Stratego | GameId::Barrage | GameId::Duel | GameId::Veldslag => {
            Box::new(stratego::Stratego::new(game).expect("a ruleset of the Stratego family"))
        }
        GameId::Spionage | GameId::SpionageSnel => {
            Box::new(spionage::Spionage::new(game).expect("a Spionage ruleset"))
        }
        GameId::Jungle => Box::new(jungle::Jungle::new()),
        GameId::Xiangqi => Box::new(xiangqi::Xiangqi::new()),
        GameId::Jieqi => Box::new(xiangqi::Xiangqi::jieqi()),
    }
}

/// The `unsupported-game` finding for a `Game` tag that names no ruleset but a variant some
/// engine knows it does not judge (small Spionage, rulings §2; Gravon's classicfree and
/// ultimate lightning, §1.1), if it does.
pub fn refuse_name(tag: &Tag) -> Option<Finding> {
    let name = &tag.value.value;
    if stratego::names_gravon_variant(name) {
        return Some(stratego::gravon_variant_finding(name, tag.value.span));
    }
    spionage::setup::names_small_spionage(name).then(|| spionage::setup::small_variant_finding(tag))
}

/// The rulesets a record that names none could be, by the shape of what it holds: the width
/// of its setup rows and the pieces in them (40 a side: Stratego; 8: Barrage; 10: Duel; 30:
/// Spionage; rows of 8: Veldslag), or, without setups, moves that stay on Jungle's 7x9 board.
/// Empty when nothing tells (a guess for the help line of the finding, never a verdict).
pub fn suggest(record: &GameRecord) -> Vec<GameId> {
    use GameId::*;
    if let Some(block) = record.setups.first() {
        let width = block.rows.first().map_or(0, |r| r.cells.value.len());
        let pieces: usize = block
            .rows
            .iter()
            .map(|r| r.cells.value.bytes().filter(|&c| c != b'.').count())
            .sum();
        return match (width, pieces) {
            (8, _) => vec![Veldslag],
            (10, 40) => vec![Stratego],
            (10, 8) => vec![Barrage],
            (10, 10) => vec![Duel],
            (10, 30) => vec![Spionage, SpionageSnel],
            _ => Vec::new(),
        };
    }
    let on_jungle_board = |(f, r): (u8, u32)| f < 7 && (1..=9).contains(&r);
    let moves: Vec<_> = record.moves.iter().map(|m| m.coord()).collect();
    if !moves.is_empty()
        && moves
            .iter()
            .all(|c| c.is_some_and(|c| on_jungle_board(c.from) && on_jungle_board(c.to)))
    {
        return vec![Jungle];
    }
    Vec::new()
}

/// Replays `record` under the engine of `game` ([`Engine::replay`]).
pub fn replay_game(
    game: GameId,
    record: &GameRecord,
    params: &Parameters,
    observe: &mut ViewObserver,
) -> Replay {
    engine(game).replay(record, params, observe)
}
