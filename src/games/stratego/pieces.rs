//! Stratego-family pieces, letters and the three rulesets' piece sets (rulings §1.1, §1.2).

use crate::geometry::{Geometry, Square};
use crate::rulebook::Rule;
use crate::rules::GameId;

/// A Stratego-family piece kind. The numeric value is the piece's **strength** where it has one
/// (Spy 1 ... Marshal 10); Bomb and Flag have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Flag: never moves; capturing it wins.
    Flag,
    /// Bomb: never moves; kills any attacker but a Miner.
    Bomb,
    /// Spy (1): wins when it attacks the ruleset's top piece.
    Spy,
    /// Scout (2): moves any distance in a straight line.
    Scout,
    /// Miner (3): defuses Bombs.
    Miner,
    /// Sergeant (4).
    Sergeant,
    /// Lieutenant (5).
    Lieutenant,
    /// Captain (6).
    Captain,
    /// Major (7).
    Major,
    /// Colonel (8).
    Colonel,
    /// General (9); Veldslag's top piece.
    General,
    /// Marshal (10); the top piece of classic, Barrage and Duel.
    Marshal,
}

/// All kinds, in strength order (Flag and Bomb first).
pub const KINDS: [Kind; 12] = [
    Kind::Flag,
    Kind::Bomb,
    Kind::Spy,
    Kind::Scout,
    Kind::Miner,
    Kind::Sergeant,
    Kind::Lieutenant,
    Kind::Captain,
    Kind::Major,
    Kind::Colonel,
    Kind::General,
    Kind::Marshal,
];

impl Kind {
    /// Strength for combat: Spy 1 ... Marshal 10; Flag 0 and Bomb 11 are never compared.
    pub fn strength(self) -> u8 {
        match self {
            Kind::Flag => 0,
            Kind::Bomb => 11,
            Kind::Spy => 1,
            Kind::Scout => 2,
            Kind::Miner => 3,
            Kind::Sergeant => 4,
            Kind::Lieutenant => 5,
            Kind::Captain => 6,
            Kind::Major => 7,
            Kind::Colonel => 8,
            Kind::General => 9,
            Kind::Marshal => 10,
        }
    }
    /// True for pieces that move (all but Bomb and Flag).
    pub fn movable(self) -> bool {
        !matches!(self, Kind::Flag | Kind::Bomb)
    }
    /// The native log letter: `F B S 2 3 4 5 6 7 8 9 X` (docs/log-format.md).
    pub fn letter(self) -> char {
        match self {
            Kind::Flag => 'F',
            Kind::Bomb => 'B',
            Kind::Spy => 'S',
            Kind::Scout => '2',
            Kind::Miner => '3',
            Kind::Sergeant => '4',
            Kind::Lieutenant => '5',
            Kind::Captain => '6',
            Kind::Major => '7',
            Kind::Colonel => '8',
            Kind::General => '9',
            Kind::Marshal => 'X',
        }
    }
    /// Reads a native letter (case-insensitive); `None` for anything else.
    pub fn from_letter(c: char) -> Option<Kind> {
        KINDS
            .iter()
            .copied()
            .find(|k| k.letter() == c.to_ascii_uppercase())
    }
    /// The English name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Flag => "Flag",
            Kind::Bomb => "Bomb",
            Kind::Spy => "Spy",
            Kind::Scout => "Scout",
            Kind::Miner => "Miner",
            Kind::Sergeant => "Sergeant",
            Kind::Lieutenant => "Lieutenant",
            Kind::Captain => "Captain",
            Kind::Major => "Major",
            Kind::Colonel => "Colonel",
            Kind::General => "General",
            Kind::Marshal => "Marshal",
        }
    }
    /// Index into per-kind arrays (0..12).
    pub fn index(self) -> usize {
        self as usize
    }
}

crate::rules::annotation::lettered!(Kind);

/// One Stratego-family ruleset: board, lakes, setup zones and the piece set.
#[derive(Debug, Clone)]
pub struct Ruleset {
    /// Which game.
    pub game: GameId,
    /// Board size; ranks are written from 1.
    pub geometry: Geometry,
    /// Lake squares.
    pub lakes: Vec<Square>,
    /// Setup ranks (0-based) of the first player (Red) and the second (Blue).
    pub zones: [std::ops::RangeInclusive<u8>; 2],
    /// How many of each kind a side has (indexed by [`Kind::index`]).
    pub counts: [u8; 12],
    /// True when every square of the setup zone must be filled (classic, Veldslag).
    pub fill_zone: bool,
    /// The piece a Spy beats when the Spy attacks (Marshal; Veldslag's General).
    pub spy_target: Kind,
    /// Where the rule text comes from, for findings.
    pub source: Rule,
}

fn sq(g: &Geometry, name: &str) -> Square {
    let b = name.as_bytes();
    g.square_written(b[0] - b'a', name[1..].parse().unwrap_or(0))
        .expect("lake squares are on the board")
}

/// Pieces per side, in the order of [`KINDS`]: Flag, Bomb, Spy, Scout, Miner, Sergeant,
/// Lieutenant, Captain, Major, Colonel, General, Marshal (rulings §1.1, §1.2).
const CLASSIC: [u8; 12] = [1, 6, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1];
/// Barrage: Flag, Bomb, Spy, 2 Scouts, Miner, General, Marshal (rulings §1.1).
const BARRAGE: [u8; 12] = [1, 1, 1, 2, 1, 0, 0, 0, 0, 0, 1, 1];
/// Duel: Flag, 2 Bombs, Spy, 2 Scouts, 2 Miners, General, Marshal (rulings §1.1).
const DUEL: [u8; 12] = [1, 2, 1, 2, 2, 0, 0, 0, 0, 0, 1, 1];
/// Veldslag: no Marshal and no Sergeant; the General is the top piece (rulings §1.2).
const VELDSLAG: [u8; 12] = [1, 4, 1, 5, 3, 0, 3, 3, 2, 1, 1, 0];

