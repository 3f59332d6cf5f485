//! xqbase-style Xiangqi PGN (`[Format "ICCS"]`, WXF, Chinese notation, `[FEN]`) checked with
//! `--game xiangqi`, as the corpus is; and every readable game rewritten in the three
//! notations (`arbiter convert --notation`).
#![no_main]
use arbiter::convert::convert_one;
use arbiter::rules::{GameId, Overrides};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut opts = arbiter::Options::default();
    opts.overrides.game = Some(GameId::Xiangqi);
    arbiter_fuzz::judge("fuzz.pgn", data, &opts);
    let src = arbiter::Source::from_bytes("fuzz.pgn", data.to_vec());
    let overrides = Overrides {
        game: Some(GameId::Xiangqi),
        ..Overrides::default()
    };
    for rec in arbiter::pipeline::parse_source(&src) {
        for to in ["iccs", "wxf", "chinese"] {
            let _ = convert_one(&rec, &overrides, Some(to));
        }
    }
});
