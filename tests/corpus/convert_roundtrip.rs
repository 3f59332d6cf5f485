//! `check(convert(x))` against `check(x)` over every record of the corpus that arbiter reads
//! (issue 20; the comparison: `tests/support/roundtrip.rs`). Slow in a debug build, so it is
//! ignored by `cargo test` and run by CI: `scripts/ci/50-convert-roundtrip` runs
//! `cargo test --test corpus convert_roundtrip -- --ignored`.

use crate::corpus_support::corpus_dir;
use crate::roundtrip::{roundtrip, Tally};
use arbiter::input::{expand, Input};
use arbiter::rules::{GameId, Overrides};

#[test]
#[ignore = "the whole corpus: run by scripts/ci/50-convert-roundtrip"]
fn every_corpus_record_converts_to_a_log_that_checks_the_same() {
    let Some(corpus) = corpus_dir("") else {
        return;
    };
    let mut total = Tally::default();
    let mut failures = Vec::new();
    let mut files = 0;
    for input in expand(&[corpus]) {
        let Input::File(path) = input else { continue };
        let bytes = std::fs::read(&path).expect("corpus file");
        files += 1;
        // The xqbase and engine PGN records name no ruleset: they are read with --game xiangqi.
        let overrides = Overrides {
            game: Some(GameId::Xiangqi),
            ..Overrides::default()
        };
        match roundtrip(&path.display().to_string(), bytes, &overrides) {
            Ok(t) => {
                total.compared += t.compared;
                total.refused += t.refused;
            }
            Err(e) => failures.push(e),
        }
    }
    println!(
        "convert round trip: {files} files, {} games compared, {} refused (unreadable or unsupported)",
        total.compared, total.refused
    );
    assert!(
        failures.is_empty(),
        "{} files differ:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(total.compared > 2000, "{total:?}");
}