impl Ruleset {
    /// The ruleset for a Stratego-family game; `None` for other games.
    pub fn for_game(game: GameId) -> Option<Ruleset> {
        let ten = Geometry {
            width: 10,
            height: 10,
            rank_base: 1,
        };
        let eight = Geometry {
            width: 8,
            height: 8,
            rank_base: 1,
        };
        let (counts, source) = match game {
            GameId::Stratego => (CLASSIC, Rule::Stratego),
            GameId::Barrage => (BARRAGE, Rule::Barrage),
            GameId::Duel => (DUEL, Rule::Duel),
            GameId::Veldslag => (VELDSLAG, Rule::Veldslag),
            _ => return None,
        };
        let veldslag = game == GameId::Veldslag;
        let (geometry, lakes): (Geometry, &[&str]) = if veldslag {
            (eight, &["c4", "c5", "f4", "f5"])
        } else {
            (ten, &["c5", "d5", "c6", "d6", "g5", "h5", "g6", "h6"])
        };
        Some(Ruleset {
            game,
            geometry,
            lakes: lakes.iter().map(|n| sq(&geometry, n)).collect(),
            zones: if veldslag {
                [0..=2, 5..=7]
            } else {
                [0..=3, 6..=9]
            },
            counts,
            fill_zone: matches!(game, GameId::Stratego | GameId::Veldslag),
            spy_target: if veldslag {
                Kind::General
            } else {
                Kind::Marshal
            },
            source,
        })
    }

    /// Pieces per side.
    pub fn army_size(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }

    /// True when the kind belongs to this ruleset's army.
    pub fn has(&self, k: Kind) -> bool {
        self.counts[k.index()] > 0
    }

    /// Veldslag's captured-piece score (rulings §1.2): Scout 1, Miner 2, then one more per
    /// step up the strength order; Spy, Bomb and Flag 0.
    pub fn capture_score(&self, k: Kind) -> u32 {
        if !k.movable() || k == Kind::Spy {
            return 0;
        }
        KINDS
            .iter()
            .filter(|&&o| self.has(o) && o.movable() && o != Kind::Spy && o <= k)
            .count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armies() {
        assert_eq!(Ruleset::for_game(GameId::Stratego).unwrap().army_size(), 40);
        assert_eq!(Ruleset::for_game(GameId::Barrage).unwrap().army_size(), 8);
        assert_eq!(Ruleset::for_game(GameId::Duel).unwrap().army_size(), 10);
        assert_eq!(Ruleset::for_game(GameId::Veldslag).unwrap().army_size(), 24);
    }

    /// Every ruleset's army, written out by name from rulings §1.1 and §1.2.
    #[test]
    fn armies_by_name() {
        use Kind::*;
        let army = |game| {
            let r = Ruleset::for_game(game).unwrap();
            KINDS
                .iter()
                .filter(|k| r.has(**k))
                .map(|k| (*k, r.counts[k.index()]))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            army(GameId::Stratego),
            [
                (Flag, 1),
                (Bomb, 6),
                (Spy, 1),
                (Scout, 8),
                (Miner, 5),
                (Sergeant, 4),
                (Lieutenant, 4),
                (Captain, 4),
                (Major, 3),
                (Colonel, 2),
                (General, 1),
                (Marshal, 1)
            ]
        );
        let small = |bombs, miners| {
            vec![
                (Flag, 1),
                (Bomb, bombs),
                (Spy, 1),
                (Scout, 2),
                (Miner, miners),
                (General, 1),
                (Marshal, 1),
            ]
        };
        assert_eq!(army(GameId::Barrage), small(1, 1));
        assert_eq!(army(GameId::Duel), small(2, 2));
        assert_eq!(
            army(GameId::Veldslag),
            [
                (Flag, 1),
                (Bomb, 4),
                (Spy, 1),
                (Scout, 5),
                (Miner, 3),
                (Lieutenant, 3),
                (Captain, 3),
                (Major, 2),
                (Colonel, 1),
                (General, 1)
            ]
        );
        let v = Ruleset::for_game(GameId::Veldslag).unwrap();
        assert_eq!(
            (v.spy_target, v.zones.clone(), v.fill_zone),
            (General, [0..=2, 5..=7], true)
        );
        let b = Ruleset::for_game(GameId::Barrage).unwrap();
        assert_eq!(
            (b.spy_target, b.zones.clone(), b.fill_zone),
            (Marshal, [0..=3, 6..=9], false)
        );
        assert_eq!(b.lakes.len(), 8);
        assert_eq!(v.lakes.len(), 4);
    }

    #[test]
    fn veldslag_scores() {
        let r = Ruleset::for_game(GameId::Veldslag).unwrap();
        let s: Vec<u32> = [
            Kind::Scout,
            Kind::Miner,
            Kind::Lieutenant,
            Kind::Captain,
            Kind::Major,
            Kind::Colonel,
            Kind::General,
            Kind::Spy,
            Kind::Bomb,
        ]
        .iter()
        .map(|&k| r.capture_score(k))
        .collect();
        assert_eq!(s, vec![1, 2, 3, 4, 5, 6, 7, 0, 0]);
    }

    #[test]
    fn letters_round_trip() {
        for k in KINDS {
            assert_eq!(Kind::from_letter(k.letter()), Some(k));
        }
        assert_eq!(Kind::from_letter('x'), Some(Kind::Marshal));
        assert_eq!(Kind::from_letter('1'), None);
    }
}
