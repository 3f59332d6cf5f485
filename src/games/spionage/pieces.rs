//! Spionage pieces (rulings §2; seed 002): the nine kinds, their log letters, the army of 30
//! and the combat table.

/// A Spionage piece kind. Ranked soldiers come first, in strength order (the seed's "rang"
/// 1–5; called *strength* here, as a board rank is a row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Corporal (Korporaal), strength 1; 5 per side.
    Corporal,
    /// Lieutenant (Luitenant), strength 2; 4 per side.
    Lieutenant,
    /// Captain (Kapitein), strength 3; 3 per side.
    Captain,
    /// Colonel (Kolonel), strength 4; 2 per side.
    Colonel,
    /// General (Generaal), strength 5; 2 per side.
    General,
    /// Spy (Spion): unmasks the enemy pieces around it; 5 per side.
    Spy,
    /// Miner (Mineur, Sapper): clears Mines, beats an attacked General; 4 per side.
    Miner,
    /// Mine (Mijn): never moves, kills every attacker but a Miner; 4 per side.
    Mine,
    /// Headquarters (Hoofdkwartier): never moves; its capture ends the game; 1 per side.
    Headquarters,
}

/// Every kind, in the order of [`Kind::index`].
pub const KINDS: [Kind; 9] = [
    Kind::Corporal,
    Kind::Lieutenant,
    Kind::Captain,
    Kind::Colonel,
    Kind::General,
    Kind::Spy,
    Kind::Miner,
    Kind::Mine,
    Kind::Headquarters,
];

/// Pieces per side (rulings §2: 5+4+3+2+2 soldiers, 5 Spies, 4 Miners, 4 Mines, 1 HQ).
pub const ARMY: usize = 30;

/// The letters a setup row may use, for messages.
pub const LETTERS: &str =
    "1 2 3 4 5 (Corporal to General), S (Spy), M (Miner), B (Mine), H (Headquarters)";

impl Kind {
    /// Index into per-kind arrays (0..9).
    pub fn index(self) -> usize {
        self as usize
    }
    /// Strength 1–5 of a ranked soldier; 0 for Spy, Miner, Mine and Headquarters, which
    /// [`combat`] never compares by strength.
    pub fn strength(self) -> u8 {
        match self {
            Kind::Corporal => 1,
            Kind::Lieutenant => 2,
            Kind::Captain => 3,
            Kind::Colonel => 4,
            Kind::General => 5,
            _ => 0,
        }
    }
    /// False for Mines and the Headquarters, which never move (rulings §2).
    pub fn movable(self) -> bool {
        !matches!(self, Kind::Mine | Kind::Headquarters)
    }
    /// How many of this kind each side sets up (rulings §2).
    pub fn count(self) -> u8 {
        match self {
            Kind::Corporal | Kind::Spy => 5,
            Kind::Lieutenant | Kind::Miner | Kind::Mine => 4,
            Kind::Captain => 3,
            Kind::Colonel | Kind::General => 2,
            Kind::Headquarters => 1,
        }
    }
    /// The setup letter (docs/log-format.md, Spionage): `1`–`5`, `S`, `M`, `B`, `H`.
    pub fn letter(self) -> char {
        match self {
            Kind::Corporal => '1',
            Kind::Lieutenant => '2',
            Kind::Captain => '3',
            Kind::Colonel => '4',
            Kind::General => '5',
            Kind::Spy => 'S',
            Kind::Miner => 'M',
            Kind::Mine => 'B',
            Kind::Headquarters => 'H',
        }
    }
    /// Reads a setup or annotation letter (case-insensitive); `None` for anything else.
    pub fn from_letter(c: char) -> Option<Kind> {
        let c = c.to_ascii_uppercase();
        KINDS.iter().copied().find(|k| k.letter() == c)
    }
    /// The English name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Corporal => "Corporal",
            Kind::Lieutenant => "Lieutenant",
            Kind::Captain => "Captain",
            Kind::Colonel => "Colonel",
            Kind::General => "General",
            Kind::Spy => "Spy",
            Kind::Miner => "Miner",
            Kind::Mine => "Mine",
            Kind::Headquarters => "Headquarters",
        }
    }
}

crate::rules::annotation::lettered!(Kind);

/// What an attack did. Spionage has no mutual removal: an attack always leaves exactly one of
/// the two pieces on the board (rulings §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combat {
    /// The defender is removed and the attacker takes its square (a Miner clearing a Mine
    /// included).
    AttackerWins,
    /// The attacker is removed; the defender stays.
    DefenderWins,
}

/// The combat table of rulings §2 (seed 002, "Stukken en hun relaties"), attacker first:
/// - any piece captures a Spy, a Miner and the Headquarters;
/// - a Miner captures a Mine (removing it) and a General (an attacked General loses to a
///   Miner; a General attacking a Miner wins by the line above);
/// - every other piece that steps on a Mine is removed, the Mine stays;
/// - a Spy and a Miner capture nothing else;
/// - a ranked soldier captures a soldier of equal or lower strength.
///
/// `attacker` is always a movable kind in play; for a Mine or Headquarters as attacker the
/// answer is meaningless.
pub fn combat(attacker: Kind, defender: Kind) -> Combat {
    use Kind::*;
    let wins = match (attacker, defender) {
        (_, Headquarters | Spy | Miner) => true,
        (Miner, Mine | General) => true,
        (_, Mine) => false,
        (Spy | Miner, _) => false,
        (a, d) => a.strength() >= d.strength(),
    };
    if wins {
        Combat::AttackerWins
    } else {
        Combat::DefenderWins
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn army_has_thirty_pieces() {
        assert_eq!(
            KINDS.iter().map(|k| k.count() as usize).sum::<usize>(),
            ARMY
        );
        assert_eq!(KINDS.iter().filter(|k| !k.movable()).count(), 2);
    }

    #[test]
    fn letters_round_trip() {
        for k in KINDS {
            assert_eq!(Kind::from_letter(k.letter()), Some(k));
            assert_eq!(Kind::from_letter(k.letter().to_ascii_lowercase()), Some(k));
        }
        assert_eq!(Kind::from_letter('6'), None);
        assert_eq!(Kind::from_letter('X'), None);
    }

    /// The whole 7 x 9 table, written out by hand from rulings §2: row = attacker
    /// (1 2 3 4 5 S M), column = defender (1 2 3 4 5 S M B H); `A` the attacker wins, `d` the
    /// defender stays.
    #[test]
    fn combat_table_by_hand() {
        let table = [
            // 1 2 3 4 5 S M B H
            ('1', "AddddAAdA"), // Corporal: equal or lower, Spy, Miner, HQ
            ('2', "AAdddAAdA"),
            ('3', "AAAddAAdA"),
            ('4', "AAAAdAAdA"),
            ('5', "AAAAAAAdA"), // General: every soldier, dies on a Mine
            ('S', "dddddAAdA"), // Spy: only Spy, Miner, HQ
            ('M', "ddddAAAAA"), // Miner: General, Spy, Miner, Mine, HQ
        ];
        let defenders = "12345SMBH";
        for (a, row) in table {
            let att = Kind::from_letter(a).unwrap();
            for (d, want) in defenders.chars().zip(row.chars()) {
                let def = Kind::from_letter(d).unwrap();
                let want = if want == 'A' {
                    Combat::AttackerWins
                } else {
                    Combat::DefenderWins
                };
                assert_eq!(
                    combat(att, def),
                    want,
                    "{} attacks {}",
                    att.name(),
                    def.name()
                );
            }
        }
    }
}
