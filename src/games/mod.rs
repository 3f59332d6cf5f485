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
/// engine knows it does not judge (small Spionage, rulings §2), if it does.
pub fn refuse_name(tag: &Tag) -> Option<Finding> {
    spionage::setup::names_small_spionage(&tag.value.value)
        .then(|| spionage::setup::small_variant_finding(tag))
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
