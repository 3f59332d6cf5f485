//! `check(convert(x))` gives the same codes, plies and outcome as `check(x)`, and keeps every
//! comment of `x` (issue 20), over every fixture and over generated multi-game files
//! ([`crate::multigame`]: comments over lines and on tag lines, NAGs, truncated games,
//! garbage, every line end). The corpus is compared by `scripts/ci/50-convert-roundtrip`.

use crate::multigame::{shape, write_file};
use crate::roundtrip::roundtrip;
use arbiter::rules::{GameId, Overrides};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn fixtures(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            fixtures(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("arb" | "pgn" | "xml")
        ) {
            out.push(p);
        }
    }
}

fn xiangqi() -> Overrides {
    Overrides {
        game: Some(GameId::Xiangqi),
        ..Overrides::default()
    }
}

#[test]
fn every_fixture_converts_to_a_log_that_checks_the_same() {
    let mut files = Vec::new();
    fixtures(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        &mut files,
    );
    let (mut compared, mut refused) = (0, 0);
    for f in &files {
        let name = f.display().to_string();
        // The fixtures that name no ruleset are Xiangqi records (xqbase PGN).
        let bytes = std::fs::read(f).expect("fixture");
        let t = roundtrip(&name, bytes, &xiangqi()).unwrap_or_else(|e| panic!("{e}"));
        compared += t.compared;
        refused += t.refused;
    }
    assert!(
        compared > 200,
        "{compared} games compared, {refused} refused"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn generated_games_convert_to_logs_that_check_the_same(
        shapes in proptest::collection::vec(shape(), 1..6),
        eol in 0u8..4,
        mix in any::<u64>(),
    ) {
        let file = write_file(&shapes, eol, mix);
        if let Err(e) = roundtrip("many.arb", file.bytes, &Overrides::default()) {
            return Err(TestCaseError::fail(e));
        }
    }
}
