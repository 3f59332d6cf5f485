//! `check(convert(x))` against `check(x)` (issue 20), shared by the property over fixtures and
//! generated games (`tests/properties/convert_roundtrip.rs`) and the run over the corpus that
//! CI makes (`tests/corpus/convert_roundtrip.rs`, `scripts/ci/50-convert-roundtrip`).
//!
//! For every game of a source that `convert` writes: the converted log is one game, judged
//! with the same finding codes at the same plies, the same number of plies and the same
//! outcome; and every line of every comment of the game is in the converted text. A
//! `record-defect` names a defect of the source format that was repaired on reading (a move
//! number, an annotation after a space, Gravon's file letter `J`), so convert's output may lack
//! it; it may never gain one the source did not have. A game convert refuses must be one that
//! `check` cannot judge either (a `parse-error` or `unsupported-game`).
#![allow(dead_code)]

use arbiter::convert::convert_one;
use arbiter::input::chunks_of_text;
use arbiter::pipeline::{check_record, check_source, parse_chunk, GameReport, Options, Source};
use arbiter::rules::Overrides;
use arbiter::Code;
use std::collections::BTreeSet;

/// How many games were compared and how many convert refused (each a game check cannot
/// judge either).
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub compared: usize,
    pub refused: usize,
}

/// What must survive convert: plies, outcome, and the codes at their plies (record defects
/// apart, see the module doc).
fn verdict(r: &GameReport) -> (usize, String, BTreeSet<(String, Option<u32>)>, bool) {
    let codes = r
        .findings
        .iter()
        .filter(|f| f.code != Code::RecordDefect)
        .map(|f| (f.code.to_string(), f.ply))
        .collect();
    let defect = r.findings.iter().any(|f| f.code == Code::RecordDefect);
    (r.plies, format!("{:?}", r.outcome), codes, defect)
}

/// Converts every game of `bytes` (read as the file `name`, any format arbiter reads, with
/// `overrides` as on the command line) and checks the converted log; `Err` says what differs.
pub fn roundtrip(name: &str, bytes: Vec<u8>, overrides: &Overrides) -> Result<Tally, String> {
    roundtrip_in(name, bytes, overrides, None)
}

/// [`roundtrip`] with the moves rewritten in `notation` (`convert --notation`): the same
/// codes, plies and outcome. A game with a move the check refuses may be refused by convert
/// (in another notation a refused move has no writing sure to be refused the same way; an
/// importer's move to no square has none in a native log).
pub fn roundtrip_in(
    name: &str,
    bytes: Vec<u8>,
    overrides: &Overrides,
    notation: Option<&str>,
) -> Result<Tally, String> {
    let opts = Options {
        overrides: overrides.clone(),
    };
    let mut tally = Tally::default();
    for chunk in chunks_of_text(name, bytes) {
        for rec in parse_chunk(&chunk) {
            let before = check_record(&chunk.source, &rec, &opts);
            let text = match convert_one(&rec, overrides, notation) {
                Ok(text) => text,
                Err(_) => {
                    // In another notation, or an importer's move to no square (which a
                    // native log cannot write), a refused move may refuse the game.
                    let refused_move = before.findings.iter().any(|f| f.code == Code::IllegalMove);
                    // A variation past its parent line's last move has no place in a log.
                    let past_end = rec.variations.iter().any(|v| {
                        let replaced = (v.start - rec.line_start(v.parent)) as usize;
                        replaced >= rec.line_moves(v.parent).len()
                    });
                    let unusable = before.findings.iter().any(|f| f.code.is_unusable());
                    if !refused_move && !past_end && !unusable {
                        return Err(format!(
                            "{name} game {}: convert refuses a game check judges: {:?}",
                            rec.index, before.findings
                        ));
                    }
                    tally.refused += 1;
                    continue;
                }
            };
            let after = check_source(
                &Source::from_bytes("converted.arb", text.clone().into_bytes()),
                &opts,
            );
            let game = format!("{name} game {}", rec.index);
            if after.len() != 1 {
                return Err(format!(
                    "{game}: converted to {} games:\n{text}",
                    after.len()
                ));
            }
            let (a, b) = (verdict(&before), verdict(&after[0]));
            if (a.0, &a.1, &a.2) != (b.0, &b.1, &b.2) || (b.3 && !a.3) {
                return Err(format!(
                    "{game}: check(x) = {a:?}\ncheck(convert(x)) = {b:?}\nconverted:\n{text}"
                ));
            }
            for c in &rec.comments {
                for line in c
                    .text
                    .split('\n')
                    .flat_map(|l| l.trim_end_matches('\r').split('\r'))
                {
                    if !text.contains(line) {
                        return Err(format!("{game}: comment line {line:?} lost:\n{text}"));
                    }
                }
            }
            tally.compared += 1;
        }
    }
    Ok(tally)
}
