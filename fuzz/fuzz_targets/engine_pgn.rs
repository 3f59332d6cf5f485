//! Engine and site PGN (WinBoard, pychess, MoonRiver: `[Variant "xiangqi"]`, SAN or coordinate
//! moves with ranks from 0 or 1, Termination words, adjudication comments, GB18030 text) read
//! as the command line reads a file it knows nothing about: no `--game`, the ruleset from the
//! tags or the text. Every span of every record lies inside the input (GB18030 spans are mapped
//! back to its bytes); the whole check runs and every report renders; each record is rewritten
//! in ICCS and as written (`arbiter convert`), and the rewritten log is checked too.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let src = arbiter::Source::from_bytes("fuzz.pgn", data.to_vec());
    for rec in arbiter::pipeline::parse_source(&src) {
        for s in rec.spans() {
            assert!(
                s.start <= s.end && s.end <= data.len(),
                "span {s:?} outside the input ({} bytes)",
                data.len()
            );
        }
        for to in [None, Some("iccs")] {
            if let Ok(log) = arbiter::convert::convert_one(&rec, &Default::default(), to) {
                arbiter_fuzz::judge("converted.arb", log.as_bytes(), &Default::default());
            }
        }
    }
    arbiter_fuzz::judge("fuzz.pgn", data, &arbiter::Options::default());
});
