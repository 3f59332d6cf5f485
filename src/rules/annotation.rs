//! The combat annotation `(A:D)` that may follow an attack in the Stratego family and in
//! Spionage (docs/log-format.md, moves): the letters of the attacker and the defender as the
//! log recorded them, checked against the pieces the setups put on the two squares.

// Findings travel by value through the `Rules` trait; this helper returns them the same way.
#![allow(clippy::result_large_err)]

use crate::finding::{Code, Finding};
use crate::record::MoveRecord;
use crate::rulebook::Rule;

/// A piece kind with a one-letter name in setups and annotations.
pub trait Lettered: Copy + PartialEq {
    /// Reads a letter (case-insensitive); `None` for anything else.
    fn from_letter(c: char) -> Option<Self>;
    /// The letter.
    fn letter(self) -> char;
    /// The English name.
    fn name(self) -> &'static str;
}

/// Implements [`Lettered`] with a kind type's own `from_letter`, `letter` and `name`; each
/// game's `pieces.rs` invokes it for its kind type.
macro_rules! lettered {
    ($kind:ty) => {
        impl $crate::rules::annotation::Lettered for $kind {
            fn from_letter(c: char) -> Option<Self> {
                Self::from_letter(c)
            }
            fn letter(self) -> char {
                Self::letter(self)
            }
            fn name(self) -> &'static str {
                Self::name(self)
            }
        }
    };
}
pub(crate) use lettered;

/// Checks the annotation of ply `number` (1-based), if it has one, against the `attacker`
/// and the `defender` (`None`: the move went to an empty square). An annotation that is not two
/// letters around a colon is `parse-error` (`example` shows a good one, e.g. `3:B`); a wrong
/// identity, or combat recorded on a plain move, is `illegal-move` under `rule`.
pub fn check_combat<K: Lettered>(
    mv: &MoveRecord,
    number: u32,
    attacker: K,
    defender: Option<K>,
    rule: Rule,
    example: &str,
) -> Result<(), Finding> {
    let Some(ann) = mv.annotation() else {
        return Ok(());
    };
    let text = ann.value.trim();
    let letter = |s: &str| {
        let mut c = s.chars();
        match (c.next(), c.next()) {
            (Some(x), None) => K::from_letter(x),
            _ => None,
        }
    };
    let parsed = text
        .split_once(':')
        .and_then(|(a, d)| letter(a).zip(letter(d)));
    let Some((ra, rd)) = parsed else {
        return Err(Finding::new(
            Code::ParseError,
            ann.span,
            format!("`{text}` is not a combat annotation"),
            Rule::LogMoves,
        )
        .at_ply(number)
        .label(format!(
            "expected attacker:defender letters, e.g. {example}"
        ))
        .help("annotate an attack with the two identities that met, or leave the annotation out"));
    };
    let illegal = |message: String, label: &str| {
        Finding::new(Code::IllegalMove, ann.span, message, rule)
            .at_ply(number)
            .label(label.to_string())
    };
    let Some(defender) = defender else {
        return Err(illegal(
            format!("combat {text} recorded on a move to an empty square"),
            "no piece was attacked",
        )
        .help("remove the annotation, or correct the move"));
    };
    if ra != attacker || rd != defender {
        return Err(illegal(
            format!(
                "recorded combat {}:{} but the setup gives {}:{}",
                ra.letter(),
                rd.letter(),
                attacker.letter(),
                defender.letter()
            ),
            "does not match the pieces on the board",
        )
        .help(format!(
            "the setup has a {} attacking a {}",
            attacker.name(),
            defender.name()
        )));
    }
    Ok(())
}
