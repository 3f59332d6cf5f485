//! The XQF reader on raw bytes: no panic, every span of the record inside the input, then the
//! main line and the first 64 variations (each from the start: its parent's plies up to the
//! branch, then its own) replayed by the Xiangqi engine.
#![no_main]
use arbiter::games::{engine, replay_game};
use arbiter::record::xqf::read_xqf;
use arbiter::record::GameRecord;
use arbiter::types::GameId;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let rec = read_xqf(data, 0);
    for s in rec.spans() {
        assert!(
            s.start <= s.end && s.end <= data.len(),
            "span {s:?} outside the input ({} bytes)",
            data.len()
        );
    }
    let records = data.len().saturating_sub(arbiter::record::xqf::HEADER_LEN) / 4;
    let moves = rec.moves.len() + rec.variations.iter().map(|v| v.moves.len()).sum::<usize>();
    assert!(moves <= records, "{moves} moves from {records} records");
    let params = engine(GameId::Xiangqi).default_parameters();
    for n in 0..=rec.variations.len().min(64) {
        let line = GameRecord {
            moves: rec.line_plies(n).into_iter().cloned().collect(),
            variations: Vec::new(),
            ..rec.clone()
        };
        let _ = replay_game(GameId::Xiangqi, &line, &params, &mut |_, _| {});
    }
});
